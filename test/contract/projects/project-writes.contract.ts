/**
 * Creating, changing and deleting projects over both doors (issue 16 part 4).
 * Source: gitlab: lib/api/projects.rb, app/services/projects/{create,update,destroy}_service.rb,
 * app/models/project.rb, spec/requests/api/projects_spec.rb.
 *
 * Default scenario: acme (group 10, public) has website (20, public) and handbook (23, internal);
 * acme/platform (11, private) has api (21); secret-lab (12, private, olive only) has experiments
 * (24). gina/riley/devon/max/olive are guest/reporter/developer/maintainer/owner of acme; nora is
 * no member anywhere; root is an administrator. The clock stands at 2021-04-01T12:00:00.000Z.
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

const NOW = '2021-04-01T12:00:00.000Z'
const UNAUTHORIZED = { message: '401 Unauthorized' }
const FORBIDDEN = { message: '403 Forbidden' }
const PROJECT_NOT_FOUND = { message: '404 Project Not Found' }
const NAME_MESSAGE = "can contain only letters, digits, emojis, '_', '.', dash, space. It must start with letter, digit, emoji or '_'."
const PATH_MESSAGE = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'"

contract('POST /projects', {}, ({ api, sim }) => {
  it('creates a project in the caller\'s namespace, deriving the path from the name', async () => {
    const res = await api.post('/projects', { as: 'devon', body: { name: 'My Tool', description: 'A tool' } })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      description: 'A tool',
      name: 'My Tool',
      name_with_namespace: 'Devon Developer / My Tool',
      path: 'my-tool',
      path_with_namespace: 'devon/my-tool',
      created_at: NOW,
      default_branch: 'master',
      web_url: `${api.baseUrl}/devon/my-tool`,
      last_activity_at: NOW,
      namespace: { id: 4, name: 'Devon Developer', path: 'devon', kind: 'user', full_path: 'devon', parent_id: null },
      visibility: 'private',
      owner: { id: 4, username: 'devon' },
      creator_id: 4,
      open_issues_count: 0,
    })
    // Entities::Project, not ProjectWithAccess: no permissions in the answer.
    expect(res.body).not.toHaveProperty('permissions')
    const id = res.body.id
    const read = await api.get(`/projects/${id}`, { as: 'devon' })
    expect(read.body.permissions).toEqual({ project_access: { access_level: 40, notification_level: 3 }, group_access: null })
    expect((await api.get(`/projects/${id}`, { as: 'nora' })).status).toBe(404)
  })

  it.each([
    ['a path only: the name is the path', { path: 'just-a-path' }, 'just-a-path', 'just-a-path'],
    ['both: kept as given', { name: 'Shown', path: 'hidden' }, 'Shown', 'hidden'],
    ['a name with accents and punctuation', { name: 'Ünïcödé Tools: v2!' }, 'Ünïcödé Tools: v2!', 'unicode-tools-v2'],
  ])('derives name and path from %s', async (_title, body, name, path) => {
    // "Ünïcödé Tools: v2!" is not a valid name (':' and '!'), so that case answers 400 with the derived path untouched.
    const res = await api.post('/projects', { as: 'devon', body })
    if (name.includes(':')) {
      expect(res.status).toBe(400)
      expect(res.body.message.name).toEqual([NAME_MESSAGE])
      return
    }
    expect([res.status, res.body.name, res.body.path]).toEqual([201, name, path])
  })

  it('creates in a group where the caller is a developer, and adds no member', async () => {
    const res = await api.post('/projects', { as: 'devon', body: { name: 'Tools', namespace_id: 10, visibility: 'internal' } })
    expect(res.status).toBe(201)
    expect(res.body.path_with_namespace).toBe('acme/tools')
    expect(res.body.namespace).toMatchObject({ id: 10, kind: 'group', full_path: 'acme' })
    expect(res.body.visibility).toBe('internal')
    expect(res.body).not.toHaveProperty('owner')
    expect(sim().db.tables.members.where('source_id', res.body.id).filter((m) => m.source_type === 'project')).toEqual([])
  })

  it('makes the owner of a personal namespace a Maintainer member', async () => {
    const res = await api.post('/projects', { as: 'devon', body: { name: 'Mine' } })
    const members = await api.get(`/projects/${res.body.id}/members`, { as: 'devon' })
    expect(members.body.map((m: { username: string; access_level: number }) => [m.username, m.access_level])).toEqual([['devon', 40]])
  })

  it('accepts initialize_with_readme and ignores it', async () => {
    const res = await api.post('/projects', { as: 'devon', body: { name: 'Readme', initialize_with_readme: true } })
    expect(res.status).toBe(201)
  })

  it('acts as the sudo user', async () => {
    const res = await api.post('/projects', { as: 'root', headers: { Sudo: 'gina' }, body: { name: 'Sudo Made' } })
    expect([res.status, res.body.path_with_namespace, res.body.creator_id]).toEqual([201, 'gina/sudo-made', 2])
  })

  it('joins the project list filters at once', async () => {
    const res = await api.post('/projects', { as: 'devon', body: { name: 'Fresh' } })
    const owned = await api.get('/projects', { as: 'devon', query: { owned: true } })
    expect(owned.body.map((p: { id: number }) => p.id)).toContain(res.body.id)
  })

  it.each([
    ['neither name nor path', {}, { error: 'name, path are missing, at least one parameter must be provided' }],
    ['an unknown visibility', { name: 'x', visibility: 'secret' }, { error: 'visibility does not have a valid value' }],
    ['a namespace_id that is not a number', { name: 'x', namespace_id: 'acme' }, { error: 'namespace_id is invalid' }],
  ])('returns 400 for %s', async (_title, body, error) => {
    expect(await api.post('/projects', { as: 'devon', body })).toBeGitLabError(400, error)
  })

  it('returns 400 with the route, name and path errors for a project that exists in the namespace', async () => {
    const res = await api.post('/projects', { as: 'olive', body: { name: 'Website', namespace_id: 10 } })
    expect(res).toBeGitLabError(400, {
      message: {
        'route.path': ['has already been taken'],
        route: ['is invalid'],
        name: ['has already been taken'],
        path: ['has already been taken'],
        base: ['Unable to save project. Error: Route path has already been taken, Route is invalid, Name has already been taken, Path has already been taken'],
        limit_reached: [],
      },
    })
  })

  it('returns 400 for a path that a subgroup uses', async () => {
    const res = await api.post('/projects', { as: 'olive', body: { name: 'Platform Project', path: 'platform', namespace_id: 10 } })
    expect(res).toBeGitLabError(400, {
      message: {
        'route.path': ['has already been taken'],
        route: ['is invalid'],
        base: ['Unable to save project. Error: Route path has already been taken, Route is invalid'],
        limit_reached: [],
      },
    })
  })

  it.each([
    ['a name starting with a dash', { name: '-dash' }, { name: [NAME_MESSAGE] }, `Name ${NAME_MESSAGE}`],
    ['a path ending in .git', { name: 'ok', path: 'repo.git' }, { path: [PATH_MESSAGE] }, `Path ${PATH_MESSAGE}`],
    ['a path starting with a dash', { path: '-x' }, { name: [NAME_MESSAGE], path: [PATH_MESSAGE] }, `Name ${NAME_MESSAGE}, Path ${PATH_MESSAGE}`],
    ['a name over 255 characters', { name: 'a'.repeat(256), path: 'long' }, { name: ['is too long (maximum is 255 characters)'] }, 'Name is too long (maximum is 255 characters)'],
  ])('returns 400 for %s', async (_title, body, errors, full) => {
    const res = await api.post('/projects', { as: 'devon', body })
    expect(res).toBeGitLabError(400, { message: { ...errors, base: [`Unable to save project. Error: ${full}`], limit_reached: [] } })
  })

  it('returns 400 for a visibility above the group\'s', async () => {
    const res = await api.post('/projects', { as: 'olive', body: { name: 'Open', namespace_id: 12, visibility: 'public' } })
    expect(res).toBeGitLabError(400, {
      message: {
        visibility_level: ['public is not allowed in a private group.'],
        base: ['Unable to save project. Error: Visibility level public is not allowed in a private group.'],
        limit_reached: [],
      },
    })
  })

  it.each([
    ['a reporter of the group', 'riley', 10],
    ['a non-member of a public group', 'nora', 10],
    ['a non-member of a private group', 'max', 12],
    ['another user\'s personal namespace', 'devon', 6],
    ['a namespace that does not exist', 'devon', 9999],
  ])('returns 400 namespace "is not valid" for %s', async (_title, who, namespaceId) => {
    const res = await api.post('/projects', { as: who, body: { name: 'Nope', namespace_id: namespaceId } })
    expect(res).toBeGitLabError(400, { message: { namespace: ['is not valid'], limit_reached: [] } })
  })

  it('lets an administrator create in any namespace', async () => {
    const res = await api.post('/projects', { as: 'root', body: { name: 'Root In Lab', namespace_id: 12 } })
    expect([res.status, res.body.path_with_namespace]).toEqual([201, 'secret-lab/root-in-lab'])
  })

  it('returns 403 past the personal project limit', async () => {
    sim().db.tables.users.update(2, { projects_limit: 0 })
    const res = await api.post('/projects', { as: 'gina', body: { name: 'Limited' } })
    expect(res).toBeGitLabError(403, { error: ['Personal project creation is not allowed. Please contact your administrator with questions'] })
    sim().db.tables.users.update(2, { projects_limit: 1 })
    expect((await api.post('/projects', { as: 'gina', body: { name: 'First' } })).status).toBe(201)
    expect(await api.post('/projects', { as: 'gina', body: { name: 'Second' } })).toBeGitLabError(403, {
      error: ['Your project limit is 1 projects! Please contact your administrator to increase it'],
    })
  })

  it('returns 401 anonymously and 403 for a read_api token', async () => {
    expect(await api.post('/projects', { body: { name: 'x' } })).toBeGitLabError(401, UNAUTHORIZED)
    const res = await api.post('/projects', { token: 'glpat-devon-readonly', body: { name: 'x' } })
    expect([res.status, res.body.error]).toEqual([403, 'insufficient_scope'])
  })
})

contract('POST /projects/user/:user_id', {}, ({ api }) => {
  it('creates a project for the user, who is its creator', async () => {
    const res = await api.post('/projects/user/2', { as: 'root', body: { name: 'For Gina', default_branch: 'trunk' } })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ path_with_namespace: 'gina/for-gina', creator_id: 2, default_branch: 'trunk', owner: { id: 2 } })
    expect(res.body).not.toHaveProperty('permissions')
  })

  it('returns 400 without limit_reached for an existing project', async () => {
    await api.post('/projects/user/2', { as: 'root', body: { name: 'Twice' } })
    const res = await api.post('/projects/user/2', { as: 'root', body: { name: 'Twice' } })
    expect(res).toBeGitLabError(400, {
      message: {
        'route.path': ['has already been taken'],
        route: ['is invalid'],
        name: ['has already been taken'],
        path: ['has already been taken'],
        base: ['Unable to save project. Error: Route path has already been taken, Route is invalid, Name has already been taken, Path has already been taken'],
      },
    })
  })

  it.each([
    ['anonymous', {}, 401, UNAUTHORIZED],
    ['a non-administrator', { as: 'olive' }, 403, FORBIDDEN],
    ['a non-administrator without a name (validation first)', { as: 'olive', body: {} }, 400, { error: 'name is missing' }],
    ['an unknown user', { as: 'root', path: '/projects/user/9999' }, 404, { message: '404 User Not Found' }],
  ])('refuses %s', async (_title, options, status, body) => {
    const { path = '/projects/user/2', body: requestBody = { name: 'x' }, ...rest } = options as { path?: string; body?: unknown; as?: string }
    expect(await api.post(path, { ...rest, body: requestBody })).toBeGitLabError(status, body)
  })
})

contract('PUT /projects/:id', {}, ({ api, sim }) => {
  it('lets a maintainer change the description and default branch', async () => {
    const res = await api.put('/projects/20', { as: 'max', body: { description: 'New words', default_branch: 'develop' } })
    expect([res.status, res.body.description, res.body.default_branch]).toEqual([200, 'New words', 'develop'])
    expect(res.body).not.toHaveProperty('permissions')
    expect(sim().db.tables.projects.get(20)!.description).toBe('New words')
  })

  it('lets an owner rename the project and change its visibility', async () => {
    const res = await api.put('/projects/20', { as: 'olive', body: { name: 'Site', visibility: 'internal' } })
    expect([res.status, res.body.name, res.body.name_with_namespace, res.body.path, res.body.visibility]).toEqual([
      200, 'Site', 'Acme / Site', 'website', 'internal',
    ])
  })

  it.each([
    ['a maintainer renaming', 'max', 20, { name: 'Renamed' }, 403, FORBIDDEN],
    ['a maintainer changing the visibility', 'max', 20, { visibility: 'private' }, 403, FORBIDDEN],
    ['a developer', 'devon', 20, { description: 'x' }, 403, FORBIDDEN],
    ['a non-member of a public project', 'nora', 20, { description: 'x' }, 403, FORBIDDEN],
    ['a non-member of a private project', 'nora', 21, { description: 'x' }, 404, PROJECT_NOT_FOUND],
    ['anyone, without a parameter', 'olive', 20, {}, 400, null],
  ])('refuses %s', async (_title, who, id, body, status, error) => {
    const res = await api.put(`/projects/${id}`, { as: who, body })
    if (error) expect(res).toBeGitLabError(status, error)
    else expect([res.status, res.body.error]).toEqual([400, expect.stringMatching(/^allow_merge_on_skipped_pipeline, .*, snippets_enabled are missing, at least one parameter must be provided$/)])
  })

  it('returns 400 for a visibility above the group\'s', async () => {
    expect(await api.put('/projects/21', { as: 'olive', body: { visibility: 'public' } })).toBeGitLabError(400, {
      message: { visibility_level: ['public is not allowed in a private group.'] },
    })
  })

  it('returns 400 for a name another project of the namespace has', async () => {
    expect(await api.put('/projects/20', { as: 'olive', body: { name: 'Handbook' } })).toBeGitLabError(400, {
      message: { name: ['has already been taken'] },
    })
  })

  it('works through sudo', async () => {
    const res = await api.put('/projects/20', { as: 'root', headers: { Sudo: 'olive' }, body: { name: 'By Sudo' } })
    expect([res.status, res.body.name]).toEqual([200, 'By Sudo'])
  })
})

contract('DELETE /projects/:id', {}, ({ api, sim }) => {
  it('answers 202 Accepted and removes the project and what belongs to it from every list', async () => {
    const res = await api.delete('/projects/20', { as: 'olive' })
    expect(res).toBeGitLabError(202, { message: '202 Accepted' })
    expect(await api.get('/projects/20', { as: 'olive' })).toBeGitLabError(404, PROJECT_NOT_FOUND)
    expect(await api.get('/projects/20/issues', { as: 'olive' })).toBeGitLabError(404, PROJECT_NOT_FOUND)
    const listed = await api.get('/projects', { as: 'olive', query: { per_page: 100 } })
    expect(listed.body.map((p: { id: number }) => p.id)).not.toContain(20)
    const db = sim().db
    expect(db.tables.issues.where('project_id', 20)).toEqual([])
    expect(db.tables.labels.where('project_id', 20)).toEqual([])
    expect(db.tables.members.where('source_id', 20).filter((m) => m.source_type === 'project')).toEqual([])
    expect(db.tables.todos.all().filter((t) => t.project_id === 20)).toEqual([])
    expect(db.tables.freeze_periods.where('project_id', 20)).toEqual([])
    const todos = await api.get('/todos', { as: 'devon' })
    expect(todos.body.map((t: { project: { id: number } }) => t.project.id)).not.toContain(20)
  })

  it('takes the project\'s repository storage moves out of the moves list', async () => {
    const move = await api.post('/projects/20/repository_storage_moves', { as: 'root', body: { destination_storage_name: 'storage-2' } })
    expect(move.status).toBe(201)
    expect((await api.delete('/projects/20', { as: 'root' })).status).toBe(202)
    const moves = await api.get('/project_repository_storage_moves', { as: 'root' })
    expect(moves.body.map((m: { id: number }) => m.id)).not.toContain(move.body.id)
  })

  it('takes the notes and award emoji of the project\'s issues along', async () => {
    const db = sim().db
    const issueIds = new Set(db.tables.issues.where('project_id', 30).map((i) => i.id))
    expect(db.tables.notes.all().some((n) => n.noteable_id !== null && issueIds.has(n.noteable_id))).toBe(true)
    expect((await api.delete('/projects/30', { as: 'ivy' })).status).toBe(202)
    expect(db.tables.notes.all().some((n) => n.noteable_id !== null && issueIds.has(n.noteable_id))).toBe(false)
    expect(db.tables.award_emoji.all().some((a) => issueIds.has(a.awardable_id))).toBe(false)
  })

  it.each([
    ['anonymous', undefined, 20, 401, UNAUTHORIZED],
    ['a maintainer', 'max', 20, 403, FORBIDDEN],
    ['a non-member of a public project', 'nora', 20, 403, FORBIDDEN],
    ['a non-member of a private project', 'nora', 21, 404, PROJECT_NOT_FOUND],
  ])('refuses %s', async (_title, who, id, status, body) => {
    const before = JSON.stringify(sim().db.dump())
    expect(await api.delete(`/projects/${id}`, who ? { as: who } : {})).toBeGitLabError(status, body)
    expect(JSON.stringify(sim().db.dump())).toBe(before)
  })

  it('returns 412 when If-Unmodified-Since is older than the project\'s last activity', async () => {
    const res = await api.delete('/projects/20', { as: 'olive', headers: { 'If-Unmodified-Since': 'Thu, 01 Jan 2015 00:00:00 GMT' } })
    expect(res).toBeGitLabError(412, { message: '412 Precondition Failed' })
    expect(sim().db.tables.projects.get(20)).toBeDefined()
  })

  it('lets an administrator and the owner of a personal project delete it', async () => {
    expect((await api.delete('/projects/24', { as: 'root' })).status).toBe(202)
    expect((await api.delete('/projects/22', { as: 'olive' })).status).toBe(202)
  })
})

contract('arranged data and the control API', {}, ({ api }) => {
  it('exports what the writes made, loads it back, and forgets it on reset', async () => {
    const project = await api.post('/projects', { as: 'devon', body: { name: 'Exported' } })
    const group = await api.post('/groups', { as: 'devon', body: { name: 'Exported Group', path: 'exported-group' } })
    const user = await api.post('/users', { as: 'root', body: { email: 'ex@example.com', password: 'exported-pw', name: 'Ex', username: 'exported' } })
    expect([project.status, group.status, user.status]).toEqual([201, 201, 201])
    const state = await api.get('/-/fakelab/state')
    expect(state.status).toBe(200)
    expect(state.text).toContain('exported-group')
    expect((await api.post('/-/fakelab/reset')).status).toBe(204)
    expect((await api.get(`/projects/${project.body.id}`, { as: 'devon' })).status).toBe(404)
    expect((await api.get('/users', { as: 'root', query: { username: 'exported' } })).body).toEqual([])
    expect((await api.request('PUT', '/-/fakelab/scenario', { rawBody: state.text, headers: { 'content-type': 'application/yaml' } })).status).toBe(204)
    const back = await api.get(`/projects/${project.body.id}`, { as: 'devon' })
    expect([back.status, back.body.path_with_namespace]).toEqual([200, 'devon/exported'])
    expect((await api.get('/users', { as: 'root', query: { username: 'exported' } })).body.map((u: { id: number }) => u.id)).toEqual([user.body.id])
  })
})
