// The issue finder's two ways must give the same lists: walking an index set (small stores) and
// intersecting bit sets with kept whole-store orders (big stores, issue 8 "Speed"). The default
// scenario plus 5,000 generated issues in two projects (one private) is listed both ways for every
// user, source, filter and order below, before and after writes and a rolled-back transaction, so
// the kept views and orders are seen to follow the store without the handlers' help.
import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { parse, stringify } from 'yaml'
import type { UserRecord } from '../../src/db/schema.js'
import { findIssueList, findIssues, ORDER_BY, type IssueListFilters, type IssueListSource } from '../../src/resources/issues/issues.finder.js'
import { createSimulator } from '../../src/simulator.js'
import type { Simulator } from '../../src/core/engine.js'

const base: IssueListFilters = { state: 'all', scope: 'all', order_by: 'created_at', sort: 'desc', not: {} }

/** Filter sets, each combined with every order below (labels include group and project titles). */
const FILTERS: Partial<IssueListFilters>[] = [
  {},
  { state: 'opened' },
  { state: 'closed', labels: ['bug'] },
  { state: 'opened', labels: ['bug'], milestone: 'v1.0' },
  { labels: ['bug', 'feature'] },
  { labels: ['None'] },
  { labels: ['Any'], state: 'opened' },
  { labels: ['no such label'] },
  { milestone: 'None' },
  { milestone: 'Any', state: 'closed' },
  { milestone: '#upcoming' },
  { milestone: '#started' },
  { milestone: 'v2.0', not: { labels: ['bug'] } },
  { state: 'opened', labels: ['feature'], not: { milestone: 'v1.0' } },
  { not: { labels: ['bug', 'feature'] } },
  { not: { milestone: 'None' }, confidential: true },
  { state: 'opened', not: { labels: ['no such label'] } },
  { scope: 'created_by_me' },
  { scope: 'assigned_to_me', state: 'opened' },
  { issue_type: 'incident', not: { assignee_id: 'None' } },
  { search: 'triage', in: 'description', state: 'opened' },
  // Author and assignee filters, which a big store narrows by their columns.
  { author_id: 2 },
  { author_id: 3, state: 'opened', not: { assignee_id: 4 } },
  { not: { author_id: 2 } },
  { assignee_id: 3 },
  { assignee_username: ['no-such-user'] },
  { not: { assignee_username: ['no-such-user'] } },
  { author_username: 'nora' },
  { author_username: 'nora', state: 'opened', labels: ['None'] },
  { author_username: 'nora', not: { assignee_username: ['gina'] } },
  { author_username: 'nora', assignee_username: ['gina'] },
]

const ORDERS = ORDER_BY.flatMap((order_by) => (['asc', 'desc'] as const).map((sort) => ({ order_by, sort })))

let sim: Simulator

beforeAll(() => {
  const scenario = parse(readFileSync(new URL('../../scenarios/default.yaml', import.meta.url), 'utf8'))
  for (const project of scenario.projects) {
    if (project.id === 20) {
      project.generate = { issues: 3000 }
      // A few issues by a user who wrote no other (one confidential, one assigned to gina): a
      // narrowing by her is rare, and found from its positions one by one.
      project.issues.push(
        { id: 900, iid: 900, title: 'Nora asks', author: 'nora', created_at: '2021-03-02T09:00:00.000Z' },
        { id: 901, iid: 901, title: 'Nora asks quietly', author: 'nora', confidential: true, created_at: '2021-03-03T09:00:00.000Z' },
        { id: 902, iid: 902, title: 'Nora asks gina', author: 'nora', assignees: ['gina'], state: 'closed', created_at: '2021-03-04T09:00:00.000Z' },
      )
    }
    if (project.id === 21) project.generate = { issues: 2000 }
  }
  sim = createSimulator({ scenario: stringify(scenario) })
})

