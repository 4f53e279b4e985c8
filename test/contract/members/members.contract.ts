/**
 * Group and project members over both doors. Source: api-spec.md "### Members", "Member";
 * gitlab-behaviour.md §11, §13, §14 item 8; gitlabhq:spec/requests/api/members_spec.rb.
 *
 * Default scenario: acme (10, public) has gina 10, riley 20, devon 30, max 40, olive 50; its
 * subgroup platform (11, private) has no members of its own; website (20, public, in acme) has
 * elena 30 until 2021-06-30, xavier 20 expired on 2021-03-01 and the bot project_20_bot 40; api
 * (21, private, in acme/platform) has none of its own; dotfiles (22) is olive's personal project;
 * oscar (8) and nora (7) are no members anywhere; root is admin. Today is 2021-04-01.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import type { MemberRecord } from '../../../src/db/schema.js'
import { contract, paginationHeaders, type ApiResponse } from '../../support/contract.js'
import { twin, twins, type SourceType } from '../../support/twins.js'

const DEFAULT_YAML = readFileSync(join(import.meta.dirname, '..', '..', '..', 'scenarios', 'default.yaml'), 'utf8')
const FIELDS = ['id', 'name', 'username', 'state', 'avatar_url', 'web_url', 'access_level', 'created_at', 'expires_at']
const NOT_FOUND = { message: '404 Not found' }
const FORBIDDEN = { message: '403 Forbidden' }

/** `[user id, access_level]` of each member in a list. */
function levels(res: ApiResponse): [number, number][] {
  return (res.body as { id: number; access_level: number }[]).map((m) => [m.id, m.access_level])
}

/**
 * A source of each type whose members the tests know, with a user who may manage them and a direct
 * member (website: max maintains it through acme, elena is its member; acme: olive owns it, devon
 * and riley are members).
 */
const MANAGED: Record<SourceType, { id: number; admin: string; member: number; otherMember: number }> = {
  project: { id: 20, admin: 'max', member: 9, otherMember: 9 },
  group: { id: 10, admin: 'olive', member: 4, otherMember: 3 },
}

contract('GET /{groups|projects}/:id/members', {}, ({ api, sim }) => {
  it('lists a project\'s direct members in force, without expired ones, in GitLab\'s field order', async () => {
    const res = await api.get('/projects/20/members', { as: 'devon' })
    expect(res.status).toBe(200)
    expect(levels(res)).toEqual([[9, 30], [90, 40]])
    const elena = sim().db.tables.members.all().find((m) => m.user_id === 9 && m.source_id === 20)!
    expect(res.body[0]).toEqual({
      id: 9,
      name: 'Elena Expiring',
      username: 'elena',
      state: 'active',
      avatar_url: null,
      web_url: `${api.baseUrl}/elena`,
      access_level: 30,
      created_at: elena.created_at,
      expires_at: '2021-06-30',
    })
    expect(Object.keys(res.body[0])).toEqual(FIELDS)
    expect(paginationHeaders(res)).toMatchObject({ 'x-total': '2', 'x-page': '1', 'x-per-page': '20' })
  })

  it('lists a group\'s direct members; a subgroup without its own has none', async () => {
    expect(levels(await api.get('/groups/10/members', { as: 'gina' }))).toEqual([[2, 10], [3, 20], [4, 30], [5, 40], [6, 50]])
    expect((await api.get('/groups/11/members', { as: 'gina' })).body).toEqual([])
  })

  it('reports a personal project\'s owner as a Maintainer (40), not 50', async () => {
    expect(levels(await api.get('/projects/22/members', { as: 'olive' }))).toEqual([[6, 40]])
  })

  it.each([
    ['query by name', { query: 'riley' }, [3]],
    ['query by username with @', { query: '@dev' }, [4]],
    ['query by whole email', { query: 'MAX@example.com' }, [5]],
    ['user_ids as a comma list', { user_ids: '2,6' }, [2, 6]],
    ['user_ids[] repeated', { 'user_ids[]': [3, 5] }, [3, 5]],
  ])('filters by %s', async (_title, query, ids) => {
    const res = await api.get('/groups/10/members', { as: 'olive', query })
    expect(levels(res).map(([id]) => id)).toEqual(ids)
  })

  twins<[id: number, options: { as?: string }, status: number]>('answers %s', [
    ['anonymous', { project: [21, {}, 401], group: [11, {}, 401] }],
    ['a non-member of a private source', { project: [21, { as: 'nora' }, 404], group: [11, { as: 'nora' }, 404] }],
  ], async ([id, options, status], source) => {
    expect(await api.get(`${source.path(id)}/members`, options)).toBeGitLabError(status, status === 401 ? { message: '401 Unauthorized' } : source.notFound)
  })
})

