// Where benchmark processes run and what CPU they used, shared by bench/run.mjs and bench/scale.mjs.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

/** Whether `taskset` exists here, to pin servers and load generators to cores of their own. */
export const TASKSET = spawnSync('taskset', ['-V']).status === 0
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100

/** `[command, args]` running `argv` on `core` (through taskset), or as it is without taskset. */
export const pinned = (core, argv) => (TASKSET ? ['taskset', ['-c', String(core), ...argv]] : [argv[0], argv.slice(1)])

/** CPU seconds a process has used (user + system), from /proc; NaN where there is none. */
export function cpuSeconds(pid) {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS
  } catch {
    return NaN
  }
}