/** Ids of one list found both ways; they must agree, and the dense one is returned. */
function both(user: UserRecord | null, source: IssueListSource, filters: IssueListFilters): number[] {
  const ctx = { db: sim.db, currentUser: user, today: sim.clock.now().toISOString().slice(0, 10) }
  const simple = findIssues(ctx, source, filters, { dense: false }).map((issue) => issue.id)
  const what = JSON.stringify({ user: user?.username, source: source.kind, filters })
  // Twice: a long list's first ask at a store version sorts itself, the second takes the kept order.
  for (let ask = 0; ask < 2; ask++) expect(findIssues(ctx, source, filters, { dense: true }).map((issue) => issue.id), what).toEqual(simple)
  // A page read alone (the kept order walked, or the matches' ranks read from a given rank on) is
  // the same stretch of the whole list; a second read of the same list reuses its ranks.
  const list = findIssueList(ctx, source, filters, { dense: true })
  expect(list.total, what).toBe(simple.length)
  for (const [start, end] of [[0, 20], [20, 40], [simple.length - 5, simple.length + 15], [1000, 1100], [0, 20]] as const) {
    expect(list.slice(Math.max(0, start), end).map((issue) => issue.id), `${what} ${start}…${end}`).toEqual(simple.slice(Math.max(0, start), end))
  }
  return simple
}

/** Users (and anonymous) × three sources × every filter set, in one order each (rotating). */
function sweep(): number {
  const db = sim.db
  // Anonymous, the administrator and users of every role in the default scenario (its first ten).
  const users: (UserRecord | null)[] = [null, ...db.tables.users.all().slice(0, 10)]
  const sources: IssueListSource[] = [
    { kind: 'project', project: db.tables.projects.get(20)! },
    { kind: 'group', group: db.tables.groups.get(10)! },
    { kind: 'global' },
  ]
  let found = 0
  let turn = 0
  for (const user of users) {
    for (const source of sources) {
      for (const filter of FILTERS) {
        const order = ORDERS[turn++ % ORDERS.length]!
        found += both(user, source, { ...base, ...order, ...filter, not: { ...filter.not } }).length
      }
    }
  }
  return found
}

describe('issue finder: dense (bit sets, kept orders) and simple ways agree', () => {
  it('on every order over the whole big list (the kept orders)', () => {
    const root = sim.db.tables.users.get(1)!
    for (const order of ORDERS) {
      const ids = both(root, { kind: 'global' }, { ...base, ...order })
      expect(ids.length).toBeGreaterThan(5000)
    }
  })

  it('for every user, source and filter', () => {
    expect(sweep()).toBeGreaterThan(10_000)
  })

  it('after writes to issues, milestones and label priorities, and after a rolled-back transaction', () => {
    const db = sim.db
    const generated = db.tables.issues.where('project_id', 20).filter((issue) => issue.id >= 1_000_000)
    const bug = db.tables.labels.all().find((label) => label.title === 'bug')!
    db.transaction(() => {
      for (const issue of generated.slice(0, 300)) {
        db.tables.issues.update(issue.id, {
          state: issue.state === 'opened' ? 'closed' : 'opened',
          label_ids: issue.label_ids.includes(bug.id) ? [] : [...issue.label_ids, bug.id],
          milestone_id: null,
          title: `A ${issue.title}`,
          confidential: !issue.confidential,
        })
      }
      for (const issue of generated.slice(300, 400)) db.tables.issues.delete(issue.id)
      db.tables.issues.insert({ ...generated[500]!, id: 2_000_000, iid: 99_999, title: 'Inserted', label_ids: [bug.id] })
      const milestone = db.tables.milestones.all().find((m) => m.due_date !== null)!
      db.tables.milestones.update(milestone.id, { due_date: '2030-01-01' })
      const priority = db.tables.label_priorities.all()[0]
      if (priority) db.tables.label_priorities.update(priority.id, { priority: priority.priority + 100 })
    })
    const after = sweep()
    const withLabel = both(null, { kind: 'project', project: db.tables.projects.get(20)! }, { ...base, labels: ['bug'] })
    expect(withLabel).toContain(2_000_000)

    // A failed transaction leaves the store, and so every list, as it was.
    expect(() =>
      db.transaction(() => {
        for (const issue of generated.slice(1000, 1500)) db.tables.issues.update(issue.id, { state: 'closed', label_ids: [bug.id] })
        db.tables.issues.delete(2_000_000)
        throw new Error('roll back')
      }),
    ).toThrow('roll back')
    expect(sweep()).toBe(after)
    expect(both(null, { kind: 'project', project: db.tables.projects.get(20)! }, { ...base, labels: ['bug'] })).toEqual(withLabel)
  })
})
