/**
 * `GET /personal_access_tokens` and `DELETE /personal_access_tokens/:id` (GitLab 13.3+, issue 37)
 * over both doors: an administrator lists every token (or one user's with `user_id`, impersonation
 * tokens included), anyone else only their own personal access tokens (401 for another `user_id`);
 * the owner or an administrator revokes a token (204), which then stops authenticating; someone
 * else's: 400; an unknown id: 404.
 * Default scenario: root (1) administrator; nora (7) with default, expired, revoked, read-user and
 * impersonation tokens; devon (4) with two tokens.
 * Source: gitlab: lib/api/personal_access_tokens.rb, app/finders/personal_access_tokens_finder.rb,
 * app/services/personal_access_tokens/revoke_service.rb, app/policies/personal_access_token_policy.rb,
 * lib/api/entities/personal_access_token.rb (13.12), doc/api/personal_access_tokens.md.
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

contract('personal access tokens', {}, ({ api, sim }) => {
  const tokensOf = (userId: number) => sim().db.tables.personal_access_tokens.all().filter((t) => t.user_id === userId).sort((a, b) => a.id - b.id)

  it('lists the caller\'s own personal access tokens, without impersonation tokens, in the PersonalAccessToken entity', async () => {
    const res = await api.get('/personal_access_tokens', { as: 'nora' })
    expect(res.status).toBe(200)
    expect(res.body.map((t: { name: string }) => t.name)).toEqual(['default', 'expired', 'revoked', 'read-user'])
    const mine = tokensOf(7)[0]!
    expect(res.body[0]).toEqual({ id: mine.id, name: 'default', revoked: false, created_at: mine.created_at, scopes: ['api'], user_id: 7, active: true, expires_at: null })
    expect(res.body.map((t: { active: boolean }) => t.active)).toEqual([true, false, false, true])
    expect(res.headers.get('x-total')).toBe('4')
    expect((await api.get('/personal_access_tokens', { as: 'nora', query: { user_id: 7 } })).body).toEqual(res.body)
  })

  it('refuses a user_id other than the caller\'s own to non-administrators (401), and anonymous callers', async () => {
    expect(await api.get('/personal_access_tokens', { as: 'nora', query: { user_id: 4 } })).toBeGitLabError(401, { message: '401 Unauthorized' })
    expect(await api.get('/personal_access_tokens', { as: 'nora', query: { user_id: 99999 } })).toBeGitLabError(401, { message: '401 Unauthorized' })
    expect(await api.get('/personal_access_tokens')).toBeGitLabError(401, { message: '401 Unauthorized' })
  })

  it('lists every token to an administrator, or one user\'s with user_id (impersonation tokens included)', async () => {
    const all = await api.get('/personal_access_tokens', { as: 'root', query: { per_page: 100 } })
    expect(all.headers.get('x-total')).toBe(String(sim().db.tables.personal_access_tokens.all().length))
    expect(all.body.map((t: { id: number }) => t.id)).toEqual(sim().db.tables.personal_access_tokens.all().map((t) => t.id).sort((a, b) => a - b))
    const nora = await api.get('/personal_access_tokens', { as: 'root', query: { user_id: 7 } })
    expect(nora.body.map((t: { name: string }) => t.name)).toEqual(['default', 'expired', 'revoked', 'read-user', 'impersonation'])
    // An unknown user: UserFinder finds nil, and the finder filters nothing.
    expect((await api.get('/personal_access_tokens', { as: 'root', query: { user_id: 99999, per_page: 100 } })).body).toEqual(all.body)
    expect(await api.get('/personal_access_tokens', { as: 'root', query: { user_id: 'x' } })).toBeGitLabError(400, { error: 'user_id is invalid' })
  })

  it('revokes the caller\'s own token (204): it stops authenticating and shows revoked', async () => {
    const readonly = tokensOf(4).find((t) => t.name === 'readonly')!
    expect((await api.get('/user', { token: 'glpat-devon-readonly' })).status).toBe(200)
    const res = await api.delete(`/personal_access_tokens/${readonly.id}`, { as: 'devon' })
    expect([res.status, res.text]).toEqual([204, ''])
    expect(await api.get('/user', { token: 'glpat-devon-readonly' })).toBeGitLabError(401, { error: 'invalid_token', error_description: 'Token was revoked. You have to re-authorize from the user.' })
    const listed = (await api.get('/personal_access_tokens', { as: 'devon' })).body.find((t: { id: number }) => t.id === readonly.id)
    expect([listed.revoked, listed.active]).toEqual([true, false])
  })

  it('lets an administrator revoke anyone\'s token; someone else\'s is 400 to others; an unknown id 404', async () => {
    const noras = tokensOf(7).find((t) => t.name === 'read-user')!
    expect(await api.delete(`/personal_access_tokens/${noras.id}`, { as: 'devon' })).toBeGitLabError(400, { message: '400 Bad request' })
    expect(sim().db.tables.personal_access_tokens.get(noras.id)!.revoked).toBe(false)
    expect((await api.delete(`/personal_access_tokens/${noras.id}`, { as: 'root' })).status).toBe(204)
    expect(sim().db.tables.personal_access_tokens.get(noras.id)!.revoked).toBe(true)
    expect(await api.delete('/personal_access_tokens/99999', { as: 'root' })).toBeGitLabError(404, { message: '404 Not found' })
    expect(await api.delete(`/personal_access_tokens/${noras.id}`)).toBeGitLabError(401, { message: '401 Unauthorized' })
  })
})
