// fakelab benchmark: `npm run bench` (builds first). Loopback only, bounded, about a minute.
// Every figure is a ratio or a target check measured side by side in this run: absolute numbers
// depend on the machine and on what else runs on it, ratios much less.
//
// 1. HTTP: servers, each in its own process pinned to core 0 (`taskset`, when it exists): a raw
//    node:http server sending fakelab's own answer pre-serialised, one calling JSON.stringify on it
//    per request, and fakelab answering GET /api/v4/projects/20/labels (20 labels, about 4 KB) as
//    users run it: `fakelab serve` (the bundled CLI) on the default scenario, the labels added over
//    HTTP. Beside it, the same with its reply memo off (FAKELAB_REPLY_MEMO=off: every request runs
//    the route), and fakelab/node's startServer in a plain node process (the unbundled library).
//    wrk (bench/load.mjs) loads each from another process pinned to core 1 (BENCH_CONNECTIONS connections,
//    BENCH_SECONDS s, BENCH_ROUNDS rounds in turn; medians shown), also as requests per CPU-second
//    each server used. Without wrk this series is skipped (issue 39 item 1). Then first
//    requests from 1 and 4 connections (a test suite's concurrency), fakelab and raw, for their
//    p50/p99; then the resident set size of each fakelab process after the load.
// 2. Cold start: `bin/fakelab serve --port 0` on the default scenario (what a user runs: the bin
//    beside the build's dist/), from spawn to the first answered request (median of 7), next to a bare
//    node:http server started the same way.
// 3. MSW door: calls/s through `setupServer` with fakelab's handlers against one bare MSW handler
//    returning the same bytes, and calls/s of `sim.handle()` itself, each in a process of its own
//    (bench/inprocess.mjs), also per CPU-second used, so other programs do not count against either;
//    both also with the reply memo off (every call runs the route).
// 4. Store: 100,000 labels over 10 projects, then 200 filtered, sorted, paginated list requests
//    through `sim.handle()`, against the 5 ms p50 target, with a plain array scan as baseline.
//
//   node bench/run.mjs [--dist DIR] [--against DIR]
//     --dist DIR      the build to measure (default ./dist)
//     --against DIR   another build (an older commit's dist/) measured side by side in the same run,
//                     for before/after figures: its fakelab server, cold start and MSW door take
//                     their turns among the others
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { LABELS, LIST_PATH, TOKEN, addBenchLabels, benchSimulator } from './fixture.mjs'
import { NO_WRK, WRK, load } from './load.mjs'
import { TASKSET, cpuSeconds, pinned, startPinned, timeToFirstAnswer } from './processes.mjs'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const option = (name) => {
  const i = process.argv.indexOf(name)
  return i >= 0 ? process.argv[i + 1] : undefined
}
const DIST = resolve(option('--dist') ?? join(ROOT, 'dist'))
/** The builds whose fakelab is measured: this one, then the one to compare with. */
const BUILDS = [{ name: 'fakelab', dist: DIST }]
if (option('--against')) BUILDS.push({ name: 'against', dist: resolve(option('--against')) })
const SECONDS = positiveNumber(process.env.BENCH_SECONDS, 3)
const ROUNDS = positiveNumber(process.env.BENCH_ROUNDS, 3)
const CONNECTIONS = positiveNumber(process.env.BENCH_CONNECTIONS, 32)
const COLD_RUNS = 7
const MSW_CALLS = 2000
// Issue 27's "Done when" list: first requests (distinct request lines) against raw node:http
// pre-serialised, with and without the request log; their p99; cold start against a bare node:http
// server; RSS after the load; the MSW door's first request against a bare MSW handler.
/** Connection counts of the informational first-request latency runs (beside the 32 of the targets). */
const FEW_CONNECTIONS = [1, 4]
const TARGETS = { http: 0.15, first: 0.3, firstLogged: 0.28, logCost: 0.95, coldRatio: 1.3, rssMb: 100, msw: 0.8, mswFirst: 0.8, storeP50: 5 }
/** Which parts to run (`--only http,cold,msw,store`); all by default. */
const ONLY = new Set((option('--only') ?? 'http,cold,msw,store').split(','))

