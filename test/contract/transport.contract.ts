/**
 * What the doors and the engine answer before any handler, with exact status, body and headers on
 * both doors. Sources: gitlab-behaviour.md §1.2, §1.5.
 */
import { expect, it } from 'vitest'
import { contract, type ApiResponse } from '../support/contract.js'

/** Headers the transport adds (node:http) or leaves out (MSW); everything else must match exactly. */
const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'])

function headersOf(res: ApiResponse): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of res.headers) if (!TRANSPORT_HEADERS.has(name)) out[name] = value
  return out
}

const REQUEST_ID = expect.stringMatching(/^01FAKELAB\d{17}$/)
/** The headers of every JSON answer from the API. */
const API_HEADERS = {
  'cache-control': 'max-age=0, private, must-revalidate',
  'content-type': 'application/json',
  vary: 'Origin',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'x-request-id': REQUEST_ID,
}

function answer(res: ApiResponse) {
  return { status: res.status, text: res.text, headers: headersOf(res) }
}

contract('wrong method on an existing path (issue 17, item 1)', {}, ({ api }) => {
  // gitlab-behaviour.md §1.2 "Wrong method on an existing path" (corrected 2026-11-23): Grape tries
  // GitLab's `route :any, '*path'` before its 405, so /api/v4 answers the catch-all 404, no Allow.
  it.each([['PATCH', '/projects/20/labels'], ['POST', '/projects/20/labels/110'], ['DELETE', '/user'], ['PUT', '/groups/10/milestones']])(
    '%s %s → 404 {"error":"404 Not Found"}',
    async (method, path) => {
      const res = await api.request(method, path, { as: 'root' })
      expect(answer(res)).toEqual({ status: 404, text: '{"error":"404 Not Found"}', headers: API_HEADERS })
    },
  )
})

contract('insufficient_scope names every registered scope (issue 17, item 3)', {}, ({ api, sim }) => {
  // gitlab-behaviour.md §1.5 (corrected 2026-11-23): `scope` lists every scope registered for the
  // endpoint in registration order (api, read_api, then the endpoint's own), whatever the method.
  const refusal = (scope: string) => ({
    status: 403,
    text: JSON.stringify({
      error: 'insufficient_scope',
      error_description: 'The request requires higher privileges than provided by the access token.',
      scope,
    }),
    headers: {
      ...API_HEADERS,
      'www-authenticate': `Bearer realm="The API", error="insufficient_scope", error_description="The request requires higher privileges than provided by the access token.", scope="${scope}"`,
    },
  })

  it.each([
    ['POST', '/projects/20/labels', { body: { name: 'x', color: 'red' } }],
    ['PUT', '/projects/20/labels/110', { body: { color: 'red' } }],
    ['DELETE', '/projects/20/labels/110', {}],
    ['POST', '/groups/10/milestones', { body: { title: 'x' } }],
    ['DELETE', '/projects/20/freeze_periods/300', {}],
  ])('refuses a read_api token on %s %s with scope "api read_api"', async (method, path, options) => {
    const res = await api.request(method, path, { token: 'glpat-devon-readonly', ...options })
    expect(answer(res)).toEqual(refusal('api read_api'))
  })

  it.each([
    ['/projects/20', 'api read_api'],
    ['/user', 'api read_api read_user'],
    ['/users/4', 'api read_api read_user'],
  ])('names the endpoint\'s own scopes after api and read_api: GET %s', async (path, scope) => {
    sim().db.tables.personal_access_tokens.insert({
      user_id: 4, name: 'repository', token: 'glpat-devon-repository', scopes: ['read_repository'], revoked: false,
      expires_at: null, impersonation: false, created_at: '2021-04-01T00:00:00.000Z', last_used_at: null,
    })
    const res = await api.get(path, { token: 'glpat-devon-repository' })
    expect(answer(res)).toEqual(refusal(scope))
  })
})
