/**
 * Administrators' user writes over both doors (issue 16 part 4): create, update, delete, block and
 * unblock. Source: gitlab: lib/api/users.rb, app/services/users/*, app/models/user.rb,
 * spec/requests/api/users_spec.rb.
 *
 * Default scenario: root (1) is the administrator; olive (6) is the sole owner of secret-lab (12)
 * and an owner of acme; devon (4) is a developer of acme and has to-dos; ivy (40) authors issues
 * in ivy/tracker (30); bianca (11) is blocked, lars (12) LDAP-blocked, dee (13) deactivated.
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

const NOW = '2021-04-01T12:00:00.000Z'
const FORBIDDEN = { message: '403 Forbidden' }
const USER_NOT_FOUND = { message: '404 User Not Found' }
const USERNAME_MESSAGE = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'."
const NEW_USER = { email: 'new@example.com', password: 'secret-password', name: 'New Person', username: 'newbie' }

/** The keys of UserWithAdmin, in GitLab's order. */
const USER_WITH_ADMIN_KEYS = [
  'id', 'name', 'username', 'state', 'avatar_url', 'web_url', 'created_at', 'bio', 'bio_html', 'location', 'public_email',
  'skype', 'linkedin', 'twitter', 'website_url', 'organization', 'job_title', 'bot', 'work_information',
  'last_sign_in_at', 'confirmed_at', 'last_activity_on', 'email', 'theme_id', 'color_scheme_id', 'projects_limit',
  'current_sign_in_at', 'identities', 'can_create_group', 'can_create_project', 'two_factor_enabled', 'external',
  'private_profile', 'is_admin',
]

contract('POST /users', {}, ({ api }) => {
  it('creates an active user and presents UserWithAdmin', async () => {
    const res = await api.post('/users', { as: 'root', body: { ...NEW_USER, bio: 'Hello', projects_limit: 5, external: true } })
    expect(res.status).toBe(201)
    expect(Object.keys(res.body)).toEqual(USER_WITH_ADMIN_KEYS)
    expect(res.body).toMatchObject({
      name: 'New Person', username: 'newbie', state: 'active', web_url: `${api.baseUrl}/newbie`, created_at: NOW,
      bio: 'Hello', email: 'new@example.com', projects_limit: 5, last_sign_in_at: null, external: true, is_admin: false,
      can_create_group: true, private_profile: false,
    })
    const found = await api.get('/users', { as: 'root', query: { username: 'newbie' } })
    expect(found.body.map((u: { id: number }) => u.id)).toEqual([res.body.id])
  })

  it('accepts reset_password instead of a password', async () => {
    const { password: _password, ...rest } = NEW_USER
    expect((await api.post('/users', { as: 'root', body: { ...rest, reset_password: true } })).status).toBe(201)
  })

  it.each([
    ['an email in use (any case)', { email: 'DEVON@example.com' }, 'Email has already been taken'],
    ['a username in use (any case)', { username: 'Devon' }, 'Username has already been taken'],
  ])('returns 409 for %s', async (_title, change, message) => {
    expect(await api.post('/users', { as: 'root', body: { ...NEW_USER, ...change } })).toBeGitLabError(409, { message })
  })

  it.each([
    ['a short password', { password: 'short' }, { password: ['is too short (minimum is 8 characters)'] }],
    ['an invalid email', { email: 'not-an-email' }, { email: ['is invalid'] }],
    ['an invalid username', { username: '-bad.' }, { username: [USERNAME_MESSAGE] }],
    ['a negative projects_limit', { projects_limit: -1 }, { projects_limit: ['must be greater than or equal to 0'] }],
    ['everything at once', { email: 'x', password: 'x', username: 'x.git', projects_limit: -1 }, {
      email: ['is invalid'], password: ['is too short (minimum is 8 characters)'], username: [USERNAME_MESSAGE], projects_limit: ['must be greater than or equal to 0'],
    }],
  ])('returns 400 for %s', async (_title, change, errors) => {
    expect(await api.post('/users', { as: 'root', body: { ...NEW_USER, ...change } })).toBeGitLabError(400, { message: errors })
  })

  it.each([
    ['no email', { email: undefined }, 'email is missing'],
    ['neither password nor reset_password', { password: undefined }, 'password, reset_password are missing, at least one parameter must be provided'],
    ['no name and no username', { name: undefined, username: undefined }, 'name is missing, username is missing'],
  ])('returns 400 for %s', async (_title, change, error) => {
    expect(await api.post('/users', { as: 'root', body: { ...NEW_USER, ...change } })).toBeGitLabError(400, { error })
  })

  it.each([
    ['anonymous', {}, 401, { message: '401 Unauthorized' }],
    ['a non-administrator', { as: 'olive' }, 403, FORBIDDEN],
    ['an administrator acting as a user through sudo', { as: 'root', headers: { Sudo: 'olive' } }, 403, FORBIDDEN],
  ])('refuses %s', async (_title, options, status, body) => {
    expect(await api.post('/users', { ...options, body: NEW_USER })).toBeGitLabError(status, body)
  })
})