const { createSimulator } = await import(pathToFileURL(join(DIST, 'index.js')).href)
const { loadDefaultScenario } = await import(pathToFileURL(join(DIST, 'node.js')).href)

function positiveNumber(text, fallback) {
  const value = Number(text)
  return text !== undefined && Number.isFinite(value) && value > 0 ? value : fallback
}

const fmt = (n, digits = 2) => (Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : 'n/a')
const pad = (cells, widths) => cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ')
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]
const verdict = (ok) => (ok ? 'PASS' : 'MISS')
const out = (line = '') => process.stdout.write(`${line}\n`)

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
}

// ---- 1. HTTP, server and load generator in separate processes ---------------------------------

/** Starts `bench/server.mjs kind arg` pinned to core 0; resolves with its URL and pid. */
function startServerProcess(kind, arg) {
  return startPinned([process.execPath, join(ROOT, 'bench', 'server.mjs'), kind, arg], kind)
}

/**
 * Starts `fakelab serve --port 0` of a build on the default scenario, pinned to core 0, with the
 * benchmark's labels added over HTTP; `env` is added to the environment (`FAKELAB_REPLY_MEMO`).
 */
async function startFakelabServe(dist, env = {}, flags = []) {
  const server = await startPinned([process.execPath, cliOf(dist), 'serve', '--port', '0', ...flags], 'fakelab serve', env)
  await addBenchLabels((req) => fetch(req), server.url)
  return server
}

/**
 * One wrk run (bench/load.mjs) pinned to core 1. With `rotate`, every request asks a request line not
 * asked before (`?per_page=20&n=K`, K counting): a first request.
 */
function loadRun(url, seconds, headers = {}, rotate = false, connections = CONNECTIONS) {
  return load(url, { seconds, headers, rotate, connections })
}

function rssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1])
    return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 }
  } catch {
    return { rss: NaN, peak: NaN }
  }
}

function get(url, headers = {}) {
  return new Promise((resolveBody, reject) => {
    http.get(url, { headers, agent: false }, (res) => {
      const chunks = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => resolveBody({ status: res.statusCode, body: Buffer.concat(chunks) }))
    }).on('error', reject)
  })
}

