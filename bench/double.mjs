// Cold start as the route table doubles (issue 39, "Done when"): `fakelab serve --port 0` from spawn
// to the first answered request (GET /api/v4/projects/20/labels), this build against a copy of it
// whose every area is mounted twice: a generated second copy of every area's route table (each key
// with a segment suffixed `-copy2`, so none collides, in the original's router bucket), of its static declarations (its tables, renamed
// `<table>_copy2`) and of its code (its folder copied, so the bundle carries every module twice;
// the copies' routes are never asked). The copy is bundled as `npm run build` bundles
// (scripts/build-cli.mjs: the same lazy packages, its own code cache). Alternating runs, bare node:http first, then the two builds; the growth is the
// median of each round's ratio doubled/original, against the ≤ 5% target.
//
//   node bench/double.mjs [--dist DIR] [--runs N]     (needs a build: npm run build)
//   node bench/double.mjs --keep                      builds the doubled copy, prints its dist and keeps it
//                                                     (for load-independent counts: bench/start-counts.mjs)
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { LIST_PATH, TOKEN } from './fixture.mjs'
import { timeToFirstAnswer } from './processes.mjs'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const option = (name) => {
  const i = process.argv.indexOf(name)
  return i >= 0 ? process.argv[i + 1] : undefined
}
const DIST = resolve(option('--dist') ?? join(ROOT, 'dist'))
const RUNS = Number(option('--runs') ?? 7)
const TARGET_GROWTH = 0.05
const SUFFIX = 'copy2'
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]
const out = (line = '') => process.stdout.write(`${line}\n`)

/** A copy of the build in a temporary root whose every area is mounted twice; returns its dist. */
async function doubledBuild() {
  const root = mkdtempSync(join(tmpdir(), 'fakelab-double-'))
  cpSync(DIST, join(root, 'dist'), { recursive: true })
  for (const name of ['node_modules', 'scripts', 'package.json']) symlinkSync(join(ROOT, name), join(root, name))
  const resources = join(root, 'dist', 'resources')
  const { ROUTE_TABLE } = await import(pathToFileURL(join(DIST, 'resources', 'route-table.js')).href)
  // The route table, twice: each area's keys again under the copy's name and a path of its own,
  // which keeps the original's first segment and segment count where it can (its last static
  // segment past the first gets the suffix, else its first), so that the copy's routes fall into
  // the router buckets the original's do, as new areas' routes under /projects/:id/… would: a
  // request's bucket makes its routes' entries when it is first filed (src/resources/index.ts).
  const copyKey = (key) => {
    const space = key.indexOf(' ')
    const segments = key.slice(space + 1).split('/')
    const isStatic = (segment) => segment !== '' && !segment.startsWith(':') && !segment.startsWith('*')
    let at = segments.findLastIndex((segment, i) => i >= 2 && isStatic(segment))
    if (at < 0 && isStatic(segments[1] ?? '')) at = 1
    if (at < 0) return key.replace(' /', ` /${SUFFIX}/`)
    segments[at] += `-${SUFFIX}`
    return `${key.slice(0, space)} ${segments.join('/')}`
  }
  const copyKeys = (keys) => keys?.map(copyKey)
  const doubled = { ...ROUTE_TABLE }
  for (const [area, { api, web }] of Object.entries(ROUTE_TABLE)) doubled[`${area}-${SUFFIX}`] = { api: copyKeys(api), ...(web ? { web: copyKeys(web) } : {}) }
  // The engine's router does not check the static table for duplicates (its test does): this one.
  for (const kind of ['api', 'web']) {
    const keys = Object.values(doubled).flatMap((table) => table[kind] ?? [])
    if (new Set(keys).size !== keys.length) throw new Error(`the doubled route table repeats ${kind} keys`)
  }
  writeFileSync(join(resources, 'route-table.js'), `export const ROUTE_TABLE = ${JSON.stringify(doubled)}\n`)
  // The mount list, twice, with every area's code twice as well (as real new areas would bring):
  // each area folder copied to `<area>-copy2/`, whose index module (and what it imports, its
  // tables, scenario and importer modules) runs at start, and whose route modules are bundled
  // behind its `load`. The copies keep only what a start reads of an area (its name, its routes'
  // loader, its tables, renamed): no registrations, scenario format, cascade rules or secrets twice.
  const mounted = await import(pathToFileURL(join(DIST, 'resources', 'areas.js')).href)
  writeFileSync(join(resources, 'areas-original.js'), readFileSync(join(resources, 'areas.js'), 'utf8'))
  const lines = ["import * as original from './areas-original.js'", "export * from './areas-original.js'"]
  lines.push(`const copy = (area) => ({ name: \`\${area.name}-${SUFFIX}\`, load: area.load, ...(area.tables ? { tables: Object.fromEntries(Object.entries(area.tables).map(([name, def]) => [\`\${name}_${SUFFIX}\`, def])) } : {}) })`)
  for (const [exported, area] of Object.entries(mounted).filter(([, value]) => typeof value === 'object')) {
    cpSync(join(resources, area.name), join(resources, `${area.name}-${SUFFIX}`), { recursive: true })
    lines.push(`import { ${exported} as ${exported}_source } from './${area.name}-${SUFFIX}/index.js'`)
    lines.push(`export const ${exported}_${SUFFIX} = copy(${exported}_source)`)
  }
  writeFileSync(join(resources, 'areas.js'), `${lines.join('\n')}\n`)
  const names = Object.values(mounted).filter((value) => typeof value === 'object')
  const { buildCli } = await import(pathToFileURL(join(ROOT, 'scripts', 'build-cli.mjs')).href)
  // Through the node_modules link, as the real build sees its own: followed, it would name every
  // npm module of the bundles by its path from the copy's root (`../../work/…/node_modules/…`).
  await buildCli(root, { preserveSymlinks: true })
  return { root, dist: join(root, 'dist'), areas: names.length * 2, routes: Object.values(doubled).reduce((n, t) => n + t.api.length + (t.web?.length ?? 0), 0) }
}



