/**
 * Billable members of a top-level group (EE) over both doors. Source: api-spec.md "### Members"
 * (billable rows), "Billable member", "Billable member membership"; gitlab-behaviour.md §11.2,
 * §14 item 15 (permission failures are 400).
 *
 * Default scenario: acme (10) has gina, riley, devon, max and olive (owner); website (20) adds
 * elena (developer until 2021-06-30), xavier (expired: not billable) and a bot (never billable).
 */
import { expect, it } from 'vitest'
import { contract, paginationHeaders, type ApiResponse } from '../../support/contract.js'

const FIELDS = ['id', 'name', 'username', 'state', 'avatar_url', 'web_url', 'email', 'last_activity_on', 'membership_type', 'removable']
const MEMBERSHIP_FIELDS = ['id', 'source_id', 'source_full_name', 'source_members_url', 'created_at', 'expires_at', 'access_level']
const BAD_REQUEST = { message: '400 Bad request' }

const ids = (res: ApiResponse): number[] => (res.body as { id: number }[]).map((u) => u.id)

contract('GET /groups/:id/billable_members', {}, ({ api, sim }) => {
  it('lists the users with a membership in the hierarchy, group members first by type, by id', async () => {
    const res = await api.get('/groups/10/billable_members', { as: 'olive' })
    expect(res.status).toBe(200)
    expect(ids(res)).toEqual([2, 3, 4, 5, 6, 9])
    expect(res.body[5]).toEqual({
      id: 9,
      name: 'Elena Expiring',
      username: 'elena',
      state: 'active',
      avatar_url: null,
      web_url: `${api.baseUrl}/elena`,
      email: 'elena@example.org',
      last_activity_on: '2021-03-31',
      membership_type: 'project_member',
      removable: true,
    })
    expect(Object.keys(res.body[0])).toEqual(FIELDS)
    expect(res.body[0].membership_type).toBe('group_member')
    expect(paginationHeaders(res)).toMatchObject({ 'x-total': '6' })
  })

  it.each([
    ['name', 'Elena', [9]],
    ['username', 'rile', [3]],
    ['email', 'devon@example.com', [4]],
  ])('searches by %s', async (_by, search, expected) => {
    expect(ids(await api.get('/groups/10/billable_members', { as: 'olive', query: { search } }))).toEqual(expected)
  })

  it.each([
    ['name_asc', (a: U, b: U) => a.name.localeCompare(b.name)],
    ['name_desc', (a: U, b: U) => b.name.localeCompare(a.name)],
    ['access_level_asc', (a: U, b: U) => a.level - b.level],
    ['access_level_desc', (a: U, b: U) => b.level - a.level],
    ['oldest_joined', (a: U, b: U) => a.joined.localeCompare(b.joined)],
    ['last_joined', (a: U, b: U) => b.joined.localeCompare(a.joined)],
    ['oldest_sign_in', (a: U, b: U) => nullsLast(a.signIn, b.signIn, 1)],
    ['recent_sign_in', (a: U, b: U) => nullsLast(a.signIn, b.signIn, -1)],
  ] as const)('sorts by %s (ties by id)', async (sort, compare) => {
    const db = sim().db
    const users: U[] = [2, 3, 4, 5, 6, 9].map((id) => {
      // Memberships in force in the hierarchy: acme (10), acme/platform (11), their projects 20, 21, 23.
      const inHierarchy = (m: { source_type: string; source_id: number }) =>
        m.source_type === 'group' ? [10, 11].includes(m.source_id) : [20, 21, 23].includes(m.source_id)
      const rows = db.tables.members.where('user_id', id).filter((m) => inHierarchy(m) && (m.expires_at === null || m.expires_at > '2021-04-01'))
      return {
        id,
        name: db.tables.users.get(id)!.name,
        level: Math.max(...rows.map((m) => m.access_level)),
        joined: rows.map((m) => m.created_at).sort()[0]!,
        signIn: db.tables.users.get(id)!.last_sign_in_at,
      }
    })
    const expected = [...users].sort((a, b) => compare(a, b) || a.id - b.id).map((u) => u.id)
    expect(ids(await api.get('/groups/10/billable_members', { as: 'olive', query: { sort } }))).toEqual(expected)
  })

  it('refuses an unknown sort with 400', async () => {
    expect(await api.get('/groups/10/billable_members', { as: 'olive', query: { sort: 'id_desc' } })).toBeGitLabError(400, { error: 'sort does not have a valid value' })
  })

  it.each([
    ['a subgroup', '/groups/11/billable_members', 'olive', 400, BAD_REQUEST],
    ['a maintainer (not admin_group_member)', '/groups/10/billable_members', 'max', 400, BAD_REQUEST],
    ['a non-member of a private group', '/groups/12/billable_members', 'nora', 404, { message: '404 Group Not Found' }],
  ])('answers %s as GitLab does', async (_title, path, as, status, body) => {
    expect(await api.get(path, { as })).toBeGitLabError(status, body)
  })
})

