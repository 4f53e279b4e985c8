/**
 * Unsimulated routes are recognisable (issue 25 item 8): a request under `/api/v4` that no fakelab
 * route answers gets GitLab's catch-all 404 body and `X-Fakelab-Unsimulated: true`, and its journal
 * entry says `simulated: false`; a route's own 404 (a missing record) carries no such header. Also
 * the journal's user on refused and unsimulated requests, and session requests told to the
 * parent's subscribers (issue 28 item 6). On both doors.
 */
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { JournalEntry } from '../../src/index.js'
import { contract } from '../support/contract.js'

const CATCH_ALL = { error: '404 Not Found' }
const EXPOSE = 'Link, X-Total, X-Total-Pages, X-Per-Page, X-Page, X-Next-Page, X-Prev-Page'

contract('unsimulated routes', {}, ({ api, sim, transport }) => {
  beforeEach(() => sim().journal.clear())

  it.each([
    // [method, path, status, body, header, journal]
    ['GET', '/nope/at/all', 404, CATCH_ALL, 'true', { route: null, routeMiss: 'path', simulated: false }],
    ['GET', '/projects/20/labelz', 404, CATCH_ALL, 'true', { route: null, routeMiss: 'path', simulated: false }],
    // A path fakelab serves under other methods: no proof GitLab lacks the route, so marked too.
    ['PATCH', '/projects/20/labels', 404, CATCH_ALL, 'true', { route: null, routeMiss: 'method', simulated: false }],
    ['POST', '/user', 404, CATCH_ALL, 'true', { route: null, routeMiss: 'method', simulated: false }],
    // A route's own 404: GitLab would answer the same; not marked.
    ['GET', '/projects/999', 404, { message: '404 Project Not Found' }, null, { route: 'GET /projects/:id', simulated: true }],
    ['GET', '/users/999', 404, { message: '404 User Not Found' }, null, { route: 'GET /users/:id', simulated: true }],
    // fakelab's control namespace is not GitLab's API: its 404 is not marked.
    ['GET', '/-/fakelab/nothing', 404, CATCH_ALL, null, undefined],
  ])('%s %s → %i, X-Fakelab-Unsimulated: %s', async (method, path, status, body, header, journal) => {
    const res = await api.request(method, path, { as: 'root' })
    expect(res).toBeGitLabError(status, body)
    expect(res.headers.get('x-fakelab-unsimulated')).toBe(header)
    if (journal) expect(sim().journal.last()).toMatchObject({ ...journal, status, user: 'root' })
  })

  it('sends no header on an answered request', async () => {
    const res = await api.get('/projects/20', { as: 'root' })
    expect([res.status, res.headers.get('x-fakelab-unsimulated')]).toEqual([200, null])
  })

  it('marks HEAD requests too, without a body', async () => {
    const res = await api.request('HEAD', '/nope', { as: 'root' })
    expect([res.status, res.text, res.headers.get('x-fakelab-unsimulated')]).toEqual([404, '', 'true'])
  })

  // MSW handlers claim /api/v4, /api/v3 and /-/fakelab only: other paths are the app's own.
  it.skipIf(transport === 'msw')('does not mark paths outside /api/v4', async () => {
    const res = await api.get('/api/v5/projects')
    expect([res.status, res.headers.get('x-fakelab-unsimulated')]).toEqual([404, null])
  })

  it('marks a session\'s unsimulated requests', async () => {
    const res = await api.get('/-/fakelab/sessions/unsimulated/api/v4/nope', { as: 'root' })
    expect(res).toBeGitLabError(404, CATCH_ALL)
    expect(res.headers.get('x-fakelab-unsimulated')).toBe('true')
    sim().dropSession('unsimulated')
  })

  it('exposes the header to a browser (CORS) only where it is sent', async () => {
    const origin = { origin: 'https://app.example' }
    const miss = await api.get('/nope', { as: 'root', headers: origin })
    expect(miss.headers.get('access-control-expose-headers')).toBe(`${EXPOSE}, X-Fakelab-Unsimulated`)
    const known = await api.get('/projects/999', { as: 'root', headers: origin })
    expect(known.headers.get('access-control-expose-headers')).toBe(EXPOSE)
  })
})

contract('journal: who sent a refused or unsimulated request', {}, ({ api, sim }) => {
  beforeEach(() => sim().journal.clear())

  it.each([
    // [case, token, method, path, status, user]
    ['a token without the route\'s scope (403)', 'glpat-root-readonly', 'POST', '/projects/20/labels', 403, 'root'],
    ['a read_user token on the API (403)', 'glpat-nora-read-user', 'GET', '/projects', 403, 'nora'],
    ['sudo without the sudo scope (403)', 'glpat-gina-fakelab', 'GET', '/user?sudo=max', 403, 'gina'],
    ['a blocked user\'s token (403)', 'glpat-bianca-fakelab', 'GET', '/user', 403, 'bianca'],
    ['an expired token (401)', 'glpat-nora-expired', 'GET', '/user', 401, null],
    ['a revoked token (401)', 'glpat-nora-revoked', 'GET', '/user', 401, null],
    ['an unknown token (401)', 'glpat-nobody', 'GET', '/user', 401, null],
    ['an unknown token on an unsimulated route', 'glpat-nobody', 'GET', '/nope', 404, null],
    ['a token on an unsimulated route', 'glpat-max-fakelab', 'GET', '/nope', 404, 'max'],
  ])('%s', async (_, token, method, path, status, user) => {
    const res = await api.request(method, path, { token })
    expect(res.status).toBe(status)
    expect(sim().journal.last()).toMatchObject({ status, user })
  })

  it('is anonymous without a credential', async () => {
    await api.get('/nope')
    expect(sim().journal.last()).toMatchObject({ status: 404, simulated: false, user: null })
  })
})

contract('journal: session requests reach the parent\'s subscribers', {}, ({ api, sim }) => {
  let told: JournalEntry[] = []
  let stop: () => void = () => {}
  beforeEach(() => {
    sim().journal.clear()
    told = []
    stop = sim().journal.subscribe((entry) => void told.push(entry))
  })
  afterEach(() => {
    stop()
    for (const id of sim().sessionIds()) sim().dropSession(id)
  })

  it('by header and by path prefix, marked with the session id, kept by the session only', async () => {
    await api.get('/user', { as: 'root', headers: { 'X-Fakelab-Session': 'alpha' } })
    await api.get('/-/fakelab/sessions/beta/api/v4/projects/20', { as: 'max' })
    expect(told).toMatchObject([
      { method: 'GET', path: '/api/v4/user', route: 'GET /user', status: 200, user: 'root', session: 'alpha' },
      { method: 'GET', path: '/api/v4/projects/20', route: 'GET /projects/:id', status: 200, user: 'max', session: 'beta' },
    ])
    expect(sim().journal.all()).toEqual([])
    expect(sim().session('alpha').journal.all()).toMatchObject([{ route: 'GET /user', user: 'root' }])
    expect(sim().session('alpha').journal.last()!.session).toBeUndefined()
  })
})