async function httpBench() {
  const probeSim = await benchSimulator(DIST)
  const probe = await probeSim.handle(new Request(`http://gitlab.test${LIST_PATH}`, { headers: { 'PRIVATE-TOKEN': TOKEN } }))
  const body = Buffer.from(await probe.arrayBuffer())
  const dir = mkdtempSync(join(tmpdir(), 'fakelab-bench-'))
  const bodyFile = join(dir, 'labels.json')
  writeFileSync(bodyFile, body)
  const servers = {}
  try {
    servers.raw = await startServerProcess('raw', bodyFile)
    servers.stringify = await startServerProcess('stringify', bodyFile)
    // Each build twice: with its JSON request log written to a file (stdout is one), and without.
    for (const build of BUILDS) {
      servers[build.name] = await startFakelabServe(build.dist)
      servers[`${build.name}.quiet`] = await startFakelabServe(build.dist, {}, ['--log', 'off'])
    }
    // The same build without its reply memo, and as a library in a plain node process (unbundled).
    servers.noMemo = await startFakelabServe(DIST, { FAKELAB_REPLY_MEMO: 'off' })
    servers.library = await startServerProcess('fakelab', DIST)
    const auth = { 'PRIVATE-TOKEN': TOKEN }
    // [series, server, path, headers, rotate]: the repeated request (the reply memo serves it) and
    // distinct request lines in turn (every request a first request), each beside the raw server
    // loaded the same way.
    const targets = [
      ['raw', 'raw', '/', {}, false],
      ['raw.first', 'raw', '/', {}, true],
      ['stringify', 'stringify', '/', {}, false],
      ...BUILDS.flatMap((build) => [
        [build.name, build.name, LIST_PATH, auth, false],
        [`${build.name}.first`, `${build.name}.quiet`, LIST_PATH, auth, true],
        [`${build.name}.firstLogged`, build.name, LIST_PATH, auth, true],
      ]),
      ['noMemo', 'noMemo', LIST_PATH, auth, false],
      ['library', 'library', LIST_PATH, auth, false],
    ]
    const checks = {}
    for (const build of BUILDS) checks[build.name] = await get(`${servers[build.name].url}${LIST_PATH}`, auth)
    const rows = JSON.parse(checks.fakelab.body.toString('utf8')).length
    for (const [, server, path, headers, rotate] of targets) loadRun(`${servers[server].url}${path}`, 1, headers, rotate) // warm-up
    const runs = Object.fromEntries(targets.map(([name]) => [name, []]))
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [name, server, path, headers, rotate] of targets) {
        const pid = servers[server].pid
        const cpu0 = cpuSeconds(pid)
        const run = loadRun(`${servers[server].url}${path}`, SECONDS, headers, rotate)
        // Requests per CPU-second of the server: what it costs, whether or not the load generator
        // (one core, like the server) could keep it busy.
        run.perCpu = (run.rps * SECONDS) / (cpuSeconds(pid) - cpu0)
        runs[name].push(run)
      }
    }
    const summary = (list) => ({
      rps: median(list.map((r) => r.rps)),
      perCpu: median(list.map((r) => r.perCpu)),
      p50: median(list.map((r) => r.p50)),
      p99: median(list.map((r) => r.p99)),
      bad: list.reduce((n, r) => n + r.bad, 0),
      // Each round's ratio to the raw server's run just before it in the same series, then their median.
      ratios: list,
    })
    // The raw servers send this build's answer; an older build may answer other bytes.
    const result = { bytes: body.length, rows, sameBytes: checks.fakelab.body.equals(body), memory: {} }
    for (const [name] of targets) result[name] = summary(runs[name])
    for (const [name] of targets) {
      const base = name.endsWith('first') || name.endsWith('firstLogged') ? runs['raw.first'] : runs.raw
      result[name].ratio = median(runs[name].map((r, i) => r.rps / base[i].rps))
    }
    // First requests from fewer connections, as a test suite sends them (one or a few at a time):
    // their p99 beside the raw server's, for information (issue 27's target is at 32 connections).
    result.fewConnections = FEW_CONNECTIONS.map((connections) => ({
      connections,
      fakelab: loadRun(`${servers['fakelab.quiet'].url}${LIST_PATH}`, SECONDS, auth, true, connections),
      raw: loadRun(`${servers.raw.url}/`, SECONDS, {}, true, connections),
    }))
    for (const name of [...BUILDS.flatMap((b) => [b.name, `${b.name}.quiet`]), 'noMemo', 'library']) result.memory[name] = rssMb(servers[name].pid)
    return result
  } finally {
    for (const server of Object.values(servers)) server.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

// ---- 2. cold start -----------------------------------------------------------------------------


/**
 * What a user runs: the build's `bin/fakelab` (a CommonJS entry since issue 27, an ES module before),
 * or, for a dist/ without it beside, the bundled `dist/cli.js`, or `dist/cli/main.js` in builds before it.
 */
function cliOf(dist) {
  const bin = join(dist, '..', 'bin', 'fakelab')
  if (existsSync(bin)) return bin
  const bundled = join(dist, 'cli.js')
  return existsSync(bundled) ? bundled : join(dist, 'cli', 'main.js')
}

async function coldStart() {
  const times = Object.fromEntries([...BUILDS.map((b) => [b.name, []]), ['bare', []]])
  const bareServer = "require('node:http').createServer((q,s)=>s.end('[]')).listen(0,'127.0.0.1',function(){console.log('http://127.0.0.1:'+this.address().port)})"
  // Alternating, bare first: each fakelab start is compared with the bare start just before it.
  for (let i = 0; i < COLD_RUNS; i += 1) {
    times.bare.push(await timeToFirstAnswer([process.execPath, '-e', bareServer], '/', {}))
    for (const build of BUILDS) {
      const serve = [process.execPath, cliOf(build.dist), 'serve', '--port', '0']
      times[build.name].push(await timeToFirstAnswer(serve, LIST_PATH, { 'PRIVATE-TOKEN': TOKEN }))
    }
  }
  return Object.fromEntries(Object.entries(times).map(([name, list]) => [name, {
    ms: median(list.map((t) => t.ms)),
    cpuMs: median(list.map((t) => t.cpuMs)),
    ratio: median(list.map((t, i) => t.ms / times.bare[i].ms)),
  }]))
}

// ---- 3. MSW door and sim.handle, in this process ----------------------------------------------

/**
 * One run of bench/inprocess.mjs in a fresh process pinned to core 0: {wall, cpu} calls/s. `env`
 * is added to its environment (`FAKELAB_REPLY_MEMO`).
 */
function inProcess(dist, mode, calls, env = {}) {
  const [command, argv] = pinned(0, [process.execPath, join(ROOT, 'bench', 'inprocess.mjs'), dist, mode, String(calls)])
  const run = spawnSync(command, argv, { encoding: 'utf8', env: { ...process.env, ...env } })
  if (run.status !== 0) throw new Error(`bench/inprocess.mjs ${mode} failed: ${run.stderr}`)
  return JSON.parse(run.stdout.trim().split('\n').pop())
}

async function mswBench() {
  // Each measurement in its own process: measured side by side in one process, MSW's and undici's
  // code would be shared by every build and handler and tuned for whichever ran first. `first`
  // modes ask a request line not asked before every time (`?per_page=20&n=K`); the bare handler
  // answers every query the same.
  const jobs = [['bare', DIST, 'bare', MSW_CALLS], ['bare.first', DIST, 'bare-first', MSW_CALLS]]
  for (const build of BUILDS) {
    jobs.push([build.name, build.dist, 'msw', MSW_CALLS], [`${build.name}.first`, build.dist, 'msw-first', MSW_CALLS], [`${build.name}.handle`, build.dist, 'handle', MSW_CALLS * 5])
  }
  const off = { FAKELAB_REPLY_MEMO: 'off' }
  jobs.push(['noMemo', DIST, 'msw', MSW_CALLS, off], ['noMemo.handle', DIST, 'handle', MSW_CALLS * 5, off])
  const runs = Object.fromEntries(jobs.map(([name]) => [name, []]))
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [name, dist, mode, calls, env] of jobs) runs[name].push(inProcess(dist, mode, calls, env))
  }
  return Object.fromEntries(Object.entries(runs).map(([name, list]) => [name, { wall: median(list.map((r) => r.wall)), cpu: median(list.map((r) => r.cpu)) }]))
}