contract('GET /{groups|projects}/:id/members/all', {}, ({ api, sim }) => {
  it('adds the members of the project\'s group and its ancestors to a project\'s own', async () => {
    const res = await api.get('/projects/21/members/all', { as: 'max' })
    expect(res.status).toBe(200)
    expect(levels(res)).toEqual([[2, 10], [3, 20], [4, 30], [5, 40], [6, 50]])
    expect(Object.keys(res.body[0])).toEqual(FIELDS)
  })

  it('lists a subgroup\'s inherited members', async () => {
    expect(levels(await api.get('/groups/11/members/all', { as: 'gina' }))).toEqual([[2, 10], [3, 20], [4, 30], [5, 40], [6, 50]])
  })

  it('reports each user once, at the highest access level, whichever source it comes from', async () => {
    const members = sim().db.tables.members
    const add = (source_type: 'project' | 'group', source_id: number, user_id: number, access_level: number) =>
      members.insert({ source_type, source_id, user_id, access_level, expires_at: null, created_at: '2021-03-20T00:00:00.000Z', updated_at: '2021-03-20T00:00:00.000Z', created_by_id: null, override: false })
    add('project', 21, 5, 30) // max: developer of api, maintainer through acme
    add('project', 21, 2, 40) // gina: maintainer of api, guest through acme
    add('group', 11, 3, 30) // riley: developer of platform, reporter through acme
    const res = await api.get('/projects/21/members/all', { as: 'max' })
    expect(new Map(levels(res))).toEqual(new Map([[2, 40], [3, 30], [4, 30], [5, 40], [6, 50]]))
    expect(levels(await api.get('/groups/11/members/all', { as: 'max' })).find(([id]) => id === 3)).toEqual([3, 30])
  })

  it('pages with GitLab\'s headers', async () => {
    const res = await api.get('/projects/20/members/all', { as: 'max', query: { per_page: 3, page: 2 } })
    expect(levels(res)).toEqual([[5, 40], [6, 50], [9, 30]])
    expect(paginationHeaders(res)).toMatchObject({ 'x-page': '2', 'x-per-page': '3', 'x-prev-page': '1', 'x-next-page': '3', 'x-total': '7', 'x-total-pages': '3' })
    expect(res.headers.get('link')).toContain(`<${api.baseUrl}/api/v4/projects/20/members/all?id=20&page=3&per_page=3>; rel="next"`)
  })

  twin('answers 404 to a non-member of a private source', { project: 21, group: 11 }, async (id, source) => {
    expect(await api.get(`${source.path(id)}/members/all`, { as: 'nora' })).toBeGitLabError(404, source.notFound)
  })

  it('filters inherited members by query and user_ids', async () => {
    expect(levels(await api.get('/projects/20/members/all', { as: 'max', query: { query: 'elena' } }))).toEqual([[9, 30]])
    const res = await api.get('/projects/20/members/all', { as: 'max', query: { user_ids: '6,90' } })
    expect(levels(res)).toEqual([[6, 50], [90, 40]])
  })
})

contract('GET /{groups|projects}/:id/members/:user_id', {}, ({ api }) => {
  it('gets a direct member with created_at', async () => {
    const res = await api.get('/groups/10/members/4', { as: 'gina' })
    expect([res.status, res.body.username, res.body.access_level]).toEqual([200, 'devon', 30])
    expect(Object.keys(res.body)).toEqual(FIELDS)
  })

  it.each([
    ['an inherited member', '/projects/20/members/4'],
    ['an expired member', '/projects/20/members/10'],
    ['no member', '/groups/10/members/8'],
    ['an unknown user', '/groups/10/members/9999'],
  ])('answers 404 Not found for %s', async (_title, path) => {
    expect(await api.get(path, { as: 'max' })).toBeGitLabError(404, NOT_FOUND)
  })

  it('answers 400 for a user_id that is not an integer', async () => {
    expect(await api.get('/groups/10/members/abc', { as: 'max' })).toBeGitLabError(400, { error: 'user_id is invalid' })
  })
})