contract('PUT /users/:id', {}, ({ api, sim }) => {
  it('changes the profile and answers UserWithAdmin', async () => {
    const res = await api.put('/users/7', { as: 'root', body: { name: 'Nora Renamed', bio: 'New bio', admin: true } })
    expect(res.status).toBe(200)
    expect(Object.keys(res.body)).toEqual(USER_WITH_ADMIN_KEYS)
    expect([res.body.name, res.body.bio, res.body.is_admin]).toEqual(['Nora Renamed', 'New bio', true])
    expect(sim().db.tables.users.get(7)!.name).toBe('Nora Renamed')
  })

  it('makes the profile public again when private_profile is left out (13.x default: false)', async () => {
    await api.put('/users/7', { as: 'root', body: { private_profile: true } })
    expect(sim().db.tables.users.get(7)!.private_profile).toBe(true)
    await api.put('/users/7', { as: 'root', body: { bio: 'x' } })
    expect(sim().db.tables.users.get(7)!.private_profile).toBe(false)
  })

  it.each([
    ['another user\'s email', { email: 'devon@example.com' }, 409, { message: 'Email has already been taken' }],
    ['another user\'s username', { username: 'devon' }, 409, { message: 'Username has already been taken' }],
    ['an invalid email', { email: 'nope' }, 400, { message: { email: ['is invalid'] } }],
    ['a short password', { password: 'short' }, 400, { message: { password: ['is too short (minimum is 8 characters)'] } }],
  ])('refuses %s', async (_title, body, status, error) => {
    expect(await api.put('/users/7', { as: 'root', body })).toBeGitLabError(status, error)
  })

  it('keeps the user\'s own email and username', async () => {
    expect((await api.put('/users/7', { as: 'root', body: { email: 'nora@example.com', username: 'NORA' } })).status).toBe(200)
  })

  it.each([
    ['a non-administrator', 'olive', 7, 403, FORBIDDEN],
    ['an unknown user', 'root', 9999, 404, USER_NOT_FOUND],
  ])('refuses %s', async (_title, who, id, status, body) => {
    expect(await api.put(`/users/${id}`, { as: who, body: { bio: 'x' } })).toBeGitLabError(status, body)
  })
})

