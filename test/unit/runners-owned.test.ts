/**
 * `ownedRunners` (issue 13): `GET /runners` finds the caller's runners through the store's indexes
 * instead of testing every runner; it must find exactly the runners the predicate `ownedBy` accepts,
 * in id order, for every user of the default scenario and after memberships change.
 */
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { loadDefaultScenario } from '../../src/node.js'
import { ownedBy, ownedRunners } from '../../src/resources/runners/runners.service.js'

const TODAY = '2021-04-01'

describe('ownedRunners', () => {
  it('equals filtering every runner with ownedBy, for every user', async () => {
    const sim = createSimulator({ scenario: await loadDefaultScenario() })
    const db = sim.db
    let owning = 0
    for (const user of db.tables.users.all()) {
      const expected = db.tables.runners.filter(ownedBy(db, user, TODAY)).map((r) => r.id)
      expect(ownedRunners(db, user, TODAY).map((r) => r.id), user.username).toEqual(expected)
      if (expected.length > 0) owning++
    }
    // Not a vacuous check: several users own runners in the default scenario.
    expect(owning).toBeGreaterThan(2)
  })

  it('follows memberships added through the API, in subgroups and personal projects', async () => {
    const sim = createSimulator({ scenario: await loadDefaultScenario() })
    const post = (path: string, body: unknown) =>
      sim.handle(new Request(`http://gitlab.test/api/v4${path}`, { method: 'POST', headers: { 'PRIVATE-TOKEN': 'glpat-root-fakelab', 'Content-Type': 'application/json' }, body: JSON.stringify(body) }))
    expect((await post('/groups/11/members', { user_id: 8, access_level: 40 })).status).toBe(201)
    expect((await post('/projects/24/members', { user_id: 8, access_level: 40 })).status).toBe(201)
    const db = sim.db
    for (const user of db.tables.users.all()) {
      expect(ownedRunners(db, user, TODAY).map((r) => r.id), user.username).toEqual(db.tables.runners.filter(ownedBy(db, user, TODAY)).map((r) => r.id))
    }
    expect(ownedRunners(db, db.tables.users.get(8)!, TODAY).length).toBeGreaterThan(0)
  })
})