const { ROUTE_TABLE } = await import(pathToFileURL(join(DIST, 'resources', 'route-table.js')).href)
const originalRoutes = Object.values(ROUTE_TABLE).reduce((n, t) => n + t.api.length + (t.web?.length ?? 0), 0)
const copy = await doubledBuild()
if (process.argv.includes('--keep')) {
  out(copy.dist)
  process.exit(0)
}
try {
  const cli = (dist) => join(dist, 'cli.js')
  if (!existsSync(cli(copy.dist))) throw new Error('the doubled build has no dist/cli.js')
  const bareServer = "require('node:http').createServer((q,s)=>s.end('[]')).listen(0,'127.0.0.1',function(){console.log('http://127.0.0.1:'+this.address().port)})"
  const times = { bare: [], original: [], doubled: [] }
  const serve = (dist) => [process.execPath, cli(dist), 'serve', '--port', '0']
  // A first start of each, not counted (the file cache).
  await timeToFirstAnswer(serve(DIST), LIST_PATH, { 'PRIVATE-TOKEN': TOKEN })
  await timeToFirstAnswer(serve(copy.dist), LIST_PATH, { 'PRIVATE-TOKEN': TOKEN })
  for (let i = 0; i < RUNS; i += 1) {
    times.bare.push(await timeToFirstAnswer([process.execPath, '-e', bareServer], '/', {}))
    // Alternating which build goes first, so that neither always follows the bare start.
    const order = i % 2 === 0 ? ['original', 'doubled'] : ['doubled', 'original']
    for (const name of order) times[name].push(await timeToFirstAnswer(serve(name === 'original' ? DIST : copy.dist), LIST_PATH, { 'PRIVATE-TOKEN': TOKEN }))
  }
  const ms = (name) => times[name].map((t) => t.ms)
  const cpu = (name) => times[name].map((t) => t.cpuMs)
  const growth = median(ms('doubled').map((x, i) => x / ms('original')[i])) - 1
  const cpuGrowth = median(cpu('doubled').map((x, i) => x / cpu('original')[i])) - 1
  const row = (label, name) => `  ${label.padEnd(24)} ${median(ms(name)).toFixed(1).padStart(7)} ms ${median(cpu(name)).toFixed(0).padStart(5)} CPU ms` + (name === 'bare' ? '' : `   ${median(ms(name).map((x, i) => x / ms('bare')[i])).toFixed(2)}× bare`)
  out(`Cold start as the route table doubles (median of ${RUNS} alternating runs; spawn to the first answer of GET ${LIST_PATH})`)
  out(row('bare node:http', 'bare'))
  out(row(`fakelab (${originalRoutes} routes)`, 'original'))
  out(row(`doubled (${copy.routes} routes)`, 'doubled') + `   (${copy.areas} areas)`)
  // The target is on the wall clock (a quiet machine's start is all CPU); the CPU figure is what a
  // busy machine cannot inflate, at the kernel's 10 ms tick.
  const verdict = (x) => (x <= TARGET_GROWTH ? 'PASS' : 'MISS')
  out(`  growth per doubling      ${(growth * 100).toFixed(1)}% wall, ${(cpuGrowth * 100).toFixed(1)}% CPU   target ≤ ${TARGET_GROWTH * 100}%   ${verdict(growth)} (CPU: ${verdict(cpuGrowth)})`)
} finally {
  rmSync(copy.root, { recursive: true, force: true })
}
