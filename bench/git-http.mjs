// fakelab git-over-HTTP benchmark (issue 35, "Done when" last bullet), run by `npm run bench`:
//   node bench/git-http.mjs [--commits 10000] [--files 1000] [--clones 5] [--fetches 10]
// The repository benchmark's scenario (bench/repository-scenario.mjs: COMMITS commits over FILES
// files, public project 20, generated from indexes alone and built by fakelab's own object store:
// the same SHAs every run) served by `startServer` on 127.0.0.1, port 0; the real `git` CLI then
//   (a) clones it in full (protocol v2), CLONES times into fresh directories: median wall time,
//       target within 3 s;
//   (b) after one commit through the API, fetches it: FETCHES times (a commit each), median of the
//       `git fetch` wall time: target within 100 ms (git's own process start included, as a user sees it).
// Each series prints its runs, its median and the verdict against its target.
// The bench process's CPU time (the server, plus spawning git) is printed beside wall time: a shared
// machine stretches wall time, and the gap between the two is git's own work and the wait for a core.
// Exits 1 when a target is missed. Needs `npm run build` (dist/) and `git` on the PATH.
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import { parseArgs, promisify } from 'node:util'
import { PROJECT, TOKEN, repositoryScenario } from './repository-scenario.mjs'

const run = promisify(execFile)
const ROOT = resolve(import.meta.dirname, '..')
const { createSimulator } = await import(pathToFileURL(join(ROOT, 'dist', 'index.js')).href)
const { startServer } = await import(pathToFileURL(join(ROOT, 'dist', 'node.js')).href)
const { values: args } = parseArgs({ options: { commits: { type: 'string', default: '10000' }, files: { type: 'string', default: '1000' }, clones: { type: 'string', default: '5' }, fetches: { type: 'string', default: '10' } } })
const TARGETS = { cloneMs: 3000, fetchMs: 100 }
/** The median of timed runs ({ ms, cpu }), by wall time (the upper middle one for an even count). */
const median = (runs) => [...runs].sort((a, b) => a.ms - b.ms)[Math.floor(runs.length / 2)]
const verdict = (ms, target) => (ms <= target ? `within the target (≤ ${target} ms)` : `MISSES the target (≤ ${target} ms)`)
const env = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', HOME: tmpdir() }
const fmt = (n) => n.toLocaleString('en-US', { maximumFractionDigits: 1 })
const cpuMs = (since) => {
  const used = process.cpuUsage(since)
  return (used.user + used.system) / 1000
}

const sim = createSimulator({ scenario: repositoryScenario(Number(args.commits), Number(args.files)) })
const server = await startServer(sim, { port: 0 })
const dir = mkdtempSync(join(tmpdir(), 'fakelab-git-bench-'))
const project = (await (await fetch(`${server.url}/api/v4/projects/${PROJECT}`, { headers: { 'PRIVATE-TOKEN': TOKEN } })).json())
const remote = `${server.url}/${project.path_with_namespace}.git`
let failed = false
try {
  // The repository is built on first use; a ref advertisement builds it before the clone is timed.
  await fetch(`${remote}/info/refs?service=git-upload-pack`)
  const clones = []
  for (let i = 0; i < Number(args.clones); i++) {
    const cpu = process.cpuUsage()
    const t = performance.now()
    await run('git', ['-c', 'protocol.version=2', 'clone', '--quiet', remote, `clone-${i}`], { cwd: dir, env })
    clones.push({ ms: performance.now() - t, cpu: cpuMs(cpu) })
    if (i > 0) rmSync(join(dir, `clone-${i}`), { recursive: true, force: true })
  }
  const count = (await run('git', ['rev-list', '--count', 'HEAD'], { cwd: join(dir, 'clone-0'), env })).stdout.trim()
  const clone = median(clones)
  console.log(`clone of ${args.commits} commits (${count} on the default branch), ${clones.length} runs: ${clones.map((r) => fmt(r.ms)).join(', ')} ms`)
  console.log(`  median ${fmt(clone.ms)} ms wall, bench process CPU ${fmt(clone.cpu)} ms: ${verdict(clone.ms, TARGETS.cloneMs)}`)
  if (clone.ms > TARGETS.cloneMs) failed = true
  const fetches = []
  for (let i = 0; i < Number(args.fetches); i++) {
    const res = await fetch(`${server.url}/api/v4/projects/${PROJECT}/repository/commits`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ branch: project.default_branch, commit_message: `Bench ${i}`, actions: [{ action: 'create', file_path: `bench-${i}.txt`, content: `${i}\n` }] }),
    })
    if (res.status !== 201) throw new Error(`API commit: ${res.status}`)
    const made = (await res.json()).id
    const cpu = process.cpuUsage()
    const t = performance.now()
    await run('git', ['fetch', '--quiet', 'origin'], { cwd: join(dir, 'clone-0'), env })
    fetches.push({ ms: performance.now() - t, cpu: cpuMs(cpu) })
    const fetched = (await run('git', ['rev-parse', `origin/${project.default_branch}`], { cwd: join(dir, 'clone-0'), env })).stdout.trim()
    if (fetched !== made) throw new Error(`fetch ${i} brought ${fetched}, not the API's commit ${made}`)
  }
  const one = median(fetches)
  console.log(`fetch of one commit after an API commit, ${fetches.length} runs: ${fetches.map((r) => fmt(r.ms)).join(', ')} ms`)
  console.log(`  median ${fmt(one.ms)} ms wall, bench process CPU ${fmt(one.cpu)} ms: ${verdict(one.ms, TARGETS.fetchMs)}`)
  if (one.ms > TARGETS.fetchMs) failed = true
} finally {
  await server.close()
  rmSync(dir, { recursive: true, force: true })
}
process.exit(failed ? 1 : 0)