// ---- 4. store ----------------------------------------------------------------------------------

const RECORDS = 100_000
const PROJECTS = 10
const REQUESTS = 200
const WARMUP = 20
const WORDS = ['bug', 'feature', 'docs', 'backend', 'frontend', 'security', 'infra', 'test', 'ux', 'perf']
const SEARCH = 'bug'
const BASE_TIME = Date.parse('2021-03-01T10:00:00.000Z')
/** Distinct, deterministic timestamps: record i is i seconds older than the base time. */
const stamp = (i) => new Date(BASE_TIME - i * 1000).toISOString()

function insertProjects(sim, count, firstName) {
  const ids = []
  for (let i = 0; i < count; i += 1) {
    const word = WORDS[i % WORDS.length]
    const project = sim.db.tables.projects.insert({
      name: `${firstName}${word}-${i}`,
      path: `${firstName}${word}-${i}`,
      description: '',
      visibility: 'public',
      namespace_type: 'group',
      namespace_id: 10, // acme
      creator_id: 1,
      created_at: stamp(i),
      last_activity_at: stamp(i),
      default_branch: 'main',
      archived: false,
      repository_storage: 'default',
      runners_token: `GR1348941bench${i}`,
    })
    ids.push(project.id)
  }
  return ids
}

async function storeBench() {
  // The reply memo off: the same request repeats, and each is to cost what a first one costs.
  const sim = createSimulator({ scenario: await loadDefaultScenario(), replyMemo: 'off' })
  const projectIds = insertProjects(sim, PROJECTS, 'bench-')
  const started = performance.now()
  for (let i = 0; i < RECORDS; i += 1) {
    sim.db.tables.labels.insert({
      title: `${WORDS[i % WORDS.length]}-${String(i).padStart(6, '0')}`,
      color: '#428bca',
      description: null,
      project_id: projectIds[Math.floor(i / (RECORDS / PROJECTS))],
      group_id: null,
      created_at: stamp(i),
      updated_at: stamp(i),
    })
  }
  const insertMs = performance.now() - started
  const projectId = projectIds[0]
  const path = `/api/v4/projects/${projectId}/labels?search=${SEARCH}&page=2&per_page=20`
  const request = () => new Request(`http://gitlab.test${path}`, { headers: { 'PRIVATE-TOKEN': TOKEN } })

  const first = await sim.handle(request())
  const firstBody = await first.json()
  const info = { status: first.status, total: first.headers.get('x-total'), rows: Array.isArray(firstBody) ? firstBody.length : 0 }
  const times = []
  for (let i = 0; i < WARMUP + REQUESTS; i += 1) {
    const t0 = performance.now()
    await (await sim.handle(request())).arrayBuffer()
    if (i >= WARMUP) times.push(performance.now() - t0)
  }
  times.sort((a, b) => a - b)

  // Baseline: what the query does, as one pass over a plain array of every label.
  const rows = sim.db.tables.labels.all()
  const scanTimes = []
  let scanRows = 0
  for (let i = 0; i < WARMUP + REQUESTS; i += 1) {
    const t0 = performance.now()
    const hits = rows.filter((l) => l.project_id === projectId && l.title.toLowerCase().includes(SEARCH))
    hits.sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : a.id - b.id))
    scanRows = hits.slice(20, 40).length
    if (i >= WARMUP) scanTimes.push(performance.now() - t0)
  }
  scanTimes.sort((a, b) => a - b)
  return { path, insertMs, info, times, scanTimes, scanRows }
}

