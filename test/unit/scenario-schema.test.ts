/**
 * The scenario format's JSON Schema (issue 12): generated from the zod schema, shipped as
 * `fakelab/scenario.schema.json` (built into `dist/`), committed as `schemas/scenario.schema.json`
 * for editors. Regenerate the committed copy with `npm run schema`.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'
import { scenarioJsonSchema } from '../../src/index.js'
import { renderScenarioReference } from '../../scripts/scenario-reference.mjs'

const ROOT = join(import.meta.dirname, '..', '..')
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8')
const schema = scenarioJsonSchema()
const validate = new Ajv2020({ strict: false, allErrors: true }).compile(schema)

describe('scenario JSON Schema', () => {
  it('is current in schemas/scenario.schema.json (npm run schema rewrites it)', () => {
    expect(read('schemas/scenario.schema.json')).toBe(`${JSON.stringify(schema, null, 2)}\n`)
  })

  it('is in the exports map', () => {
    expect(JSON.parse(read('package.json')).exports['./scenario.schema.json']).toBe('./dist/scenario.schema.json')
  })

  it.each(['scenarios/default.yaml', 'fixtures/users.yaml'])('accepts %s', (path) => {
    expect(validate(parse(read(path))), JSON.stringify(validate.errors)).toBe(true)
  })

  it.each([
    ['an unknown field', { version: 1, users: [{ username: 'zoe', nmae: 'Zoe' }] }],
    ['a wrong type', { version: 1, users: [{ username: 'zoe', tokens: [{ token: 't', scopes: 'api' }] }] }],
    ['another version', { version: 2 }],
  ])('refuses %s', (_what, doc) => {
    expect(validate(doc)).toBe(false)
  })

  it('allows top-level x- keys (anchors), as the parser does', () => {
    expect(validate({ version: 1, 'x-defaults': { a: 1 } }), JSON.stringify(validate.errors)).toBe(true)
  })
})

// Issue 28, item 3: editor help for every field, and a reference page generated from the schema.
describe('scenario JSON Schema descriptions and reference page', () => {
  /** Every property node under `node`, as `path` (`projects[].issues[].notes[].author`) and node. */
  function properties(node: unknown, path: string, out: Array<[string, Record<string, unknown>]> = []): Array<[string, Record<string, unknown>]> {
    if (!node || typeof node !== 'object') return out
    if (Array.isArray(node)) {
      for (const item of node) properties(item, path, out)
      return out
    }
    const rec = node as Record<string, unknown>
    for (const [key, value] of Object.entries(rec)) {
      if (key === 'properties' && value && typeof value === 'object') {
        for (const [name, field] of Object.entries(value as Record<string, Record<string, unknown>>)) {
          out.push([`${path}${path ? '.' : ''}${name}`, field])
          properties(field, `${path}${path ? '.' : ''}${name}`, out)
        }
      } else if (key === 'items') {
        properties(value, `${path}[]`, out)
      } else if (key !== 'patternProperties') {
        properties(value, path, out)
      }
    }
    return out
  }

  it('describes every field (each property node has a description, for editors)', () => {
    const all = properties(schema, '')
    expect(all.length).toBeGreaterThan(300)
    expect(all.filter(([, field]) => typeof field.description !== 'string' || field.description.trim() === '').map(([path]) => path)).toEqual([])
  })

  it('finds a property without a description (the check above can fail)', () => {
    const bare = { type: 'object', properties: { a: { type: 'string', description: 'A.' }, b: { type: 'array', items: { type: 'object', properties: { c: { type: 'string' } } }, description: 'B.' } } }
    expect(properties(bare, '').filter(([, field]) => !field.description).map(([path]) => path)).toEqual(['b[].c'])
  })

  it('is rendered current in docs/scenario-reference.md (npm run schema rewrites it)', () => {
    expect(read('docs/scenario-reference.md')).toBe(renderScenarioReference(schema))
  })

  it('gives every field of the schema a row in the reference page', () => {
    const page = renderScenarioReference(schema)
    for (const [path] of properties(schema, '')) {
      const name = path.split('.').pop()!
      expect(page, path).toContain(`| \`${name}\` |`)
    }
    expect(page).toContain('## projects[].issues[].notes[]')
    expect(page).toContain('| `username` | string | yes | ')
  })
})
