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