// ---- report ------------------------------------------------------------------------------------

const started = performance.now()
out(`fakelab benchmark (node ${process.version}, build ${DIST === join(ROOT, 'dist') ? './dist' : DIST})`)
out()

const done = []
/** One "Done when" line of issue 27 (and the older targets): figure, target, verdict; listed again at the end. */
const check = (what, figure, target, ok) => {
  done.push([what, figure, target, verdict(ok)])
  return `${figure}   target ${target}: ${verdict(ok)}`
}

if (ONLY.has('http') && !WRK) out(`1. HTTP over loopback: ${NO_WRK}`)
if (ONLY.has('http') && WRK) {
out(`1. HTTP over loopback: wrk, ${CONNECTIONS} connections, ${ROUNDS} x ${SECONDS} s per target in turn, medians`)
out(TASKSET ? '   server pinned to core 0, load generator to core 1 (taskset)' : '   taskset not found: server and load generator share the cores')
const h = await httpBench()
const hw = [52, 9, 7, 7, 8, 12, 8, 8]
// x raw: the median of each round's ratio to the raw server's run in the same round and series
// (repeated request or distinct request lines).
const rawOf = (name) => (name.endsWith('first') || name.endsWith('firstLogged') ? h['raw.first'] : h.raw)
const rowsOf = (build, label) => [
  [`${label}, same request`, build],
  [`  distinct request lines (first requests), no log`, `${build}.first`],
  [`  distinct request lines, JSON log to a file`, `${build}.firstLogged`],
]
const httpRows = [
  ['raw node:http, pre-serialised, same request', 'raw'],
  ['  distinct request lines (same bytes)', 'raw.first'],
  ['raw node:http, JSON.stringify per request', 'stringify'],
  ...rowsOf('fakelab', 'fakelab serve, 20-label list'),
  ['  same request, reply memo off', 'noMemo'],
  ['  fakelab/node startServer, plain node', 'library'],
  ...BUILDS.slice(1).flatMap((b) => rowsOf(b.name, 'against (--against)')),
]
out(`   ${pad(['target', 'req/s', 'p50 ms', 'p99 ms', 'x raw', 'req/CPU-s', 'x raw', 'non-2xx'], hw)}`)
for (const [label, name] of httpRows) {
  const r = h[name]
  out(`   ${pad([label, fmt(r.rps, 0), fmt(r.p50), fmt(r.p99), `${fmt(r.ratio)}x`, fmt(r.perCpu, 0), `${fmt(r.perCpu / rawOf(name).perCpu)}x`, r.bad], hw)}`)
}
out('   (x raw: median over rounds of the ratio to the raw server run just before in the same series;')
out('   req/CPU-s: requests per CPU-second the server used, for information)')
out(`   fakelab answered ${h.rows} labels, ${h.bytes.toLocaleString('en-US')} bytes (the raw servers send the same bytes: ${h.sameBytes ? 'yes' : 'NO'})`)
out(`   same request, x raw pre-serialised        ${check('same request, x raw', `${fmt(h.fakelab.ratio)}x`, `>= ${TARGETS.http}x`, h.fakelab.ratio >= TARGETS.http)}`)
out(`   first requests, no log, x raw             ${check('first requests, no log, x raw', `${fmt(h['fakelab.first'].ratio)}x`, `>= ${TARGETS.first}x`, h['fakelab.first'].ratio >= TARGETS.first)}`)
out(`   first requests, JSON log to a file, x raw ${check('first requests, JSON log to a file, x raw', `${fmt(h['fakelab.firstLogged'].ratio)}x`, `>= ${TARGETS.firstLogged}x`, h['fakelab.firstLogged'].ratio >= TARGETS.firstLogged)}`)
const logCost = h['fakelab.firstLogged'].ratio / h['fakelab.first'].ratio
out(`   logged / unlogged                         ${check('first requests, logged / unlogged', `${fmt(logCost)}`, `>= ${TARGETS.logCost}`, logCost >= TARGETS.logCost)}`)
// Issue 39 item 1: at a fixed concurrency latency follows throughput, and a raw server's own p99 is
// 10-20 times its p50 here, so p99 is printed for information, no longer against issue 27's 5 ms.
out(`   first requests, p99 at ${CONNECTIONS} connections     ${fmt(h['fakelab.first'].p99)} ms (information; raw: ${fmt(h['raw.first'].p99)} ms)`)
const ms = (value) => fmt(value)
for (const { connections, fakelab, raw } of h.fewConnections) {
  out(`   first requests at ${connections} connection${connections === 1 ? ' ' : 's'}: p50 ${ms(fakelab.p50)} ms, p99 ${ms(fakelab.p99)} ms, ${fmt(fakelab.rps, 0)} req/s (raw node:http: p99 ${ms(raw.p99)} ms, ${fmt(raw.rps, 0)} req/s)`)
}
const memoryRows = [['fakelab serve', 'fakelab'], ['  log off', 'fakelab.quiet'], ['  reply memo off', 'noMemo'], ['  fakelab/node, plain node', 'library'], ...BUILDS.slice(1).map((b) => ['  against', b.name])]
for (const [label, name] of memoryRows) {
  const memory = h.memory[name]
  const target = name === 'fakelab' ? `   target <= ${TARGETS.rssMb} MB: ${verdict(memory.rss <= TARGETS.rssMb)}` : ''
  if (name === 'fakelab') check('RSS after the load (JSON log on)', `${fmt(memory.rss, 0)} MB`, `<= ${TARGETS.rssMb} MB`, memory.rss <= TARGETS.rssMb)
  out(`   ${`${label} RSS after the load`.padEnd(46)}${fmt(memory.rss, 0)} MB (peak ${fmt(memory.peak, 0)} MB)${target}`)
}
out()
}

