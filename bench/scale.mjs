// fakelab scale benchmark (issue 13), run by `npm run bench` after the others:
//   node --expose-gc bench/scale.mjs [--scale 1] [--requests 40] [--seconds 5] [--no-http] [--no-growth] [--only-http]
// (`--only-http`: the load and part 3 only, without the storage moves, the lists and the growth figures.)
// 1. Load: the scale scenario (bench/scale-scenario.mjs: 5,000 users, 200 groups, 2,000 projects,
//    100,000 issues, 10,000 labels, 1,000 runners with 50,000 jobs, 20,000 to-dos, memberships),
//    validated (`validateScenarioObject`) and loaded (`createSimulator`): time (target ≤ 3 s) and
//    RSS after a full collection (target ≤ 500 MB). Then 1,000 storage moves started over the API.
// 2. Lists: every GET route of `sim.routes` whose path ends in a collection, its params resolved to
//    existing records (parent collections listed first), with a filter and a sort where the route
//    declares them, filter and caller chosen so that the list is not empty (an empty one is
//    flagged), plus the heavy variants (global issues with scope=all, unfiltered projects, …);
//    p50 through `sim.handle` (target ≤ 5 ms). BENCH_VERBOSE=1 prints each URL.
// 3. HTTP: GET /projects/:id/issues (20 per page) at 32 connections (wrk, BENCH_SECONDS s; skipped without wrk)
//    against fakelab serving the scale scenario and a raw node:http server sending the body fakelab
//    sent, each in its own process pinned to core 0 (`taskset`, when it exists; wrk on core 1,
//    bench/load.mjs), in turn for BENCH_ROUNDS rounds (default 3): the ratio of the median req/s
//    (target ≥ 0.10). Also requests per CPU-second each server used (from /proc), for information.
// 4. Growth: the same list requests at 1k, 10k and 100k records (the scenario at scale 0.01, 0.1
//    and 1): p50 per route at each size, the ratio 100k/1k (about 1 when a page costs the page
//    plus an index lookup; 100 when it scans every record), and a verdict per route:
//    p50(100k) ≤ 2 × p50(1k) + 1 ms.
// Exits 1 when a target is missed.
import { spawn } from 'node:child_process'
import http from 'node:http'
import { dirname, join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { NO_WRK, WRK, load as loadRun } from './load.mjs'
import { TASKSET, cpuSeconds, pinned } from './processes.mjs'
import { scaleScenario } from './scale-scenario.mjs'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const { createSimulator, validateScenarioObject } = await import(pathToFileURL(join(ROOT, 'dist', 'index.js')).href)
const { values: args } = parseArgs({
  options: {
    scale: { type: 'string', default: '1' },
    requests: { type: 'string', default: '40' },
    seconds: { type: 'string', default: process.env.BENCH_SECONDS ?? '5' },
    'no-http': { type: 'boolean', default: false },
    'no-growth': { type: 'boolean', default: false },
    'only-http': { type: 'boolean', default: false },
    'serve-fakelab': { type: 'boolean', default: false },
    'serve-raw': { type: 'string' },
  },
})
const TOKEN = 'glpat-root-fakelab'
const BASE = 'http://scale.test'
const TARGETS = { loadMs: 3000, rssMb: 500, listP50: 5, http: 0.1 }
/** Search terms the scale data holds (project, group and user names, label titles, job names). */
const SEARCH_TERMS = ['project', 'group', 'user', 'label', 'runner', 'job']
/** The growth verdict's allowance, in ms, for work linear in the store but tiny per record. */
const GROWTH_SLACK_MS = 1
const ISSUE_LIST = '/projects/100000/issues?state=opened&order_by=created_at&sort=desc&per_page=20'
// HTTP part: rounds in turn, medians shown (as bench/run.mjs does).
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS) || 3)

const fmt = (n, digits = 2) => (Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : 'n/a')
const gc = () => globalThis.gc?.()
/** X-Total as printed: the count, `>10k` when GitLab does not count, `-` for no list. */
const totalText = ({ total, rows }) => (Number.isFinite(total) ? String(total) : rows > 0 ? '>10k' : '-')
const rssMb = () => process.memoryUsage().rss / 1024 / 1024

