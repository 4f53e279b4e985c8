/**
 * The supporting reads clients use to discover fixture data: GET /user, /users/:id, /projects,
 * /projects/:id, /groups, /groups/:id, with offset and keyset pagination.
 * Source: GitLab doc/api/{users,projects,groups}.md; gitlab-behaviour.md §1.7, §1.8.
 */
import { expect, it } from 'vitest'
import { contract, paginationHeaders } from '../support/contract.js'

contract('GET /user', {}, ({ api, sim }) => {
  it('returns the signed-in user with the private profile', async () => {
    const res = await api.get('/user', { as: 'devon' })
    const devon = sim().db.tables.users.get(4)!
    expect(res.status).toBe(200)
    expect(Object.keys(res.body).slice(0, 6)).toEqual(['id', 'name', 'username', 'state', 'avatar_url', 'web_url'])
    expect(res.body).toMatchObject({
      id: 4,
      username: 'devon',
      name: devon.name,
      state: 'active',
      email: devon.email,
      web_url: `${api.baseUrl}/devon`,
      can_create_group: true,
    })
    expect(res.body).not.toHaveProperty('is_admin')
  })

  it('adds is_admin for an administrator', async () => {
    const res = await api.get('/user', { as: 'root' })
    expect(res.body.is_admin).toBe(true)
  })
})

contract('GET /users/:id', {}, ({ api }) => {
  it('shows the public profile to others and hides the email', async () => {
    const res = await api.get('/users/4', { as: 'nora' })
    expect(res.status).toBe(200)
    expect(res.body.username).toBe('devon')
    expect(res.body).not.toHaveProperty('email')
  })

  it('is readable anonymously', async () => {
    expect((await api.get('/users/1')).status).toBe(200)
  })
})

contract('GET /projects/:id', {}, ({ api, sim }) => {
  it('presents the project with namespace, links and permissions', async () => {
    const res = await api.get('/projects/acme%2Fwebsite', { as: 'max' })
    const project = sim().db.tables.projects.get(20)!
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      id: 20,
      name: project.name,
      path: 'website',
      path_with_namespace: 'acme/website',
      web_url: `${api.baseUrl}/acme/website`,
      http_url_to_repo: `${api.baseUrl}/acme/website.git`,
      visibility: 'public',
      namespace: { id: 10, path: 'acme', kind: 'group', full_path: 'acme', parent_id: null, web_url: `${api.baseUrl}/groups/acme` },
      _links: { self: `${api.baseUrl}/api/v4/projects/20`, labels: `${api.baseUrl}/api/v4/projects/20/labels` },
      permissions: { project_access: null, group_access: { access_level: 40, notification_level: 3 } },
    })
    expect(Object.keys(res.body).slice(0, 7)).toEqual(['id', 'description', 'name', 'name_with_namespace', 'path', 'path_with_namespace', 'created_at'])
  })

  it('shows the owner of a personal project', async () => {
    const res = await api.get('/projects/22', { as: 'olive' })
    expect(res.body.namespace).toMatchObject({ kind: 'user', path: 'olive', full_path: 'olive' })
    expect(res.body.owner).toMatchObject({ id: 6, username: 'olive' })
  })

  it('omits permissions for anonymous callers', async () => {
    const res = await api.get('/projects/20')
    expect(res.body).not.toHaveProperty('permissions')
  })
})

