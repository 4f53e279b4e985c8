/**
 * The request journal (issue 12 "Request journal"), filled through both doors: one entry per
 * request with its route key or kind of miss, status, user; queries; `expectCalled`; near misses.
 */
import { beforeEach, expect, it } from 'vitest'
import { JournalAssertionError } from '../../src/index.js'
import { contract } from '../support/contract.js'

contract('request journal', {}, ({ api, sim }) => {
  beforeEach(() => sim().journal.clear())

  it('records each request with its route, status, user and request id', async () => {
    const res = await api.get('/projects/20/labels', { as: 'max', query: { per_page: 2 } })
    const [entry] = sim().journal.all()
    expect(entry).toMatchObject({
      method: 'GET',
      path: '/api/v4/projects/20/labels',
      query: 'per_page=2',
      route: 'GET /projects/:id/labels',
      simulated: true,
      status: 200,
      user: 'max',
      requestId: res.headers.get('x-request-id'),
    })
    expect(entry!.routeMiss).toBeUndefined()
    expect(entry!.durationMs).toBeGreaterThanOrEqual(0)
    expect(entry!.at).toMatch(/^\d{4}-\d\d-\d\dT/)
  })

  it.each([
    ['anonymous', undefined, null],
    ['a token', 'root', 'root'],
  ])('records the user of %s', async (_, as, user) => {
    await api.get('/user', { as })
    expect(sim().journal.last()!.user).toBe(user)
  })

  it('records the sudo target as the user and the token owner as sudoFrom', async () => {
    await api.get('/user', { as: 'root', query: { sudo: 'devon' } })
    expect(sim().journal.last()).toMatchObject({ user: 'devon', sudoFrom: 'root', status: 200 })
  })

  it.each([
    ['GET', '/nope/at/all', 'path', undefined],
    ['PATCH', '/projects/20/labels', 'method', ['GET', 'POST', 'PUT', 'DELETE']],
  ])('marks %s %s as not simulated (%s miss)', async (method, path, miss, allowed) => {
    const res = await api.request(method, path, { as: 'root' })
    expect(res).toBeGitLabError(404, { error: '404 Not Found' })
    const entry = sim().journal.last()!
    expect(entry).toMatchObject({ route: null, routeMiss: miss, simulated: false, status: 404 })
    if (allowed) expect([...entry.allowed!].sort()).toEqual([...allowed].sort())
  })

  it('keeps a route 404 (a missing record) as simulated', async () => {
    await api.get('/projects/999', { as: 'root' })
    expect(sim().journal.last()).toMatchObject({ route: 'GET /projects/:id', simulated: true, status: 404 })
  })

  it('answers queries by route, method, status, user, path and query params', async () => {
    await api.get('/projects/20/labels', { as: 'max' })
    await api.get('/projects/20/labels', { as: 'devon', query: { search: 'front' } })
    await api.post('/projects/20/labels', { as: 'max', body: { name: 'journal', color: '#fff000' } })
    await api.get('/projects/999', { as: 'max' })
    const journal = sim().journal
    expect(journal.count({ route: 'GET /projects/:id/labels' })).toBe(2)
    expect(journal.count({ method: 'post' })).toBe(1)
    expect(journal.count({ status: 404 })).toBe(1)
    expect(journal.count({ status: (s) => s >= 200 && s < 300 })).toBe(3)
    expect(journal.count({ user: 'max' })).toBe(3)
    expect(journal.count({ path: /\/labels$/ })).toBe(3)
    expect(journal.find({ query: { search: 'front' } }).map((e) => e.user)).toEqual(['devon'])
    expect(journal.count({ user: 'max', route: 'POST /projects/:id/labels', status: 201 })).toBe(1)
  })

  it('expectCalled returns the matches, and fails with a message listing what was called', async () => {
    await api.get('/user', { as: 'root' })
    expect(sim().journal.expectCalled({ route: 'GET /user' }, 1)).toHaveLength(1)
    expect(() => sim().journal.expectCalled({ route: 'GET /user' }, 2)).toThrow(JournalAssertionError)
    expect(() => sim().journal.expectCalled({ route: 'POST /user' })).toThrow(
      /expected route="POST \/user" to be called at least once, but it was called 0 times; the journal holds:\n {2}GET \/api\/v4\/user → 200 \(GET \/user\) as root/,
    )
    expect(() => sim().journal.expectNotCalled({ route: 'GET /user' })).toThrow(/to be called 0 times, but it was called 1 time;/)
  })

  it('reports near misses with the closest routes', async () => {
    await api.get('/projects/20/labelz', { as: 'root' })
    const [near] = sim().journal.nearMisses()
    expect(near!.entry.path).toBe('/api/v4/projects/20/labelz')
    expect(near!.candidates[0]).toMatch(/^GET \/projects\/:id\//)
  })

  it('does not keep control requests', async () => {
    await api.post('/-/fakelab/reset')
    expect(sim().journal.all()).toEqual([])
  })

  it('survives reset and restore', async () => {
    await api.get('/user', { as: 'root' })
    sim().reset()
    expect(sim().journal.count()).toBe(1)
  })
})
