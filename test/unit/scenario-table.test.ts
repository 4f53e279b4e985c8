/**
 * The static scenario table (issue 39 item 4): `src/resources/scenario-table.ts` must be exactly
 * what the areas' scenario fragments give (`npm run route-table` writes it), since a scenario is
 * composed from the fragments it names for the fields it holds, without loading the other areas.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { scenarioTableSource } from '../../scripts/scenario-table.mjs'
import { areas } from '../../src/resources/index.js'
import { SCENARIO_TABLE } from '../../src/resources/scenario-table.js'
import { outlineOf } from '../../src/scenario/outline.js'

describe('the static scenario table', () => {
  const current = Object.fromEntries(areas.flatMap((area) => (area.scenario ? [[area.name, outlineOf(area.scenario)] as const] : [])))

  it('is what the fragments give, field for field and in order (else: npm run route-table)', () => {
    expect(SCENARIO_TABLE).toEqual(JSON.parse(JSON.stringify(current)))
    expect(readFileSync(new URL('../../src/resources/scenario-table.ts', import.meta.url), 'utf8')).toBe(scenarioTableSource(current))
  })

  it('names every area with a fragment, in area order, and no other', () => {
    expect(Object.keys(SCENARIO_TABLE)).toEqual(areas.filter((area) => area.scenario).map((area) => area.name))
  })

  it('gives each field one owner per place, and defaults only for its own fields', () => {
    const seen = new Map<string, string>()
    for (const [area, outline] of Object.entries(SCENARIO_TABLE)) {
      for (const [place, names] of Object.entries(outline.fields)) {
        for (const name of names ?? []) {
          expect(seen.get(`${place}.${name}`), `${place}.${name}`).toBeUndefined()
          seen.set(`${place}.${name}`, area)
        }
      }
      for (const [place, defaults] of Object.entries(outline.defaults ?? {})) {
        // In the fragment's field order: the stand-ins give the parsed fields in that order.
        const names = outline.fields[place as keyof typeof outline.fields] ?? []
        expect(Object.keys(defaults ?? {})).toEqual(names.filter((name) => Object.hasOwn(defaults ?? {}, name)))
      }
    }
    // A field that makes another area run is some area's field.
    for (const outline of Object.values(SCENARIO_TABLE)) for (const field of outline.need?.with?.fields ?? []) expect(seen.has(field), field).toBe(true)
  })
})
