// fakelab git-over-HTTP benchmark (issue 35, "Done when" last bullet), run by `npm run bench`:
//   node bench/git-http.mjs [--commits 10000] [--files 1000] [--fetches 10]
// The repository benchmark's scenario (bench/repository-scenario.mjs: COMMITS commits over FILES
// files, public project 20) served by `startServer` on 127.0.0.1, port 0; the real `git` CLI then
//   (a) clones it in full (protocol v2): target within 3 s;
//   (b) after one commit through the API, fetches it: FETCHES times (a commit each), p50 of the
//       `git fetch` wall time: target within 100 ms (git's own process start included, as a user sees it).
// The server's CPU time is printed beside wall time (a shared machine stretches wall time).
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
const { values: args } = parseArgs({ options: { commits: { type: 'string', default: '10000' }, files: { type: 'string', default: '1000' }, fetches: { type: 'string', default: '10' } } })
const TARGETS = { cloneMs: 3000, fetchP50: 100 }
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
  let cpu = process.cpuUsage()
  let t = performance.now()
  await run('git', ['-c', 'protocol.version=2', 'clone', '--quiet', remote, 'clone'], { cwd: dir, env })
  const cloneMs = performance.now() - t
  console.log(`clone of ${args.commits} commits: ${fmt(cloneMs)} ms wall, server CPU ${fmt(cpuMs(cpu))} ms (target ≤ ${TARGETS.cloneMs} ms)`)
  if (cloneMs > TARGETS.cloneMs) failed = true
  const times = []
  for (let i = 0; i < Number(args.fetches); i++) {
    const res = await fetch(`${server.url}/api/v4/projects/${PROJECT}/repository/commits`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ branch: project.default_branch, commit_message: `Bench ${i}`, actions: [{ action: 'create', file_path: `bench-${i}.txt`, content: `${i}\n` }] }),
    })
    if (res.status !== 201) throw new Error(`API commit: ${res.status}`)
    cpu = process.cpuUsage()
    t = performance.now()
    await run('git', ['fetch', '--quiet', 'origin'], { cwd: join(dir, 'clone'), env })
    times.push({ ms: performance.now() - t, cpu: cpuMs(cpu) })
  }
  times.sort((a, b) => a.ms - b.ms)
  const p50 = times[Math.floor(times.length / 2)]
  console.log(`fetch of one commit: p50 ${fmt(p50.ms)} ms wall, server CPU ${fmt(p50.cpu)} ms (target ≤ ${TARGETS.fetchP50} ms)`)
  if (p50.ms > TARGETS.fetchP50) failed = true
} finally {
  await server.close()
  rmSync(dir, { recursive: true, force: true })
}
process.exit(failed ? 1 : 0)
