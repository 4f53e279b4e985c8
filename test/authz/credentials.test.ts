/**
 * The credential columns of the authorization matrix (issue 10 item 5): every registered route,
 * called with each kind of credential, on both doors. Each cell is stated by what GitLab does with
 * that credential, relative to a reference caller, so no route needs a row of its own here:
 * - OAuth token of devon (api) — answers as devon's personal access token does;
 * - impersonation token of nora — answers as nora's own token does;
 * - session cookie of devon — on GET as devon's token, on a write as an anonymous request (no CSRF);
 * - CI job token (running job, triggered by devon) — as anonymous (the token is ignored), except on
 *   a route that opens to job tokens (`GET /job`), where it authenticates as devon;
 * - expired token, revoked token — 401 `invalid_token` with GitLab's description, whatever the route;
 * - wrong scope (a `read_user` token of nora) — 403 `insufficient_scope` unless the route also
 *   accepts `read_user` (then as nora's token);
 * - expired OAuth token — 401 `invalid_token`.
 * A refused request must leave the store as it was. Source: api-spec.md "Authentication";
 * gitlab-behaviour.md §1.5; gitlab: lib/api/api_guard.rb, lib/gitlab/auth/auth_finders.rb.
 */
import { expect, it } from 'vitest'
import type { Route } from '../../src/core/route.js'
import type { Simulator } from '../../src/index.js'
import { loadAllRoutes } from '../../src/resources/index.js'
import { contract, type Api, type ApiResponse, type RequestOptions } from '../support/contract.js'

const EXPIRED = { error: 'invalid_token', error_description: 'Token is expired. You can either do re-authorization or token refresh.' }
const REVOKED = { error: 'invalid_token', error_description: 'Token was revoked. You have to re-authorize from the user.' }

/** A path for a route, with fixtures of the default scenario for its parameters. */
function pathOf(route: Route): string {
  return route.path
    .replace(/^\/projects\/:id/, '/projects/20')
    .replace(/^\/groups\/:id/, '/groups/10')
    .replace(/^\/snippets\/:id/, '/snippets/601')
    .replace(/^\/users\/:id/, '/users/2')
    .replace(/\/labels\/:label_id/, route.path.startsWith('/groups') ? '/labels/100' : '/labels/110')
    .replace(/\/milestones\/:milestone_id/, '/milestones/200')
    .replace(/\/freeze_periods\/:freeze_period_id/, '/freeze_periods/300')
    .replace(/:[a-z_]+/g, '1')
}

/** A read: GET or HEAD (`read_api` and a browser session reach both, GitLab's `find_user_from_warden` and API guard). */
const reads = (route: Route): boolean => route.method === 'GET' || route.method === 'HEAD'

/** A body some routes need to get past validation (the answer is compared, not required to succeed). */
const BODY = { name: 'matrix', title: 'matrix', color: '#123456', freeze_start: '0 1 * * *', freeze_end: '0 2 * * *', source_storage_name: 'default' }

/** The status and body of a response; success bodies as "JSON" (timestamps and ids may differ in nothing, but keep it simple). */
function seen(res: ApiResponse): { status: number; body: unknown; authenticate: string | null } {
  return { status: res.status, body: res.status < 300 ? 'success' : res.body, authenticate: res.headers.get('www-authenticate') }
}

async function call(api: Api, sim: Simulator, route: Route, options: RequestOptions): Promise<ReturnType<typeof seen>> {
  sim.reset()
  const before = JSON.stringify(sim.db.dump())
  const res = await api.request(route.method, pathOf(route), { ...options, body: reads(route) ? undefined : BODY })
  if (res.status >= 300) expect(JSON.stringify(sim.db.dump()), `a refused ${route.key} changed the store`).toBe(before)
  return seen(res)
}

function invalidToken(body: { error: string; error_description: string }) {
  return { status: 401, body, authenticate: `Bearer realm="The API", error="invalid_token", error_description="${body.error_description}"` }
}

const ROUTES = (await loadAllRoutes()).api.map((route) => [route.key, route] as const)

contract('credential columns', {}, ({ api, sim }) => {
  it('covers every registered route', () => {
    expect(sim().routes.map((r) => r.key).sort()).toEqual(ROUTES.map(([key]) => key).sort())
  })

  it.each(ROUTES)('%s', async (_key, route) => {
    const s = sim()
    const devon = await call(api, s, route, { as: 'devon' })
    const nora = await call(api, s, route, { as: 'nora' })
    const anonymous = await call(api, s, route, {})
    const got = {
      oauth: await call(api, s, route, { headers: { Authorization: 'Bearer oauth-devon-fakelab' } }),
      impersonation: await call(api, s, route, { token: 'glpat-nora-impersonation' }),
      cookie: await call(api, s, route, { headers: { Cookie: '_gitlab_session=session-devon-fakelab' } }),
      jobToken: await call(api, s, route, { headers: { 'JOB-TOKEN': 'job-token-running' } }),
      expired: await call(api, s, route, { token: 'glpat-nora-expired' }),
      revoked: await call(api, s, route, { token: 'glpat-nora-revoked' }),
      expiredOauth: await call(api, s, route, { query: { access_token: 'oauth-devon-expired' } }),
      wrongScope: await call(api, s, route, { token: 'glpat-nora-read-user' }),
    }
    const anonymousRoute = route.auth === 'none'
    const readUser = route.scopes.includes('read_user')
    const scopes = ['api', ...(reads(route) ? ['read_api'] : []), ...route.scopes].join(' ')
    const description = 'The request requires higher privileges than provided by the access token.'
    // A HEAD answer has the status and headers of its GET, and no body.
    const answer = <T extends { body: unknown }>(expected: T): T => (route.method === 'HEAD' ? { ...expected, body: undefined } : expected)
    expect(got).toEqual({
      oauth: devon,
      impersonation: nora,
      cookie: reads(route) ? devon : anonymous,
      jobToken: route.jobTokenAllowed ? devon : anonymous,
      expired: anonymousRoute ? anonymous : answer(invalidToken(EXPIRED)),
      revoked: anonymousRoute ? anonymous : answer(invalidToken(REVOKED)),
      expiredOauth: anonymousRoute ? anonymous : answer(invalidToken(EXPIRED)),
      wrongScope: anonymousRoute || readUser ? nora : answer({
        status: 403,
        body: { error: 'insufficient_scope', error_description: description, scope: reads(route) ? scopes : expect.stringMatching(/^api/) },
        authenticate: expect.stringContaining('error="insufficient_scope"'),
      }),
    })
  })
})
