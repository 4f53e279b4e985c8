// fakelab soak (issue 13): `npm run soak [-- --seconds 300] [--connections 32]`.
// One `fakelab serve --port 0` process on the default scenario, loaded over loopback by
// `--connections` clients (keep-alive) for `--seconds` s: 70% reads, 30% writes, across every area
// (labels, milestones, issues and time tracking, members, access tokens, runners, to-dos,
// notification settings, freeze periods, storage moves, users, projects, groups, version), and up
// to two GET routes of every other area (asked once before the load, so every area is loaded). Writes
// come as create-then-delete pairs and updates, so the store stays about the same size and the
// memory of the process shows what the server itself keeps (its request journal is bounded).
// Reports: requests sent, errors (any status an operation does not expect: 0 is required; the
// intended 4xx, such as a second storage move refused while one runs, are expected statuses), p50
// and p99 per route class, and the server's RSS every 5 s, which must level off (the last third of
// the samples may not exceed the middle third by more than 10% + 16 MB). Exits 1 otherwise.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import http from 'node:http'
import { dirname, join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const { values: args } = parseArgs({ options: { seconds: { type: 'string', default: '300' }, connections: { type: 'string', default: '32' } } })
const SECONDS = Number(args.seconds)
const CONNECTIONS = Number(args.connections)
const SAMPLE_MS = 5000
/** Issue 27: the server's RSS after 30 s of this load. */
const RSS_TARGET_MB = 100

// ---- the server -------------------------------------------------------------------------------------

function serve() {
  return new Promise((resolveServer, reject) => {
    // FAKELAB_SOAK_SERVER: another server command (for profiling: a script printing its URL first).
    const argv = process.env.FAKELAB_SOAK_SERVER?.split(' ') ?? [process.execPath, join(ROOT, 'bin', 'fakelab'), 'serve', '--port', '0', '--log', 'off']
    // Off a terminal the banner goes to stderr: the first stdout line is the URL, and the server listens then.
    const proc = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'ignore'] })
    let out = ''
    proc.stdout.setEncoding('utf8').on('data', (chunk) => {
      out += chunk
      if (out.includes('\n')) resolveServer({ url: out.slice(0, out.indexOf('\n')).trim(), proc })
    })
    proc.once('exit', (code) => reject(new Error(`fakelab serve exited with ${code}`)))
  })
}

function rssMb(pid) {
  const kb = Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1])
  return kb / 1024
}

// ---- the operations ---------------------------------------------------------------------------------

/**
 * One operation: a class (for the latency table), and its requests in order, each with the
 * statuses it may answer. `n` makes names unique per worker and run.
 * @typedef {{ method: string, path: string, as?: string, body?: unknown, expect: number[] }} Step
 * @typedef {{ cls: string, weight: number, steps: (n: string) => Step[] }} Operation
 */
const get = (cls, path, as = 'root', weight = 1) => ({ cls, weight, steps: () => [{ method: 'GET', path, as, expect: [200] }] })

/** @type {Operation[]} */
const READS = [
  get('labels:read', '/projects/20/labels?with_counts=true'),
  get('labels:read', '/groups/10/labels?include_descendant_groups=true'),
  get('milestones:read', '/groups/10/milestones?state=active'),
  get('milestones:read', '/groups/10/milestones/200/issues'),
  get('issues:read', '/projects/20/issues?state=opened&labels=bug&order_by=updated_at'),
  get('issues:read', '/issues?scope=all&per_page=50'),
  get('issues:read', '/groups/10/issues?milestone=v1.0'),
  get('issues:read', '/projects/20/issues/1/time_stats'),
  get('issues:read', '/projects/20/issues/1/participants'),
  get('members:read', '/projects/20/members/all'),
  get('members:read', '/groups/10/members'),
  get('members:read', '/groups/10/billable_members'),
  get('tokens:read', '/projects/20/access_tokens', 'max'),
  get('runners:read', '/runners/all?tag_list=docker'),
  get('runners:read', '/runners/5/jobs?status=success'),
  get('runners:read', '/projects/20/runners', 'max'),
  get('todos:read', '/todos', 'devon'),
  get('settings:read', '/notification_settings', 'nadia'),
  get('freeze:read', '/projects/20/freeze_periods', 'max'),
  get('moves:read', '/project_repository_storage_moves'),
  get('directory:read', '/projects?per_page=20'),
  get('directory:read', '/groups?all_available=true'),
  get('directory:read', '/user', 'devon'),
  get('directory:read', '/version'),
]

