/**
 * Every authentication method and its failures, over both doors: OAuth tokens, personal access
 * tokens, impersonation tokens (and the switch that disables them), the session cookie, CI job
 * tokens, scopes, and sudo's checks in GitLab's order. (The basics — PAT header/param/bearer, PAT
 * expiry and revocation, sudo by header/param — are in conventions.contract.ts.)
 * Source: api-spec.md "Authentication"; gitlab-behaviour.md §1.5; gitlab: lib/api/api_guard.rb,
 * lib/gitlab/auth/auth_finders.rb, app/services/access_token_validation_service.rb, lib/api/helpers.rb `sudo!`.
 *
 * Default scenario credentials: `oauth-root-fakelab` (OAuth, api + sudo), `oauth-devon-fakelab`
 * (OAuth, api), `oauth-devon-expired`, `oauth-devon-revoked`; `glpat-nora-impersonation`
 * (impersonation token of nora, api); `glpat-nora-read-user` (read_user only); session cookies
 * `session-devon-fakelab` and `session-root-fakelab`; job tokens `job-token-running` and
 * `job-token-finished` (project 20, triggered by devon).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createSimulator, type Simulator } from '../../../src/index.js'
import { route } from '../../../src/core/route.js'
import { ok } from '../../../src/core/respond.js'
import { allRoutes } from '../../../src/resources/index.js'
import { contract, type RequestOptions } from '../../support/contract.js'

const UNAUTHORIZED = { message: '401 Unauthorized' }
const EXPIRED = { error: 'invalid_token', error_description: 'Token is expired. You can either do re-authorization or token refresh.' }
const REVOKED = { error: 'invalid_token', error_description: 'Token was revoked. You have to re-authorize from the user.' }
const IMPERSONATION_DISABLED = { error: 'invalid_token', error_description: 'Token is an impersonation token but impersonation was disabled.' }
const DESCRIPTION = 'The request requires higher privileges than provided by the access token.'
const DEFAULT_YAML = readFileSync(join(import.meta.dirname, '..', '..', '..', 'scenarios', 'default.yaml'), 'utf8')

function bearer(token: string): RequestOptions {
  return { headers: { Authorization: `Bearer ${token}` } }
}

function cookie(value: string): RequestOptions {
  return { headers: { Cookie: value } }
}

contract('authentication methods', {}, ({ api, sim }) => {
  it.each([
    ['an OAuth token as Authorization: Bearer', bearer('oauth-devon-fakelab'), 'devon'],
    ['an OAuth token as access_token', { query: { access_token: 'oauth-devon-fakelab' } }, 'devon'],
    ['an OAuth token as a lower-case bearer', { headers: { Authorization: 'bearer oauth-devon-fakelab' } }, 'devon'],
    ['an impersonation token in PRIVATE-TOKEN', { token: 'glpat-nora-impersonation' }, 'nora'],
    ['an impersonation token as Bearer', bearer('glpat-nora-impersonation'), 'nora'],
    ['the _gitlab_session cookie', cookie('_gitlab_session=session-devon-fakelab'), 'devon'],
    ['the spec\'s _service_session cookie', cookie('_service_session=session-devon-fakelab'), 'devon'],
    ['a session cookie among others', cookie('theme=dark; _gitlab_session=session-devon-fakelab; x=1'), 'devon'],
    ['a read_user token on GET /user', { token: 'glpat-nora-read-user' }, 'nora'],
  ])('GET /user accepts %s', async (_, options, username) => {
    const res = await api.get('/user', options)
    expect([res.status, res.body.username]).toEqual([200, username])
  })

  it.each([
    ['an expired OAuth token', bearer('oauth-devon-expired'), EXPIRED],
    ['a revoked OAuth token', { query: { access_token: 'oauth-devon-revoked' } }, REVOKED],
    ['an unknown OAuth token', bearer('oauth-nobody'), UNAUTHORIZED],
  ])('refuses %s with 401', async (_, options, body) => {
    const res = await api.get('/projects/20', options)
    expect(res).toBeGitLabError(401, body)
    if ('error' in body) {
      expect(res.headers.get('www-authenticate')).toBe(`Bearer realm="The API", error="invalid_token", error_description="${body.error_description}"`)
    }
  })

  it('checks expiry before revocation (AccessTokenValidationService)', async () => {
    sim().db.tables.oauth_access_tokens.insert({ user_id: 4, token: 'oauth-both', scopes: ['api'], revoked: true, expires_at: '2021-01-01T00:00:00.000Z', created_at: '2020-01-01T00:00:00.000Z' })
    const res = await api.get('/user', bearer('oauth-both'))
    expect(res).toBeGitLabError(401, EXPIRED)
  })

  it.each([
    ['an unknown session cookie', '/user', cookie('_gitlab_session=nope'), 401, UNAUTHORIZED],
    ['an unknown session cookie on a public route (anonymous, not refused)', '/projects/20', cookie('_gitlab_session=nope'), 200, null],
    ['a session cookie on a private project the user cannot read', '/projects/24', cookie('_gitlab_session=session-devon-fakelab'), 404, { message: '404 Project Not Found' }],
    ['a session cookie on a private project the user can read', '/projects/21', cookie('_gitlab_session=session-devon-fakelab'), 200, null],
  ])('treats %s', async (_, path, options, status, body) => {
    const res = await api.get(path, options)
    if (body) expect(res).toBeGitLabError(status, body)
    else expect(res.status).toBe(status)
  })

  it('ignores the session cookie on a write (no CSRF token): anonymous, 401', async () => {
    const res = await api.post('/projects/20/labels', { ...cookie('_gitlab_session=session-devon-fakelab'), body: { name: 'x', color: '#FF0000' } })
    expect(res).toBeGitLabError(401, UNAUTHORIZED)
  })

  it('prefers a token over the session cookie, and refuses a bad token even with a good cookie', async () => {
    const both = await api.get('/user', { token: 'glpat-max-fakelab', headers: { Cookie: '_gitlab_session=session-devon-fakelab' } })
    expect(both.body.username).toBe('max')
    const bad = await api.get('/user', { token: 'nope', headers: { Cookie: '_gitlab_session=session-devon-fakelab' } })
    expect(bad).toBeGitLabError(401, UNAUTHORIZED)
  })

  it.each([
    ['the JOB-TOKEN header on a private route', '/user', { headers: { 'JOB-TOKEN': 'job-token-running' } }, 401, UNAUTHORIZED],
    ['the job_token param on a private route', '/user', { query: { job_token: 'job-token-running' } }, 401, UNAUTHORIZED],
    ['a job token on a public project (anonymous read)', '/projects/20', { headers: { 'JOB-TOKEN': 'job-token-running' } }, 200, null],
    ['a job token on a private project (anonymous: not found)', '/projects/21', { headers: { 'JOB-TOKEN': 'job-token-running' } }, 404, { message: '404 Project Not Found' }],
  ])('ignores a CI job token where GitLab does not accept one: %s', async (_, path, options, status, body) => {
    const res = await api.get(path, options)
    if (body) expect(res).toBeGitLabError(status, body)
    else expect(res.status).toBe(status)
  })

  it('refuses a token whose scopes the route does not accept: insufficient_scope', async () => {
    const res = await api.get('/projects/20', { token: 'glpat-nora-read-user' })
    expect(res).toBeGitLabError(403, { error: 'insufficient_scope', error_description: DESCRIPTION, scope: 'api read_api' })
    expect(res.headers.get('www-authenticate')).toBe(`Bearer realm="The API", error="insufficient_scope", error_description="${DESCRIPTION}", scope="api read_api"`)
  })

  it('refuses a write with a read_api token: insufficient_scope, nothing written', async () => {
    const res = await api.post('/projects/20/labels', { token: 'glpat-devon-readonly', body: { name: 'x', color: '#FF0000' } })
    expect([res.status, res.body.error]).toEqual([403, 'insufficient_scope'])
    expect((await api.get('/projects/20/labels/x', { as: 'devon' })).status).toBe(404)
  })
})

contract('sudo (credentials and order of checks)', {}, ({ api, sim }) => {
  it.each([
    ['an OAuth token with the sudo scope, by username', { ...bearer('oauth-root-fakelab'), query: { sudo: 'max' } }, 'max'],
    ['an OAuth token with the sudo scope, by id in the header', { headers: { Authorization: 'Bearer oauth-root-fakelab', Sudo: '5' } }, 'max'],
    ['a personal token, username in upper case', { as: 'root', headers: { Sudo: 'MAX' } }, 'max'],
    ['the param winning over the header', { as: 'root', query: { sudo: 'max' }, headers: { Sudo: 'olive' } }, 'max'],
  ])('acts as another user with %s', async (_, options, username) => {
    const res = await api.get('/user', options)
    expect([res.status, res.body.username]).toEqual([200, username])
  })

  it.each([
    ['an administrator signed in by cookie', cookie('_gitlab_session=session-root-fakelab'), 403, { message: '403 Forbidden - Must be authenticated using an OAuth or Personal Access Token to use sudo' }],
    ['a non-administrator by cookie (admin checked first)', cookie('_gitlab_session=session-devon-fakelab'), 403, { message: '403 Forbidden - Must be admin to use sudo' }],
    ['an OAuth token without the sudo scope (not admin: admin checked first)', bearer('oauth-devon-fakelab'), 403, { message: '403 Forbidden - Must be admin to use sudo' }],
    ['an expired token (the token first)', bearer('oauth-devon-expired'), 401, EXPIRED],
    ['an unknown user by id', { as: 'root', headersOverride: '999' }, 404, { message: "404 User with ID or username '999' Not Found" }],
  ])('refuses sudo from %s', async (_, options, status, body) => {
    const { headersOverride, ...rest } = options as RequestOptions & { headersOverride?: string }
    const res = await api.get('/user', { ...rest, headers: { ...rest.headers, Sudo: headersOverride ?? 'max' } })
    expect(res).toBeGitLabError(status, body)
  })

  it('skips the endpoint scope check under sudo: a token with only the sudo scope acts', async () => {
    sim().db.tables.oauth_access_tokens.insert({ user_id: 1, token: 'oauth-root-sudo-only', scopes: ['sudo'], revoked: false, expires_at: null, created_at: '2020-01-01T00:00:00.000Z' })
    const alone = await api.get('/projects/20', bearer('oauth-root-sudo-only'))
    expect([alone.status, alone.body.error]).toEqual([403, 'insufficient_scope'])
    const res = await api.post('/projects/20/labels', { ...bearer('oauth-root-sudo-only'), query: { sudo: 'max' }, body: { name: 'by-sudo', color: '#FF0000' } })
    expect(res.status).toBe(201)
  })
})

contract('impersonation disabled by the scenario', { scenario: DEFAULT_YAML.replace('impersonation_enabled: true', 'impersonation_enabled: false') }, ({ api }) => {
  it('refuses an impersonation token with 401 invalid_token', async () => {
    const res = await api.get('/user', { token: 'glpat-nora-impersonation' })
    expect(res).toBeGitLabError(401, IMPERSONATION_DISABLED)
    expect(res.headers.get('www-authenticate')).toBe(`Bearer realm="The API", error="invalid_token", error_description="${IMPERSONATION_DISABLED.error_description}"`)
  })

  it('still accepts nora\'s own tokens', async () => {
    expect((await api.get('/user', { as: 'nora' })).status).toBe(200)
  })
})

describe('CI job tokens on a route that accepts them (job_token_allowed)', () => {
  // No route of the spec's subset accepts job tokens; this test route stands for the ones that do
  // (job artifacts, packages, releases), through the engine's public entry point.
  const probe = route('GET /job_token_probe', { jobTokenAllowed: true, handler: (ctx) => ok({ username: ctx.currentUser?.username }) })
  let sim: Simulator
  const get = async (headers: Record<string, string>, query = '') =>
    sim.handle(new Request(`http://gitlab.test/api/v4/job_token_probe${query}`, { headers }))

  it.each([
    ['the JOB-TOKEN header of a running job', { 'JOB-TOKEN': 'job-token-running' }, '', 200, { username: 'devon' }],
    ['the job_token param of a running job', {}, '?job_token=job-token-running', 200, { username: 'devon' }],
    ['the token of a finished job', { 'JOB-TOKEN': 'job-token-finished' }, '', 401, UNAUTHORIZED],
    ['an unknown job token', { 'JOB-TOKEN': 'nope' }, '', 401, UNAUTHORIZED],
  ])('%s', async (_, headers, query, status, body) => {
    sim ??= createSimulator({ scenario: DEFAULT_YAML, routes: [...allRoutes(), probe] })
    const res = await get(headers, query)
    expect([res.status, await res.json()]).toEqual([status, body])
  })

  it('refuses sudo with a job token', async () => {
    sim ??= createSimulator({ scenario: DEFAULT_YAML, routes: [...allRoutes(), probe] })
    const res = await get({ 'JOB-TOKEN': 'job-token-running', Sudo: 'max' })
    expect([res.status, await res.json()]).toEqual([403, { message: '403 Forbidden - Must be admin to use sudo' }])
  })
})
