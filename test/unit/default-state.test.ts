/**
 * The pre-built default state (dist/generated/default-state.json, written by scripts/build-cli.mjs
 * so `fakelab serve` starts without parsing YAML: issue 5) is exactly what parsing and loading
 * scenarios/default.yaml gives today, so it can never drift from the file. `npm test` builds dist/
 * first; a stale dist/ fails here.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createSimulator, loadState } from '../../src/simulator.js'

const ROOT = join(import.meta.dirname, '..', '..')
const prebuilt = JSON.parse(readFileSync(join(ROOT, 'dist', 'generated', 'default-state.json'), 'utf8'))
const yaml = readFileSync(join(ROOT, 'scenarios', 'default.yaml'), 'utf8')

describe('pre-built default state', () => {
  it('equals loading scenarios/default.yaml (every table, row and next id; seed; now)', () => {
    const loaded = loadState(yaml)
    expect(prebuilt.fakelab_state).toBe(1)
    expect(prebuilt.seed).toBe(loaded.seed)
    expect(prebuilt.now).toBe(loaded.now)
    // Through JSON, as the file is read: every value in the store is plain JSON data.
    expect(prebuilt.tables).toStrictEqual(JSON.parse(JSON.stringify(loaded.state)))
    expect(Object.keys(prebuilt.tables)).toEqual(Object.keys(loaded.state))
  })

  it('gives a simulator with the same store, clock and seed as the YAML', async () => {
    const fromState = createSimulator({ scenario: prebuilt })
    const fromYaml = createSimulator({ scenario: yaml })
    expect(JSON.stringify(fromState.db.dump())).toBe(JSON.stringify(fromYaml.db.dump()))
    expect(fromState.clock.now().toISOString()).toBe(fromYaml.clock.now().toISOString())
    // Generated values after start (faker, seeded by the scenario's seed) match too.
    const create = (sim: typeof fromState) =>
      sim.handle(new Request('http://gitlab.test/api/v4/projects/20/labels', {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': 'glpat-root-fakelab', 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'cold-start', color: '#123456' }),
      }))
    const [a, b] = await Promise.all([create(fromState), create(fromYaml)])
    expect(a.status).toBe(201)
    expect(await a.text()).toBe(await b.text())
  })
})