/** @type {Operation[]} */
const WRITES = [
  { cls: 'labels:write', weight: 3, steps: (n) => [
    { method: 'POST', path: '/projects/20/labels', as: 'max', body: { name: `soak-${n}`, color: '#00aa00' }, expect: [201] },
    { method: 'PUT', path: `/projects/20/labels/soak-${n}`, as: 'max', body: { description: 'soaked' }, expect: [200] },
    { method: 'DELETE', path: `/projects/20/labels/soak-${n}`, as: 'max', expect: [204] },
  ] },
  { cls: 'labels:write', weight: 1, steps: () => [
    { method: 'POST', path: '/projects/20/labels/110/subscribe', as: 'riley', expect: [201, 304] },
    { method: 'POST', path: '/projects/20/labels/110/unsubscribe', as: 'riley', expect: [201, 304] },
  ] },
  { cls: 'milestones:write', weight: 2, steps: (n) => [{ method: 'PUT', path: '/groups/10/milestones/201', as: 'max', body: { description: `soak ${n}` }, expect: [200] }] },
  { cls: 'milestones:write', weight: 1, steps: (n) => [
    { method: 'POST', path: '/groups/10/milestones', as: 'max', body: { title: `soak ${n}` }, expect: [201], keep: 'id' },
    { method: 'DELETE', path: '/groups/10/milestones/$id', as: 'max', expect: [204] },
  ] },
  { cls: 'members:write', weight: 2, steps: (n) => [{ method: 'PUT', path: '/projects/20/members/9', as: 'max', body: { access_level: n.length % 2 ? 20 : 30 }, expect: [200] }] },
  { cls: 'members:write', weight: 1, steps: () => [
    { method: 'POST', path: '/projects/23/members', as: 'root', body: { user_id: 8, access_level: 30 }, expect: [201, 409] },
    { method: 'DELETE', path: '/projects/23/members/8', as: 'root', expect: [204, 404] },
  ] },
  { cls: 'runners:write', weight: 2, steps: (n) => [{ method: 'PUT', path: '/runners/1', as: 'root', body: { tag_list: ['docker', `t${n.length % 3}`] }, expect: [200] }] },
  { cls: 'runners:write', weight: 1, steps: (n) => [
    { method: 'POST', path: '/runners', body: { token: 'fakelab-instance-registration-token', description: `soak ${n}` }, expect: [201], keep: 'token' },
    { method: 'DELETE', path: '/runners', body: { token: '$token' }, expect: [204] },
  ] },
  { cls: 'issues:write', weight: 3, steps: () => [{ method: 'POST', path: '/projects/20/issues/1/add_spent_time', as: 'max', body: { duration: '1m' }, expect: [201] }] },
  { cls: 'issues:write', weight: 1, steps: () => [
    { method: 'POST', path: '/projects/20/issues/1/time_estimate', as: 'max', body: { duration: '3h' }, expect: [200] },
    { method: 'POST', path: '/projects/20/issues/1/reset_spent_time', as: 'max', expect: [200] },
  ] },
  { cls: 'todos:write', weight: 2, steps: () => [
    { method: 'POST', path: '/projects/20/issues/2/todo', as: 'riley', expect: [201, 304] },
    { method: 'POST', path: '/todos/mark_as_done', as: 'riley', expect: [204] },
  ] },
  { cls: 'tokens:write', weight: 1, steps: (n) => [
    { method: 'POST', path: '/projects/20/access_tokens', as: 'max', body: { name: `soak-${n}`, scopes: ['read_api'] }, expect: [201], keep: 'id' },
    { method: 'DELETE', path: '/projects/20/access_tokens/$id', as: 'max', expect: [204] },
  ] },
  { cls: 'settings:write', weight: 2, steps: (n) => [{ method: 'PUT', path: '/notification_settings', as: 'nadia', body: { level: n.length % 2 ? 'watch' : 'participating' }, expect: [200] }] },
  { cls: 'freeze:write', weight: 1, steps: () => [
    { method: 'POST', path: '/projects/20/freeze_periods', as: 'max', body: { freeze_start: '0 23 * * 5', freeze_end: '0 7 * * 1' }, expect: [201], keep: 'id' },
    { method: 'DELETE', path: '/projects/20/freeze_periods/$id', as: 'max', expect: [204] },
  ] },
  // The clock is frozen, so the first move never ends: every later one is GitLab's intended 400.
  { cls: 'moves:write', weight: 1, steps: () => [{ method: 'POST', path: '/projects/23/repository_storage_moves', body: { destination_storage_name: 'storage-2' }, expect: [201, 400] }] },
]

