// What a `fakelab serve` start costs, counted in ways a loaded machine does not change much
// (issue 39, cold start): for each build given, the CPU time (process.cpuUsage, in the child) at
// the steps of a start up to the first answered GET /api/v4/projects/20/labels, the bytes of the
// files it read on the way (bundles and code caches), the heap in use and the garbage collections
// by then. Medians of --runs alternating starts. With --double, a copy of the build with every area
// mounted twice (bench/double.mjs --keep) is counted beside it, and the growth printed.
// With --scenario FILE, each start serves that scenario file (`serve --scenario FILE`) and the first
// request is an anonymous GET /api/v4/projects (any scenario answers it 200); with --validate FILE,
// each run is `fakelab validate FILE`, counted when the process exits (issue 39 item 4).
//
//   node bench/start-counts.mjs [--runs N] [--double] [--scenario FILE | --validate FILE] [DIST ...]
//   (default DIST: dist; needs npm run build)
import { spawnSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
/** The value after an option, and its index (-1 when absent). */
const option = (name) => {
  const at = args.indexOf(name)
  return { at, value: at >= 0 ? args[at + 1] : undefined }
}
const runs = option('--runs')
const RUNS = runs.at >= 0 ? Number(runs.value) : 11
const scenarioOption = option('--scenario')
const validateOption = option('--validate')
const SCENARIO = scenarioOption.value === undefined ? undefined : resolve(scenarioOption.value)
const VALIDATE = validateOption.value === undefined ? undefined : resolve(validateOption.value)
if (SCENARIO && VALIDATE) throw new Error('give --scenario or --validate, not both')
const valueAt = new Set([runs.at, scenarioOption.at, validateOption.at].filter((at) => at >= 0).map((at) => at + 1))
const dists = args.filter((a, i) => !a.startsWith('--') && !valueAt.has(i)).map((d) => resolve(d))
if (dists.length === 0) dists.push(join(ROOT, 'dist'))
let doubled
if (args.includes('--double')) {
  const run = spawnSync(process.execPath, [join(ROOT, 'bench', 'double.mjs'), '--dist', dists[0], '--keep'], { encoding: 'utf8' })
  doubled = run.stdout.trim().split('\n').at(-1)
  if (run.status !== 0 || !doubled) throw new Error(`bench/double.mjs --keep failed: ${run.stderr}`)
  dists.push(doubled)
}

// The child: the CLI loader run in this process, with marks (CPU ms since the child's entry).
const CHILD = `
const t0 = process.cpuUsage()
const ms = () => { const u = process.cpuUsage(t0); return (u.user + u.system) / 1000 }
const marks = {}
const fs = require('node:fs')
const read = fs.readFileSync
let bytes = 0
fs.readFileSync = function (...a) { const out = read.apply(this, a); bytes += out.length; return out }
let gcs = 0
new (require('node:perf_hooks').PerformanceObserver)((l) => { gcs += l.getEntries().length }).observe({ entryTypes: ['gc'] })
const loader = require(process.argv[1] + '/cli-loader.cjs')
const script = loader.compileCli(loader.readCodeCache())
marks.compiled = ms()
if (script.cachedDataRejected) marks.rejected = true
const [scenario, validate] = process.argv.slice(2)
const counts = () => JSON.stringify({ ...marks, bytes, gcs, heapKB: Math.round(require('node:v8').getHeapStatistics().used_heap_size / 1024) }) + '\\n'
if (validate) {
  process.argv.splice(1, Infinity, 'fakelab', 'validate', validate)
  process.on('exit', (code) => {
    marks.answered = ms()
    marks.status = code === 0 ? 200 : code
    fs.writeSync(1, counts())
  })
} else process.argv.splice(1, Infinity, 'fakelab', 'serve', '--port', '0', '--log', 'off', ...(scenario ? ['--scenario', scenario] : []))
const write = process.stdout.write.bind(process.stdout)
if (!validate) process.stdout.write = (chunk) => {
  if (marks.url !== undefined) return true
  marks.url = ms()
  const url = String(chunk).split('\\n')[0].trim()
  const [path, headers] = scenario ? ['/api/v4/projects', {}] : ['/api/v4/projects/20/labels', { 'PRIVATE-TOKEN': 'glpat-root-fakelab' }]
  setImmediate(() => require('node:http').get(url + path, { headers, agent: false }, (res) => {
    res.resume()
    res.on('end', () => {
      marks.status = res.statusCode
      write(counts())
      process.exit(0)
    })
  }))
  return true
}
require('node:diagnostics_channel').subscribe('http.server.response.finish', () => { marks.answered ??= ms() })
loader.runCli(script)
marks.ran = ms()
`
const results = dists.map(() => [])
try {
  for (let i = 0; i < RUNS; i += 1) {
    for (const [j, dist] of dists.entries()) {
      const run = spawnSync(process.execPath, ['-e', CHILD, dist, SCENARIO ?? '', VALIDATE ?? ''], { encoding: 'utf8' })
      const line = run.stdout.split('\n').find((l) => l.startsWith('{'))
      if (!line) throw new Error(`a start of ${dist} gave no counts: ${run.stderr}`)
      const counts = JSON.parse(line)
      if (counts.status !== 200 || counts.rejected) throw new Error(`${dist}: answered ${counts.status}${counts.rejected ? ', its code cache rejected' : ''}`)
      results[j].push(counts)
    }
  }
} finally {
  if (doubled) rmSync(dirname(doubled), { recursive: true, force: true })
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]
const FIELDS = [['compiled', 'bundle compiled, ms CPU'], ['ran', 'bundle ran, ms CPU'], ...(VALIDATE ? [] : [['url', 'listening (URL line), ms CPU']]), ['answered', VALIDATE ? 'exit, ms CPU' : 'first answer, ms CPU'], ['bytes', 'bytes read (files)'], ['heapKB', 'heap in use, KB'], ['gcs', 'garbage collections']]
const medians = results.map((rs) => Object.fromEntries(FIELDS.map(([f]) => [f, median(rs.map((r) => r[f]))])))
const what = VALIDATE ? `fakelab validate ${VALIDATE.replace(ROOT + '/', '')} (spawn to exit)` : SCENARIO ? `serve --scenario ${SCENARIO.replace(ROOT + '/', '')} (spawn to the first answer of GET /api/v4/projects)` : 'spawn to the first answer of GET /api/v4/projects/20/labels'
process.stdout.write(`Start counts, median of ${RUNS} alternating runs (${what})\n`)
process.stdout.write(`${''.padEnd(30)}${dists.map((d, j) => (d === doubled ? 'every area twice' : d.replace(ROOT + '/', '')).slice(-20).padStart(22)).join('')}${doubled ? '    growth' : ''}\n`)
for (const [f, label] of FIELDS) {
  const cells = medians.map((m) => (f === 'bytes' || f === 'heapKB' || f === 'gcs' ? String(m[f]) : m[f].toFixed(1)).padStart(22)).join('')
  const growth = doubled ? `  ${(((medians.at(-1)[f] / medians[0][f]) - 1) * 100).toFixed(1).padStart(6)}%` : ''
  process.stdout.write(`${label.padEnd(30)}${cells}${growth}\n`)
}
