/**
 * The namespace tree over both doors (issue 25 item 7): subgroups, descendant groups, a group's
 * projects, a project's groups, a user's personal projects, and moving projects and groups, with
 * access read again after each move (membership is inherited from the new parent only).
 * Source: gitlab: lib/api/groups.rb, lib/api/projects.rb, app/finders/groups_finder.rb,
 * group_projects_finder.rb, project_groups_finder.rb, app/services/projects/transfer_service.rb,
 * app/services/groups/transfer_service.rb (the group route is GitLab 14.6's).
 *
 * Default scenario: acme (10, public; olive owner, max maintainer, devon developer, riley reporter,
 * gina guest) with the private subgroup platform (11) and projects website (20, public),
 * handbook (23, internal) and platform/api (21, private); secret-lab (12, private, olive only) with
 * experiments (24); olive/dotfiles (22, private); ivy/tracker (30, public) and ivy/bulk (31,
 * private); nora is no member anywhere; root is an administrator.
 */
import { expect, it } from 'vitest'
import { contract, paginationHeaders, type Api } from '../../support/contract.js'

const FORBIDDEN = { message: '403 Forbidden' }
const GROUP_NOT_FOUND = { message: '404 Group Not Found' }
const PROJECT_NOT_FOUND = { message: '404 Project Not Found' }
const NAMESPACE_NOT_FOUND = { message: '404 Namespace Not Found' }
const UNAUTHORIZED = { message: '401 Unauthorized' }

const ids = (res: { body: { id: number }[] }) => res.body.map((row) => row.id)
const transferFailed = (message: string) => ({ message: `Failed to transfer project {:new_namespace=>["${message}"]}` })
const groupTransferFailed = (reason: string) => ({ message: `Transfer failed: ${reason}` })

/** Adds subgroups under acme as max (Maintainer): tools (public), docs (internal), and tools/deep (public). */
async function arrangeSubgroups(api: Api): Promise<{ tools: number; docs: number; deep: number }> {
  const tools = await api.post('/groups', { as: 'max', body: { name: 'Tools', path: 'tools', parent_id: 10, visibility: 'public' } })
  const docs = await api.post('/groups', { as: 'max', body: { name: 'Docs', path: 'docs', parent_id: 10, visibility: 'internal' } })
  const deep = await api.post('/groups', { as: 'max', body: { name: 'Deep', path: 'deep', parent_id: tools.body.id, visibility: 'public' } })
  expect([tools.status, docs.status, deep.status]).toEqual([201, 201, 201])
  return { tools: tools.body.id, docs: docs.body.id, deep: deep.body.id }
}