/** Loads the scale scenario at `scale`: the simulator and the times of each step. */
function load(scale) {
  const t0 = performance.now()
  const { scenario, sizes } = scaleScenario(scale)
  const t1 = performance.now()
  const c1 = process.cpuUsage()
  const validated = validateScenarioObject(scenario)
  const t2 = performance.now()
  const c2 = process.cpuUsage()
  // The reply memo off: the lists repeat each request, and each is to cost what a first one costs.
  const sim = createSimulator({ scenario: validated, replyMemo: 'off' })
  const t3 = performance.now()
  const c3 = process.cpuUsage()
  // CPU time beside the wall time: on a shared machine the wall time mostly measures the neighbours.
  // It includes V8's helper threads (parallel GC), so it can exceed the wall time on an idle machine.
  const cpuMs = (a, b) => (b.user + b.system - a.user - a.system) / 1000
  return { sim, sizes, buildMs: t1 - t0, validateMs: t2 - t1, applyMs: t3 - t2, validateCpuMs: cpuMs(c1, c2), applyCpuMs: cpuMs(c2, c3) }
}

async function call(sim, method, path, body, token = TOKEN) {
  const res = await sim.handle(new Request(`${BASE}/api/v4${path}`, { method, headers: { 'PRIVATE-TOKEN': token, ...(body ? { 'Content-Type': 'application/json' } : {}) }, body: body && JSON.stringify(body) }))
  const text = await res.text()
  return { status: res.status, text, total: Number(res.headers.get('x-total') ?? NaN) }
}

// ---- serving modes (child processes of the HTTP part) ----------------------------------------------

