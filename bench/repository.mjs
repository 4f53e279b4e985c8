// fakelab repository benchmark (issue 26, "Done when" second bullet), run by `npm run bench`:
//   node bench/repository.mjs [--commits 10000] [--files 1000] [--requests 100] [--warmup 10]
// A scenario with one project whose `repository:` holds COMMITS commits touching FILES files
// (generated below from the indexes alone: no randomness), the last FEATURE_COMMITS of them on a
// branch `feature` started before main's last commits and changing 100 files. Then, through
// `sim.handle()` (no HTTP, the reply memo off so that each request costs what a first one costs):
//   (a) the scenario validated (`validateScenarioObject`) and loaded (`createSimulator`): target
//       within the scenario-load budget of bench/scale.mjs (3 s);
//   (b) the lazy repository build on first use (a request that needs the repository and reads
//       nothing in it: a blob that does not exist, 404), information beside the same budget;
//   (c) `GET /projects/:id/repository/tree`: the first (cold) request, then p50/p99 (target
//       p50 ≤ 5 ms), also recursive (100 per page) for information;
//   (d) `GET /projects/:id/repository/compare?from=main&to=feature` (100 files, FEATURE_COMMITS
//       commits; the merge base some commits back on main): the first request, then p50/p99
//       (target p50 ≤ 5 ms);
//   and a cold start whose first request is the tree (build included), for information.
// CPU time is printed beside wall time (a shared machine stretches wall time). Exits 1 when a
// target is missed.
import { join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { FEATURE_COMMITS, PROJECT, TOKEN, compareFiles, repositoryScenario } from './repository-scenario.mjs'

const ROOT = resolve(import.meta.dirname, '..')
const { createSimulator, validateScenarioObject } = await import(pathToFileURL(join(ROOT, 'dist', 'index.js')).href)
const { values: args } = parseArgs({
  options: {
    commits: { type: 'string', default: '10000' },
    files: { type: 'string', default: '1000' },
    requests: { type: 'string', default: '100' },
    warmup: { type: 'string', default: '10' },
  },
})
const COMMITS = Number(args.commits)
const FILES = Number(args.files)
const REQUESTS = Number(args.requests)
const WARMUP = Number(args.warmup)
const COMPARE_FILES = compareFiles(FILES)
const TARGETS = { loadMs: 3000, treeP50: 5, compareP50: 5 }
const BASE = 'http://repository.test'

const fmt = (n, digits = 2) => (Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : 'n/a')
const cpuMs = (since) => {
  const used = process.cpuUsage(since)
  return (used.user + used.system) / 1000
}

async function get(sim, url) {
  const res = await sim.handle(new Request(`${BASE}/api/v4${url}`, { headers: { 'PRIVATE-TOKEN': TOKEN } }))
  return { status: res.status, text: await res.text() }
}

/** One request timed: wall and CPU ms, status, body. */
async function timed(sim, url) {
  const c = process.cpuUsage()
  const t = performance.now()
  const res = await get(sim, url)
  return { ms: performance.now() - t, cpu: cpuMs(c), ...res }
}

/** p50/p99 (ms) of REQUESTS requests after WARMUP, wall time, and the CPU time's p50. */
async function latency(sim, url) {
  const times = []
  const cpus = []
  for (let i = 0; i < REQUESTS + WARMUP; i++) {
    const c = process.cpuUsage()
    const t = performance.now()
    const res = await get(sim, url)
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${res.text.slice(0, 200)}`)
    if (i >= WARMUP) {
      times.push(performance.now() - t)
      cpus.push(cpuMs(c))
    }
  }
  times.sort((a, b) => a - b)
  cpus.sort((a, b) => a - b)
  const at = (q) => Math.min(times.length - 1, Math.floor(times.length * q))
  return { p50: times[at(0.5)], p99: times[at(0.99)], cpuP50: cpus[at(0.5)] }
}

const missed = []
const verdict = (ok, what) => {
  if (!ok) missed.push(what)
  return ok ? '' : '  MISSED'
}

const t0 = performance.now()
const scenario = repositoryScenario(COMMITS, FILES)
const buildScenarioMs = performance.now() - t0
const c1 = process.cpuUsage()
const t1 = performance.now()
const validated = validateScenarioObject(scenario)
const validateMs = performance.now() - t1
const validateCpu = cpuMs(c1)
const c2 = process.cpuUsage()
const t2 = performance.now()
const sim = createSimulator({ scenario: validated, replyMemo: 'off' })
const applyMs = performance.now() - t2
const applyCpu = cpuMs(c2)
const loadMs = validateMs + applyMs

console.log(`\n== repository: ${COMMITS.toLocaleString('en-US')} commits (${FEATURE_COMMITS} on feature), ${FILES.toLocaleString('en-US')} files, one project; through sim.handle, ${REQUESTS} requests each ==`)
console.log(`scenario object built        ${fmt(buildScenarioMs, 0)} ms`)
console.log(`validated                    ${fmt(validateMs, 0)} ms (CPU ${fmt(validateCpu, 0)} ms)`)
console.log(`loaded into the store        ${fmt(applyMs, 0)} ms (CPU ${fmt(applyCpu, 0)} ms)`)
console.log(`(a) load (validate + store)  ${fmt(loadMs, 0)} ms (CPU ${fmt(validateCpu + applyCpu, 0)} ms; target ≤ ${TARGETS.loadMs} ms)${verdict(loadMs <= TARGETS.loadMs, 'load time')}`)

// (b) The build: the first request that needs the repository, reading nothing in it.
const build = await timed(sim, `/projects/${PROJECT}/repository/blobs/${'0'.repeat(40)}`)
if (build.status !== 404) throw new Error(`the build probe answered ${build.status}`)
console.log(`(b) repository build (first use) ${fmt(build.ms, 0)} ms (CPU ${fmt(build.cpu, 0)} ms; load + build ${fmt(loadMs + build.ms, 0)} ms, information beside the ${TARGETS.loadMs} ms budget)`)

// (c) The tree.
const TREE = `/projects/${PROJECT}/repository/tree`
const TREE_RECURSIVE = `${TREE}?recursive=true&per_page=100`
const coldTree = await timed(sim, TREE)
const treeRows = JSON.parse(coldTree.text).length
const tree = await latency(sim, TREE)
console.log(`(c) GET …/repository/tree: first ${fmt(coldTree.ms)} ms (CPU ${fmt(coldTree.cpu)} ms), p50 ${fmt(tree.p50)} ms (CPU ${fmt(tree.cpuP50)} ms), p99 ${fmt(tree.p99)} ms (${treeRows} entries; target p50 ≤ ${TARGETS.treeP50} ms)${verdict(tree.p50 <= TARGETS.treeP50, 'tree p50')}`)
const coldRecursive = await timed(sim, TREE_RECURSIVE)
const recursive = await latency(sim, TREE_RECURSIVE)
console.log(`    …/tree?recursive=true&per_page=100: first ${fmt(coldRecursive.ms)} ms, p50 ${fmt(recursive.p50)} ms (CPU ${fmt(recursive.cpuP50)} ms), p99 ${fmt(recursive.p99)} ms (information)`)

// (d) The compare.
const COMPARE = `/projects/${PROJECT}/repository/compare?from=main&to=feature`
const coldCompare = await timed(sim, COMPARE)
const body = JSON.parse(coldCompare.text)
if (coldCompare.status !== 200 || body.diffs.length !== COMPARE_FILES || body.commits.length !== FEATURE_COMMITS) {
  throw new Error(`the compare answered ${coldCompare.status} with ${body.diffs?.length} diffs and ${body.commits?.length} commits (expected ${COMPARE_FILES} and ${FEATURE_COMMITS})`)
}
const compare = await latency(sim, COMPARE)
console.log(`(d) GET …/repository/compare (${body.diffs.length} files, ${body.commits.length} commits, ${fmt(coldCompare.text.length / 1024, 0)} KB): first ${fmt(coldCompare.ms)} ms (CPU ${fmt(coldCompare.cpu)} ms), p50 ${fmt(compare.p50)} ms (CPU ${fmt(compare.cpuP50)} ms), p99 ${fmt(compare.p99)} ms (target p50 ≤ ${TARGETS.compareP50} ms)${verdict(compare.p50 <= TARGETS.compareP50, 'compare p50')}`)

// A cold start whose first request is the tree: the build and the tree together.
const fresh = createSimulator({ scenario: validated, replyMemo: 'off' })
const coldStart = await timed(fresh, TREE)
console.log(`cold start, first request the tree (build included): ${fmt(coldStart.ms, 0)} ms (CPU ${fmt(coldStart.cpu, 0)} ms; information)`)

console.log(missed.length ? `\nrepository bench: TARGET MISSED (${missed.join(', ')})` : '\nrepository bench: within targets')
if (missed.length) process.exitCode = 1