contract('DELETE /users/:id', {}, ({ api, sim }) => {
  it('deletes the user with their memberships and to-dos, and answers 204', async () => {
    const res = await api.delete('/users/4', { as: 'root' })
    expect([res.status, res.text]).toEqual([204, ''])
    expect(await api.get('/users/4', { as: 'root' })).toBeGitLabError(404, USER_NOT_FOUND)
    const db = sim().db
    expect(db.tables.members.where('user_id', 4)).toEqual([])
    expect(db.tables.todos.where('user_id', 4)).toEqual([])
    expect(db.tables.personal_access_tokens.where('user_id', 4)).toEqual([])
    const members = await api.get('/groups/10/members', { as: 'root' })
    expect(members.body.map((m: { username: string }) => m.username)).not.toContain('devon')
    expect(await api.get('/user', { token: 'glpat-devon-fakelab' })).toBeGitLabError(401, { message: '401 Unauthorized' })
  })

  it('moves the user\'s issues to the ghost user and deletes the personal projects', async () => {
    const db = sim().db
    const authored = db.tables.issues.all().filter((i) => i.author_id === 5).map((i) => i.id)
    expect(authored.length).toBeGreaterThan(0)
    expect((await api.delete('/users/5', { as: 'root' })).status).toBe(204)
    const ghost = db.tables.users.find((u) => u.username === 'ghost')!
    expect([ghost.name, ghost.state]).toEqual(['Ghost User', 'blocked'])
    for (const id of authored) expect(db.tables.issues.get(id)!.author_id).toBe(ghost.id)
    expect((await api.delete('/users/40', { as: 'root' })).status).toBe(204)
    expect(db.tables.projects.get(30)).toBeUndefined()
    expect(db.tables.issues.where('project_id', 30)).toEqual([])
  })

  it('deletes the user\'s contributions with hard_delete', async () => {
    const db = sim().db
    const authored = db.tables.issues.all().filter((i) => i.author_id === 5).map((i) => i.id)
    expect((await api.delete('/users/5', { as: 'root', query: { hard_delete: true } })).status).toBe(204)
    for (const id of authored) expect(db.tables.issues.get(id)).toBeUndefined()
  })

  it('returns 409 for the sole owner of a group, unless hard_delete, which deletes the group too', async () => {
    const before = JSON.stringify(sim().db.dump())
    expect(await api.delete('/users/6', { as: 'root' })).toBeGitLabError(409, { message: 'User cannot be removed while is the sole-owner of a group' })
    expect(JSON.stringify(sim().db.dump())).toBe(before)
    expect((await api.delete('/users/6', { as: 'root', query: { hard_delete: true } })).status).toBe(204)
    expect(sim().db.tables.groups.get(12)).toBeUndefined()
    expect(sim().db.tables.projects.get(24)).toBeUndefined()
  })

  it.each([
    ['anonymous', undefined, 7, 401, { message: '401 Unauthorized' }],
    ['a non-administrator', 'olive', 7, 403, FORBIDDEN],
    ['an unknown user', 'root', 9999, 404, USER_NOT_FOUND],
  ])('refuses %s', async (_title, who, id, status, body) => {
    expect(await api.delete(`/users/${id}`, who ? { as: who } : {})).toBeGitLabError(status, body)
  })
})

contract('POST /users/:id/block', {}, ({ api, sim }) => {
  it('blocks an active user (201 true), who then fails authentication', async () => {
    const res = await api.post('/users/7/block', { as: 'root' })
    expect([res.status, res.body]).toEqual([201, true])
    expect(sim().db.tables.users.get(7)!.state).toBe('blocked')
    expect(await api.get('/user', { as: 'nora' })).toBeGitLabError(403, { message: '403 Forbidden - Your account has been blocked.' })
  })

  it.each([
    ['an already blocked user: null (13.10-13.12 `break if user.blocked?`)', 11, 201, null],
    ['a deactivated user', 13, 201, true],
    ['an LDAP-blocked user', 12, 403, { message: '403 Forbidden - LDAP blocked users cannot be modified by the API' }],
    ['an unknown user', 9999, 404, USER_NOT_FOUND],
  ])('answers %s', async (_title, id, status, body) => {
    expect(await api.post(`/users/${id}/block`, { as: 'root' })).toBeGitLabError(status, body)
  })

  it('refuses non-administrators and anonymous callers', async () => {
    expect(await api.post('/users/7/block', { as: 'olive' })).toBeGitLabError(403, FORBIDDEN)
    expect(await api.post('/users/7/block', {})).toBeGitLabError(401, { message: '401 Unauthorized' })
  })
})

contract('POST /users/:id/unblock', {}, ({ api, sim }) => {
  it('unblocks a blocked user (201 true), who can then authenticate', async () => {
    expect(await api.get('/user', { as: 'bianca' })).toBeGitLabError(403, { message: '403 Forbidden - Your account has been blocked.' })
    expect(await api.post('/users/11/unblock', { as: 'root' }).then((r) => [r.status, r.body])).toEqual([201, true])
    expect((await api.get('/user', { as: 'bianca' })).status).toBe(200)
  })

  it.each([
    ['an active user: false', 7, 201, false],
    ['an LDAP-blocked user', 12, 403, { message: '403 Forbidden - LDAP blocked users cannot be unblocked by the API' }],
    ['a deactivated user', 13, 403, { message: '403 Forbidden - Deactivated users cannot be unblocked by the API' }],
    ['an unknown user', 9999, 404, USER_NOT_FOUND],
  ])('answers %s', async (_title, id, status, body) => {
    expect(await api.post(`/users/${id}/unblock`, { as: 'root' })).toBeGitLabError(status, body)
  })
})
