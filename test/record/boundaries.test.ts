/**
 * Record and replay keep the same boundaries as the rest of fakelab (STYLE.md §2): everything in
 * src/record/ but the recorder is browser-safe (it reaches the browser through `fakelab/msw`), and
 * only the recorder imports the proxy library.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from './support.js'

const RECORD = join(ROOT, 'src', 'record')
const files = readdirSync(RECORD).filter((name) => name.endsWith('.ts'))

function imports(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export)[^'"]*from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]!)
}

describe('src/record boundaries', () => {
  it.each(files.filter((name) => name !== 'recorder.ts'))('%s imports nothing Node-only', (name) => {
    expect(imports(join(RECORD, name)).filter((i) => i.startsWith('node:') || i.includes('recorder') || i.startsWith('http-proxy'))).toEqual([])
  })

  it('only recorder.ts imports http-proxy-3', () => {
    const srcFiles = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? srcFiles(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : []))
    const importers = srcFiles(join(ROOT, 'src')).filter((file) => imports(file).some((i) => i.startsWith('http-proxy')))
    expect(importers.map((file) => file.slice(ROOT.length))).toEqual(['src/record/recorder.ts'])
  })
})
