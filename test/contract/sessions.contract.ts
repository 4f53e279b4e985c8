/**
 * Isolation (issue 12): several simulators in one process, and on one server a session per request
 * (`X-Fakelab-Session` header or `/-/fakelab/sessions/<id>/` prefix), each with its own state made
 * from the scenario, so parallel workers sharing a server do not see each other's writes.
 */
import { expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { contract } from '../support/contract.js'

const LABEL = { name: 'session-label', color: '#123456' }
const names = (body: { name: string }[]) => body.map((l) => l.name)

contract('sessions', {}, ({ api, sim }) => {
  it('keeps writes in one header-selected session away from another and from the default state', async () => {
    const a = { 'x-fakelab-session': 'worker-a' }
    const b = { 'x-fakelab-session': 'worker-b' }
    expect((await api.post('/projects/20/labels', { as: 'max', headers: a, body: LABEL })).status).toBe(201)
    expect(names((await api.get('/projects/20/labels', { as: 'max', headers: a })).body)).toContain('session-label')
    expect(names((await api.get('/projects/20/labels', { as: 'max', headers: b })).body)).not.toContain('session-label')
    expect(names((await api.get('/projects/20/labels', { as: 'max' })).body)).not.toContain('session-label')
    // Same id, same session; the session journals its own requests.
    expect((await api.post('/projects/20/labels', { as: 'max', headers: a, body: LABEL })).status).toBe(409)
    expect(sim().session('worker-a').journal.count({ route: 'POST /projects/:id/labels' })).toBe(2)
    expect(sim().journal.count({ route: 'POST /projects/:id/labels' })).toBe(0)
    sim().dropSession('worker-a')
    sim().dropSession('worker-b')
  })

  it('selects a session by URL prefix, with Link headers that stay in it', async () => {
    const prefix = '/-/fakelab/sessions/p1/api/v4'
    expect((await api.post(`${prefix}/projects/20/labels`, { as: 'max', body: LABEL })).status).toBe(201)
    const page = await api.get(`${prefix}/projects/20/labels`, { as: 'max', query: { per_page: 1 } })
    expect(page.status).toBe(200)
    expect(page.headers.get('link')).toContain(`${api.baseUrl}${prefix}/projects/20/labels?`)
    expect(names((await api.get(`${prefix}/projects/20/labels`, { as: 'max' })).body)).toContain('session-label')
    expect(names((await api.get('/projects/20/labels', { as: 'max' })).body)).not.toContain('session-label')
    // The session's control routes drive it alone.
    expect((await api.post('/-/fakelab/sessions/p1/-/fakelab/reset')).status).toBe(204)
    expect(names((await api.get(`${prefix}/projects/20/labels`, { as: 'max' })).body)).not.toContain('session-label')
    sim().dropSession('p1')
  })

  it('refuses a bad session id with 400', async () => {
    const res = await api.get('/projects', { headers: { 'x-fakelab-session': 'bad id!' } })
    expect(res).toBeGitLabError(400, { message: 'session id must be 1 to 64 of A-Z a-z 0-9 _ . -' })
  })
})

it('runs several independent simulators in one process', async () => {
  const scenario = 'version: 1\nnow: 2021-04-01T12:00:00Z\nusers:\n  - username: root\n    admin: true\n    tokens: [{ token: t, scopes: [api] }]\ngroups:\n  - path: g\n    name: G\n'
  const one = createSimulator({ scenario })
  const two = createSimulator({ scenario })
  const post = (s: typeof one) => s.handle(new Request('http://x/api/v4/groups/g/labels', { method: 'POST', headers: { 'PRIVATE-TOKEN': 't', 'content-type': 'application/json' }, body: JSON.stringify(LABEL) }))
  expect((await post(one)).status).toBe(201)
  expect((await post(two)).status).toBe(201)
  expect((await post(one)).status).toBe(409)
  expect(one.journal.count()).toBe(2)
  expect(two.journal.count()).toBe(1)
  two.advanceClock(1000)
  expect(one.clock.now().getTime()).not.toBe(two.clock.now().getTime())
})
