/**
 * The browser-safe entries bundle for the browser with nothing from Node reachable (issue 12):
 * esbuild, platform `browser`, no externals. A Node builtin (`node:fs`, `fs`, `http`, ...) anywhere
 * in the import graph fails the build or shows up as an external import; both fail here.
 * Bundled from src (the same modules `npm run build` compiles to dist), so no build is needed first.
 */
import { builtinModules } from 'node:module'
import { join } from 'node:path'
import { build, type Message, type Metafile } from 'esbuild'
import { describe, expect, it } from 'vitest'
import { createSimulator, DEFAULT_SCENARIO_YAML, defaultScenario } from '../../src/index.js'
import { loadDefaultScenario } from '../../src/node.js'

const ROOT = join(import.meta.dirname, '..', '..')
const BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]))

/** Bundles one entry for the browser; the Node builtins it reaches (from errors and externals). */
async function nodeImports(entry: string): Promise<string[]> {
  let metafile: Metafile | undefined
  let errors: Message[] = []
  try {
    ;({ metafile } = await build({
      entryPoints: [join(ROOT, entry)],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    }))
  } catch (error) {
    errors = (error as { errors?: Message[] }).errors ?? []
    if (errors.length === 0) throw error
  }
  const found = new Set<string>()
  for (const e of errors) {
    const name = /"([^"]+)"/.exec(e.text)?.[1]
    found.add(name && BUILTINS.has(name) ? `${name} (from ${e.location?.file})` : `build error: ${e.text}`)
  }
  for (const [file, input] of Object.entries(metafile?.inputs ?? {})) {
    for (const i of input.imports) if (i.external || BUILTINS.has(i.path)) found.add(`${i.path} (from ${file})`)
  }
  return [...found].sort()
}

describe('browser bundle', () => {
  it.each(['src/index.ts', 'src/msw.ts', 'src/default-scenario.ts'])('%s reaches no Node builtin', async (entry) => {
    expect(await nodeImports(entry)).toEqual([])
  })

  it('the check bites: src/node.ts reaches node:fs', async () => {
    expect((await nodeImports('src/node.ts')).some((line) => line.startsWith('node:fs'))).toBe(true)
  })
})

describe('embedded default scenario', () => {
  it('is the text of scenarios/default.yaml', async () => {
    const { readFile } = await import('node:fs/promises')
    expect(DEFAULT_SCENARIO_YAML).toBe(await readFile(join(ROOT, 'scenarios', 'default.yaml'), 'utf8'))
  })

  it('parses to the scenario fakelab/node loads from disk, and gives the same answers', async () => {
    expect(defaultScenario()).toEqual(await loadDefaultScenario())
    const fromData = createSimulator({ scenario: defaultScenario() })
    const fromFile = createSimulator({ scenario: await loadDefaultScenario() })
    const ask = async (sim: typeof fromData) =>
      (await sim.handle(new Request('http://gitlab.test/api/v4/projects?per_page=100', { headers: { 'PRIVATE-TOKEN': 'glpat-root-fakelab' } }))).text()
    expect(await ask(fromData)).toBe(await ask(fromFile))
  })
})
