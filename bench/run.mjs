// fakelab benchmark: `npm run bench` (builds first). Loopback only, bounded, about 30 s by default.
//
// 1. HTTP: a raw node:http server answering a fixed JSON list of 20 labels vs fakelab's
//    node:http door on the default scenario, each loaded with autocannon (10 connections,
//    BENCH_SECONDS each, default 5). Prints req/s, p50/p99 latency and the fakelab/raw ratio.
// 2. Store: 100,000 labels over 10 projects (10,000 per project) inserted through
//    `sim.db.tables.labels.insert`, then N=200 filtered, sorted, paginated list requests through
//    `sim.handle()` directly, against the 5 ms p50 target, with a plain array scan as baseline.
//    Without the project labels route it falls back to 100,000 projects and `GET /projects`.
import http from 'node:http'
import { performance } from 'node:perf_hooks'
import autocannon from 'autocannon'
import { createSimulator } from '../dist/index.js'
import { loadDefaultScenario, startServer } from '../dist/node.js'

const SECONDS = positiveNumber(process.env.BENCH_SECONDS, 5)
const CONNECTIONS = 10
const RECORDS = 100_000
const PROJECTS = 10
const REQUESTS = 200
const WARMUP = 20
const TARGET_P50_MS = 5
const TOKEN = 'glpat-root-fakelab'
const WORDS = ['bug', 'feature', 'docs', 'backend', 'frontend', 'security', 'infra', 'test', 'ux', 'perf']
const SEARCH = 'bug'
const BASE_TIME = Date.parse('2021-03-01T10:00:00.000Z')
/** Distinct, deterministic timestamps: record i is i seconds older than the base time. */
const stamp = (i) => new Date(BASE_TIME - i * 1000).toISOString()

function positiveNumber(text, fallback) {
  const value = Number(text)
  return text !== undefined && Number.isFinite(value) && value > 0 ? value : fallback
}

const hasRoute = (sim, key) => sim.routes.some((r) => r.key === key)
const fmt = (n, digits = 2) => (Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : 'n/a')
const pad = (cells, widths) => cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ')

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[index]
}

function note(text) {
  process.stdout.write(`  note: ${text}\n`)
}

// ---- 1. HTTP over loopback ------------------------------------------------------------------

const RAW_BODY = JSON.stringify(
  Array.from({ length: 20 }, (_, i) => ({
    id: 1000 + i,
    name: `label-${i}`,
    description: null,
    color: '#428bca',
    text_color: '#FFFFFF',
    subscribed: false,
    priority: null,
    is_project_label: true,
  })),
)

function startRawServer() {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(RAW_BODY) })
    res.end(RAW_BODY)
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        close: () => new Promise((done) => { server.close(() => done()); server.closeAllConnections() }),
      })
    })
  })
}

async function load(url, headers) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers })
  return {
    rps: result.requests.average,
    avg: result.latency.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    bad: result.non2xx + result.errors + result.timeouts,
  }
}

async function httpBench() {
  const sim = createSimulator({ scenario: await loadDefaultScenario() })
  let path = '/api/v4/projects/20/labels'
  if (!hasRoute(sim, 'GET /projects/:id/labels')) {
    path = '/api/v4/projects?per_page=20'
    note('GET /projects/:id/labels is not implemented yet: fakelab is loaded with GET /api/v4/projects?per_page=20 instead.')
  }
  const raw = await startRawServer()
  const fake = await startServer(sim, { port: 0, host: '127.0.0.1' })
  try {
    const probe = await fetch(`${fake.url}${path}`, { headers: { 'PRIVATE-TOKEN': TOKEN } })
    const probeRows = (await probe.json()).length
    const rawResult = await load(`${raw.url}/`, {})
    const fakeResult = await load(`${fake.url}${path}`, { 'PRIVATE-TOKEN': TOKEN })
    return { path, probeStatus: probe.status, probeRows, raw: rawResult, fake: fakeResult }
  } finally {
    await fake.close()
    await raw.close()
  }
}

// ---- 2. Store ------------------------------------------------------------------------------

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

/** Mode A: 100,000 labels over 10 projects; query one project's labels. */
function labelsScenario(sim) {
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
  const search = SEARCH
  return {
    layout: `${RECORDS.toLocaleString('en-US')} labels over ${PROJECTS} projects of group acme (${(RECORDS / PROJECTS).toLocaleString('en-US')} per project); the query reads one project`,
    insertMs,
    path: `/api/v4/projects/${projectId}/labels?search=${search}&page=2&per_page=20`,
    // Baseline: what the query does, as one pass over a plain array of every label.
    scan(rows) {
      const hits = rows.filter((l) => l.project_id === projectId && l.title.toLowerCase().includes(search))
      hits.sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : a.id - b.id))
      return hits.slice(20, 40)
    },
    rows: () => sim.db.tables.labels.all(),
  }
}

