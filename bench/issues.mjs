// fakelab issues benchmark (issue 8 "Speed"), run by `npm run bench` after bench/run.mjs.
// A scenario with one project of 100,000 generated issues (`generate: { issues: 100000 }`) is
// loaded through `createSimulator` (timed: target ≤ 3 s), then N=200 requests of
// `GET /projects/:id/issues` with three filters (state, labels, milestone), sorted and paginated,
// go through `sim.handle()` directly (p50 target ≤ 5 ms). Exits 1 when a target is missed.
import { availableParallelism, loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { createSimulator } from '../dist/index.js'

const ISSUES = 100_000
const REQUESTS = 200
const WARMUP = 20
const TARGET_P50_MS = 5
const TARGET_LOAD_MS = 3000

const scenario = `
version: 1
now: "2021-04-01T12:00:00.000Z"
seed: 7
users:
  - { id: 1, username: root, name: Administrator, email: root@example.com, admin: true, tokens: [{ token: glpat-root-fakelab, name: default, scopes: [api] }] }
  - { id: 2, username: dev, name: Dev, email: dev@example.com }
groups:
  - id: 10
    path: big
    name: Big
    visibility: public
    members: [{ user: dev, access_level: developer }]
projects:
  - id: 20
    path: tracker
    namespace: big
    name: Tracker
    visibility: public
    labels: [{ name: bug }, { name: feature }, { name: docs }, { name: ux }]
    milestones: [{ title: v1 }, { title: v2 }, { title: v3 }]
    generate: { issues: ${ISSUES} }
`

// CPU time next to wall time: other programs on a shared machine stretch the wall figures, hardly
// the CPU ones (`uptime` shows how busy the machine was).
const cpuMs = (since) => {
  const used = process.cpuUsage(since)
  return (used.user + used.system) / 1000
}
const started = performance.now()
const loadCpu = process.cpuUsage()
// The reply memo off: each of the repeated requests is to cost what a first one costs.
const sim = createSimulator({ scenario, replyMemo: 'off' })
const loadMs = performance.now() - started
const loadCpuMs = cpuMs(loadCpu)
const count = sim.db.tables.issues.size

const queries = [
  'state=opened&labels=bug&milestone=v1&order_by=created_at&sort=desc&per_page=20',
  'state=opened&labels=feature&milestone=v2&order_by=updated_at&sort=asc&per_page=20&page=3',
  'state=closed&labels=docs&milestone=v3&order_by=due_date&sort=asc&per_page=50',
  'state=opened&labels=ux&not[milestone]=v1&order_by=title&sort=desc&per_page=20&page=2',
]
const times = []
let listCpu
for (let i = 0; i < WARMUP + REQUESTS; i++) {
  if (i === WARMUP) listCpu = process.cpuUsage()
  const url = `http://bench.test/api/v4/projects/20/issues?${queries[i % queries.length]}`
  const t0 = performance.now()
  const res = await sim.handle(new Request(url, { headers: { 'PRIVATE-TOKEN': 'glpat-root-fakelab' } }))
  await res.arrayBuffer()
  const ms = performance.now() - t0
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`)
  if (i >= WARMUP) times.push(ms)
}
const listCpuMs = cpuMs(listCpu) / REQUESTS
times.sort((a, b) => a - b)
const p = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))]
const p50 = p(0.5)
console.log('\n== issues: 100,000-issue project list (three filters, sorted, paginated) through sim.handle ==')
console.log(`issues loaded   ${count.toLocaleString('en-US')}`)
console.log(`scenario load   ${loadMs.toFixed(0)} ms (target ≤ ${TARGET_LOAD_MS} ms), ${loadCpuMs.toFixed(0)} ms CPU`)
console.log(`list p50        ${p50.toFixed(2)} ms (target ≤ ${TARGET_P50_MS} ms)`)
console.log(`list p90 / p99  ${p(0.9).toFixed(2)} / ${p(0.99).toFixed(2)} ms over ${REQUESTS} requests; ${listCpuMs.toFixed(2)} ms CPU per request (mean)`)
console.log(`machine load    ${loadavg().map((n) => n.toFixed(2)).join(' ')} (1, 5, 15 min) on ${availableParallelism()} cores`)
const ok = p50 <= TARGET_P50_MS && loadMs <= TARGET_LOAD_MS && count >= ISSUES
console.log(ok ? 'issues bench: within targets' : 'issues bench: TARGET MISSED')
if (!ok) process.exitCode = 1
