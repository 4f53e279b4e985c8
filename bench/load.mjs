// The HTTP load generator of bench/run.mjs and bench/scale.mjs: one wrk run (Debian's `wrk`; issue 39
// item 1: autocannon on one core cannot keep a raw node:http server busy, so every ratio to one came
// out too high), pinned to core 1 while the servers sit on core 0. bench/wrk.mjs drives wrk the same
// way for issue 39's own series. npm run bench installs nothing: without wrk the HTTP series say how
// to get it and are skipped ({@link WRK}).
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pinned } from './processes.mjs'

/** Whether wrk is installed here. */
export const WRK = !spawnSync('wrk', ['--version']).error
/** What to print in place of a series that needs wrk. */
export const NO_WRK = 'skipped: wrk is not installed (Debian: apt-get install wrk); npm run bench installs nothing'

const work = mkdtempSync(join(tmpdir(), 'fakelab-load-'))
process.on('exit', () => rmSync(work, { recursive: true, force: true }))
/**
 * wrk's Lua script for first requests: every request asks the URL's path with `?per_page=20&n=K`, K
 * counting from the run's own start (its argument), so no request line repeats within a run or from
 * an earlier one (the reply memo never serves it). Headers come from the command line.
 */
const ROTATE_LUA = join(work, 'rotate.lua')
writeFileSync(ROTATE_LUA, 'counter = 0\ninit = function(args)\n  counter = tonumber(args[1])\nend\nrequest = function()\n  counter = counter + 1\n  return wrk.format(nil, wrk.path .. "?per_page=20&n=" .. counter)\nend\n')
let rotateStart = Math.floor(Math.random() * 1e6) * 1e6

/**
 * One wrk run against `url` from core 1.
 * @param seconds the run's length (whole seconds, at least 1).
 * @param headers request headers (name → value).
 * @param rotate every request a first request (see {@link ROTATE_LUA}).
 * @returns requests per second, p50 and p99 latency in ms, and `bad`: answers that were not 2xx or
 *   3xx plus socket errors and timeouts.
 * @throws Error when wrk is missing or fails.
 */
export function load(url, { seconds, connections = 32, headers = {}, rotate = false }) {
  const args = ['-t1', `-c${connections}`, `-d${Math.max(1, Math.round(seconds))}s`, '--latency', ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`])]
  if (rotate) args.push('-s', ROTATE_LUA, url, '--', String((rotateStart += 100_000_000)))
  else args.push(url)
  const [command, argv] = pinned(1, ['wrk', ...args])
  const run = spawnSync(command, argv, { encoding: 'utf8', timeout: (seconds + 30) * 1000 })
  if (run.error || run.status !== 0) throw new Error(`wrk failed: ${run.error?.message ?? run.stderr}`)
  const number = (re) => Number(re.exec(run.stdout)?.[1] ?? 0)
  const latency = (p) => {
    const m = new RegExp(`\\s${p}%\\s+([\\d.]+)(us|ms|s)`).exec(run.stdout)
    return m ? Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1) : NaN
  }
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(run.stdout)
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(run.stdout)?.[1]),
    p50: latency(50),
    p99: latency(99),
    bad: number(/Non-2xx or 3xx responses:\s+(\d+)/) + (socketErrors ? socketErrors.slice(1).reduce((n, x) => n + Number(x), 0) : 0),
  }
}