contract('GET /groups/:id/subgroups', {}, ({ api }) => {
  it('lists the direct subgroups as Group entities', async () => {
    const res = await api.get('/groups/10/subgroups', { as: 'devon' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual([
      {
        id: 11,
        web_url: `${api.baseUrl}/groups/acme/platform`,
        name: 'Platform',
        path: 'platform',
        description: '',
        visibility: 'private',
        share_with_group_lock: false,
        require_two_factor_authentication: false,
        two_factor_grace_period: 48,
        project_creation_level: 'developer',
        auto_devops_enabled: null,
        subgroup_creation_level: 'maintainer',
        emails_disabled: null,
        mentions_disabled: null,
        lfs_enabled: true,
        default_branch_protection: 2,
        avatar_url: null,
        request_access_enabled: true,
        full_name: 'Acme / Platform',
        full_path: 'acme/platform',
        created_at: res.body[0].created_at,
        parent_id: 10,
      },
    ])
  })

  it.each([
    ['root', {}, 'all, by name', ['docs', 'platform', 'tools']],
    ['devon', {}, 'the ones devon holds access to (inherited from acme)', ['docs', 'platform', 'tools']],
    ['nora', {}, 'none: all_available is false for a signed-in user', []],
    ['nora', { all_available: true }, 'those nora can read', ['docs', 'tools']],
    [undefined, {}, 'the public ones to anonymous callers', ['tools']],
    ['root', { search: 'oo' }, 'matching the search on path or name', ['tools']],
    ['root', { order_by: 'id', sort: 'desc' }, 'by id, descending', ['docs', 'tools', 'platform']],
    ['root', { order_by: 'path', sort: 'desc' }, 'by path, descending', ['tools', 'platform', 'docs']],
    ['root', { skip_groups: [11] }, 'without skip_groups', ['docs', 'tools']],
    ['olive', { owned: true }, 'owned (Owner, inherited)', ['docs', 'platform', 'tools']],
    ['max', { owned: true }, 'owned: the ones max created (their creator is their Owner), not acme\'s others', ['docs', 'tools']],
    ['riley', { min_access_level: 30 }, 'at min_access_level: none for a Reporter', []],
    ['max', { min_access_level: 40 }, 'at min_access_level 40 for a Maintainer', ['docs', 'platform', 'tools']],
  ])('as %s with %j lists %s', async (as, query, _title, paths) => {
    await arrangeSubgroups(api)
    const res = await api.get('/groups/10/subgroups', { as, query })
    expect(res.status).toBe(200)
    expect(res.body.map((g: { path: string }) => g.path)).toEqual(paths)
  })

  it('is paginated with GitLab\'s headers', async () => {
    await arrangeSubgroups(api)
    const res = await api.get('/groups/10/subgroups', { as: 'root', query: { per_page: 2, page: 2 } })
    // GitLab's links carry the declared params with their defaults, path params included.
    const url = (page: number) => `${api.baseUrl}/api/v4/groups/10/subgroups?id=10&order_by=name&owned=false&page=${page}&per_page=2&sort=asc&statistics=false`
    expect(res.body.map((g: { path: string }) => g.path)).toEqual(['tools'])
    expect(paginationHeaders(res)).toEqual({
      'x-page': '2',
      'x-per-page': '2',
      'x-next-page': '',
      'x-prev-page': '1',
      'x-total': '3',
      'x-total-pages': '2',
      link: `<${url(1)}>; rel="prev", <${url(1)}>; rel="first", <${url(2)}>; rel="last"`,
    })
  })

  it.each([
    ['nora', '/groups/12/subgroups', GROUP_NOT_FOUND],
    ['devon', '/groups/999/subgroups', GROUP_NOT_FOUND],
  ])('as %s, %s is 404', async (as, path, error) => {
    expect(await api.get(path, { as })).toBeGitLabError(404, error)
  })

  it('takes the group by full path', async () => {
    const res = await api.get('/groups/acme%2Fplatform/subgroups', { as: 'olive' })
    expect([res.status, res.body]).toEqual([200, []])
  })
})

contract('GET /groups/:id/descendant_groups', {}, ({ api }) => {
  it('lists subgroups at every depth', async () => {
    const { deep } = await arrangeSubgroups(api)
    const res = await api.get('/groups/10/descendant_groups', { as: 'root' })
    expect(res.body.map((g: { full_path: string }) => g.full_path)).toEqual(['acme/tools/deep', 'acme/docs', 'acme/platform', 'acme/tools'])
    expect(res.body[0]).toMatchObject({ id: deep, parent_id: expect.any(Number), full_name: 'Acme / Tools / Deep' })
    expect(res.headers.get('x-total')).toBe('4')
  })

  it.each([
    ['root', { search: 'deep' }, ['deep']],
    [undefined, {}, ['deep', 'tools']],
    ['nora', { all_available: true }, ['deep', 'docs', 'tools']],
    ['root', { skip_groups: [11], order_by: 'id' }, ['tools', 'docs', 'deep']],
  ])('as %s with %j', async (as, query, paths) => {
    await arrangeSubgroups(api)
    const res = await api.get('/groups/10/descendant_groups', { as, query })
    expect(res.body.map((g: { path: string }) => g.path)).toEqual(paths)
  })

  it('returns 404 for a group the caller cannot read', async () => {
    expect(await api.get('/groups/12/descendant_groups', { as: 'devon' })).toBeGitLabError(404, GROUP_NOT_FOUND)
  })
})

contract('GET /groups/:id/projects', {}, ({ api }) => {
  it('lists the group\'s own projects as Project entities without permissions, newest first', async () => {
    const res = await api.get('/groups/10/projects', { as: 'devon' })
    expect(ids(res)).toEqual([20, 23])
    const { permissions, ...website } = (await api.get('/projects/20', { as: 'devon' })).body
    expect(permissions).toBeDefined()
    expect(res.body[0]).toEqual(website)
  })

  it.each([
    ['devon', { include_subgroups: true }, [20, 23, 21]],
    ['nora', { include_subgroups: true }, [20, 23]],
    [undefined, { include_subgroups: true }, [20]],
    ['devon', { order_by: 'id', sort: 'asc' }, [20, 23]],
    ['devon', { visibility: 'internal' }, [23]],
    ['devon', { search: 'hand' }, [23]],
    ['devon', { archived: true }, []],
    ['olive', { owned: true, include_subgroups: true }, [20, 23, 21]],
    ['devon', { owned: true }, []],
    ['riley', { min_access_level: 30 }, []],
    ['devon', { min_access_level: 30, include_subgroups: true }, [20, 23, 21]],
    ['devon', { starred: true }, []],
    ['devon', { with_shared: false, with_issues_enabled: true, with_merge_requests_enabled: true }, [20, 23]],
  ])('as %s with %j', async (as, query, expected) => {
    const res = await api.get('/groups/10/projects', { as, query })
    expect([res.status, ids(res)]).toEqual([200, expected])
  })

  it('answers BasicProjectDetails with simple=true', async () => {
    const res = await api.get('/groups/11/projects', { as: 'devon', query: { simple: true } })
    const simple = await api.get('/projects', { as: 'devon', query: { simple: true, search: 'api' } })
    expect(res.body).toEqual(simple.body.filter((p: { id: number }) => p.id === 21))
    expect(Object.keys(res.body[0])).toContain('namespace')
    expect(Object.keys(res.body[0])).not.toContain('_links')
  })

  it('is paginated with GitLab\'s headers', async () => {
    const res = await api.get('/groups/10/projects', { as: 'devon', query: { per_page: 1, include_subgroups: true } })
    const url = (page: number) =>
      `${api.baseUrl}/api/v4/groups/10/projects?id=10&include_subgroups=true&order_by=created_at&owned=false&page=${page}&per_page=1&simple=false&sort=desc&starred=false&with_issues_enabled=false&with_merge_requests_enabled=false&with_shared=true`
    expect(ids(res)).toEqual([20])
    expect(paginationHeaders(res)).toEqual({
      'x-page': '1',
      'x-per-page': '1',
      'x-next-page': '2',
      'x-prev-page': '',
      'x-total': '3',
      'x-total-pages': '3',
      link: `<${url(2)}>; rel="next", <${url(1)}>; rel="first", <${url(3)}>; rel="last"`,
    })
  })

  it('returns 404 for a private group to a non-member', async () => {
    expect(await api.get('/groups/11/projects', { as: 'nora' })).toBeGitLabError(404, GROUP_NOT_FOUND)
  })
})

contract('GET /projects/:id/groups', {}, ({ api }) => {
  it('lists the project\'s group and its ancestors, newest id first', async () => {
    const res = await api.get('/projects/21/groups', { as: 'devon' })
    expect(ids(res)).toEqual([11, 10])
    expect(res.body[1]).toEqual((await api.get('/groups', { as: 'devon', query: { search: 'acme', top_level_only: true } })).body[0])
    expect(res.headers.get('x-total')).toBe('2')
  })

  it.each([
    ['devon', '/projects/21/groups', { search: 'plat' }, [11]],
    ['devon', '/projects/21/groups', { skip_groups: [11] }, [10]],
    ['devon', '/projects/21/groups', { with_shared: true, shared_min_access_level: 30 }, [11, 10]],
    [undefined, '/projects/20/groups', {}, [10]],
    ['olive', '/projects/22/groups', {}, []],
    ['devon', '/projects/acme%2Fplatform%2Fapi/groups', {}, [11, 10]],
  ])('as %s, %s with %j', async (as, path, query, expected) => {
    const res = await api.get(path, { as, query })
    expect([res.status, ids(res)]).toEqual([200, expected])
  })

  it('returns 404 for a private project to a non-member', async () => {
    expect(await api.get('/projects/21/groups', { as: 'nora' })).toBeGitLabError(404, PROJECT_NOT_FOUND)
  })
})

contract('GET /users/:user_id/projects', {}, ({ api }) => {
  it.each([
    ['ivy', 'ivy', [30, 31]],
    ['root', 'ivy', [30, 31]],
    ['nora', 'ivy', [30]],
    ['olive', '6', [22]],
    ['nora', 'olive', []],
    ['ivy', 'nora', []],
  ])('as %s lists the personal projects of %s the caller can read', async (as, user, expected) => {
    const res = await api.get(`/users/${user}/projects`, { as })
    expect([res.status, ids(res)]).toEqual([200, expected])
  })

  it('answers ProjectWithAccess to a signed-in caller and BasicProjectDetails to anonymous ones', async () => {
    const signedIn = await api.get('/users/ivy/projects', { as: 'gina', query: { order_by: 'id' } })
    expect(signedIn.body).toEqual([(await api.get('/projects/30', { as: 'gina' })).body])
    const anonymous = await api.get('/users/ivy/projects')
    const simple = await api.get('/projects', { as: 'gina', query: { simple: true, search: 'tracker' } })
    expect(anonymous.body).toEqual(simple.body)
  })

  it.each([
    [{ search: 'bulk' }, [31]],
    [{ visibility: 'public' }, [30]],
    [{ order_by: 'id', sort: 'asc' }, [30, 31]],
    [{ owned: true }, [30, 31]],
    [{ starred: true }, []],
  ])('filters with %j', async (query, expected) => {
    expect(ids(await api.get('/users/40/projects', { as: 'ivy', query }))).toEqual(expected)
  })

  it('is paginated with GitLab\'s headers', async () => {
    const res = await api.get('/users/ivy/projects', { as: 'ivy', query: { per_page: 1 } })
    const url = (page: number) =>
      `${api.baseUrl}/api/v4/users/ivy/projects?membership=false&order_by=created_at&owned=false&page=${page}&per_page=1&simple=false&sort=desc&starred=false&statistics=false&user_id=ivy&with_issues_enabled=false&with_merge_requests_enabled=false`
    expect(paginationHeaders(res)).toEqual({
      'x-page': '1',
      'x-per-page': '1',
      'x-next-page': '2',
      'x-prev-page': '',
      'x-total': '2',
      'x-total-pages': '2',
      link: `<${url(2)}>; rel="next", <${url(1)}>; rel="first", <${url(2)}>; rel="last"`,
    })
  })

  it('returns 404 for an unknown user', async () => {
    expect(await api.get('/users/nobody-here/projects', { as: 'devon' })).toBeGitLabError(404, { message: '404 User Not Found' })
  })
})

contract('PUT /projects/:id/transfer', {}, ({ api }) => {
  it('moves a project to another group: paths follow, and so does who may read it', async () => {
    const res = await api.put('/projects/21/transfer', { as: 'olive', body: { namespace: 'secret-lab' } })
    expect(res.status).toBe(200)
    expect(res.body).not.toHaveProperty('permissions')
    expect(res.body).toMatchObject({
      id: 21,
      name_with_namespace: 'Secret Lab / API',
      path_with_namespace: 'secret-lab/api',
      web_url: `${api.baseUrl}/secret-lab/api`,
      http_url_to_repo: `${api.baseUrl}/secret-lab/api.git`,
      namespace: { id: 12, name: 'Secret Lab', path: 'secret-lab', kind: 'group', full_path: 'secret-lab', parent_id: null },
    })
    // devon and max held access through acme; the new parent gives them none.
    expect(await api.get('/projects/21', { as: 'devon' })).toBeGitLabError(404, PROJECT_NOT_FOUND)
    expect(await api.put('/projects/21', { as: 'max', body: { description: 'x' } })).toBeGitLabError(404, PROJECT_NOT_FOUND)
    expect((await api.get('/projects/secret-lab%2Fapi', { as: 'olive' })).body.id).toBe(21)
    expect(await api.get('/projects/acme%2Fplatform%2Fapi', { as: 'olive' })).toBeGitLabError(404, PROJECT_NOT_FOUND)
    expect(ids(await api.get('/projects/21/groups', { as: 'olive' }))).toEqual([12])
    expect(ids(await api.get('/groups/12/projects', { as: 'olive', query: { order_by: 'id', sort: 'asc' } }))).toEqual([21, 23, 24]) // 23: shared with secret-lab in the default scenario
    expect(ids(await api.get('/groups/10/projects', { as: 'devon', query: { include_subgroups: true } }))).toEqual([20, 23])
    const members = await api.get('/projects/21/members/all', { as: 'olive' })
    expect(members.body.map((m: { username: string }) => m.username)).toEqual(['olive'])
  })

  it('moves a personal project into a group by id: the group\'s members inherit access', async () => {
    expect(await api.get('/projects/22', { as: 'devon' })).toBeGitLabError(404, PROJECT_NOT_FOUND)
    const res = await api.put('/projects/22/transfer', { as: 'olive', body: { namespace: '10' } })
    expect([res.status, res.body.path_with_namespace, res.body.namespace.kind]).toEqual([200, 'acme/dotfiles', 'group'])
    const read = await api.get('/projects/acme%2Fdotfiles', { as: 'devon' })
    expect([read.status, read.body.permissions]).toEqual([200, { project_access: null, group_access: { access_level: 30, notification_level: 3 } }])
    expect(ids(await api.get('/users/olive/projects', { as: 'olive' }))).toEqual([])
    expect((await api.put('/projects/22', { as: 'max', body: { description: 'now maintained' } })).status).toBe(200)
  })

  it('moves a group project into the caller\'s personal namespace by username', async () => {
    const res = await api.put('/projects/acme%2Fhandbook/transfer', { as: 'olive', body: { namespace: 'olive' } })
    expect([res.status, res.body.path_with_namespace, res.body.namespace]).toEqual([
      200,
      'olive/handbook',
      { id: 6, name: 'Olive Owner', path: 'olive', kind: 'user', full_path: 'olive', parent_id: null, avatar_url: null, web_url: `${api.baseUrl}/olive` },
    ])
    expect(ids(await api.get('/users/olive/projects', { as: 'olive' }))).toEqual([23, 22])
    // Internal: still readable by any signed-in user, but devon no longer develops it.
    expect((await api.get('/projects/23', { as: 'devon' })).body.permissions).toEqual({ project_access: null, group_access: null })
  })

  it('lowers the visibility of a project to its new group\'s', async () => {
    const res = await api.put('/projects/20/transfer', { as: 'olive', body: { namespace: 'secret-lab' } })
    expect([res.status, res.body.visibility]).toEqual([200, 'private'])
    expect(await api.get('/projects/20')).toBeGitLabError(404, PROJECT_NOT_FOUND)
  })

  it.each([
    ['a project already in that namespace', 'olive', '/projects/21/transfer', 'acme/platform', transferFailed('Transfer failed, please contact an admin.')],
  ])('refuses %s', async (_title, as, path, namespace, error, status = 400) => {
    expect(await api.put(path, { as, body: { namespace } })).toBeGitLabError(status, error)
  })

  it('returns 400 when the target namespace holds a project of the same path', async () => {
    const created = await api.post('/projects', { as: 'olive', body: { name: 'Other', path: 'website' } })
    expect(created.status).toBe(201)
    const res = await api.put(`/projects/${created.body.id}/transfer`, { as: 'olive', body: { namespace: 'acme' } })
    expect(res).toBeGitLabError(400, transferFailed('Project with same name or path in target namespace already exists'))
    expect((await api.get(`/projects/${created.body.id}`, { as: 'olive' })).body.path_with_namespace).toBe('olive/website')
  })

  it('returns 400 when the caller is not a Maintainer of the target group', async () => {
    const created = await api.post('/projects', { as: 'devon', body: { name: 'Scratch' } })
    const res = await api.put(`/projects/${created.body.id}/transfer`, { as: 'devon', body: { namespace: 'acme' } })
    expect(res).toBeGitLabError(400, transferFailed('Transfer failed, please contact an admin.'))
  })

  it.each([
    ['a Maintainer (not an owner)', 'max', '/projects/20/transfer', 'secret-lab', 403, FORBIDDEN],
    ['a non-member of a private project', 'nora', '/projects/21/transfer', 'nora', 404, PROJECT_NOT_FOUND],
    ['an unknown namespace', 'olive', '/projects/20/transfer', 'no-such-group', 404, NAMESPACE_NOT_FOUND],
    ['an unknown namespace id', 'olive', '/projects/20/transfer', '999', 404, NAMESPACE_NOT_FOUND],
    ['another user\'s namespace', 'olive', '/projects/20/transfer', 'nora', 404, NAMESPACE_NOT_FOUND],
    ['an administrator, into any group', 'root', '/projects/30/transfer', 'secret-lab', 200, undefined],
  ])('for %s', async (_title, as, path, namespace, status, error) => {
    const res = await api.put(path, { as, body: { namespace } })
    if (error) expect(res).toBeGitLabError(status, error)
    else expect(res.status).toBe(status)
  })

  it('returns 400 without namespace and 401 anonymously', async () => {
    expect(await api.put('/projects/20/transfer', { as: 'olive', body: {} })).toBeGitLabError(400, { error: 'namespace is missing' })
    expect(await api.put('/projects/20/transfer', { body: { namespace: 'secret-lab' } })).toBeGitLabError(401, UNAUTHORIZED)
  })
})

contract('POST /groups/:id/projects/:project_id', {}, ({ api }) => {
  it('moves a project into the group for an administrator and answers the GroupDetail', async () => {
    const res = await api.post('/groups/10/projects/olive%2Fdotfiles', { as: 'root' })
    expect(res.status).toBe(201)
    // GET /groups/:id's GroupDetail without runners_token (the endpoint passes no user_can_admin_group).
    const { runners_token, ...detail } = (await api.get('/groups/10', { as: 'root' })).body
    expect(runners_token).toBeDefined()
    expect(res.body).toEqual(detail)
    expect(res.body.projects.map((p: { id: number }) => p.id)).toEqual([20, 22, 23])
    expect(res.body).not.toHaveProperty('runners_token')
    expect((await api.get('/projects/22', { as: 'gina' })).body.path_with_namespace).toBe('acme/dotfiles')
  })

  it('returns 400 when the project is already in the group', async () => {
    expect(await api.post('/groups/10/projects/20', { as: 'root' })).toBeGitLabError(400, transferFailed('Transfer failed, please contact an admin.'))
  })

  it.each([
    ['the group owner', 'olive', '/groups/10/projects/22', 403, FORBIDDEN],
    ['a non-admin, before any lookup', 'nora', '/groups/999/projects/999', 403, FORBIDDEN],
    ['an unknown group', 'root', '/groups/999/projects/22', 404, GROUP_NOT_FOUND],
    ['an unknown project', 'root', '/groups/10/projects/999', 404, PROJECT_NOT_FOUND],
    ['an anonymous caller', undefined, '/groups/10/projects/22', 401, UNAUTHORIZED],
  ])('refuses %s', async (_title, as, path, status, error) => {
    expect(await api.post(path, { as })).toBeGitLabError(status, error)
  })
})

contract('POST /groups/:id/transfer', {}, ({ api }) => {
  it('moves a subgroup under another group: its projects follow, and access comes from the new parent', async () => {
    const res = await api.post('/groups/11/transfer', { as: 'olive', body: { group_id: 12 } })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      id: 11,
      web_url: `${api.baseUrl}/groups/secret-lab/platform`,
      full_path: 'secret-lab/platform',
      full_name: 'Secret Lab / Platform',
      parent_id: 12,
      projects: [expect.objectContaining({ id: 21, path_with_namespace: 'secret-lab/platform/api' })],
    })
    expect(res.body).not.toHaveProperty('runners_token')
    expect(await api.get('/groups/11', { as: 'devon' })).toBeGitLabError(404, GROUP_NOT_FOUND)
    expect(await api.get('/projects/21', { as: 'max' })).toBeGitLabError(404, PROJECT_NOT_FOUND)
    expect((await api.get('/projects/secret-lab%2Fplatform%2Fapi', { as: 'olive' })).body.id).toBe(21)
    expect(ids(await api.get('/groups/12/descendant_groups', { as: 'olive' }))).toEqual([11])
    expect(ids(await api.get('/groups/10/subgroups', { as: 'root' }))).toEqual([])
    expect(ids(await api.get('/projects/21/groups', { as: 'olive' }))).toEqual([12, 11])
  })

  it('makes a subgroup top-level without group_id, adding the caller as Owner when it has none', async () => {
    const res = await api.post('/groups/acme%2Fplatform/transfer', { as: 'olive' })
    expect([res.status, res.body.full_path, res.body.parent_id]).toEqual([201, 'platform', null])
    const members = await api.get('/groups/11/members', { as: 'olive' })
    expect(members.body.map((m: { username: string; access_level: number }) => [m.username, m.access_level])).toEqual([['olive', 50]])
    expect(await api.get('/groups/11', { as: 'devon' })).toBeGitLabError(404, GROUP_NOT_FOUND)
    expect(ids(await api.get('/groups', { as: 'olive', query: { top_level_only: true, search: 'platform' } }))).toEqual([11])
  })

  it('lowers the visibility of the group, its subgroups and projects to the new parent\'s', async () => {
    const { tools, deep } = await arrangeSubgroups(api)
    const project = await api.post('/projects', { as: 'max', body: { name: 'Deep Thing', namespace_id: deep, visibility: 'public' } })
    expect(project.status).toBe(201)
    const res = await api.post(`/groups/${tools}/transfer`, { as: 'olive', body: { group_id: 12 } })
    expect([res.status, res.body.visibility, res.body.full_path]).toEqual([201, 'private', 'secret-lab/tools'])
    expect((await api.get(`/groups/${deep}`, { as: 'olive' })).body).toMatchObject({ visibility: 'private', full_path: 'secret-lab/tools/deep' })
    expect((await api.get(`/projects/${project.body.id}`, { as: 'olive' })).body).toMatchObject({ visibility: 'private', path_with_namespace: 'secret-lab/tools/deep/deep-thing' })
    expect(await api.get(`/projects/${project.body.id}`)).toBeGitLabError(404, PROJECT_NOT_FOUND)
  })

  it.each([
    ['a group that is already top-level', '/groups/12/transfer', {}, 'Group is already a root group.'],
    ['its own parent', '/groups/11/transfer', { group_id: 10 }, 'Group is already associated to the parent group.'],
    ['one of its subgroups', '/groups/10/transfer', { group_id: 11 }, 'Cannot transfer group to one of its subgroup.'],
    ['itself', '/groups/10/transfer', { group_id: 10 }, 'Cannot transfer group to one of its subgroup.'],
  ])('returns 400 for %s', async (_title, path, body, reason) => {
    expect(await api.post(path, { as: 'olive', body })).toBeGitLabError(400, groupTransferFailed(reason))
  })

  it('returns 400 when the new parent already has a group of that path', async () => {
    expect((await api.post('/groups', { as: 'nora', body: { name: 'Top Platform', path: 'platform' } })).status).toBe(201)
    expect(await api.post('/groups/11/transfer', { as: 'olive' })).toBeGitLabError(400, groupTransferFailed('The parent group already has a subgroup with the same path.'))
  })

  it('returns 400 when the caller may not create subgroups in the new parent', async () => {
    const nora = await api.post('/groups', { as: 'nora', body: { name: 'Nora Lab', path: 'nora-lab', visibility: 'public' } })
    const res = await api.post('/groups/11/transfer', { as: 'olive', body: { group_id: nora.body.id } })
    expect(res).toBeGitLabError(400, groupTransferFailed("You don't have enough permissions."))
    expect((await api.get('/groups/11', { as: 'devon' })).body.full_path).toBe('acme/platform')
  })

  it.each([
    ['a Maintainer', 'max', '/groups/11/transfer', {}, 403, FORBIDDEN],
    ['a non-member of a private group', 'nora', '/groups/11/transfer', {}, 404, GROUP_NOT_FOUND],
    ['an unknown new parent', 'olive', '/groups/11/transfer', { group_id: 999 }, 404, GROUP_NOT_FOUND],
    ['an anonymous caller', undefined, '/groups/11/transfer', {}, 401, UNAUTHORIZED],
    ['a group_id that is not a number', 'olive', '/groups/11/transfer', { group_id: 'acme' }, 400, { error: 'group_id is invalid' }],
  ])('refuses %s', async (_title, as, path, body, status, error) => {
    expect(await api.post(path, { as, body })).toBeGitLabError(status, error)
  })
})