/** Mode B (fallback): 100,000 projects; query GET /projects (visible to the user, newest first). */
function projectsScenario(sim) {
  const started = performance.now()
  insertProjects(sim, RECORDS, '')
  const insertMs = performance.now() - started
  return {
    layout: `${RECORDS.toLocaleString('en-US')} public projects in group acme (fallback: no project labels route yet)`,
    insertMs,
    path: '/api/v4/projects?page=2&per_page=20',
    scan(rows) {
      const hits = rows.filter((p) => p.visibility === 'public' && !p.archived)
      hits.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : b.id - a.id))
      return hits.slice(20, 40)
    },
    rows: () => sim.db.tables.projects.all(),
  }
}

async function storeBench() {
  const sim = createSimulator({ scenario: await loadDefaultScenario() })
  const labels = hasRoute(sim, 'GET /projects/:id/labels')
  if (!labels) note('GET /projects/:id/labels is not implemented yet: the store benchmark falls back to 100,000 projects and GET /api/v4/projects.')
  const setup = labels ? labelsScenario(sim) : projectsScenario(sim)
  const request = () => new Request(`http://gitlab.test${setup.path}`, { headers: { 'PRIVATE-TOKEN': TOKEN } })

  const first = await sim.handle(request())
  const firstBody = await first.json()
  const info = { status: first.status, total: first.headers.get('x-total'), rows: Array.isArray(firstBody) ? firstBody.length : 0 }
  if (first.status !== 200) note(`the query answered ${first.status}: ${JSON.stringify(firstBody).slice(0, 200)}`)

  const times = []
  for (let i = 0; i < WARMUP + REQUESTS; i += 1) {
    const t0 = performance.now()
    const res = await sim.handle(request())
    await res.arrayBuffer()
    if (i >= WARMUP) times.push(performance.now() - t0)
  }
  times.sort((a, b) => a - b)

  const rows = setup.rows()
  const scanTimes = []
  let scanRows = 0
  for (let i = 0; i < WARMUP + REQUESTS; i += 1) {
    const t0 = performance.now()
    scanRows = setup.scan(rows).length
    if (i >= WARMUP) scanTimes.push(performance.now() - t0)
  }
  scanTimes.sort((a, b) => a - b)
  return { setup, info, times, scanTimes, scanRows }
}

// ---- report ---------------------------------------------------------------------------------

const started = performance.now()
process.stdout.write(`fakelab benchmark (node ${process.version}, ${SECONDS} s per HTTP target, ${CONNECTIONS} connections)\n\n`)

process.stdout.write('HTTP over loopback (autocannon)\n')
const h = await httpBench()
const ratio = (a, b) => (b > 0 ? `${fmt(a / b)}x` : 'n/a')
const hw = [46, 10, 8, 8, 8, 8]
const pathShown = h.path.replace('/api/v4', '')
process.stdout.write(`  ${pad(['target', 'req/s', 'avg ms', 'p50 ms', 'p99 ms', 'non-2xx'], hw)}\n`)
for (const [name, r] of [['raw node:http  GET /', h.raw], [`fakelab        GET ${pathShown}`, h.fake]]) {
  process.stdout.write(`  ${pad([name, fmt(r.rps, 0), fmt(r.avg), fmt(r.p50, 0), fmt(r.p99, 0), r.bad], hw)}\n`)
}
process.stdout.write(
  `  ${pad(['ratio fakelab/raw', ratio(h.fake.rps, h.raw.rps), ratio(h.fake.avg, h.raw.avg), ratio(h.fake.p50, h.raw.p50), ratio(h.fake.p99, h.raw.p99), ''], hw)}\n`,
)
process.stdout.write(`  (autocannon records whole milliseconds; fakelab answered ${h.probeStatus} with ${h.probeRows} rows, raw sends 20 fixed labels)\n\n`)

process.stdout.write('Store: filtered, sorted, paginated list through sim.handle() (no HTTP)\n')
const s = await storeBench()
process.stdout.write(`  data:   ${s.setup.layout}, plus the default scenario\n`)
process.stdout.write(`  insert: ${fmt(s.setup.insertMs, 0)} ms for ${RECORDS.toLocaleString('en-US')} records via sim.db.tables.*.insert\n`)
process.stdout.write(`  query:  GET ${s.setup.path}  -> ${s.info.status}, ${s.info.rows} rows, X-Total ${s.info.total ?? 'n/a'}\n`)
const sw = [26, 6, 9, 9, 24]
const p50 = percentile(s.times, 50)
process.stdout.write(`  ${pad(['', 'n', 'p50 ms', 'p99 ms', 'target'], sw)}\n`)
process.stdout.write(
  `  ${pad(['sim.handle()', s.times.length, fmt(p50), fmt(percentile(s.times, 99)), `p50 <= ${TARGET_P50_MS} ms: ${p50 <= TARGET_P50_MS ? 'PASS' : 'MISS'}`], sw)}\n`,
)
process.stdout.write(
  `  ${pad(['plain array scan', s.scanTimes.length, fmt(percentile(s.scanTimes, 50)), fmt(percentile(s.scanTimes, 99)), `baseline (${s.scanRows} rows)`], sw)}\n`,
)
process.stdout.write(`\ndone in ${fmt((performance.now() - started) / 1000, 1)} s\n`)
