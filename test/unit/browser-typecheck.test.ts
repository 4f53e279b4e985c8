/**
 * The guard behind "browser-safe": tsconfig.browser.json typechecks the browser entries and the
 * browser-safe folders with no Node types, and `npm run typecheck` (so `npm test`) runs it
 * (issue 24, item 7). This test keeps the guard itself from being widened or unplugged.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..')
const config = ts.readConfigFile(join(ROOT, 'tsconfig.browser.json'), ts.sys.readFile)
const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT)

describe('tsconfig.browser.json', () => {
  it('gives the browser-safe code no ambient types (no @types/node)', () => {
    expect([config.error, parsed.errors]).toEqual([undefined, []])
    expect(parsed.options.types).toEqual([])
    expect(parsed.options.lib).toEqual(['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'])
  })

  it('covers the browser entries and the folders that must stay browser-safe', () => {
    expect(config.config.include).toEqual([
      'src/index.ts', 'src/msw.ts', 'src/default-scenario.ts',
      'src/core', 'src/db', 'src/rules', 'src/entities', 'src/resources', 'src/scenario', 'src/reference',
    ])
  })

  it('runs in `npm run typecheck`', () => {
    const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts
    expect(scripts.typecheck).toContain('tsc -p tsconfig.browser.json')
    expect(scripts.test).toMatch(/^npm run typecheck && /)
  })
})