contract('POST /groups/:id/share', {}, ({ api }) => {
  it('shares a group with another: the other group\'s members get up to group_access in it, its subgroups and projects', async () => {
    expect(await api.get('/projects/24', { as: 'devon' })).toBeGitLabError(404, PROJECT_NOT_FOUND)
    const res = await api.post('/groups/12/share', { as: 'olive', body: { group_id: 10, group_access: 20 } })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ id: 12, full_path: 'secret-lab', projects: [expect.objectContaining({ id: 24 })] })
    expect(res.body.shared_with_groups).toEqual([{ group_id: 10, group_name: 'Acme', group_full_path: 'acme', group_access_level: 20, expires_at: null }])
    expect(res.body).not.toHaveProperty('runners_token')
    // devon is a Developer of acme: Reporter (the share's maximum) in secret-lab; gina stays a Guest.
    expect((await api.get('/projects/24', { as: 'devon' })).body.permissions.group_access).toEqual({ access_level: 20, notification_level: 3 })
    expect((await api.get('/projects/24', { as: 'gina' })).body.permissions.group_access).toEqual({ access_level: 10, notification_level: 3 })
    expect(ids(await api.get('/groups/12/projects', { as: 'devon' }))).toEqual([23, 24])
    expect((await api.get('/groups/12', { as: 'devon' })).body.shared_with_groups).toHaveLength(1)
    // Members of acme's subgroups are not members of acme: nora, added to platform, gets nothing.
    expect((await api.post('/groups/11/members', { as: 'olive', body: { user_id: 7, access_level: 30 } })).status).toBe(201)
    expect(await api.get('/groups/12', { as: 'nora' })).toBeGitLabError(404, GROUP_NOT_FOUND)
  })

  it('gives nothing once the share has expired', async () => {
    const res = await api.post('/groups/12/share', { as: 'olive', body: { group_id: 10, group_access: 30, expires_at: '2021-03-01' } })
    expect([res.status, res.body.shared_with_groups[0].expires_at]).toEqual([201, '2021-03-01'])
    expect(await api.get('/groups/12', { as: 'devon' })).toBeGitLabError(404, GROUP_NOT_FOUND)
  })

  it('gives access to the direct members of the shared-with group only', async () => {
    expect((await api.post('/groups/12/share', { as: 'olive', body: { group_id: 11, group_access: 40 } })).status).toBe(201)
    // platform's members are acme's by inheritance, not direct: nobody but olive gets secret-lab.
    expect(await api.get('/groups/12', { as: 'max' })).toBeGitLabError(404, GROUP_NOT_FOUND)
  })

  it.each([
    ['a second share with the same group', 'olive', '/groups/12/share', { group_id: 10, group_access: 30 }, 409, { message: 'Shared group already shared with this group' }],
    ['a Maintainer of the shared group', 'max', '/groups/10/share', { group_id: 11, group_access: 30 }, 404, { message: 'Not Found' }],
    ['a group the caller cannot read', 'max', '/groups/10/share', { group_id: 12, group_access: 30 }, 404, GROUP_NOT_FOUND],
    ['an invalid group_access', 'olive', '/groups/12/share', { group_id: 10, group_access: 15 }, 400, { error: 'group_access does not have a valid value' }],
    ['no group_access', 'olive', '/groups/12/share', { group_id: 10 }, 400, { error: 'group_access is missing' }],
    ['an anonymous caller', undefined, '/groups/12/share', { group_id: 10, group_access: 30 }, 401, UNAUTHORIZED],
  ])('refuses %s', async (title, as, path, body, status, error) => {
    if (title.startsWith('a second')) await api.post(path, { as, body })
    expect(await api.post(path, { as, body })).toBeGitLabError(status, error)
  })
})

