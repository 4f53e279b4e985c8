// Issue 39's HTTP series with wrk, a load generator that keeps a raw node:http server busy (autocannon
// on one core cannot: bench/run.mjs keeps it only beside the per-CPU-second figures). `npm run bench`
// runs it; without wrk it says how to get it (Debian: `apt-get install wrk`) and skips, installing nothing.
//
// Every server starts at once, each in its own process pinned to core 0 (taskset) and idle while
// another is measured; wrk runs pinned to core 1. Rounds alternate raw and fakelab (the machine's
// speed drifts: rounds side by side cancel it), BENCH_WRK_ROUNDS rounds of BENCH_WRK_SECONDS s after
// a warm-up, 32 connections; each ratio is the median of the rounds' ratios. The log's cost is the
// logged server's distinct-URL rate over the mean of the unlogged one's runs on either side of it.
//
// Servers: raw node:http sending fakelab's own answer pre-serialised (the baseline); `fakelab serve`
// on the default scenario with 20 labels on project 20 (GET /api/v4/projects/20/labels, about 4 KB),
// its request log off; the same with its JSON request log to a file (`--log json`, stdout a file).
// Series: the same URL every time (the reply memo answers), and distinct URLs in turn (every request
// a first request: `?per_page=20&n=K`, K counting from a start of its own in every run, from a wrk Lua script).
// Then, for information: the log's cost with the two fakelab servers side by side, both on core 0 at
// once (the ratio of their CPU per request, steady on a busy machine), and p50/p99 at 1, 4 and 32
// connections (no latency target: at a fixed concurrency latency follows throughput, and a raw
// server's own p99 is 10-20x its p50 here).
//
//   node bench/wrk.mjs [--dist DIR]
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { LIST_PATH, TOKEN, addBenchLabels } from './fixture.mjs'
import { pinned, startPinned } from './processes.mjs'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const option = (name) => {
  const i = process.argv.indexOf(name)
  return i >= 0 ? process.argv[i + 1] : undefined
}
const DIST = resolve(option('--dist') ?? join(ROOT, 'dist'))
const SECONDS = Number(process.env.BENCH_WRK_SECONDS ?? 8)
const ROUNDS = Number(process.env.BENCH_WRK_ROUNDS ?? 4)
const CONNECTIONS = 32
const TARGETS = { distinct: 0.3, logged: 0.95 }
const out = (line = '') => process.stdout.write(`${line}\n`)
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]
const fmt = (n, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a')

if (spawnSync('wrk', ['--version']).error) {
  out('wrk series skipped: wrk is not installed (Debian: apt-get install wrk). npm run bench installs nothing.')
  process.exit(0)
}

const work = mkdtempSync(join(tmpdir(), 'fakelab-wrk-'))
process.on('exit', () => rmSync(work, { recursive: true, force: true }))

/**
 * A Lua script for wrk: every request asks a request line not asked before (a first request). The
 * count starts where the run's argument says (`-- <start>`): each run gets its own range, so that no
 * run repeats an earlier run's lines, which the reply memo would then answer.
 */
const DISTINCT_LUA = join(work, 'distinct.lua')
writeFileSync(DISTINCT_LUA, `counter = 0\ninit = function(args)\n  counter = tonumber(args[1])\nend\nrequest = function()\n  counter = counter + 1\n  return wrk.format(nil, "${LIST_PATH}?per_page=20&n=" .. counter)\nend\n`)
/** Where the next distinct-URL run starts counting: far past any earlier run's last request. */
let distinctStart = 0

/** One wrk run pinned to core 1: requests per second and the latency percentiles it printed (ms). */
function wrk(url, { seconds = SECONDS, connections = CONNECTIONS, distinct = false, headers = {} } = {}) {
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`])]
  if (distinct) args.push('-s', DISTINCT_LUA)
  const [command, argv] = pinned(1, ['wrk', ...args, url, ...(distinct ? ['--', String((distinctStart += 100_000_000))] : [])])
  const run = spawnSync(command, argv, { encoding: 'utf8', timeout: (seconds + 30) * 1000 })
  if (run.status !== 0) throw new Error(`wrk failed: ${run.stderr}`)
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(run.stdout)?.[1])
  const latency = (p) => {
    const m = new RegExp(`\\s${p}%\\s+([\\d.]+)(us|ms|s)`).exec(run.stdout)
    if (!m) return NaN
    return Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1)
  }
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(run.stdout)?.[1] ?? 0)
  if (non2xx > 0) throw new Error(`wrk saw ${non2xx} answers that were not 2xx from ${url}`)
  return { rps, p50: latency(50), p99: latency(99) }
}

/**
 * {@link wrk}'s distinct-URL run on several servers at once, each wrk on core 1: the servers share
 * core 0, so the ratio of their rates is the ratio of their CPU per request, steady on a busy machine.
 * @returns requests per second, in the order of `urls`.
 */
function wrkSideBySide(urls, { seconds = SECONDS, headers = {} } = {}) {
  return Promise.all(urls.map((url) => new Promise((resolveRate, reject) => {
    const args = ['-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]), '-s', DISTINCT_LUA, url, '--', String((distinctStart += 100_000_000))]
    const [command, argv] = pinned(1, ['wrk', ...args])
    const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'inherit'] })
    let stdout = ''
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk))
    child.once('close', (code) => {
      const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0)
      if (code !== 0 || non2xx > 0) reject(new Error(`wrk failed on ${url} (exit ${code}, ${non2xx} answers not 2xx)`))
      else resolveRate(Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]))
    })
  })))
}

const auth = { 'PRIVATE-TOKEN': TOKEN }
const cli = join(DIST, 'cli.js')
const bodyFile = join(work, 'labels.json')

// The servers, all at once: fakelab's two, then raw sending fakelab's own answer.
const quiet = await startPinned([process.execPath, cli, 'serve', '--port', '0', '--quiet', '--log', 'off'], 'fakelab-quiet')
const logged = await startPinned([process.execPath, cli, 'serve', '--port', '0', '--quiet', '--log', 'json'], 'fakelab-logged')
for (const server of [quiet, logged]) await addBenchLabels((req) => fetch(req), server.url)
writeFileSync(bodyFile, Buffer.from(await (await fetch(`${quiet.url}${LIST_PATH}`, { headers: auth })).arrayBuffer()))
const raw = await startPinned([process.execPath, join(ROOT, 'bench', 'server.mjs'), 'raw', bodyFile], 'raw')
const servers = { raw, quiet, logged }

try {
  out(`wrk: ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s per series after a warm-up; servers on core 0, wrk on core 1`)
  const series = [
    ['same URL (reply memo)', 'quiet', false],
    ['distinct URLs (first requests)', 'quiet', true],
    ['distinct URLs, JSON log to a file', 'logged', true],
  ]
  for (const [, name, distinct] of series) wrk(`${servers[name].url}${LIST_PATH}`, { seconds: 2, distinct, headers: auth })
  wrk(`${raw.url}/`, { seconds: 2 })
  const ratios = Object.fromEntries(series.map(([label]) => [label, []]))
  const rawRates = []
  const quietDistinct = []
  const loggedDistinct = []
  for (let round = 0; round < ROUNDS; round++) {
    for (const [label, name, distinct] of series) {
      // Each server warmed for a second right before its measured run, so that none starts its run
      // after a longer idle spell than another (the logged server waited five runs, the unlogged one one;
      // whether that slowed it could not be told on the loaded machine this was written on).
      wrk(`${raw.url}/`, { seconds: 1 })
      const base = wrk(`${raw.url}/`).rps
      wrk(`${servers[name].url}${LIST_PATH}`, { seconds: 1, distinct, headers: auth })
      const own = wrk(`${servers[name].url}${LIST_PATH}`, { distinct, headers: auth }).rps
      rawRates.push(base)
      ratios[label].push(own / base)
      if (name === 'quiet' && distinct) quietDistinct.push(own)
      if (name === 'logged') loggedDistinct.push(own)
    }
  }
  // The log's cost: each logged run against the unlogged distinct-URL runs on either side of it (its
  // round's and the next round's; the last round's alone), without the raw runs' own noise: a machine
  // whose speed drifts during a round would otherwise count the drift as the log's.
  const loggedOverQuiet = loggedDistinct.map((own, round) => own / (round + 1 < ROUNDS ? (quietDistinct[round] + quietDistinct[round + 1]) / 2 : quietDistinct[round]))
  out(`raw pre-serialised node:http: ${fmt(Math.min(...rawRates), 0)}-${fmt(Math.max(...rawRates), 0)} req/s across rounds`)
  for (const [label] of series) out(`  ${label.padEnd(36)} ${fmt(median(ratios[label]))}x raw (rounds: ${ratios[label].map((r) => fmt(r)).join(', ')})`)
  const distinct = median(ratios['distinct URLs (first requests)'])
  const logCost = median(loggedOverQuiet)
  out(`target: distinct URLs, memo on, log off >= ${TARGETS.distinct}x raw: ${fmt(distinct)}x ${distinct >= TARGETS.distinct ? 'PASS' : 'MISS'}`)
  out(`target: with the JSON log to a file >= ${TARGETS.logged}x the unlogged figure: ${fmt(logCost)}x ${logCost >= TARGETS.logged ? 'PASS' : 'MISS'} (rounds: ${loggedOverQuiet.map((r) => fmt(r)).join(', ')})`)

  // The log's cost once more, the two fakelab servers side by side (information: the target is the alternating figure).
  const sideBySide = []
  for (let round = 0; round < ROUNDS; round++) {
    const [own, withLog] = await wrkSideBySide([`${quiet.url}${LIST_PATH}`, `${logged.url}${LIST_PATH}`], { headers: auth })
    sideBySide.push(withLog / own)
  }
  out(`  logged / unlogged side by side on one core (information): ${fmt(median(sideBySide))}x (rounds: ${sideBySide.map((r) => fmt(r)).join(', ')})`)

  out('latency, distinct URLs (information, no target):')
  for (const connections of [1, 4, 32]) {
    const f = wrk(`${quiet.url}${LIST_PATH}`, { seconds: 4, connections, distinct: true, headers: auth })
    const r = wrk(`${raw.url}/`, { seconds: 4, connections })
    out(`  ${String(connections).padStart(2)} connections: fakelab p50 ${fmt(f.p50, 3)} ms p99 ${fmt(f.p99, 3)} ms; raw p50 ${fmt(r.p50, 3)} ms p99 ${fmt(r.p99, 3)} ms`)
  }
} finally {
  for (const server of Object.values(servers)) server.stop()
}
