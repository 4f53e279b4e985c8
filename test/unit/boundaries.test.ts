/**
 * The browser MSW bundle depends on these folders staying free of Node-only imports, and each
 * third-party dependency stays behind one door (STYLE.md §2 "Boundaries worth protecting").
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

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

  it('src/index.ts (browser entry) does not import node.ts or the server', () => {
    const entry = all.find((f) => f.file === 'index.ts')!
    expect(entry.imports.filter((i) => i.includes('node') || i.includes('server'))).toEqual([])
  })
})