contract('DELETE /groups/:id/share/:group_id', {}, ({ api }) => {
  it('removes the share, and the access it gave', async () => {
    await api.post('/groups/12/share', { as: 'olive', body: { group_id: 10, group_access: 30 } })
    expect((await api.get('/groups/12', { as: 'devon' })).status).toBe(200)
    const res = await api.delete('/groups/12/share/10', { as: 'olive' })
    expect([res.status, res.text]).toEqual([204, ''])
    expect(await api.get('/groups/12', { as: 'devon' })).toBeGitLabError(404, GROUP_NOT_FOUND)
    expect((await api.get('/groups/12', { as: 'olive' })).body.shared_with_groups).toEqual([])
  })

  it('answers 204 to a reader who may not remove it, and keeps it (the API ignores the service\'s refusal)', async () => {
    await api.post('/groups/10/share', { as: 'olive', body: { group_id: 12, group_access: 30 } })
    expect((await api.delete('/groups/10/share/12', { as: 'max' })).status).toBe(204)
    expect((await api.get('/groups/10', { as: 'olive' })).body.shared_with_groups.map((s: { group_id: number }) => s.group_id)).toEqual([12])
    // secret-lab is private: devon does not see the share.
    expect((await api.get('/groups/10', { as: 'devon' })).body.shared_with_groups).toEqual([])
  })

  it.each([
    ['no such share', 'olive', '/groups/12/share/10', 404, { message: '404 Group Link Not Found' }],
    ['a group the caller cannot read', 'nora', '/groups/12/share/10', 404, GROUP_NOT_FOUND],
    ['an anonymous caller', undefined, '/groups/12/share/10', 401, UNAUTHORIZED],
  ])('refuses %s', async (_title, as, path, status, error) => {
    expect(await api.delete(path, { as })).toBeGitLabError(status, error)
  })

  it('goes with a deleted group', async () => {
    await api.post('/groups/12/share', { as: 'olive', body: { group_id: 10, group_access: 30 } })
    expect((await api.delete('/groups/10', { as: 'olive' })).status).toBe(202)
    expect((await api.get('/groups/12', { as: 'olive' })).body.shared_with_groups).toEqual([])
  })
})
