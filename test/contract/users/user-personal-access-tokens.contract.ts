/**
 * `POST /users/:user_id/personal_access_tokens` over both doors (GitLab 13.6+, administrators):
 * the created token (PersonalAccessTokenWithToken) authenticates as its user with its scopes.
 * Source: gitlab: lib/api/users.rb, app/services/personal_access_tokens/create_service.rb,
 * lib/api/entities/personal_access_token_with_token.rb, doc/api/users.md (13.12).
 * Default scenario: root (1) administrator, devon (4), olive (6).
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

const PAT_KEYS = ['id', 'name', 'revoked', 'created_at', 'scopes', 'user_id', 'active', 'expires_at', 'token']

contract('POST /users/:user_id/personal_access_tokens', {}, ({ api, sim }) => {
  it("creates a token for the user, which then authenticates as them within its scopes", async () => {
    const res = await api.post('/users/4/personal_access_tokens', { as: 'root', body: { name: 'ci', scopes: ['read_user', 'read_api'], expires_at: '2021-12-31' } })
    expect([res.status, Object.keys(res.body)]).toEqual([201, PAT_KEYS])
    expect(res.body).toMatchObject({ name: 'ci', revoked: false, scopes: ['read_user', 'read_api'], user_id: 4, active: true, expires_at: '2021-12-31' })
    expect(res.body.token).toMatch(/^[A-Za-z0-9_-]{20}$/)
    expect(sim().db.tables.personal_access_tokens.get(res.body.id)!.impersonation).toBe(false)
    const me = await api.get('/user', { token: res.body.token })
    expect([me.status, me.body.username]).toEqual([200, 'devon'])
    // read_api: no writes.
    expect((await api.post('/projects', { token: res.body.token, body: { name: 'nope' } })).status).toBe(403)
  })

  it('422 with the model errors as a sentence; 400 for missing or unknown scopes', async () => {
    expect(await api.post('/users/4/personal_access_tokens', { as: 'root', body: { name: ' ', scopes: [] } })).toBeGitLabError(422, { message: "Name can't be blank and Scopes can't be blank" })
    expect(await api.post('/users/4/personal_access_tokens', { as: 'root', body: { name: 'x' } })).toBeGitLabError(400, { error: 'scopes is missing' })
    expect((await api.post('/users/4/personal_access_tokens', { as: 'root', body: { name: 'x', scopes: ['admin_mode'] } })).status).toBe(400)
  })

  it('administrators only (401, 403), 404 for an unknown user', async () => {
    const body = { name: 'x', scopes: ['api'] }
    expect(await api.post('/users/4/personal_access_tokens', { body })).toBeGitLabError(401, { message: '401 Unauthorized' })
    expect(await api.post('/users/4/personal_access_tokens', { as: 'olive', body })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect(await api.post('/users/999/personal_access_tokens', { as: 'root', body })).toBeGitLabError(404, { message: '404 User Not Found' })
  })
})
