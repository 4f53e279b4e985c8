// Where benchmark processes run, what CPU they used and how long they take to answer first, shared
// by bench/run.mjs, bench/wrk.mjs, bench/side-by-side.mjs, bench/double.mjs and bench/scale.mjs.
import { spawn, spawnSync } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'

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

/** GET `url` without keep-alive: its status once the body is read. */
function statusOf(url, headers = {}) {
  return new Promise((resolveStatus, reject) => {
    http.get(url, { headers, agent: false }, (res) => {
      res.resume()
      res.on('end', () => resolveStatus(res.statusCode))
    }).on('error', reject)
  })
}

/**
 * Spawns `argv`, waits for a URL on stdout, requests `path` once: ms from spawn to the answer, and
 * the CPU ms the child used by then (what a busy machine cannot inflate).
 */
export function timeToFirstAnswer(argv, path, headers) {
  return new Promise((resolveMs, reject) => {
    const started = performance.now()
    const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'ignore'] })
    let text = ''
    child.stdout.on('data', async (chunk) => {
      if (text.includes('\n')) return
      text += chunk
      if (!text.includes('\n')) return
      try {
        const status = await statusOf(`${text.split('\n')[0].trim()}${path}`, headers)
        const ms = performance.now() - started
        const cpuMs = cpuSeconds(child.pid) * 1000
        child.kill('SIGKILL')
        if (status !== 200) reject(new Error(`first request answered ${status}`))
        else resolveMs({ ms, cpuMs })
      } catch (error) {
        child.kill('SIGKILL')
        reject(error)
      }
    })
    child.once('error', reject)
  })
}

/**
 * Spawns `argv` pinned to core 0; resolves with the URL on its first stdout line, and its pid.
 * Its stdout goes to a file, as a server's log would: the wrk runs block the bench process
 * (`spawnSync`), and a pipe nobody reads meanwhile would fill, leaving `fakelab serve`'s request
 * log (one line per request) queued in its memory. `stop()` kills it and removes the file.
 */
export function startPinned(argv0, name, env = {}) {
  const [command, argv] = pinned(0, argv0)
  const logDir = mkdtempSync(join(tmpdir(), 'fakelab-bench-log-'))
  const log = join(logDir, 'stdout')
  const fd = openSync(log, 'w')
  const child = spawn(command, argv, { stdio: ['ignore', fd, 'inherit'], env: { ...process.env, ...env } })
  closeSync(fd)
  const stop = () => {
    child.kill('SIGKILL')
    rmSync(logDir, { recursive: true, force: true })
  }
  return new Promise((resolveUrl, reject) => {
    const poll = setInterval(() => {
      const text = readFileSync(log, 'utf8')
      if (!text.includes('\n')) return
      clearInterval(poll)
      resolveUrl({ url: text.split('\n')[0].trim(), pid: child.pid, stop })
    }, 10)
    child.once('exit', (code) => {
      clearInterval(poll)
      reject(new Error(`${name} server exited with ${code}`))
    })
  })
}