contract('GET /{groups|projects}/:id/members/all/:user_id', {}, ({ api }) => {
  it('gets an inherited member at the highest level', async () => {
    const res = await api.get('/projects/21/members/all/6', { as: 'max' })
    expect([res.status, res.body.username, res.body.access_level]).toEqual([200, 'olive', 50])
  })

  it('answers 404 Not found for a user who is no member, even inherited', async () => {
    expect(await api.get('/projects/21/members/all/8', { as: 'max' })).toBeGitLabError(404, NOT_FOUND)
  })
})

contract('POST /{groups|projects}/:id/members', {}, ({ api, sim }) => {
  twin('adds a member with expires_at (201), who can use it at once', MANAGED, async ({ id, admin }, source) => {
    const path = source.path(id)
    const res = await api.post(`${path}/members`, { as: admin, body: { user_id: 8, access_level: 30, expires_at: '2021-12-31', invite_source: 'test' } })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      id: 8,
      name: 'Oscar Outsider',
      username: 'oscar',
      state: 'active',
      avatar_url: null,
      web_url: `${api.baseUrl}/oscar`,
      access_level: 30,
      created_at: '2021-04-01T12:00:00.000Z',
      expires_at: '2021-12-31',
    })
    expect((await api.get(`${path}/members/8`, { as: admin })).status).toBe(200)
  })

  it('gives an added member the permissions of the level at once (a private project becomes readable)', async () => {
    expect((await api.get('/projects/21', { as: 'oscar' })).status).toBe(404)
    expect((await api.post('/groups/11/members', { as: 'olive', body: { user_id: 8, access_level: 20 } })).status).toBe(201)
    expect((await api.get('/projects/21', { as: 'oscar' })).status).toBe(200)
    expect((await api.post('/projects/21/labels', { as: 'oscar', body: { name: 'x', color: '#000000' } })).status).toBe(201)
  })

  it('adds several comma-separated users: 201 {"status":"success"}', async () => {
    const res = await api.post('/projects/20/members', { as: 'max', form: { user_id: '8,7', access_level: '20' } })
    expect([res.status, res.body]).toEqual([201, { status: 'success' }])
    const added = sim().db.tables.members.where('source_id', 20).filter((m) => m.source_type === 'project' && [7, 8].includes(m.user_id))
    expect(added.map((m) => m.access_level)).toEqual([20, 20])
  })

  it('updates members already there but leaves the last owner as is', async () => {
    const res = await api.post('/groups/10/members', { as: 'olive', body: { user_id: '4,6,8', access_level: 20 } })
    expect([res.status, res.body]).toEqual([201, { status: 'success' }])
    const levels = (await api.get('/groups/10/members', { as: 'olive', query: { user_ids: '4,6,8' } })).body.map((m: { id: number; access_level: number }) => [m.id, m.access_level])
    expect(levels).toEqual([[4, 20], [6, 50], [8, 20]])
  })

  it('reports invalid memberships of a comma list as 201 {"message", "status":"error"} and adds none', async () => {
    const before = JSON.stringify(sim().db.dump())
    const res = await api.post('/projects/20/members', { as: 'max', body: { user_id: '8,7', access_level: 30, expires_at: '2021-01-01' } })
    expect([res.status, res.body]).toEqual([201, {
      message: 'oscar: Expires at cannot be a date in the past and nora: Expires at cannot be a date in the past',
      status: 'error',
    }])
    expect(JSON.stringify(sim().db.dump())).toBe(before)
  })

  twin('answers 409 for a member already there', MANAGED, async ({ id, admin, member }, source) => {
    expect(await api.post(`${source.path(id)}/members`, { as: admin, body: { user_id: member, access_level: 30 } })).toBeGitLabError(409, { message: 'Member already exists' })
  })

  it('adds again a user whose membership expired (no 409)', async () => {
    const res = await api.post('/projects/20/members', { as: 'max', body: { user_id: 10, access_level: 20 } })
    expect([res.status, res.body.username, res.body.expires_at, res.body.created_at]).toEqual([201, 'xavier', null, '2021-04-01T12:00:00.000Z'])
    expect(sim().db.tables.members.where('user_id', 10)).toHaveLength(1)
  })

  it('answers 404 User Not Found for an unknown user', async () => {
    expect(await api.post('/groups/10/members', { as: 'olive', body: { user_id: 9999, access_level: 30 } })).toBeGitLabError(404, { message: '404 User Not Found' })
  })

  it('names both missing params, access_level first', async () => {
    expect(await api.post('/groups/10/members', { as: 'olive', body: {} })).toBeGitLabError(400, { error: 'access_level is missing, user_id is missing' })
  })

  it.each([
    ['owner (50) in a project', '/projects/20', 'max', 50],
    ['minimal access (5) in a project', '/projects/20', 'max', 5],
    ['minimal access (5) in a subgroup', '/groups/11', 'olive', 5],
    ['no access (0) in a group', '/groups/10', 'olive', 0],
    ['an unknown level', '/groups/10', 'olive', 35],
  ])('refuses %s with 400', async (_title, path, as, level) => {
    expect(await api.post(`${path}/members`, { as, body: { user_id: 8, access_level: level } })).toBeGitLabError(400, {
      message: { access_level: ['is not included in the list'] },
    })
  })

  it.each([
    ['owner (50) in a group', 50],
    ['minimal access (5) in a top-level group', 5],
  ])('allows %s', async (_title, level) => {
    const res = await api.post('/groups/10/members', { as: 'olive', body: { user_id: 8, access_level: level } })
    expect([res.status, res.body.access_level]).toEqual([201, level])
  })

  it('refuses an expiry in the past, after the level', async () => {
    expect(await api.post('/projects/20/members', { as: 'max', body: { user_id: 8, access_level: 50, expires_at: '2021-03-31' } })).toBeGitLabError(400, {
      message: { access_level: ['is not included in the list'], expires_at: ['cannot be a date in the past'] },
    })
  })

  it.each([
    ['a developer of a project', '/projects/20', 'devon', 403, FORBIDDEN],
    ['a maintainer of a group (owners manage group members)', '/groups/10', 'max', 403, FORBIDDEN],
    ['a non-member of a public group', '/groups/10', 'nora', 403, FORBIDDEN],
    ['a non-member of a private group', '/groups/12', 'nora', 404, { message: '404 Group Not Found' }],
    ['anonymous', '/groups/10', undefined, 401, { message: '401 Unauthorized' }],
  ])('refuses %s', async (_title, path, as, status, body) => {
    expect(await api.post(`${path}/members`, { as, body: { user_id: 8, access_level: 10 } })).toBeGitLabError(status, body)
  })
})

