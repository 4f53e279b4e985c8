/**
 * Project access tokens over both doors, and the tokens they create authenticating as their bot.
 * Source: api-spec.md "### Project access tokens", "Project access token", "Authentication";
 * gitlab-behaviour.md §1.5 (token state errors), §3, §14 item 9;
 * gitlabhq:spec/requests/api/resource_access_tokens_spec.rb.
 *
 * Default scenario: website (20, public) has bot 90 `project_20_bot` ("Website deploy bot", a
 * Maintainer) holding token 17 `glpat-website-bot` [read_api]; max maintains website through acme,
 * devon is a developer; api (21) is private. Today is 2021-04-01T12:00Z.
 */
import { expect, it } from 'vitest'
import type { ManualClock } from '../../../src/core/clock.js'
import { contract, paginationHeaders } from '../../support/contract.js'

const FIELDS = ['id', 'name', 'revoked', 'created_at', 'scopes', 'user_id', 'active', 'expires_at']
const NOW = '2021-04-01T12:00:00.000Z'
const REVOKED = { error: 'invalid_token', error_description: 'Token was revoked. You have to re-authorize from the user.' }
const EXPIRED = { error: 'invalid_token', error_description: 'Token is expired. You can either do re-authorization or token refresh.' }

contract('GET /projects/:id/access_tokens', {}, ({ api }) => {
  it('lists the project\'s tokens without their secret', async () => {
    const res = await api.get('/projects/20/access_tokens', { as: 'max' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual([{
      id: 17,
      name: 'Website deploy bot',
      revoked: false,
      created_at: '2021-03-15T10:00:00.000Z',
      scopes: ['read_api'],
      user_id: 90,
      active: true,
      expires_at: null,
    }])
    expect(Object.keys(res.body[0])).toEqual(FIELDS)
    expect(paginationHeaders(res)).toMatchObject({ 'x-total': '1' })
  })

  it('lists an expired token as inactive', async () => {
    const created = await api.post('/projects/20/access_tokens', { as: 'max', body: { name: 'short', scopes: ['api'], expires_at: '2021-04-01' } })
    const res = await api.get('/projects/20/access_tokens', { as: 'max' })
    expect(res.body.map((t: { id: number; active: boolean }) => [t.id, t.active])).toEqual([[17, true], [created.body.id, false]])
  })

  it.each([
    ['a developer', 20, 'devon', 401, { message: '401 Unauthorized' }],
    ['a non-member of a public project', 20, 'nora', 401, { message: '401 Unauthorized' }],
    ['a non-member of a private project', 21, 'nora', 404, { message: '404 Project Not Found' }],
  ])('answers %s as GitLab does', async (_title, project, as, status, body) => {
    expect(await api.get(`/projects/${project}/access_tokens`, { as })).toBeGitLabError(status, body)
  })
})

contract('POST /projects/:id/access_tokens', {}, ({ api, sim }) => {
  it('creates a token with its secret, held by a new bot who is a Maintainer', async () => {
    const res = await api.post('/projects/20/access_tokens', { as: 'max', body: { name: 'ci', scopes: ['api', 'read_repository'], expires_at: '2021-05-01' } })
    expect(res.status).toBe(201)
    expect(Object.keys(res.body)).toEqual([...FIELDS, 'token'])
    expect(res.body).toMatchObject({ name: 'ci', revoked: false, created_at: NOW, scopes: ['api', 'read_repository'], active: true, expires_at: '2021-05-01' })
    expect(res.body.token).toMatch(/^[A-Za-z0-9]{20}$/)
    const bot = sim().db.tables.users.get(res.body.user_id)!
    expect([bot.username, bot.name, bot.user_type]).toEqual(['project_20_bot1', 'ci', 'project_bot'])
    const member = await api.get(`/projects/20/members/${bot.id}`, { as: 'max' })
    expect([member.status, member.body.access_level, member.body.expires_at]).toEqual([200, 40, '2021-05-01'])
    const list = await api.get('/projects/20/access_tokens', { as: 'max' })
    expect(list.body.map((t: { id: number }) => t.id)).toEqual([17, res.body.id])
    expect(list.body[1]).not.toHaveProperty('token')
  })

  it('gives a token that authenticates as its bot, with its scopes', async () => {
    const write = await api.post('/projects/21/access_tokens', { as: 'max', body: { name: 'writer', scopes: ['api'] } })
    const read = await api.post('/projects/21/access_tokens', { as: 'max', body: { name: 'reader', scopes: ['read_api'] } })
    const me = await api.get('/user', { token: write.body.token })
    expect([me.status, me.body.id, me.body.bot]).toEqual([200, write.body.user_id, true])
    expect((await api.get('/projects/21', { token: read.body.token })).status).toBe(200)
    expect((await api.post('/projects/21/labels', { token: write.body.token, body: { name: 'by-bot', color: '#000000' } })).status).toBe(201)
    const denied = await api.post('/projects/21/labels', { token: read.body.token, body: { name: 'by-reader', color: '#000000' } })
    expect([denied.status, denied.body.error]).toEqual([403, 'insufficient_scope'])
    // The bot is a member of this project only.
    expect((await api.get('/projects/24', { token: write.body.token })).status).toBe(404)
  })

  it('expires at midnight UTC of expires_at on the scenario clock (401 from then on)', async () => {
    const res = await api.post('/projects/20/access_tokens', { as: 'max', body: { name: 'until', scopes: ['api'], expires_at: '2021-04-02' } })
    const clock = sim().clock as ManualClock
    try {
      clock.set('2021-04-01T23:59:59.999Z')
      expect((await api.get('/user', { token: res.body.token })).status).toBe(200)
      clock.set('2021-04-02T00:00:00.000Z')
      expect(await api.get('/user', { token: res.body.token })).toBeGitLabError(401, EXPIRED)
    } finally {
      clock.set(NOW)
    }
  })

  it.each([
    ['a scope outside the allowed set', { name: 'x', scopes: ['sudo'] }, '400 Bad request - Scopes can only contain available scopes'],
    ['read_user', { name: 'x', scopes: ['api', 'read_user'] }, '400 Bad request - Scopes can only contain available scopes'],
    ['no scopes', { name: 'x', scopes: [] }, "400 Bad request - Scopes can't be blank"],
    ['a blank name', { name: ' ', scopes: ['api'] }, "400 Bad request - Name can't be blank"],
  ])('refuses %s with 400 and creates nothing', async (_title, body, message) => {
    const before = JSON.stringify(sim().db.dump())
    expect(await api.post('/projects/20/access_tokens', { as: 'max', body })).toBeGitLabError(400, { message })
    expect(JSON.stringify(sim().db.dump())).toBe(before)
  })

  it('names both missing params', async () => {
    expect(await api.post('/projects/20/access_tokens', { as: 'max', body: {} })).toBeGitLabError(400, { error: 'name is missing, scopes is missing' })
  })

  it.each([
    ['a developer', 20, 'devon', 400, { message: '400 Bad request - User does not have permission to create project Access Token' }],
    ['a non-member of a private project', 21, 'nora', 404, { message: '404 Project Not Found' }],
    ['anonymous', 20, undefined, 401, { message: '401 Unauthorized' }],
  ])('refuses %s', async (_title, project, as, status, body) => {
    expect(await api.post(`/projects/${project}/access_tokens`, { as, body: { name: 'x', scopes: ['api'] } })).toBeGitLabError(status, body)
  })
})

contract('DELETE /projects/:id/access_tokens/:token_id', {}, ({ api, sim }) => {
  it('revokes a token (204): its next request is 401 and it leaves the list', async () => {
    expect((await api.get('/projects/20', { token: 'glpat-website-bot' })).status).toBe(200)
    const res = await api.delete('/projects/20/access_tokens/17', { as: 'max' })
    expect([res.status, res.text]).toEqual([204, ''])
    expect(await api.get('/projects/20', { token: 'glpat-website-bot' })).toBeGitLabError(401, REVOKED)
    expect((await api.get('/projects/20/access_tokens', { as: 'max' })).body).toEqual([])
    expect(sim().db.tables.members.where('user_id', 90)).toEqual([])
  })

  it.each([
    ['an unknown token', '/projects/20/access_tokens/1337', 'max', 404, { message: '404 Could not find project access token with token_id: 1337 Not Found' }],
    ['a user\'s own personal token', '/projects/20/access_tokens/1', 'max', 404, { message: '404 Could not find project access token with token_id: 1 Not Found' }],
    ['another project\'s token', '/projects/23/access_tokens/17', 'max', 404, { message: '404 Could not find project access token with token_id: 17 Not Found' }],
    ['a developer', '/projects/20/access_tokens/17', 'devon', 400, { message: '400 Bad request - Devon Developer cannot delete Website deploy bot' }],
    ['a non-member of a private project', '/projects/21/access_tokens/17', 'nora', 404, { message: '404 Project Not Found' }],
  ])('refuses %s and revokes nothing', async (_title, path, as, status, body) => {
    const before = JSON.stringify(sim().db.dump())
    expect(await api.delete(path, { as })).toBeGitLabError(status, body)
    expect(JSON.stringify(sim().db.dump())).toBe(before)
  })
})