contract('GET /projects', {}, ({ api }) => {
  it.each([
    // 30 (ivy/tracker, public) and 31 (ivy/bulk, private) belong to the issues area.
    [undefined, [20, 30]],
    ['nora', [20, 23, 30]],
    ['gina', [20, 21, 23, 30]],
    ['olive', [20, 21, 22, 23, 24, 30]],
    ['root', [20, 21, 22, 23, 24, 30, 31]],
  ])('lists what %s can see, newest first by default', async (as, ids) => {
    const res = await api.get('/projects', { as, query: { order_by: 'id', sort: 'asc' } })
    expect(res.status).toBe(200)
    expect(res.body.map((p: { id: number }) => p.id)).toEqual(ids)
  })

  it('filters by membership, visibility and search', async () => {
    const ids = async (query: Record<string, string>) =>
      (await api.get('/projects', { as: 'olive', query: { ...query, order_by: 'id', sort: 'asc' } })).body.map((p: { id: number }) => p.id)
    expect(await ids({ visibility: 'private' })).toEqual([21, 22, 24])
    // owned: her personal project and the projects of the groups she owns (User#owned_projects).
    expect(await ids({ owned: 'true' })).toEqual([20, 21, 22, 23, 24])
    expect(await ids({ search: 'dotfiles' })).toEqual([22])
    expect(await ids({ simple: 'true', min_access_level: '50' })).toEqual([20, 21, 22, 23, 24])
  })

  it('paginates by offset with every header and absolute links carrying the filters', async () => {
    const res = await api.get('/projects', { as: 'root', query: { order_by: 'id', sort: 'asc', per_page: 2, page: 2 } })
    expect(res.body.map((p: { id: number }) => p.id)).toEqual([22, 23])
    const url = (page: number) =>
      `<${api.baseUrl}/api/v4/projects?membership=false&order_by=id&owned=false&page=${page}&per_page=2&simple=false&sort=asc&starred=false>`
    expect(paginationHeaders(res)).toEqual({
      'x-page': '2',
      'x-per-page': '2',
      'x-next-page': '3',
      'x-prev-page': '1',
      'x-total': '7',
      'x-total-pages': '4',
      link: `${url(1)}; rel="prev", ${url(3)}; rel="next", ${url(1)}; rel="first", ${url(4)}; rel="last"`,
    })
  })

  it('paginates by keyset on id with Link rel="next" and the deprecated Links header', async () => {
    const query = { pagination: 'keyset', order_by: 'id', sort: 'asc', per_page: 2 }
    const first = await api.get('/projects', { as: 'root', query })
    expect(first.body.map((p: { id: number }) => p.id)).toEqual([20, 21])
    const next = `<${api.baseUrl}/api/v4/projects?id_after=21&membership=false&order_by=id&owned=false&page=1&pagination=keyset&per_page=2&simple=false&sort=asc&starred=false>; rel="next"`
    expect(first.headers.get('link')).toBe(next)
    expect(first.headers.get('links')).toBe(next)
    expect(first.headers.get('x-total')).toBeNull()
    const last = await api.get('/projects', { as: 'root', query: { ...query, id_after: 31 } })
    expect([last.status, last.body, last.headers.get('link')]).toEqual([200, [], null])
  })

  it('walks keyset pages backwards with id_before', async () => {
    const res = await api.get('/projects', { as: 'root', query: { pagination: 'keyset', order_by: 'id', sort: 'desc', per_page: 2, id_before: 23 } })
    expect(res.body.map((p: { id: number }) => p.id)).toEqual([22, 21])
    expect(res.headers.get('link')).toContain('id_before=21')
  })

  it.each([
    [{ pagination: 'keyset', order_by: 'name' }, 405, { error: 'Keyset pagination is not yet available for this type of request' }],
    [{ page: 501, per_page: 100 }, 405, {
      error: 'Offset pagination has a maximum allowed offset of 50000 for requests that return objects of type Project. Remaining records can be retrieved using keyset pagination.',
    }],
    [{ per_page: 0 }, 400, { error: 'per_page has a value not allowed' }],
    [{ page: 'abc' }, 400, { error: 'page is invalid' }],
    [{ order_by: 'stars' }, 400, { error: 'order_by does not have a valid value' }],
    [{ visibility: 'secret' }, 400, { error: 'visibility does not have a valid value' }],
  ])('refuses %j', async (query, status, body) => {
    const res = await api.get('/projects', { as: 'root', query })
    expect(res).toBeGitLabError(status, body)
  })
})

contract('GET /groups', {}, ({ api }) => {
  it.each([
    [undefined, [10]],
    ['nora', []],
    ['gina', [10, 11]],
    ['olive', [10, 11, 12]],
    ['root', [10, 11, 12]],
  ])('lists the groups %s belongs to (all for admins, public for anonymous)', async (as, ids) => {
    const res = await api.get('/groups', { as, query: { order_by: 'id' } })
    expect([res.status, res.body.map((g: { id: number }) => g.id)]).toEqual([200, ids])
  })

  it('lists every visible group with all_available', async () => {
    const res = await api.get('/groups', { as: 'nora', query: { all_available: 'true' } })
    expect(res.body.map((g: { full_path: string }) => g.full_path)).toEqual(['acme'])
  })

  it('presents full_path and full_name of subgroups', async () => {
    const res = await api.get('/groups', { as: 'root', query: { search: 'platform' } })
    expect(res.body).toHaveLength(1)
    expect(res.body[0]).toMatchObject({ id: 11, path: 'platform', full_path: 'acme/platform', parent_id: 10, web_url: `${api.baseUrl}/groups/acme/platform` })
  })
})

contract('GET /groups/:id', {}, ({ api }) => {
  it('lists only the projects the caller can see, and the runners token only to owners', async () => {
    const anonymous = await api.get('/groups/acme')
    expect(anonymous.body.projects.map((p: { id: number }) => p.id)).toEqual([20])
    expect(anonymous.body).not.toHaveProperty('runners_token')
    const owner = await api.get('/groups/acme', { as: 'olive' })
    expect(owner.body.projects.map((p: { id: number }) => p.id)).toEqual([20, 23])
    expect(typeof owner.body.runners_token).toBe('string')
  })
})
