/**
 * The lookups real tools make around the spec's workflows (issue 15 part 6), over both doors:
 * `GET /users` (by username, search, state, external; what each caller sees), `GET /namespaces`
 * and `GET /projects/:id/users`.
 * Source: gitlab: lib/api/users.rb, app/finders/users_finder.rb, app/models/user.rb (`search`,
 * `namespaces`), lib/api/namespaces.rb, lib/api/entities/{user_basic,user_with_admin,namespace}.rb,
 * lib/api/projects.rb (`:id/users`).
 *
 * Default scenario users: root 1 (admin), gina 2, riley 3, devon 4 (Devon Developer), max 5,
 * olive 6, nora 7 (no memberships), bianca 11 (blocked), lars 12 (LDAP-blocked), dee 13
 * (deactivated), ext 14 (external). acme (10) has gina…olive as guest…owner; website (20) adds
 * elena (9, until 2021-06-30), xavier (10, expired) and its bot (90).
 */
import { expect, it } from 'vitest'
import { contract, type RequestOptions } from '../../support/contract.js'

const USER_BASIC_KEYS = ['id', 'name', 'username', 'state', 'avatar_url', 'web_url']

contract('GET /users', {}, ({ api }) => {
  const ids = async (options: RequestOptions): Promise<number[]> => {
    const res = await api.get('/users', { ...options, query: { per_page: 100, ...options.query } })
    expect(res.status).toBe(200)
    return res.body.map((u: { id: number }) => u.id)
  }

  it('finds one user by username, case-insensitively, for anyone', async () => {
    for (const as of [undefined, 'nora', 'root']) {
      expect(await ids({ ...(as ? { as } : {}), query: { username: 'DEVON' } })).toEqual([4])
    }
    expect(await ids({ query: { username: 'nobody-here' } })).toEqual([])
  })

  it('presents UserBasic to users and anonymous callers, UserWithAdmin to administrators', async () => {
    const anonymous = await api.get('/users', { query: { username: 'devon' } })
    expect(anonymous.body).toEqual([{ id: 4, name: 'Devon Developer', username: 'devon', state: 'active', avatar_url: null, web_url: `${api.baseUrl}/devon` }])
    const user = await api.get('/users', { as: 'nora', query: { username: 'devon' } })
    expect(Object.keys(user.body[0])).toEqual(USER_BASIC_KEYS)
    const admin = await api.get('/users', { as: 'root', query: { username: 'devon' } })
    expect(admin.body[0]).toMatchObject({ id: 4, email: 'devon@example.com', is_admin: false, external: false, can_create_project: true })
  })

  it('returns 403 to an anonymous caller without a username', async () => {
    expect(await api.get('/users')).toBeGitLabError(403, { message: '403 Forbidden - Not authorized to access /api/v4/users' })
    expect(await api.get('/users', { query: { username: '' } })).toBeGitLabError(403, { message: '403 Forbidden - Not authorized to access /api/v4/users' })
  })

  it('lists everyone newest first, offset-paginated', async () => {
    const all = await ids({ as: 'nora' })
    expect(all).toEqual([...all].sort((a, b) => b - a))
    expect(all).toEqual(expect.arrayContaining([1, 4, 11, 12, 13, 14]))
    const page = await api.get('/users', { as: 'nora', query: { per_page: 2, page: 2 } })
    expect(page.body.map((u: { id: number }) => u.id)).toEqual(all.slice(2, 4))
    expect([page.headers.get('x-page'), page.headers.get('x-per-page'), page.headers.get('x-total')]).toEqual(['2', '2', String(all.length)])
  })

  it.each([
    ['a username word', 'devon', [4]],
    ['a name word, any case', 'DEVELOPER', [4]],
    ['a leading @', '@devon', [4]],
    ['an exact email', 'devon@example.com', [4]],
    ['part of an email (no match)', 'devon@example', []],
    ['a word under three characters: exact match only', 'ma', []],
    ['two words that must both be in one column', 'devon developer', [4]],
  ])('searches by %s', async (_title, search, expected) => {
    expect(await ids({ as: 'nora', query: { search } })).toEqual(expected)
  })

  it('ranks an exact name or username first, then by name', async () => {
    const res = await api.post('/users', { as: 'root', body: { email: 'o2@example.com', password: 'password1', name: 'Aaron Olive', username: 'aaron' } })
    expect(res.status).toBe(201)
    expect(await ids({ as: 'nora', query: { search: 'olive' } })).toEqual([6, res.body.id])
  })

  it.each([
    ['blocked: blocked and LDAP-blocked users', { blocked: true }, (list: number[]) => expect(list).toEqual([12, 11])],
    ['active: no blocked or deactivated users', { active: true }, (list: number[]) => expect(list).not.toEqual(expect.arrayContaining([11]))],
  ])('filters %s', async (_title, query, check) => {
    const list = await ids({ as: 'nora', query })
    check(list)
    if ('active' in query) for (const id of [11, 12, 13]) expect(list).not.toContain(id)
  })

  it('filters external users for administrators only', async () => {
    expect(await ids({ as: 'root', query: { external: true } })).toEqual([14])
    expect(await api.get('/users', { as: 'nora', query: { external: true } })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect(await api.get('/users', { query: { external: true, username: 'ext' } })).toBeGitLabError(401, { message: '401 Unauthorized' })
  })

  it('lets administrators order, and ignores order_by for everyone else', async () => {
    const res = await api.get('/users', { as: 'root', query: { order_by: 'username', sort: 'asc', per_page: 100 } })
    const usernames = res.body.map((u: { username: string }) => u.username)
    expect(usernames).toEqual([...usernames].sort())
    const mine = await ids({ as: 'nora', query: { order_by: 'username', sort: 'asc' } })
    expect(mine).toEqual([...mine].sort((a, b) => b - a))
  })

  it('accepts read_api and read_user tokens', async () => {
    expect((await api.get('/users', { token: 'glpat-devon-readonly', query: { username: 'max' } })).status).toBe(200)
    expect((await api.get('/users', { token: 'glpat-nora-read-user', query: { username: 'max' } })).status).toBe(200)
  })

  it('returns 400 for an unknown order and a bad boolean', async () => {
    expect(await api.get('/users', { as: 'root', query: { order_by: 'email' } })).toBeGitLabError(400, { error: 'order_by does not have a valid value' })
    expect(await api.get('/users', { as: 'root', query: { active: 'maybe' } })).toBeGitLabError(400, { error: 'active is invalid' })
  })
})

contract('GET /namespaces', {}, ({ api }) => {
  it('lists the caller\'s personal namespace and the groups they are a direct member of', async () => {
    const res = await api.get('/namespaces', { as: 'devon' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual([
      { id: 4, name: 'Devon Developer', path: 'devon', kind: 'user', full_path: 'devon', parent_id: null, avatar_url: null, web_url: `${api.baseUrl}/devon` },
      { id: 10, name: 'Acme', path: 'acme', kind: 'group', full_path: 'acme', parent_id: null, avatar_url: null, web_url: `${api.baseUrl}/groups/acme` },
    ])
  })

  it('counts the members of the groups the caller owns', async () => {
    const res = await api.get('/namespaces', { as: 'olive' })
    expect(res.body.map((n: { id: number; kind: string; members_count_with_descendants?: number }) => [n.id, n.kind, n.members_count_with_descendants])).toEqual([
      [6, 'user', undefined],
      [10, 'group', 5],
      [12, 'group', 1],
    ])
  })

  it('searches by name and path', async () => {
    const res = await api.get('/namespaces', { as: 'olive', query: { search: 'secret' } })
    expect(res.body.map((n: { full_path: string }) => n.full_path)).toEqual(['secret-lab'])
  })

  it('lists every namespace for an administrator, a group before a personal namespace of the same id', async () => {
    const res = await api.get('/namespaces', { as: 'root', query: { per_page: 100 } })
    const keys = res.body.map((n: { id: number; kind: string }) => `${n.kind}:${n.id}`)
    expect(keys).toEqual(expect.arrayContaining(['user:1', 'group:10', 'group:11', 'group:12', 'user:7']))
    expect(keys.indexOf('group:10')).toBe(keys.indexOf('user:10') - 1)
  })

  it('returns 401 anonymously', async () => {
    expect(await api.get('/namespaces')).toBeGitLabError(401, { message: '401 Unauthorized' })
  })
})

contract('GET /projects/:id/users', {}, ({ api }) => {
  const ids = async (path: string, options: RequestOptions = {}): Promise<number[]> => {
    const res = await api.get(path, options)
    expect(res.status).toBe(200)
    return res.body.map((u: { id: number }) => u.id)
  }

  it('lists the team (group members and direct members, not expired ones) as UserBasic, by id', async () => {
    expect(await ids('/projects/20/users')).toEqual([2, 3, 4, 5, 6, 9, 90])
    const res = await api.get('/projects/20/users', { as: 'nora', query: { per_page: 1 } })
    expect(Object.keys(res.body[0])).toEqual(USER_BASIC_KEYS)
    expect(res.headers.get('x-total')).toBe('7')
  })

  it('searches the team and skips users', async () => {
    expect(await ids('/projects/20/users', { query: { search: 'dev' } })).toEqual([4])
    expect(await ids('/projects/20/users', { query: { skip_users: '2,3' } })).toEqual([4, 5, 6, 9, 90])
  })

  it('returns 404 for a private project the caller cannot see', async () => {
    expect(await api.get('/projects/21/users', { as: 'nora' })).toBeGitLabError(404, { message: '404 Project Not Found' })
    expect((await api.get('/projects/21/users', { as: 'gina' })).status).toBe(200)
  })
})