interface U { id: number; name: string; level: number; joined: string; signIn: string | null }

function nullsLast(a: string | null, b: string | null, direction: 1 | -1): number {
  if (a === b) return 0
  if (a === null) return 1
  if (b === null) return -1
  return a.localeCompare(b) * direction
}

contract('GET /groups/:id/billable_members/:user_id/memberships', {}, ({ api, sim }) => {
  it('lists one user\'s direct memberships in the hierarchy', async () => {
    const res = await api.get('/groups/10/billable_members/9/memberships', { as: 'olive' })
    const row = sim().db.tables.members.where('user_id', 9)[0]!
    expect(res.status).toBe(200)
    expect(res.body).toEqual([{
      id: row.id,
      source_id: 20,
      source_full_name: 'Acme / Website',
      source_members_url: `${api.baseUrl}/acme/website/-/project_members`,
      created_at: row.created_at,
      expires_at: '2021-06-30',
      access_level: { string_value: 'Developer', integer_value: 30 },
    }])
    expect(Object.keys(res.body[0])).toEqual(MEMBERSHIP_FIELDS)
  })

  it('names a group membership\'s members page', async () => {
    const res = await api.get('/groups/10/billable_members/6/memberships', { as: 'olive' })
    expect(res.body.map((m: { source_members_url: string; access_level: unknown }) => [m.source_members_url, m.access_level])).toEqual([
      [`${api.baseUrl}/groups/acme/-/group_members`, { string_value: 'Owner', integer_value: 50 }],
    ])
  })

  it.each([
    ['a maintainer', '/groups/10/billable_members/9/memberships', 'max', 400, BAD_REQUEST],
    ['a subgroup', '/groups/11/billable_members/9/memberships', 'olive', 400, BAD_REQUEST],
    ['an unknown user', '/groups/10/billable_members/9999/memberships', 'olive', 404, { message: '404 Not found' }],
    ['a user who is not billable here', '/groups/10/billable_members/8/memberships', 'olive', 404, { message: '404 User Not Found' }],
  ])('answers %s as GitLab does', async (_title, path, as, status, body) => {
    expect(await api.get(path, { as })).toBeGitLabError(status, body)
  })
})

contract('DELETE /groups/:id/billable_members/:user_id', {}, ({ api, sim }) => {
  it('removes the user from the group, its subgroups and their projects (204)', async () => {
    const members = sim().db.tables.members
    members.insert({ source_type: 'group', source_id: 11, user_id: 9, access_level: 20, expires_at: null, created_at: '2021-03-20T00:00:00.000Z', updated_at: '2021-03-20T00:00:00.000Z', created_by_id: null, override: false })
    members.insert({ source_type: 'project', source_id: 21, user_id: 9, access_level: 20, expires_at: null, created_at: '2021-03-20T00:00:00.000Z', updated_at: '2021-03-20T00:00:00.000Z', created_by_id: null, override: false })
    const res = await api.delete('/groups/10/billable_members/9', { as: 'olive' })
    expect([res.status, res.text]).toEqual([204, ''])
    expect(members.where('user_id', 9)).toEqual([])
    expect(ids(await api.get('/groups/10/billable_members', { as: 'olive' }))).not.toContain(9)
  })

  it.each([
    ['a subgroup', '/groups/11/billable_members/4', 'olive', 400, { message: '400 Bad request - Invalid group provided, must be top-level' }],
    ['a maintainer', '/groups/10/billable_members/4', 'max', 400, { message: '400 Bad request - User unauthorized to remove member' }],
    ['a user with no membership', '/groups/10/billable_members/8', 'olive', 400, { message: '400 Bad request - No member found for the given user_id' }],
    ['the last owner', '/groups/10/billable_members/6', 'olive', 403, { message: '403 Forbidden' }],
  ])('refuses %s and changes nothing', async (_title, path, as, status, body) => {
    const before = JSON.stringify(sim().db.dump())
    expect(await api.delete(path, { as })).toBeGitLabError(status, body)
    expect(JSON.stringify(sim().db.dump())).toBe(before)
  })
})
