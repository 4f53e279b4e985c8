/**
 * The browser MSW bundle depends on these folders staying free of Node-only imports, and each
 * third-party dependency stays behind one door (STYLE.md §2 "Boundaries worth protecting").
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CORE_TABLES } from '../../src/db/schema.js'
import { areas } from '../../src/resources/index.js'

const SRC = join(import.meta.dirname, '..', '..', 'src')

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    return statSync(full).isDirectory() ? files(full) : full.endsWith('.ts') ? [full] : []
  })
}

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  return [...text.matchAll(/^\s*(?:import|export)[^'"]*from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]!)
}

const all = files(SRC).map((file) => ({ file: relative(SRC, file).split('\\').join('/'), imports: imports(file) }))

describe('import boundaries', () => {
  it.each(['core/', 'db/', 'rules/', 'entities/', 'resources/', 'scenario/'])('%s imports nothing Node-only', (folder) => {
    const offenders = all
      .filter((f) => f.file.startsWith(folder))
      .flatMap((f) => f.imports.filter((i) => i.startsWith('node:') || ['fs', 'http', 'path', 'http-proxy'].includes(i)).map((i) => `${f.file}: ${i}`))
    expect(offenders).toEqual([])
  })

  it.each([
    ['msw', (file: string) => file === 'msw.ts'],
    ['commander', (file: string) => file.startsWith('cli/')],
  ])('only its door imports %s', (dependency, allowed) => {
    const offenders = all.filter((f) => f.imports.some((i) => i === dependency || i.startsWith(`${dependency}/`)) && !allowed(f.file))
    expect(offenders.map((f) => f.file)).toEqual([])
  })

  // The engine and the store sit at the bottom: the composition root (src/simulator.ts) joins them
  // to the areas and the scenario layer, never the other way round (issue 5).
  it.each(['core/', 'db/', 'rules/'])('%s imports no area, no scenario code and no door', (folder) => {
    const above = /(?:^|\/)(?:resources|scenario|server|cli|entities)\/|(?:^|\/)(?:simulator|msw|node|index)\.js$/
    // The engine sits below the shared GitLab rules: core/ may not import rules/ (issue 24).
    if (folder === 'core/') expect(all.filter((f) => f.file.startsWith(folder) && f.imports.some((i) => i.includes('/rules/') || i.startsWith('../rules'))).map((f) => f.file)).toEqual([])
    const offenders = all
      .filter((f) => f.file.startsWith(folder))
      .flatMap((f) => f.imports.filter((i) => i.startsWith('.') && above.test(i)).map((i) => `${f.file}: ${i}`))
    expect(offenders).toEqual([])
  })

  // node loads `node:fs/promises` with its readline and file-watcher modules, about 1 ms of every
  // CLI start; `fs.promises` loads them on first use instead (issue 27, cold start).
  it('no module imports node:fs/promises (they read fs.promises on first use)', () => {
    expect(all.filter((f) => f.imports.some((i) => i === 'node:fs/promises' || i === 'fs/promises')).map((f) => f.file)).toEqual([])
  })

  it('src/index.ts (browser entry) does not import node.ts or the server', () => {
    const entry = all.find((f) => f.file === 'index.ts')!
    expect(entry.imports.filter((i) => i.includes('node') || i.includes('server'))).toEqual([])
  })
})

// ---- the area contract (STYLE.md §2 "The area contract, restated"; issue 24 items 1, 2) ---------

/** The source without comments, so a TSDoc example naming a table is not a read. */
function code(file: string): string {
  return readFileSync(join(SRC, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1')
}

/** The area a file belongs to (`resources/<area>/…`), or null for the shared layers. */
function areaOf(file: string): string | null {
  const m = /^resources\/([^/]+)\//.exec(file)
  return m ? m[1]! : null
}

const coreTables = new Set(Object.keys(CORE_TABLES))
/** Table → the area that declares it. */
const owner = new Map<string, string>()
for (const area of areas) for (const name of Object.keys(area.tables ?? {})) owner.set(name, area.name)
const writes = new Map(areas.map((area) => [area.name, new Set<string>(area.writes ?? [])]))

/**
 * Every `tables.<name>` (or `tables['<name>']`) a file names where `<name>` is another area's table
 * that the file's area has not declared it writes: `file: name`.
 */
export function foreignTableNames(file: string, text: string): string[] {
  const mine = areaOf(file)
  const out: string[] = []
  for (const m of text.matchAll(/\btables(?:\.([a-z_]+)|\[['"]([a-z_]+)['"]\])/g)) {
    const name = (m[1] ?? m[2])!
    const declaredBy = owner.get(name)
    if (declaredBy === undefined || declaredBy === mine) continue
    if (mine !== null && writes.get(mine)?.has(name)) continue
    out.push(`${file}: ${name} (${declaredBy}'s)`)
  }
  return out
}

/**
 * An import of another area's module other than its `index.ts` (types only) or its public module
 * `<area>.public.ts`: `file: specifier`.
 */
export function foreignInternals(file: string, text: string): string[] {
  const mine = areaOf(file)
  const out: string[] = []
  for (const m of text.matchAll(/^\s*(import|export)(\s+type)?[^'"]*from\s+['"]([^'"]+)['"]/gm)) {
    const specifier = m[3]!
    if (!specifier.startsWith('.')) continue
    const target = join('/', file, '..', specifier).slice(1).replace(/\.js$/, '.ts')
    const theirs = areaOf(target)
    if (theirs === null || theirs === mine) continue
    const base = target.slice(`resources/${theirs}/`.length)
    const typeOnly = m[2] !== undefined
    // The shared layers (entities/, rules/, core/, db/) import no area at all; the composition
    // (resources/index.ts, areas.ts, simulator.ts, …) is not in an area and is exempt.
    if (mine === null && !file.startsWith('entities/') && !file.startsWith('rules/')) continue
    if (mine !== null && (base === `${theirs}.public.ts` || (base === 'index.ts' && typeOnly))) continue
    out.push(`${file}: ${specifier}`)
  }
  return out
}

const sources = all.map((f) => ({ file: f.file, text: code(f.file) }))

describe('the area contract', () => {
  it('every area table is declared by exactly one area, and none is core\'s', () => {
    const seen = new Map<string, string[]>()
    for (const area of areas) for (const name of Object.keys(area.tables ?? {})) seen.set(name, [...(seen.get(name) ?? []), area.name])
    const twice = [...seen].filter(([name, by]) => by.length > 1 || coreTables.has(name)).map(([name, by]) => `${name}: ${by.join(', ')}`)
    expect(twice).toEqual([])
  })

  it('an area declares `writes` only for other areas\' tables', () => {
    const wrong = areas.flatMap((area) => (area.writes ?? []).filter((name) => owner.get(name) === undefined || owner.get(name) === area.name).map((name) => `${area.name}: ${name}`))
    expect(wrong).toEqual([])
  })

  it('no file names another area\'s table (tables.<name>) unless its area declares it writes it', () => {
    // Pending (issue 24 item 1, another branch): `serve` prints the runners' registration tokens
    // until the runners area declares its start-up lines. Delete this entry when that lands.
    const pending = new Set(["cli/commands/serve.ts: application_settings (runners's)"])
    expect(sources.flatMap((f) => foreignTableNames(f.file, f.text)).filter((offence) => !pending.has(offence))).toEqual([])
  })

  it('an area imports of another area only its public module (<area>.public.ts) and the types of its index.ts', () => {
    expect(sources.flatMap((f) => foreignInternals(f.file, f.text))).toEqual([])
  })

  it('the checks catch what they are for', () => {
    expect(foreignTableNames('resources/todos/x.ts', 'db.tables.issues.get(1); db.tables.todos.all(); db.tables.users.get(1)')).toEqual(['resources/todos/x.ts: issues (issues\'s)'])
    expect(foreignTableNames('resources/issues/x.ts', 'db.tables.award_emoji.insert({})')).toEqual([])
    expect(foreignTableNames('entities/x.ts', "ctx.db.tables['labels'].get(1)")).toEqual(['entities/x.ts: labels (labels\'s)'])
    expect(foreignInternals('resources/todos/x.ts', "import { a } from '../issues/issues.service.js'\nimport { b } from '../issues/issues.public.js'\nimport type { C } from '../issues/index.js'\nimport { d } from '../issues/index.js'")).toEqual([
      'resources/todos/x.ts: ../issues/issues.service.js',
      'resources/todos/x.ts: ../issues/index.js',
    ])
    expect(foreignInternals('entities/x.ts', "import { b } from '../resources/issues/issues.public.js'")).toEqual(['entities/x.ts: ../resources/issues/issues.public.js'])
  })

  // Areas stack: a lower area learns what a higher one knows through the domain-event channel or a
  // lookup the higher one registers, never by importing it back (docs/design.md, "What an area exports").
  it('no two areas import each other, however indirectly (types included)', () => {
    const graph = new Map<string, Set<string>>()
    for (const f of sources) {
      const mine = areaOf(f.file)
      if (mine === null) continue
      for (const m of f.text.matchAll(/^\s*(?:import|export)[^'"]*from\s+['"](\.[^'"]+)['"]/gm)) {
        const theirs = areaOf(join('/', f.file, '..', m[1]!).slice(1))
        if (theirs !== null && theirs !== mine) graph.set(mine, (graph.get(mine) ?? new Set()).add(theirs))
      }
    }
    const cycles: string[] = []
    const state = new Map<string, 'open' | 'done'>()
    const visit = (area: string, path: string[]): void => {
      if (state.get(area) === 'done') return
      if (state.get(area) === 'open') {
        cycles.push([...path.slice(path.indexOf(area)), area].join(' -> '))
        return
      }
      state.set(area, 'open')
      for (const dep of graph.get(area) ?? []) visit(dep, [...path, area])
      state.set(area, 'done')
    }
    for (const area of graph.keys()) visit(area, [])
    expect(cycles).toEqual([])
  })

  it('no two modules import each other, however indirectly (value imports)', () => {
    const graph = new Map<string, string[]>()
    for (const f of sources) {
      const deps: string[] = []
      for (const m of f.text.matchAll(/^\s*(?:import|export)(?!\s+type\b)[^'"]*from\s+['"](\.[^'"]+)['"]/gm)) {
        deps.push(join('/', f.file, '..', m[1]!).slice(1).replace(/\.js$/, '.ts'))
      }
      graph.set(f.file, deps)
    }
    const cycles: string[] = []
    const state = new Map<string, 'open' | 'done'>()
    const visit = (file: string, path: string[]): void => {
      if (state.get(file) === 'done') return
      if (state.get(file) === 'open') {
        cycles.push([...path.slice(path.indexOf(file)), file].join(' -> '))
        return
      }
      state.set(file, 'open')
      for (const dep of graph.get(file) ?? []) visit(dep, [...path, file])
      state.set(file, 'done')
    }
    for (const file of graph.keys()) visit(file, [])
    expect(cycles).toEqual([])
  })
})
