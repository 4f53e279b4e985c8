/**
 * The domain-event channel (`src/rules/events.ts`, issue 34's shape): each route that changes
 * state publishes its fact, once, after the change is stored and inside the request's transaction,
 * to every subscriber in subscription order; a refused request publishes nothing; a subscriber's
 * writes are kept with the request's; `db.onCommit` work runs only after the commit.
 * Over both doors, on the default scenario (project 20 acme/website: pipeline 1003 succeeded on
 * main's tip, 1004 pending on feature/login with job 2007 pending, 1005 canceled with job 2009,
 * 1007 manual with manual job 2013; issue 1, merge request 1; devon developer, max maintainer).
 */
import { afterEach, beforeEach, expect, it } from 'vitest'
import { subscribe, type DomainEvent, type DomainEventName } from '../../../src/rules/events.js'
import { contract } from '../../support/contract.js'

const MAIN_TIP = 'fd7d40d21b67d3419c468f3cd80559f888c6ff31'
const NAMES: DomainEventName[] = ['issue', 'merge_request', 'note', 'push', 'pipeline']

/** What the subscribers saw: [subscriber, fact name, summary]. */
let seen: [string, string, unknown][] = []
let unsubscribe: (() => void)[] = []

/** A fact's summary: what the rows below compare. */
function summary(event: DomainEvent): unknown {
  switch (event.name) {
    case 'issue': {
      const e = event as DomainEvent<'issue'>
      return [e.action, e.issue.iid, e.before?.state ?? null, e.issue.state]
    }
    case 'merge_request': {
      const e = event as DomainEvent<'merge_request'>
      return [e.action, e.mergeRequest.iid, e.mergeRequest.state]
    }
    case 'note': {
      const e = event as DomainEvent<'note'>
      return [e.note.noteable_type, e.note.body]
    }
    case 'push': {
      const e = event as DomainEvent<'push'>
      return e.refs.map((r) => [r.ref, r.before === null ? null : r.before.slice(0, 7), r.after === null ? null : 'moved'])
    }
    case 'pipeline': {
      const e = event as DomainEvent<'pipeline'>
      return [e.pipeline.id, e.previousStatus, e.pipeline.status]
    }
  }
  return undefined
}

beforeEach(() => {
  seen = []
  for (const who of ['first', 'second']) {
    for (const name of NAMES) {
      unsubscribe.push(subscribe(name, (db, event) => {
        const actor = event.actorId === null ? null : db.tables.users.get(event.actorId)?.username
        seen.push([who, `${event.name} by ${actor}`, summary(event as DomainEvent)])
      }))
    }
  }
})

afterEach(() => {
  for (const off of unsubscribe) off()
  unsubscribe = []
})

contract('the domain-event channel', {}, ({ api }) => {
  it.each([
    ['POST …/statuses/:sha (a pipeline with builds)', 'POST', `/projects/20/statuses/${MAIN_TIP}`, { state: 'failed' }, 'max', 'pipeline by max', [1003, 'success', 'failed']],
    ['POST …/pipelines/:id/cancel', 'POST', '/projects/20/pipelines/1004/cancel', undefined, 'devon', 'pipeline by devon', [1004, 'pending', 'canceled']],
    ['POST …/jobs/:id/retry', 'POST', '/projects/20/jobs/2009/retry', undefined, 'devon', 'pipeline by devon', [1005, 'canceled', 'pending']],
    ['POST …/jobs/:id/play', 'POST', '/projects/20/jobs/2013/play', undefined, 'devon', 'pipeline by devon', [1007, 'manual', 'running']],
    ['POST …/issues', 'POST', '/projects/20/issues', { title: 'New' }, 'devon', 'issue by devon', ['open', 5, null, 'opened']],
    ['PUT …/issues/:iid (close)', 'PUT', '/projects/20/issues/1', { state_event: 'close' }, 'devon', 'issue by devon', ['close', 1, 'opened', 'closed']],
    ['PUT …/merge_requests/:iid (title)', 'PUT', '/projects/20/merge_requests/1', { title: 'Renamed' }, 'max', 'merge_request by max', ['update', 1, 'opened']],
    ['POST …/issues/:iid/notes', 'POST', '/projects/20/issues/1/notes', { body: 'Hello' }, 'devon', 'note by devon', ['Issue', 'Hello']],
    ['POST …/repository/branches', 'POST', '/projects/20/repository/branches', { branch: 'topic', ref: 'main' }, 'devon', 'push by devon', [['refs/heads/topic', null, 'moved']]],
    ['DELETE …/repository/branches/:branch', 'DELETE', '/projects/20/repository/branches/feature%2Flogin', undefined, 'max', 'push by max', [['refs/heads/feature/login', expect.any(String), null]]],
  ] as const)('%s publishes its fact to every subscriber, in order', async (_what, method, path, body, as, name, fact) => {
    const res = await api.request(method, path, { as, body })
    expect(res.status).toBeLessThan(300)
    const own = seen.filter(([, n]) => n === name)
    expect(own).toEqual([['first', name, fact], ['second', name, fact]])
  })

  it.each([
    ['a status that leaves the pipeline as it was', 'POST', `/projects/20/statuses/${MAIN_TIP}`, { state: 'success' }, 'max'],
    ['a refused status (a blocked target_url)', 'POST', `/projects/20/statuses/${MAIN_TIP}`, { state: 'pending', target_url: 'nope' }, 'max'],
    ['a refused issue (no title)', 'POST', '/projects/20/issues', { description: 'x' }, 'devon'],
    ['a refused branch (an existing name)', 'POST', '/projects/20/repository/branches', { branch: 'main', ref: 'main' }, 'devon'],
    ['a read', 'GET', '/projects/20/pipelines/1003', undefined, 'devon'],
  ] as const)('%s publishes nothing', async (_what, method, path, body, as) => {
    await api.request(method, path, { as, body })
    expect(seen).toEqual([])
  })

  it('a subscriber\'s writes are kept with the request\'s, and its after-commit work runs once committed', async () => {
    const ran: string[] = []
    const off = subscribe('pipeline', (db, event) => {
      db.tables.pipeline_variables.insert({ pipeline_id: event.pipeline.id, key: 'SEEN', value: event.pipeline.status, variable_type: 'env_var' })
      db.onCommit(() => ran.push(`committed ${db.tables.pipelines.get(event.pipeline.id)!.status}`))
      ran.push('published')
    })
    try {
      await api.post(`/projects/20/statuses/${MAIN_TIP}`, { as: 'max', body: { state: 'running' } })
      expect(ran).toEqual(['published', 'committed running'])
      expect((await api.get('/projects/20/pipelines/1003/variables', { as: 'max' })).body).toEqual([{ variable_type: 'env_var', key: 'SEEN', value: 'running' }])
    } finally {
      off()
    }
  })

  it('a request that fails after publishing drops the subscriber\'s writes and its after-commit work', async () => {
    const ran: string[] = []
    const off = subscribe('issue', (db, event) => {
      db.onCommit(() => ran.push('committed'))
      // The failing write after the fact: a subscriber that throws fails the request (500) and rolls it back.
      if (event.issue.title === 'Boom') throw new Error('subscriber failed')
    })
    try {
      const res = await api.post('/projects/20/issues', { as: 'devon', body: { title: 'Boom' } })
      expect(res.status).toBe(500)
      expect(ran).toEqual([])
      const issues = await api.get('/projects/20/issues', { as: 'devon', query: { search: 'Boom' } })
      expect(issues.body).toEqual([])
    } finally {
      off()
    }
  })
})