if (ONLY.has('cold')) {
out(`2. Cold start: spawn to first answered request, ${COLD_RUNS} runs alternating with a bare node:http server, medians`)
const c = await coldStart()
out(`   bare node:http server (node's own floor)    ${fmt(c.bare.ms, 0)} ms (${fmt(c.bare.cpuMs, 0)} ms CPU)`)
out(`   fakelab serve --port 0 (default scenario)   ${fmt(c.fakelab.ms, 0)} ms (${fmt(c.fakelab.cpuMs, 0)} ms CPU)   ${check('cold start, x bare node:http', `${fmt(c.fakelab.ratio)}x`, `<= ${TARGETS.coldRatio}x`, c.fakelab.ratio <= TARGETS.coldRatio)}`)
if (c.against !== undefined) out(`     against                                   ${fmt(c.against.ms, 0)} ms (${fmt(c.against.cpuMs, 0)} ms CPU)   ${fmt(c.against.ratio)}x`)
out()
}

if (ONLY.has('msw')) {
out(`3. In process: ${MSW_CALLS} sequential fetch() calls through MSW setupServer, ${ROUNDS} rounds in turn, medians`)
out('   (each measurement in a fresh process pinned to core 0)')
const m = await mswBench()
const mw = [46, 9, 8, 11, 8]
const mswRow = (name, r, base) => out(`   ${pad([name, fmt(r.wall, 0), `${fmt(r.wall / base.wall)}x`, fmt(r.cpu, 0), `${fmt(r.cpu / base.cpu)}x`], mw)}`)
out(`   ${pad(['', 'calls/s', 'x bare', 'per CPU-s', 'x bare'], mw)}`)
mswRow('one bare MSW handler, same bytes', m.bare, m.bare)
mswRow('  distinct request lines', m['bare.first'], m['bare.first'])
mswRow("fakelab's MSW handlers, same request", m.fakelab, m.bare)
mswRow('  distinct request lines (first requests)', m['fakelab.first'], m['bare.first'])
mswRow('  same request, reply memo off', m.noMemo, m.bare)
if (m.against) {
  mswRow('  against, same request', m.against, m.bare)
  mswRow('  against, first requests', m['against.first'], m['bare.first'])
}
mswRow('sim.handle(Request) -> Response', m['fakelab.handle'], m.bare)
mswRow('  reply memo off', m['noMemo.handle'], m.bare)
if (m['against.handle']) mswRow('  against', m['against.handle'], m.bare)
// The verdict uses CPU time: a busy machine stretches wall-clock runs unevenly.
const mswRatio = m.fakelab.cpu / m.bare.cpu
const mswFirst = m['fakelab.first'].cpu / m['bare.first'].cpu
out(`   same request / bare MSW handler            ${check('MSW same request, x bare handler', `${fmt(mswRatio)}x`, `>= ${TARGETS.msw}x`, mswRatio >= TARGETS.msw)} (per CPU-second)`)
out(`   first requests / bare MSW handler          ${check('MSW first requests, x bare handler', `${fmt(mswFirst)}x`, `>= ${TARGETS.mswFirst}x`, mswFirst >= TARGETS.mswFirst)} (per CPU-second; ${fmt(m['fakelab.first'].wall / m['bare.first'].wall)}x calls/s)`)
out()
}

