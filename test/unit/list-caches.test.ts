// The lists that keep derived data with the store's dense views (issue 13: kept project bit sets,
// whole-store orders, column bit sets; the project order; the user search and the administrator's
// namespaces) must follow every write, and the undo of a failed one, with no handler's help. Each
// list is read through the public interface twice (the second read takes what the first kept),
// then after a write over HTTP, then after a transaction that fails.
import { readFileSync } from 'node:fs'
import { beforeEach, describe, expect, it } from 'vitest'
import { parse, stringify } from 'yaml'
import type { Simulator } from '../../src/core/engine.js'
import { createSimulator } from '../../src/simulator.js'

let sim: Simulator

beforeEach(() => {
  // Enough issues for the finder's dense way (bit sets and kept orders: 4,096 issues and more).
  const scenario = parse(readFileSync(new URL('../../scenarios/default.yaml', import.meta.url), 'utf8'))
  for (const project of scenario.projects) {
    if (project.id === 20) project.generate = { issues: 3000 }
    if (project.id === 21) project.generate = { issues: 2000 }
  }
  sim = createSimulator({ scenario: stringify(scenario) })
})

/** One request through `sim.handle` as the user of `token`: status, X-Total and the body. */
async function call(token: string, method: string, path: string, body?: unknown) {
  const res = await sim.handle(
    new Request(`http://fakelab.test/api/v4${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': token, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  )
  const text = await res.text()
  return { status: res.status, total: res.headers.get('x-total'), body: text ? JSON.parse(text) : undefined }
}

/** A list read twice (the second read takes what the first kept); both must agree. */
async function list(token: string, path: string) {
  const first = await call(token, 'GET', path)
  const second = await call(token, 'GET', path)
  expect(second).toEqual(first)
  expect(first.status).toBe(200)
  return { total: Number(first.total), ids: (first.body as { id: number }[]).map((row) => row.id) }
}

/** A transaction that writes and then fails: the store, and so every list, is left as it was. */
function failedWrite(write: () => void) {
  expect(() =>
    sim.db.transaction(() => {
      write()
      throw new Error('roll back')
    }),
  ).toThrow('roll back')
}

const ROOT = 'glpat-root-fakelab'
const GINA = 'glpat-gina-fakelab' // guest of acme: reads acme's projects, not others' confidential issues
const NORA = 'glpat-nora-fakelab' // no memberships

describe('kept list data follows writes and rollbacks (through HTTP)', () => {
  it('GET /issues: new issues, confidentiality, membership, the caller’s own issues, a failed write', async () => {
    const all = '/issues?scope=all&per_page=5'
    const before = await list(GINA, all)
    expect(before.total).toBeGreaterThan(4000)

    const created = await call(ROOT, 'POST', '/projects/20/issues', { title: 'A new issue' })
    expect(created.status).toBe(201)
    const withNew = await list(GINA, all)
    expect(withNew.total).toBe(before.total + 1)
    expect(withNew.ids[0]).toBe(created.body.id)

    // Confidential: a guest no longer sees root's issue; as a reporter of the project again.
    expect((await call(ROOT, 'PUT', `/projects/20/issues/${created.body.iid}`, { confidential: true })).status).toBe(200)
    const hidden = await list(GINA, all)
    expect(hidden.total).toBe(before.total)
    expect(hidden.ids).not.toContain(created.body.id)
    expect((await call(ROOT, 'POST', '/projects/20/members', { user_id: 2, access_level: 20 })).status).toBe(201)
    expect((await list(GINA, all)).ids[0]).toBe(created.body.id)

    // The default scope (`created_by_me`) lists the caller's own issues, then one more.
    const mine = await list(GINA, '/issues?per_page=5')
    const own = await call(GINA, 'POST', '/projects/20/issues', { title: 'Gina files one' })
    expect(own.status).toBe(201)
    const mineAfter = await list(GINA, '/issues?per_page=5')
    expect(mineAfter.total).toBe(mine.total + 1)
    expect(mineAfter.ids[0]).toBe(own.body.id)
    // Assigned to her: one more, root's new issue, first (the newest).
    const assigned = await list(GINA, '/issues?scope=assigned_to_me&per_page=5')
    expect((await call(ROOT, 'PUT', `/projects/20/issues/${created.body.iid}`, { assignee_ids: [2] })).status).toBe(200)
    const assignedAfter = await list(GINA, '/issues?scope=assigned_to_me&per_page=5')
    expect(assignedAfter.total).toBe(assigned.total + 1)
    expect(assignedAfter.ids[0]).toBe(created.body.id)

    // A failed write to issues (closing and relabelling thousands, deleting the new one) changes no list.
    const opened = await list(GINA, '/issues?scope=all&state=opened&order_by=title&sort=asc&per_page=5')
    const settled = await list(GINA, all)
    failedWrite(() => {
      for (const issue of sim.db.tables.issues.where('project_id', 20).slice(0, 2000)) sim.db.tables.issues.update(issue.id, { state: 'closed', title: 'AAA' })
      sim.db.tables.issues.delete(own.body.id)
    })
    expect(await list(GINA, '/issues?scope=all&state=opened&order_by=title&sort=asc&per_page=5')).toEqual(opened)
    expect(await list(GINA, all)).toEqual(settled)
  })

  it('GET /projects: a renamed project moves in the kept order; a failed rename does not', async () => {
    const byName = '/projects?order_by=name&sort=asc&per_page=3'
    const before = await list(NORA, byName)
    expect(before.ids[0]).not.toBe(20)
    expect((await call(ROOT, 'PUT', '/projects/20', { name: '0 first' })).status).toBe(200)
    const after = await list(NORA, byName)
    expect(after.ids[0]).toBe(20)
    expect(after.total).toBe(before.total)
    failedWrite(() => sim.db.tables.projects.update(23, { name: '0 00 earlier' }))
    expect(await list(NORA, byName)).toEqual(after)
    // A membership makes a private project readable at the next list.
    expect((await call(ROOT, 'POST', '/projects/24/members', { user_id: 7, access_level: 10 })).status).toBe(201)
    expect((await list(NORA, byName)).total).toBe(before.total + 1)
  })

  it('GET /users and GET /namespaces: the kept search finds a new user or group; a failed write leaves it', async () => {
    expect((await list(ROOT, '/users?search=zed&per_page=5')).total).toBe(0)
    expect((await list(ROOT, '/namespaces?search=zed&per_page=5')).total).toBe(0)
    const user = await call(ROOT, 'POST', '/users', { name: 'Zed Zeta', username: 'zed', email: 'zed@example.com', password: 'secret-password-1' })
    expect(user.status).toBe(201)
    expect((await list(ROOT, '/users?search=zed&per_page=5')).ids).toEqual([user.body.id])
    expect((await list(ROOT, '/namespaces?search=zed&per_page=5')).total).toBe(1)
    const group = await call(ROOT, 'POST', '/groups', { name: 'Zed group', path: 'zed-group' })
    expect(group.status).toBe(201)
    const namespaces = await list(ROOT, '/namespaces?search=zed&per_page=5')
    expect(namespaces.total).toBe(2)
    failedWrite(() => {
      sim.db.tables.users.update(user.body.id, { name: 'Someone else', username: 'someone' })
      sim.db.tables.groups.update(group.body.id, { name: 'Other', path: 'other' })
    })
    expect((await list(ROOT, '/users?search=zed&per_page=5')).ids).toEqual([user.body.id])
    expect(await list(ROOT, '/namespaces?search=zed&per_page=5')).toEqual(namespaces)
  })
})