contract('PUT /{groups|projects}/:id/members/:user_id', {}, ({ api }) => {
  twin('updates a member\'s level and expiry', MANAGED, async ({ id, admin, member }, source) => {
    const res = await api.put(`${source.path(id)}/members/${member}`, { as: admin, body: { access_level: 40, expires_at: '2022-01-01' } })
    expect([res.status, res.body.access_level, res.body.expires_at]).toEqual([200, 40, '2022-01-01'])
    expect(Object.keys(res.body)).toEqual(FIELDS)
  })

  it.each([
    ['an empty expires_at', { access_level: 30, expires_at: '' }],
    ['a null expires_at', { access_level: 30, expires_at: null }],
  ])('removes the expiry for %s', async (_title, body) => {
    const res = await api.put('/projects/20/members/9', { as: 'max', body })
    expect([res.status, res.body.expires_at]).toEqual([200, null])
  })

  it('keeps the expiry when none is given', async () => {
    const res = await api.put('/projects/20/members/9', { as: 'max', body: { access_level: 20 } })
    expect([res.status, res.body.expires_at]).toEqual([200, '2021-06-30'])
  })

  it.each([
    ['a member who is only inherited', '/projects/20/members/4', 'max', 404, NOT_FOUND],
    ['without permission (developer)', '/projects/20/members/9', 'devon', 403, FORBIDDEN],
    ['the last owner of a group', '/groups/10/members/6', 'olive', 403, FORBIDDEN],
    ['the last owner of a group, even by an admin', '/groups/10/members/6', 'root', 403, FORBIDDEN],
    ['a personal project\'s owner', '/projects/22/members/6', 'olive', 403, FORBIDDEN],
    ['a project bot', '/projects/20/members/90', 'max', 403, FORBIDDEN],
  ])('refuses %s', async (_title, path, as, status, body) => {
    expect(await api.put(path, { as, body: { access_level: 30 } })).toBeGitLabError(status, body)
  })

  it('refuses a level the source does not have with 400', async () => {
    expect(await api.put('/projects/20/members/9', { as: 'max', body: { access_level: 50 } })).toBeGitLabError(400, {
      message: { access_level: ['is not included in the list'] },
    })
  })

  it('answers 400 without access_level', async () => {
    expect(await api.put('/projects/20/members/9', { as: 'max', body: {} })).toBeGitLabError(400, { error: 'access_level is missing' })
  })

  it('lets an owner change another owner once the group has two', async () => {
    expect((await api.post('/groups/10/members', { as: 'olive', body: { user_id: 8, access_level: 50 } })).status).toBe(201)
    expect((await api.put('/groups/10/members/6', { as: 'oscar', body: { access_level: 40 } })).status).toBe(200)
  })
})

