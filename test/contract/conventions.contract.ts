/**
 * GitLab's cross-cutting conventions, through the public HTTP interface on both doors:
 * routing and the three 404 bodies, wrong methods, 410/414, authentication sources and token states, sudo,
 * standard headers. Source: api-spec.md "Authentication", "Errors", "Limits"; gitlab-behaviour.md §1.
 */
import { expect, it } from 'vitest'
import { contract } from '../support/contract.js'

contract('routing and error bodies', {}, ({ api, transport }) => {
  it.each([
    ['GET', '/nope', 404, { error: '404 Not Found' }],
    ['GET', '/projects/acme/website', 404, { error: '404 Not Found' }],
    ['GET', '/api/v3/projects', 410, { error: 'API V3 is no longer supported. Use API V4 instead.' }],
    // gitlab-behaviour.md §1.2 "Wrong method on an existing path": GitLab's catch-all 404, not Grape's 405.
    ['POST', '/user', 404, { error: '404 Not Found' }],
    ['GET', '/projects/999', 404, { message: '404 Project Not Found' }],
    ['GET', '/projects/website', 404, { message: '404 Project Not Found' }],
    ['GET', '/groups/999', 404, { message: '404 Group Not Found' }],
    ['GET', '/users/999', 404, { message: '404 User Not Found' }],
    ['GET', '/users/abc', 400, { error: 'id is invalid' }],
  ])('%s %s → %i', async (method, path, status, body) => {
    const res = await api.request(method, path, { as: 'root' })
    expect(res).toBeGitLabError(status, body)
  })

  // gitlab-behaviour.md §1.2 "Wrong method on an existing path" (corrected 2026-11-23), §14 item 20.
  it('answers a wrong method on an existing path with the catch-all 404 and no Allow', async () => {
    const res = await api.request('PATCH', '/projects/20/labels', { as: 'root' })
    expect([res.status, res.body, res.headers.get('allow')]).toEqual([404, { error: '404 Not Found' }, null])
  })

  // MSW handlers only claim /api/v4, /api/v3 and /-/fakelab: other paths are the app's own.
  it.skipIf(transport === 'msw')('answers paths outside /api/v4 with the route 404', async () => {
    const res = await api.get('/api/v5/projects')
    expect(res).toBeGitLabError(404, { error: '404 Not Found' })
  })

  it('answers 414 for a query string over 10 KiB', async () => {
    const res = await api.get('/projects', { as: 'root', query: { search: 'x'.repeat(11 * 1024) } })
    expect(res.status).toBe(414)
  })

  it('sends the headers GitLab always sends, and exactly application/json', async () => {
    const res = await api.get('/projects/20', { as: 'root' })
    expect(res.status).toBe(200)
    expect({
      'content-type': res.headers.get('content-type'),
      'cache-control': res.headers.get('cache-control'),
      'x-frame-options': res.headers.get('x-frame-options'),
      'x-content-type-options': res.headers.get('x-content-type-options'),
      vary: res.headers.get('vary'),
    }).toEqual({
      'content-type': 'application/json',
      'cache-control': 'max-age=0, private, must-revalidate',
      'x-frame-options': 'SAMEORIGIN',
      'x-content-type-options': 'nosniff',
      vary: 'Origin',
    })
    expect(res.headers.get('x-request-id')).toMatch(/^01FAKELAB\d{17}$/)
  })

  it('answers HEAD like GET without a body', async () => {
    const res = await api.request('HEAD', '/projects/20', { as: 'root' })
    expect([res.status, res.text]).toEqual([200, ''])
  })

  it('lets the path :id win over a stray id query parameter (python-gitlab)', async () => {
    const res = await api.get('/projects/20', { as: 'root', query: { id: '<built-in function id>' } })
    expect([res.status, res.body.id]).toEqual([200, 20])
  })

  it('never crashes on a malformed JSON body', async () => {
    const res = await api.request('PUT', '/user', { as: 'root', headers: { 'content-type': 'application/json' } })
    expect(res.status).toBe(404)
  })
})