if (ONLY.has('store')) {
out('4. Store: filtered, sorted, paginated list through sim.handle() (no HTTP)')
const s = await storeBench()
out(`   data:   ${RECORDS.toLocaleString('en-US')} labels over ${PROJECTS} projects (${(RECORDS / PROJECTS).toLocaleString('en-US')} per project) plus the default scenario`)
out(`   insert: ${fmt(s.insertMs, 0)} ms via sim.db.tables.labels.insert`)
out(`   query:  GET ${s.path}  -> ${s.info.status}, ${s.info.rows} rows, X-Total ${s.info.total ?? 'n/a'}`)
const sw = [24, 6, 9, 9, 26]
const p50 = percentile(s.times, 50)
out(`   ${pad(['', 'n', 'p50 ms', 'p99 ms', 'target'], sw)}`)
out(`   ${pad(['sim.handle()', s.times.length, fmt(p50), fmt(percentile(s.times, 99)), check('store page p50', `${fmt(p50)} ms`, `<= ${TARGETS.storeP50} ms`, p50 <= TARGETS.storeP50)], sw)}`)
out(`   ${pad(['plain array scan', s.scanTimes.length, fmt(percentile(s.scanTimes, 50)), fmt(percentile(s.scanTimes, 99)), `baseline (${s.scanRows} rows)`], sw)}`)
out()
}

out('Targets (issue 27 "Done when"; `npm run golden` checks that no answer changed):')
const dw = [44, 10, 12, 5]
for (const row of done) out(`   ${pad(row, dw)}`)
out()
out(`done in ${fmt((performance.now() - started) / 1000, 1)} s (${LABELS} labels in the HTTP fixture)`)