contract('DELETE /{groups|projects}/:id/members/:user_id', {}, ({ api, sim }) => {
  twin('removes a member (204)', MANAGED, async ({ id, admin, otherMember: user }, source) => {
    const path = source.path(id)
    const res = await api.delete(`${path}/members/${user}`, { as: admin })
    expect([res.status, res.text]).toEqual([204, ''])
    expect(await api.get(`${path}/members/${user}`, { as: admin })).toBeGitLabError(404, NOT_FOUND)
  })

  it('lets a member leave', async () => {
    expect((await api.delete('/groups/10/members/2', { as: 'gina' })).status).toBe(204)
  })

  it('takes effect on every other area at once: a removed maintainer can no longer create labels', async () => {
    const label = { name: 'after', color: '#123456' }
    expect((await api.delete('/groups/10/members/5', { as: 'olive' })).status).toBe(204)
    expect(await api.post('/projects/20/labels', { as: 'max', body: label })).toBeGitLabError(403, FORBIDDEN)
    expect(await api.get('/projects/21/labels', { as: 'max' })).toBeGitLabError(404, { message: '404 Project Not Found' })
  })

  it('removes the user from subgroups and their projects unless skip_subresources', async () => {
    const members = sim().db.tables.members
    const add = (source_type: 'project' | 'group', source_id: number) =>
      members.insert({ source_type, source_id, user_id: 4, access_level: 30, expires_at: null, created_at: '2021-03-20T00:00:00.000Z', updated_at: '2021-03-20T00:00:00.000Z', created_by_id: null, override: false })
    add('group', 11)
    add('project', 21)
    add('project', 20)
    expect((await api.delete('/groups/10/members/4', { as: 'olive' })).status).toBe(204)
    const left = members.where('user_id', 4).map((m) => [m.source_type, m.source_id])
    // ivy/tracker (project 30) is outside acme's hierarchy: that membership stays.
    expect(left).toEqual([['project', 30]])
  })

  it('keeps subgroup and project memberships with skip_subresources=true', async () => {
    const members = sim().db.tables.members
    members.insert({ source_type: 'group', source_id: 11, user_id: 4, access_level: 30, expires_at: null, created_at: '2021-03-20T00:00:00.000Z', updated_at: '2021-03-20T00:00:00.000Z', created_by_id: null, override: false })
    members.insert({ source_type: 'project', source_id: 21, user_id: 4, access_level: 30, expires_at: null, created_at: '2021-03-20T00:00:00.000Z', updated_at: '2021-03-20T00:00:00.000Z', created_by_id: null, override: false })
    expect((await api.delete('/groups/10/members/4', { as: 'olive', query: { skip_subresources: true } })).status).toBe(204)
    expect(members.where('user_id', 4).map((m) => [m.source_type, m.source_id])).toEqual([['project', 30], ['group', 11], ['project', 21]])
  })

  it('unassigns the user from the source\'s issues and merge requests with unassign_issuables=true', async () => {
    const { issues, merge_requests } = sim().db.tables
    merge_requests.update(500, { assignee_ids: [5] })
    expect((await api.delete('/groups/10/members/5', { as: 'olive', body: { unassign_issuables: true } })).status).toBe(204)
    expect(issues.get(400)!.assignee_ids).toEqual([])
    expect(merge_requests.get(500)!.assignee_ids).toEqual([])
  })

  it('leaves assignments alone by default', async () => {
    expect((await api.delete('/groups/10/members/5', { as: 'olive' })).status).toBe(204)
    expect(sim().db.tables.issues.get(400)!.assignee_ids).toEqual([5])
  })

  it.each([
    ['another member, as a guest', '/groups/10/members/3', 'gina', 403, FORBIDDEN],
    ['a group member, as a group maintainer', '/groups/10/members/3', 'max', 403, FORBIDDEN],
    ['the last owner, as themself', '/groups/10/members/6', 'olive', 403, FORBIDDEN],
    ['the last owner, as an admin', '/groups/10/members/6', 'root', 403, FORBIDDEN],
    ['a personal project\'s owner', '/projects/22/members/6', 'olive', 403, FORBIDDEN],
    ['a user who is no direct member', '/projects/20/members/4', 'max', 404, NOT_FOUND],
  ])('refuses %s', async (_title, path, as, status, body) => {
    const before = JSON.stringify(sim().db.dump())
    expect(await api.delete(path, { as })).toBeGitLabError(status, body)
    expect(JSON.stringify(sim().db.dump())).toBe(before)
  })

  it('answers 412 when If-Unmodified-Since is older than the membership', async () => {
    expect(await api.delete('/projects/20/members/9', { as: 'max', headers: { 'If-Unmodified-Since': 'Thu, 01 Jan 1970 00:00:00 GMT' } })).toBeGitLabError(412, {
      message: '412 Precondition Failed',
    })
  })
})