/**
 * Every area, a few requests each (issue 39 item 5: the RSS target holds with every area loaded):
 * up to two GET routes of each area's static route table (dist/resources/route-table.js), their
 * parameters filled from the default scenario (`:id` is project 20 below `/projects`, group 10
 * below `/groups`, user 2 below `/users`; any other parameter 1, a `*glob` `README.md`). Which
 * record a filled path names is not checked: any answer but a 5xx (or none) is expected, and
 * each is asked once before the load, so that every area has loaded when the RSS is sampled.
 */
const { ROUTE_TABLE } = await import(new URL('../dist/resources/route-table.js', import.meta.url).href)
const ANY_ANSWER = Array.from({ length: 400 }, (_, i) => 100 + i)
const AREA_READS = Object.entries(ROUTE_TABLE).flatMap(([area, { api }]) => api
  .filter((key) => key.startsWith('GET '))
  .slice(0, 2)
  .map((key) => {
    const path = key.slice(4)
    const id = path.startsWith('/groups/') ? '10' : path.startsWith('/users/') ? '2' : '20'
    const filled = path.replace(/^\/(projects|groups|users)\/:id\b/, (_, root) => `/${root}/${id}`).replace(/:\w+/g, '1').replace(/\*\w+/g, 'README.md')
    return { cls: 'areas:read', weight: 0.25, area, steps: () => [{ method: 'GET', path: filled, as: 'root', expect: ANY_ANSWER }] }
  }))
READS.push(...AREA_READS)

/** Picks an operation: 70% reads, 30% writes, each list by its weights; `r` in [0, 1). */
function pick(r, s) {
  const list = r < 0.7 ? READS : WRITES
  const total = list.reduce((sum, op) => sum + op.weight, 0)
  let x = s * total
  for (const op of list) if ((x -= op.weight) < 0) return op
  return list[list.length - 1]
}

/** A small deterministic generator (mulberry32), one per worker. */
function rng(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

// ---- the load ----------------------------------------------------------------------------------------

function send(agent, base, step, kept) {
  const path = step.path.replace(/\$(\w+)/g, (_, k) => encodeURIComponent(String(kept[k])))
  let body = step.body && JSON.stringify(step.body)
  if (body) body = body.replace(/"\$(\w+)"/g, (_, k) => JSON.stringify(kept[k]))
  const url = new URL(`/api/v4${path}`, base)
  return new Promise((resolveAnswer) => {
    const started = performance.now()
    const req = http.request(url, {
      method: step.method,
      agent,
      headers: { 'PRIVATE-TOKEN': `glpat-${step.as ?? 'root'}-fakelab`, ...(body ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } : {}) },
    }, (res) => {
      const chunks = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => resolveAnswer({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started }))
      res.on('error', (error) => resolveAnswer({ status: 0, text: String(error), ms: performance.now() - started }))
    })
    req.on('error', (error) => resolveAnswer({ status: 0, text: String(error), ms: performance.now() - started }))
    req.end(body)
  })
}