if (args['serve-fakelab']) {
  const { startServer } = await import(pathToFileURL(join(ROOT, 'dist', 'node.js')).href)
  const { sim } = load(Number(args.scale))
  const server = await startServer(sim, { port: 0 })
  process.stdout.write(`${server.url}\n`)
} else if (args['serve-raw'] !== undefined) {
  const body = Buffer.from(args['serve-raw'], 'base64')
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length })
    res.end(body)
  })
  server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${server.address().port}\n`))
} else {
  await main()
}

// ---- list routes ----------------------------------------------------------------------------------

/**
 * Concrete list requests for every GET route whose path ends in a static segment: each `:param`
 * names the first record its parent collection lists, and the query filters and sorts where the
 * route declares how (`state`, `search`, `order_by`, `sort`), 20 per page. A list benchmark that
 * lists nothing measures nothing, so each route's filter and caller are chosen among candidates
 * (the states the route declares, search terms present in the data, the admin, a maintainer of
 * the first project and a user who authored issues) as the first that lists some records; a route
 * left empty is flagged. Then the heavy variants users send: the global issue list with
 * `scope=all` as the admin and as a user, with the default scope as that user, the project list
 * unfiltered and ordered, a whole group's issues.
 * @returns `{ key, url, token, who }[]`: `key` names the row (the route key, plus the variant).
 */
async function listRequests(sim) {
  const ROOT_CALLER = { who: 'root', token: TOKEN }
  const get = async (url, token = TOKEN) => {
    const res = await call(sim, 'GET', url, undefined, token)
    const body = res.status === 200 ? JSON.parse(res.text) : undefined
    return { status: res.status, rows: Array.isArray(body) ? body : undefined, total: res.total }
  }
  // The callers besides the admin: a maintainer of the first project (it owns runners) and the
  // author of the first issue the admin lists (so `created_by_me` lists something).
  const callers = [ROOT_CALLER]
  const members = (await get('/projects/100000/members?per_page=100')).rows ?? []
  const maintainer = members.find((m) => m.access_level >= 40)
  if (maintainer) callers.push({ who: maintainer.username, token: `glpat-${maintainer.username}-fakelab` })
  const firstIssue = (await get('/issues?scope=all&per_page=1')).rows?.[0]
  const author = firstIssue ? { who: firstIssue.author.username, token: `glpat-${firstIssue.author.username}-fakelab` } : ROOT_CALLER
  if (!callers.some((c) => c.who === author.who)) callers.push(author)

  const cache = new Map()
  const first = async (collection, param) => {
    if (!cache.has(collection)) {
      // The admin's own runners may be none: `/runners/all` lists every runner.
      let record
      for (const path of [collection, `${collection}/all`]) {
        record = (await get(`${path}?per_page=1`)).rows?.[0]
        if (record) break
      }
      cache.set(collection, record)
    }
    const record = cache.get(collection)
    if (!record) return undefined
    return record[param.endsWith('iid') ? 'iid' : 'id']
  }
  const out = []
  for (const route of sim.routes) {
    if (route.method !== 'GET' || route.path.split('/').pop().startsWith(':')) continue
    let path = ''
    let ok = true
    for (const part of route.path.split('/').slice(1)) {
      if (!part.startsWith(':')) {
        path += `/${part}`
        continue
      }
      const value = await first(path, part.slice(1))
      if (value === undefined) {
        ok = false
        break
      }
      path += `/${encodeURIComponent(String(value))}`
    }
    if (!ok) continue
    const p = route.params
    const states = p.state?.values ? [...new Set(['opened', 'active', ...p.state.values].filter((s) => p.state.values.includes(s)))] : [undefined]
    const searches = p.search && !p.state ? SEARCH_TERMS : [undefined]
    const candidates = []
    for (const state of states) {
      for (const search of searches) {
        const query = new URLSearchParams({ per_page: '20' })
        if (state) query.set('state', state)
        if (search) query.set('search', search)
        if (p.order_by?.values?.length) query.set('order_by', p.order_by.values.includes('updated_at') ? 'updated_at' : p.order_by.values[0])
        if (p.sort?.values?.includes('asc')) query.set('sort', 'asc')
        for (const caller of callers) candidates.push({ url: `${path}?${query}`, ...caller })
      }
    }
    let chosen = candidates[0]
    for (const candidate of candidates) {
      if ((await get(candidate.url, candidate.token)).rows?.length) {
        chosen = candidate
        break
      }
    }
    out.push({ key: route.key, ...chosen })
  }
  const group = await first('/groups', 'id')
  const variants = [
    { key: 'GET /issues [scope=all, admin]', url: '/issues?scope=all&state=opened&per_page=20', ...ROOT_CALLER },
    { key: 'GET /issues [scope=all, user]', url: '/issues?scope=all&state=opened&per_page=20', ...author },
    { key: 'GET /issues [default scope, author]', url: '/issues?per_page=20', ...author },
    { key: 'GET /issues [scope=all, title]', url: '/issues?scope=all&order_by=title&sort=asc&per_page=20', ...ROOT_CALLER },
    { key: 'GET /groups/:id/issues [all states]', url: `/groups/${group}/issues?per_page=20`, ...ROOT_CALLER },
    { key: 'GET /projects [no filter]', url: '/projects?per_page=20', ...ROOT_CALLER },
    { key: 'GET /projects [no filter, user]', url: '/projects?per_page=20', ...author },
    { key: 'GET /projects [order_by=name]', url: '/projects?order_by=name&sort=asc&per_page=20', ...ROOT_CALLER },
  ]
  return [...out, ...variants]
}

/**
 * p50 (and p99) in ms of `n` requests to `url` through sim.handle with `token`, after a few warm-up
 * requests; `total` is X-Total (NaN when GitLab does not count, over 10,000 rows), `rows` the
 * length of the page (0 flags an empty list).
 */
async function latency(sim, url, n, token = TOKEN) {
  const times = []
  let status = 0
  let count = 0
  let rows = 0
  for (let i = 0; i < n + 5; i++) {
    const t = performance.now()
    const res = await sim.handle(new Request(`${BASE}/api/v4${url}`, { headers: { 'PRIVATE-TOKEN': token } }))
    const text = await res.text()
    if (i >= 5) times.push(performance.now() - t)
    status = res.status
    count = Number(res.headers.get('x-total') ?? NaN)
    if (i === 0) {
      const body = status === 200 ? JSON.parse(text) : undefined
      rows = Array.isArray(body) ? body.length : NaN
    }
  }
  times.sort((a, b) => a - b)
  return { p50: times[Math.floor(times.length / 2)], p99: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))], status, total: count, rows }
}

// ---- HTTP -----------------------------------------------------------------------------------------

/** The body of a GET, as bytes. */
function fetchBytes(url) {
  return new Promise((resolveBody, reject) => {
    http.get(url, { headers: { 'PRIVATE-TOKEN': TOKEN }, agent: false }, (res) => {
      const chunks = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => resolveBody(Buffer.concat(chunks)))
    }).on('error', reject)
  })
}

/** This script in a serving mode, pinned to core 0: its URL and process. */
function child(args) {
  return new Promise((resolveUrl, reject) => {
    const [command, argv] = pinned(0, [process.execPath, fileURLToPath(import.meta.url), ...args])
    const proc = spawn(command, argv, { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    proc.stdout.setEncoding('utf8').on('data', (chunk) => {
      out += chunk
      if (out.includes('\n')) resolveUrl({ url: out.trim(), proc })
    })
    proc.once('exit', (code) => reject(new Error(`server exited with ${code}`)))
  })
}

// ---- main -----------------------------------------------------------------------------------------

async function main() {
  const requests = Number(args.requests)
  const missed = []
  const growth = new Map()

  if (!args['no-growth'] && !args['only-http']) {
    for (const scale of [0.01, 0.1]) {
      const { sim, sizes } = load(scale)
      for (const { key, url, token } of await listRequests(sim)) {
        const { p50, total, rows } = await latency(sim, url, requests, token)
        const row = growth.get(key) ?? {}
        row[scale] = { p50, total, rows }
        growth.set(key, row)
      }
      console.log(`(growth) scale ${scale}: ${sizes.issues.toLocaleString('en-US')} issues loaded`)
      gc()
    }
  }

  gc()
  const baseRss = rssMb()
  const loaded = load(Number(args.scale))
  const { sim, sizes } = loaded
  const loadMs = loaded.validateMs + loaded.applyMs
  gc()
  const loadedRss = rssMb()
  console.log(`\n== scale: ${Object.entries(sizes).map(([k, v]) => `${v.toLocaleString('en-US')} ${k}`).join(', ')} ==`)
  console.log(`scenario object built   ${fmt(loaded.buildMs, 0)} ms`)
  console.log(`validated               ${fmt(loaded.validateMs, 0)} ms (CPU ${fmt(loaded.validateCpuMs, 0)} ms)`)
  console.log(`loaded into the store   ${fmt(loaded.applyMs, 0)} ms (CPU ${fmt(loaded.applyCpuMs, 0)} ms)`)
  console.log(`load (validate + store) ${fmt(loadMs, 0)} ms (CPU ${fmt(loaded.validateCpuMs + loaded.applyCpuMs, 0)} ms; target ≤ ${TARGETS.loadMs} ms)${loadMs <= TARGETS.loadMs ? '' : '  MISSED'}`)
  console.log(`RSS after load + gc     ${fmt(loadedRss, 0)} MB (process before the load: ${fmt(baseRss, 0)} MB; target ≤ ${TARGETS.rssMb} MB)${loadedRss <= TARGETS.rssMb ? '' : '  MISSED'}`)
  if (loadMs > TARGETS.loadMs) missed.push('load time')
  if (loadedRss > TARGETS.rssMb) missed.push('RSS')

  if (!args['only-http']) {
    // 1,000 storage moves, one per project, over the API.
    const t = performance.now()
    let moves = 0
    for (let p = 0; p < Math.min(1000, sizes.projects); p++) {
      const res = await call(sim, 'POST', `/projects/${100_000 + p}/repository_storage_moves`, { destination_storage_name: 'default' })
      if (res.status === 201) moves++
    }
    console.log(`storage moves started   ${moves} in ${fmt(performance.now() - t, 0)} ms`)

    console.log(`\n== list routes: filtered, sorted page of 20 through sim.handle, ${requests} requests each (target p50 ≤ ${TARGETS.listP50} ms) ==`)
    const lists = await listRequests(sim)
    const width = Math.max(...lists.map((l) => l.key.length))
    const whoWidth = Math.max(...lists.map((l) => l.who.length))
    let empty = 0
    for (const { key, url, token, who } of lists) {
      const { p50, p99, status, total, rows } = await latency(sim, url, requests, token)
      const row = growth.get(key) ?? {}
      row[1] = { p50, total, rows }
      growth.set(key, row)
      if (rows === 0) empty++
      const flag = p50 > TARGETS.listP50 ? '  MISSED' : status !== 200 ? `  (status ${status})` : rows === 0 ? '  EMPTY (measures no rows)' : ''
      if (p50 > TARGETS.listP50) missed.push(key)
      console.log(`${key.padEnd(width)}  ${who.padEnd(whoWidth)}  p50 ${fmt(p50).padStart(7)} ms  p99 ${fmt(p99).padStart(7)} ms  total ${totalText({ total, rows }).padStart(8)}${flag}`)
      if (process.env.BENCH_VERBOSE) console.log(`  ${url}`)
    }
    console.log(`(${lists.length} lists; ${empty} list no rows: the scale scenario holds none for them)`)

    if (growth.size && !args['no-growth']) {
      // "A page plus an index lookup": a list whose cost does not grow with the records it does not
      // show. Allowing 2x for caches (a 100k store does not fit them as a 1k one does) and 1 ms for
      // work linear in the store but tiny per record (a bit-set word per 32 issues: 3,125 words at
      // 100k), a list that scans or sorts every record (x100 from 1k to 100k) fails it.
      console.log(`\n== growth: list p50 (ms) at 1k / 10k / 100k records (scale 0.01 / 0.1 / 1; X-Total in brackets, >10k when not counted); verdict: p50(100k) ≤ 2 × p50(1k) + ${GROWTH_SLACK_MS} ms ==`)
      for (const [key, row] of growth) {
        const cell = (s) => (row[s] ? `${fmt(row[s].p50)} (${totalText(row[s])})` : 'n/a')
        const ratio = row[1] && row[0.01] ? row[1].p50 / row[0.01].p50 : NaN
        const within = row[1] && row[0.01] ? row[1].p50 <= 2 * row[0.01].p50 + GROWTH_SLACK_MS : true
        if (!within) missed.push(`growth of ${key}`)
        console.log(`${key.padEnd(width)}  ${cell(0.01).padStart(16)}  ${cell(0.1).padStart(16)}  ${cell(1).padStart(18)}   x${fmt(ratio, 1).padEnd(6)} ${within ? 'ok' : 'GROWS'}`)
      }
    }
  }

  if (!args['no-http'] && !WRK) console.log(`\n== HTTP: ${NO_WRK} ==`)
  if (!args['no-http'] && WRK) {
    const seconds = Number(args.seconds)
    const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor((xs.length - 1) / 2)]
    const fake = await child(['--serve-fakelab', '--scale', args.scale])
    let raw
    try {
      const listUrl = `${fake.url}/api/v4${ISSUE_LIST}`
      // The raw server sends the very body fakelab sends (links to fakelab's own host and port).
      const body = await fetchBytes(listUrl)
      raw = await child(['--serve-raw', body.toString('base64')])
      const targets = [['fakelab', fake, listUrl], ['raw', raw, `${raw.url}/`]]
      for (const [, , url] of targets) loadRun(url, { seconds: 1, headers: { 'PRIVATE-TOKEN': TOKEN } })
      const runs = { fakelab: [], raw: [] }
      for (let round = 0; round < ROUNDS; round++) {
        for (const [name, server, url] of targets) {
          const cpu0 = cpuSeconds(server.proc.pid)
          const run = loadRun(url, { seconds, headers: { 'PRIVATE-TOKEN': TOKEN } })
          run.perCpu = (run.rps * seconds) / (cpuSeconds(server.proc.pid) - cpu0)
          runs[name].push(run)
        }
      }
      const f = { rps: median(runs.fakelab.map((r) => r.rps)), p50: median(runs.fakelab.map((r) => r.p50)), perCpu: median(runs.fakelab.map((r) => r.perCpu)), bad: runs.fakelab.reduce((n, r) => n + r.bad, 0) }
      const r = { rps: median(runs.raw.map((x) => x.rps)), perCpu: median(runs.raw.map((x) => x.perCpu)) }
      const ratio = f.rps / r.rps
      console.log(`\n== HTTP: ${ISSUE_LIST} (${body.length} bytes), 32 connections, ${seconds} s each, median of ${ROUNDS} rounds${TASKSET ? ', servers on core 0, wrk on core 1' : ''} ==`)
      console.log(`fakelab ${fmt(f.rps, 0)} req/s (p50 ${f.p50} ms, ${f.bad} bad)  raw node:http ${fmt(r.rps, 0)} req/s  ratio ${fmt(ratio, 3)} (target ≥ ${TARGETS.http})${ratio >= TARGETS.http ? '' : '  MISSED'}`)
      console.log(`per CPU-second of each server: fakelab ${fmt(f.perCpu, 0)}  raw node:http ${fmt(r.perCpu, 0)}  ratio ${fmt(f.perCpu / r.perCpu, 3)} (information)`)
      if (ratio < TARGETS.http || f.bad > 0) missed.push('HTTP ratio')
    } finally {
      fake.proc.kill('SIGKILL')
      raw?.proc.kill('SIGKILL')
    }
  }

  console.log(missed.length ? `\nscale bench: TARGET MISSED (${missed.join(', ')})` : '\nscale bench: within targets')
  if (missed.length) process.exitCode = 1
}