contract('authentication', {}, ({ api, sim }) => {
  it.each([
    ['PRIVATE-TOKEN header', { headers: { 'PRIVATE-TOKEN': 'glpat-root-fakelab' } }],
    ['private_token param', { query: { private_token: 'glpat-root-fakelab' } }],
    ['Authorization: Bearer', { headers: { Authorization: 'Bearer glpat-root-fakelab' } }],
    ['access_token param', { query: { access_token: 'glpat-root-fakelab' } }],
  ])('accepts a personal access token as %s', async (_how, options) => {
    const res = await api.get('/user', options)
    expect([res.status, res.body.username]).toEqual([200, 'root'])
  })

  it('accepts an OAuth token as a bearer value', async () => {
    sim().db.tables.oauth_access_tokens.insert({
      user_id: 4, token: 'oauth-devon', scopes: ['api'], revoked: false, expires_at: null, created_at: '2021-04-01T00:00:00.000Z',
    })
    const res = await api.get('/user', { headers: { Authorization: 'Bearer oauth-devon' } })
    expect([res.status, res.body.username]).toEqual([200, 'devon'])
  })

  it.each([
    ['no token on a private route', '/user', {}, 401, { message: '401 Unauthorized' }],
    ['an unknown token', '/user', { token: 'nope' }, 401, { message: '401 Unauthorized' }],
    ['an unknown token on a public route', '/projects/20', { token: 'nope' }, 401, { message: '401 Unauthorized' }],
    ['a job token (not accepted here)', '/user', { headers: { 'JOB-TOKEN': 'x' } }, 401, { message: '401 Unauthorized' }],
    ['an expired token', '/user', { token: 'glpat-nora-expired' }, 401, {
      error: 'invalid_token', error_description: 'Token is expired. You can either do re-authorization or token refresh.',
    }],
    ['a revoked token', '/user', { token: 'glpat-nora-revoked' }, 401, {
      error: 'invalid_token', error_description: 'Token was revoked. You have to re-authorize from the user.',
    }],
  ])('refuses %s', async (_title, path, options, status, body) => {
    const res = await api.get(path, options)
    expect(res).toBeGitLabError(status, body)
  })

  it('sends WWW-Authenticate with invalid_token', async () => {
    const res = await api.get('/user', { token: 'glpat-nora-revoked' })
    expect(res.headers.get('www-authenticate')).toBe(
      'Bearer realm="The API", error="invalid_token", error_description="Token was revoked. You have to re-authorize from the user."',
    )
  })

  it('lets a read_api token read', async () => {
    const res = await api.get('/projects/20', { token: 'glpat-devon-readonly' })
    expect(res.status).toBe(200)
  })

  // GitLab 13.x's reasons (user_access_denied_reason.rb; gitlab-behaviour.md §1.5). The deactivated
  // one names GitLab's URL and ends without a full stop (issue 23 item 11); dee is deactivated.
  it.each([
    ['a blocked user', 'blocked', () => '403 Forbidden - Your account has been blocked.'],
    ['an LDAP-blocked user', 'ldap_blocked', () => '403 Forbidden - Your account has been blocked.'],
    [
      'a deactivated user',
      'deactivated',
      (base: string) => `403 Forbidden - Your account has been deactivated by your administrator. Please log back in from a web browser to reactivate your account at ${base}`,
    ],
  ] as const)('refuses %s with 403 and its reason', async (_who, state, message) => {
    sim().db.tables.users.update(7, { state })
    const res = await api.get('/user', { as: 'nora' })
    expect(res).toBeGitLabError(403, { message: message(api.baseUrl) })
  })

  it('names GitLab\'s URL to the default scenario\'s deactivated user, on a route that allows anonymous callers too', async () => {
    const res = await api.get('/projects/20/issues', { as: 'dee' })
    expect(res).toBeGitLabError(403, {
      message: `403 Forbidden - Your account has been deactivated by your administrator. Please log back in from a web browser to reactivate your account at ${api.baseUrl}`,
    })
  })
})

contract('sudo', {}, ({ api }) => {
  it.each([
    ['the sudo param with a username', { as: 'root', query: { sudo: 'devon' } }, 'devon'],
    ['the Sudo header with an id', { as: 'root', headers: { Sudo: '4' } }, 'devon'],
    ['a username in another case', { as: 'root', query: { sudo: 'DeVoN' } }, 'devon'],
  ])('acts as another user through %s', async (_how, options, username) => {
    const res = await api.get('/user', options)
    expect([res.status, res.body.username]).toEqual([200, username])
  })

  it.each([
    ['anonymous', { query: { sudo: 'devon' } }, 401, { message: '401 Unauthorized' }],
    ['a non-admin', { as: 'max', query: { sudo: 'devon' } }, 403, { message: '403 Forbidden - Must be admin to use sudo' }],
    ['a token without the sudo scope', { token: 'glpat-root-readonly', query: { sudo: 'devon' } }, 403, {
      error: 'insufficient_scope',
      error_description: 'The request requires higher privileges than provided by the access token.',
      scope: 'sudo',
    }],
    ['an unknown user', { as: 'root', query: { sudo: 'ghost' } }, 404, { message: "404 User with ID or username 'ghost' Not Found" }],
  ])('refuses sudo by %s', async (_who, options, status, body) => {
    const res = await api.get('/user', options)
    expect(res).toBeGitLabError(status, body)
  })

  it('applies the impersonated user permissions', async () => {
    const res = await api.get('/projects/21', { as: 'root', query: { sudo: 'nora' } })
    expect(res).toBeGitLabError(404, { message: '404 Project Not Found' })
  })
})

contract('visibility', {}, ({ api }) => {
  it.each([
    ['/projects/21', undefined, 404],
    ['/projects/21', 'nora', 404],
    ['/projects/21', 'gina', 200],
    ['/projects/21', 'root', 200],
    ['/projects/acme%2Fplatform%2Fapi', 'devon', 200],
    ['/projects/ACME%2FWebsite', undefined, 200],
    ['/projects/23', undefined, 404],
    ['/projects/23', 'nora', 200],
    ['/projects/22', 'olive', 200],
    ['/projects/olive%2Fdotfiles', 'max', 404],
    ['/groups/12', 'nora', 404],
    ['/groups/12', 'olive', 200],
    ['/groups/acme%2Fplatform', 'gina', 200],
    ['/groups/acme%2Fplatform', undefined, 404],
    ['/groups/10', undefined, 200],
  ])('GET %s as %s → %i', async (path, as, status) => {
    const res = await api.get(path, { as })
    if (status === 404) expect(res).toBeGitLabError(404, { message: `404 ${path.startsWith('/groups') ? 'Group' : 'Project'} Not Found` })
    else expect(res.status).toBe(status)
  })
})

contract('POST /-/fakelab/reset', {}, ({ api }) => {
  it('puts the scenario back as it was loaded', async () => {
    expect((await api.delete('/projects/20/labels/110', { as: 'max' })).status).toBe(204)
    expect((await api.get('/projects/20/labels/110', { as: 'max' })).status).toBe(404)
    const reset = await api.post('/-/fakelab/reset')
    expect([reset.status, reset.text]).toEqual([204, ''])
    expect((await api.get('/projects/20/labels/110', { as: 'max' })).body.name).toBe('frontend')
  })

  it('is the only control route', async () => {
    const res = await api.get('/-/fakelab/nothing')
    expect(res).toBeGitLabError(404, { error: '404 Not Found' })
  })
})