// Member override (EE, issue 23 item 3): `override_group_member` needs an LDAP-synced group (one with
// `ldap_group_links`) and an Owner or administrator of it; on any other group everyone gets 403.
const LDAP_SYNCED = DEFAULT_YAML.replace(
  'runners_token: GR1348941AcmeGroupRunnerToken # runners (issue 7)\n',
  'runners_token: GR1348941AcmeGroupRunnerToken # runners (issue 7)\n    ldap_group_links:\n      - { cn: acme-engineers, group_access: developer }\n',
)

contract('POST|DELETE /groups/:id/members/:user_id/override on a group that is not LDAP-synced', {}, ({ api, sim }) => {
  it.each([
    ['POST', 'olive', 'an owner'],
    ['POST', 'root', 'an administrator'],
    ['POST', 'max', 'a maintainer'],
    ['DELETE', 'olive', 'an owner'],
    ['DELETE', 'root', 'an administrator'],
  ])('%s answers 403 Forbidden to %s (%s)', async (method, as) => {
    expect(await api.request(method, '/groups/10/members/4/override', { as })).toBeGitLabError(403, FORBIDDEN)
    expect(sim().db.tables.members.all().find((m: MemberRecord) => m.source_id === 10 && m.user_id === 4)!.override).toBe(false)
  })

  it('answers 403 before looking for the member, 404 for an unknown group', async () => {
    expect(await api.post('/groups/10/members/8/override', { as: 'root' })).toBeGitLabError(403, FORBIDDEN)
    expect(await api.post('/groups/999/members/4/override', { as: 'root' })).toBeGitLabError(404, { message: '404 Group Not Found' })
  })
})

contract('POST /groups/:id/members/:user_id/override on an LDAP-synced group', { scenario: LDAP_SYNCED }, ({ api, sim }) => {
  it.each([['olive'], ['root']])('sets override (201) and shows it, as %s', async (as) => {
    const res = await api.post('/groups/10/members/4/override', { as })
    expect([res.status, res.body.override, Object.keys(res.body)]).toEqual([201, true, [...FIELDS, 'override']])
    expect(sim().db.tables.members.all().find((m: MemberRecord) => m.source_id === 10 && m.user_id === 4)!.override).toBe(true)
  })

  it('loads the link from the scenario', () => {
    expect(sim().db.tables.ldap_group_links.all()).toEqual([{ id: 1, group_id: 10, cn: 'acme-engineers', group_access: 30, provider: 'ldapmain' }])
  })

  it.each([
    ['a maintainer', '/groups/10/members/4/override', 'max', 403, FORBIDDEN],
    ['a developer', '/groups/10/members/4/override', 'devon', 403, FORBIDDEN],
    ['a non-member', '/groups/10/members/4/override', 'nora', 403, FORBIDDEN],
    ['an owner, for a non-member', '/groups/10/members/8/override', 'olive', 404, NOT_FOUND],
    ['a maintainer, for a non-member (permission first)', '/groups/10/members/8/override', 'max', 403, FORBIDDEN],
    ['an owner of the subgroup (links are not inherited)', '/groups/11/members/6/override', 'olive', 403, FORBIDDEN],
  ])('refuses %s', async (_title, path, as, status, body) => {
    expect(await api.post(path, { as })).toBeGitLabError(status, body)
  })
})

contract('DELETE /groups/:id/members/:user_id/override on an LDAP-synced group', { scenario: LDAP_SYNCED }, ({ api }) => {
  it('unsets override (200)', async () => {
    await api.post('/groups/10/members/4/override', { as: 'olive' })
    const res = await api.delete('/groups/10/members/4/override', { as: 'olive' })
    expect([res.status, res.body.override, res.body.username]).toEqual([200, false, 'devon'])
  })

  it('refuses a maintainer with 403', async () => {
    expect(await api.delete('/groups/10/members/4/override', { as: 'max' })).toBeGitLabError(403, FORBIDDEN)
  })
})
