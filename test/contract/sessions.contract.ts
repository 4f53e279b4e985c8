/**
 * Isolation (issue 12): several simulators in one process, and on one server a session per request
 * (`X-Fakelab-Session` header or `/-/fakelab/sessions/<id>/` prefix), each with its own state made
 * from the scenario, so parallel workers sharing a server do not see each other's writes.
 */
import { readFileSync } from 'node:fs'
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

// Issue 38 item 1: a new session starts from the configured fault rules and clock (what reset()
// returns to), not from the main simulator's live counters, however the main's requests went.
const configured = `${readFileSync(new URL('../../scenarios/default.yaml', import.meta.url), 'utf8')}\nfaults: [{ route: GET /user, status: 503, times: 2 }]\n`
contract('sessions start from the configured faults and clock', { scenario: configured }, ({ api, sim }) => {
  it('gives every parallel session the whole configured fault, after the main used it up', async () => {
    const main = sim()
    // The main uses up its rule, and moves its clock.
    for (let i = 0; i < 2; i++) expect((await api.get('/user', { as: 'max' })).status).toBe(503)
    expect((await api.get('/user', { as: 'max' })).status).toBe(200)
    expect(main.faults.list()).toEqual([])
    const start = main.clock.now().toISOString()
    main.advanceClock(3_600_000)
    // Four workers, in parallel: each sees the rule twice, then the real answer, on the configured clock.
    const workers = ['w1', 'w2', 'w3', 'w4']
    const seen = await Promise.all(workers.map(async (id) => {
      const headers = { 'x-fakelab-session': id }
      const statuses: number[] = []
      for (let i = 0; i < 3; i++) statuses.push((await api.get('/user', { as: 'max', headers })).status)
      return { statuses, faults: main.session(id).faults.list(), now: main.session(id).clock.now().toISOString() }
    }))
    for (const worker of seen) expect(worker).toEqual({ statuses: [503, 503, 200], faults: [], now: start })
    // One request on the main does not leave a new session with one request's worth.
    main.faults.set([{ route: 'GET /user', status: 503, times: 2 }])
    expect((await api.get('/user', { as: 'max' })).status).toBe(503)
    expect(main.session('w5').faults.list()).toEqual([{ route: 'GET /user', status: 503, times: 2 }])
    for (const id of [...workers, 'w5']) main.dropSession(id)
  })
})
