/**
 * Impersonation tokens over both doors: an administrator lists, creates, gets and revokes a user's
 * impersonation tokens; a token acts as its user, with its scopes, and is refused with GitLab's
 * answers once revoked or while impersonation is disabled.
 * Source: gitlab: lib/api/users.rb (`impersonation_tokens`), lib/api/entities/impersonation_token.rb,
 * lib/gitlab/auth/auth_finders.rb, app/services/access_token_validation_service.rb;
 * spec/requests/api/users_spec.rb.
 *
 * Default scenario: devon (4) is a developer of acme's projects, nora (7) no member; root is admin.
 * acme/platform/api (21) is private. Today is 2021-04-01.
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

const FIELDS = ['id', 'name', 'revoked', 'created_at', 'scopes', 'user_id', 'active', 'expires_at', 'impersonation']
const REVOKED = { error: 'invalid_token', error_description: 'Token was revoked. You have to re-authorize from the user.' }
const DISABLED = { error: 'invalid_token', error_description: 'Token is an impersonation token but impersonation was disabled.' }

contract('impersonation tokens', {}, ({ api, sim }) => {
  it('creates a token that acts as its user, and is refused once revoked', async () => {
    const res = await api.post('/users/4/impersonation_tokens', { as: 'root', body: { name: 'mimic', scopes: ['api'], expires_at: '2021-05-01' } })
    expect(res.status).toBe(201)
    expect(Object.keys(res.body)).toEqual([...FIELDS.slice(0, -1), 'token', 'impersonation'])
    expect(res.body).toMatchObject({ name: 'mimic', revoked: false, created_at: '2021-04-01T12:00:00.000Z', scopes: ['api'], user_id: 4, active: true, expires_at: '2021-05-01', impersonation: true })
    const token = res.body.token as string

    const me = await api.get('/user', { token })
    expect(me.status).toBe(200)
    expect(me.body.username).toBe('devon')
    expect((await api.get('/projects/21', { token })).status).toBe(200)
    expect((await api.get('/projects/21/freeze_periods', { token })).status).toBe(403) // devon's rights, not root's

    expect((await api.delete(`/users/4/impersonation_tokens/${res.body.id}`, { as: 'root' })).status).toBe(204)
    const refused = await api.get('/user', { token })
    expect(refused).toBeGitLabError(401, REVOKED)
    expect(refused.headers.get('www-authenticate')).toContain('invalid_token')
    const listed = await api.get(`/users/4/impersonation_tokens/${res.body.id}`, { as: 'root' })
    expect(listed.body).toMatchObject({ revoked: true, active: false })
  })

  it('is refused while impersonation is disabled', async () => {
    const res = await api.post('/users/4/impersonation_tokens', { as: 'root', body: { name: 'mimic', scopes: ['read_user'] } })
    sim().db.tables.auth_settings.update(1, { impersonation_enabled: false })
    expect(await api.get('/user', { token: res.body.token })).toBeGitLabError(401, DISABLED)
  })

  it('lists by state', async () => {
    const a = await api.post('/users/4/impersonation_tokens', { as: 'root', body: { name: 'a', scopes: ['api'] } })
    const b = await api.post('/users/4/impersonation_tokens', { as: 'root', body: { name: 'b', scopes: ['api'] } })
    await api.delete(`/users/4/impersonation_tokens/${a.body.id}`, { as: 'root' })
    const all = await api.get('/users/4/impersonation_tokens', { as: 'root' })
    expect(all.body.map((t: { id: number }) => t.id)).toEqual([a.body.id, b.body.id])
    expect(Object.keys(all.body[0])).toEqual(FIELDS)
    expect((await api.get('/users/4/impersonation_tokens', { as: 'root', query: { state: 'active' } })).body.map((t: { id: number }) => t.id)).toEqual([b.body.id])
    expect((await api.get('/users/4/impersonation_tokens', { as: 'root', query: { state: 'inactive' } })).body.map((t: { id: number }) => t.id)).toEqual([a.body.id])
  })

  it.each([
    ['a non-admin', 'post', '/users/4/impersonation_tokens', { as: 'max', body: { name: 'x', scopes: ['api'] } }, 403, { message: '403 Forbidden' }],
    ['an unknown user', 'post', '/users/9999/impersonation_tokens', { as: 'root', body: { name: 'x', scopes: ['api'] } }, 404, { message: '404 User Not Found' }],
    ['no scopes', 'post', '/users/4/impersonation_tokens', { as: 'root', body: { name: 'x' } }, 400, { message: { scopes: ["can't be blank"] } }],
    ['an unknown scope', 'post', '/users/4/impersonation_tokens', { as: 'root', body: { name: 'x', scopes: ['write_registry'] } }, 400, { error: 'scopes does not have a valid value' }],
    ['an unknown token', 'get', '/users/4/impersonation_tokens/9999', { as: 'root' }, 404, { message: '404 Impersonation Token Not Found' }],
    ['a personal token by id', 'delete', '/users/4/impersonation_tokens/4', { as: 'root' }, 404, { message: '404 Impersonation Token Not Found' }],
  ] as const)('answers %s as GitLab does', async (_t, method, path, options, status, body) => {
    expect(await api[method](path, options as never)).toBeGitLabError(status, body)
  })
})