async function main() {
  const server = await serve()
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS })
  const latencies = new Map()
  const statuses = {}
  const errors = []
  const rss = []
  let sent = 0
  // Every area loaded before the load starts (its routes, its modules' state).
  for (const op of AREA_READS) {
    const [step] = op.steps('warm')
    const answer = await send(agent, server.url, step, {})
    if (!step.expect.includes(answer.status)) errors.push(`${step.method} ${step.path} (area ${op.area}, before the load): ${answer.status} ${answer.text.slice(0, 200)}`)
  }
  console.log(`[soak] ${new Set(AREA_READS.map((op) => op.area)).size} areas loaded (${AREA_READS.length} routes asked), RSS ${rssMb(server.proc.pid).toFixed(0)} MB`)
  const started = performance.now()
  const deadline = started + SECONDS * 1000
  rss.push(rssMb(server.proc.pid))
  const sampler = setInterval(() => {
    rss.push(rssMb(server.proc.pid))
    console.log(`[soak] ${Math.round((performance.now() - started) / 1000)} s: ${sent} requests, RSS ${rss.at(-1).toFixed(0)} MB`)
  }, SAMPLE_MS)

  async function worker(w) {
    const random = rng(1000 + w)
    let count = 0
    while (performance.now() < deadline) {
      const op = pick(random(), random())
      const n = `${w}-${count++}`
      const kept = {}
      for (const step of op.steps(n)) {
        const answer = await send(agent, server.url, step, kept)
        sent += 1
        statuses[answer.status] = (statuses[answer.status] ?? 0) + 1
        const list = latencies.get(op.cls) ?? []
        list.push(answer.ms)
        latencies.set(op.cls, list)
        if (!step.expect.includes(answer.status)) {
          if (errors.length < 20) errors.push(`${step.method} ${step.path} as ${step.as ?? 'root'}: ${answer.status} ${answer.text.slice(0, 200)}`)
          else errors.push('')
          break
        }
        if (step.keep) kept[step.keep] = JSON.parse(answer.text)[step.keep]
      }
    }
  }
  try {
    await Promise.all(Array.from({ length: CONNECTIONS }, (_, w) => worker(w)))
  } finally {
    clearInterval(sampler)
    rss.push(rssMb(server.proc.pid))
    agent.destroy()
    server.proc.kill('SIGKILL')
  }

  const seconds = (performance.now() - started) / 1000
  console.log(`\n== soak: ${SECONDS} s, ${CONNECTIONS} connections, 70% reads / 30% writes ==`)
  console.log(`requests sent  ${sent.toLocaleString('en-US')} (${(sent / seconds).toFixed(0)}/s)`)
  console.log(`statuses       ${JSON.stringify(statuses)}`)
  console.log(`errors         ${errors.length}${errors.length ? `\n  ${errors.filter(Boolean).join('\n  ')}` : ''}`)
  console.log('latency by route class (ms):')
  for (const [cls, list] of [...latencies].sort()) {
    list.sort((a, b) => a - b)
    const q = (p) => list[Math.min(list.length - 1, Math.floor(p * list.length))].toFixed(2)
    console.log(`  ${cls.padEnd(18)} n ${String(list.length).padStart(7)}  p50 ${q(0.5).padStart(7)}  p99 ${q(0.99).padStart(7)}`)
  }
  console.log(`RSS every 5 s (MB): ${rss.map((x) => x.toFixed(0)).join(' ')}`)
  const third = Math.max(1, Math.floor(rss.length / 3))
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length
  const middle = mean(rss.slice(third, 2 * third))
  const last = mean(rss.slice(-third))
  const levelled = rss.length < 6 || last <= middle * 1.1 + 16
  console.log(`RSS middle third ${middle.toFixed(0)} MB, last third ${last.toFixed(0)} MB: ${levelled ? 'levelled off' : 'STILL GROWING'}`)
  // Issue 27's target, printed for `npm run bench` (which soaks 30 s); a report, not a failure here.
  const final = rss.at(-1)
  console.log(`RSS after ${SECONDS} s of load  ${final.toFixed(0)} MB   target <= ${RSS_TARGET_MB} MB (issue 27): ${final <= RSS_TARGET_MB ? 'PASS' : 'MISS'}`)
  const ok = errors.length === 0 && levelled
  console.log(ok ? 'soak: passed' : 'soak: FAILED')
  if (!ok) process.exitCode = 1
}

await main()
