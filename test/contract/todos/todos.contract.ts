/**
 * To-dos over both doors. Source: api-spec.md "To-do", "To-dos", "To-do `state`"; gitlab-behaviour.md
 * §8, §4.3, §13, §14 items 10, 13, 19; gitlab: lib/api/todos.rb, app/finders/todos_finder.rb,
 * app/services/todo_service.rb, spec/requests/api/todos_spec.rb.
 *
 * Default scenario: devon (4) has pending 601 (assigned by max, issue #1 of website 20), 603
 * (directly_addressed by max, merge request !1 of website, note body) and 606 (marked, issue #1 of
 * acme/platform/api 21), and done 602 (mentioned by riley, issue #2, note body). max has 604, gina
 * 605 (both issue #3 of website). nora's 607 is on project 21, which she cannot read.
 */
import { expect, it } from 'vitest'
import { contract, paginationHeaders, type ApiResponse } from '../../support/contract.js'
import { schemaErrors } from '../../support/schemas.js'

const NOW = '2021-04-01T12:00:00.000Z'
const TODO_FIELDS = ['id', 'project', 'author', 'action_name', 'target_type', 'target', 'target_url', 'body', 'state', 'created_at', 'updated_at']
/** `Entities::Issue` (13.x) for an issue without task items and not from Service Desk. */
const ISSUE_FIELDS = [
  'id', 'iid', 'project_id', 'title', 'description', 'state', 'created_at', 'updated_at', 'closed_at', 'closed_by', 'labels',
  'milestone', 'assignees', 'author', 'type', 'assignee', 'user_notes_count', 'merge_requests_count', 'upvotes', 'downvotes',
  'due_date', 'confidential', 'discussion_locked', 'issue_type', 'web_url', 'time_stats', 'task_completion_status',
  'has_tasks', '_links', 'reference', 'references', 'subscribed', 'moved_to_id', 'service_desk_reply_to',
]

const UNAUTHORIZED = { message: '401 Unauthorized' }
const NOT_FOUND = { message: '404 Not found' }

const ids = (res: ApiResponse): number[] => res.body.map((todo: { id: number }) => todo.id)

contract('GET /todos', {}, ({ api, sim }) => {
  it('lists the current user\'s pending to-dos, newest id first', async () => {
    const res = await api.get('/todos', { as: 'devon' })
    expect(res.status).toBe(200)
    expect(ids(res)).toEqual([606, 603, 601])
  })

  it('presents a to-do about an issue as GitLab does, with the full Issue entity as target', async () => {
    const res = await api.get('/todos', { as: 'devon', query: { type: 'Issue', project_id: 20 } })
    const [todo] = res.body
    const project = sim().db.tables.projects.get(20)!
    expect(Object.keys(todo)).toEqual(TODO_FIELDS)
    expect(todo).toMatchObject({
      id: 601,
      project: {
        id: 20,
        description: 'The Acme website',
        name: 'Website',
        name_with_namespace: 'Acme / Website',
        path: 'website',
        path_with_namespace: 'acme/website',
        created_at: project.created_at,
      },
      author: { id: 5, name: 'Max Maintainer', username: 'max', state: 'active', avatar_url: null, web_url: `${api.baseUrl}/max` },
      action_name: 'assigned',
      target_type: 'Issue',
      target_url: `${api.baseUrl}/acme/website/-/issues/1`,
      body: 'Login button does nothing',
      state: 'pending',
      created_at: '2021-03-10T09:00:00.000Z',
      updated_at: '2021-03-10T09:00:00.000Z',
    })
    expect(Object.keys(todo.project)).toEqual(['id', 'description', 'name', 'name_with_namespace', 'path', 'path_with_namespace', 'created_at'])
    expect(Object.keys(todo.target)).toEqual(ISSUE_FIELDS)
    expect(todo.target).toMatchObject({
      id: 400,
      iid: 1,
      project_id: 20,
      labels: ['bug', 'frontend'],
      type: 'ISSUE',
      has_tasks: false,
      _links: {
        self: `${api.baseUrl}/api/v4/projects/20/issues/1`,
        notes: `${api.baseUrl}/api/v4/projects/20/issues/1/notes`,
        award_emoji: `${api.baseUrl}/api/v4/projects/20/issues/1/award_emoji`,
        project: `${api.baseUrl}/api/v4/projects/20`,
      },
      reference: '#1',
      references: { short: '#1', relative: '#1', full: 'acme/website#1' },
      // gitlab: the target is presented without `current_user`, so `subscribed?` is false.
      subscribed: false,
      moved_to_id: null,
      service_desk_reply_to: null,
    })
  })

  it('presents the issue target as issue.json describes it (avatar URLs set: the schema allows no null one)', async () => {
    for (const id of [4, 5]) sim().db.tables.users.update(id, { avatar_url: `https://avatars.test/${id}.png` })
    const res = await api.get('/todos', { as: 'devon', query: { type: 'Issue' } })
    for (const todo of res.body) expect(schemaErrors('public_api/v4/issue.json', todo.target, false)).toEqual([])
  })

  it('shows the note text as body when a note raised the to-do, and a merge request target', async () => {
    const res = await api.get('/todos', { as: 'devon', query: { type: 'MergeRequest' } })
    expect(res.body).toHaveLength(1)
    expect(res.body[0]).toMatchObject({
      id: 603,
      action_name: 'directly_addressed',
      target_type: 'MergeRequest',
      target: { id: 500, iid: 1, project_id: 20, title: 'Fix the login button' },
      target_url: `${api.baseUrl}/acme/website/-/merge_requests/1`,
      body: '@devon please rebase',
    })
  })

  // Issue 23 item 7: the target is the full Entities::MergeRequest, as `todo_target_class` presents
  // it with the list's options (`include_subscribed: false`, no project and no current user).
  it('presents a merge request target as the full MergeRequest entity (issue 23 item 7)', async () => {
    const res = await api.get('/todos', { as: 'devon', query: { type: 'MergeRequest' } })
    const target = res.body[0].target
    const keys = Object.keys(target)
    expect(keys.slice(keys.indexOf('blocking_discussions_resolved') + 1)).toEqual(['changes_count', 'diff_refs', 'merge_error', 'user'])
    expect(target).toMatchObject({
      changes_count: '2', // !1's two files, from the repository
      diff_refs: { base_sha: expect.stringMatching(/^[0-9a-f]{40}$/), head_sha: target.sha, start_sha: expect.stringMatching(/^[0-9a-f]{40}$/) },
      merge_error: null,
      user: { can_merge: false },
    })
  })

  it('shows subscribed (false) on the merge request target of a single to-do', async () => {
    const res = await api.post('/todos/603/mark_as_done', { as: 'devon' })
    expect(res.status).toBe(201)
    const keys = Object.keys(res.body.target)
    expect(keys.slice(keys.indexOf('blocking_discussions_resolved') + 1)).toEqual(['subscribed', 'changes_count', 'diff_refs', 'merge_error', 'user'])
    expect(res.body.target.subscribed).toBe(false)
  })

  it.each([
    ['state=done', { state: 'done' }, [602]],
    ['state=pending', { state: 'pending' }, [606, 603, 601]],
    ['action=assigned', { action: 'assigned' }, [601]],
    ['action=marked', { action: 'marked' }, [606]],
    ['action=review_requested (13.8+)', { action: 'review_requested' }, []],
    ['author_id of max', { author_id: 5 }, [606, 603, 601]],
    ['author_id of riley with state=done', { author_id: 3, state: 'done' }, [602]],
    ['project_id', { project_id: 20 }, [603, 601]],
    ['group_id of a subgroup', { group_id: 11 }, [606]],
    ['group_id of a parent group (subgroups included)', { group_id: 10 }, [606, 603, 601]],
    ['group_id of a group without to-dos', { group_id: 12 }, []],
    ['type=Issue', { type: 'Issue' }, [606, 601]],
    ['type=MergeRequest', { type: 'MergeRequest' }, [603]],
    ['type=AlertManagement::Alert', { type: 'AlertManagement::Alert' }, []],
    ['several filters at once', { type: 'Issue', action: 'assigned', project_id: 20 }, [601]],
    ['a blank project_id (not applied)', { project_id: '' }, [606, 603, 601]],
  ] as const)('filters by %s', async (_name, query, expected) => {
    const res = await api.get('/todos', { as: 'devon', query })
    expect([res.status, ids(res)]).toEqual([200, expected])
  })

  it.each([
    ['an unknown action', { action: 'bogus' }, 400, { error: 'action does not have a valid value' }],
    ['an unknown type', { type: 'Commit' }, 400, { error: 'type does not have a valid value' }],
    ['an unknown state', { state: 'all' }, 400, { error: 'state does not have a valid value' }],
    ['a non-integer author_id', { author_id: 'max' }, 400, { error: 'author_id is invalid' }],
    ['an unknown author_id', { author_id: 9999 }, 404, NOT_FOUND],
    ['an unknown project_id', { project_id: 9999 }, 404, NOT_FOUND],
    ['an unknown group_id', { group_id: 9999 }, 404, NOT_FOUND],
    // The spec types them as integers (gitlab-behaviour.md §14 item 19; issue 23 item 9).
    ['a non-integer project_id', { project_id: 'acme/website' }, 400, { error: 'project_id is invalid' }],
    ['a project_id with trailing text', { project_id: '20abc' }, 400, { error: 'project_id is invalid' }],
    ['a non-integer group_id', { group_id: 'acme' }, 400, { error: 'group_id is invalid' }],
    ['both, in declaration order', { group_id: 'acme', project_id: 'x' }, 400, { error: 'project_id is invalid, group_id is invalid' }],
  ] as const)('answers %s with GitLab\'s error', async (_name, query, status, body) => {
    expect(await api.get('/todos', { as: 'devon', query })).toBeGitLabError(status, body)
  })

  it('hides to-dos on projects the user can no longer read', async () => {
    const res = await api.get('/todos', { as: 'nora' })
    expect([res.status, res.body]).toEqual([200, []])
  })

  it('is paginated with GitLab\'s headers', async () => {
    const res = await api.get('/todos', { as: 'devon', query: { per_page: 2 } })
    const url = (page: number) => `${api.baseUrl}/api/v4/todos?page=${page}&per_page=2`
    expect(ids(res)).toEqual([606, 603])
    expect(paginationHeaders(res)).toEqual({
      'x-page': '1',
      'x-per-page': '2',
      'x-next-page': '2',
      'x-prev-page': '',
      'x-total': '3',
      'x-total-pages': '2',
      link: `<${url(2)}>; rel="next", <${url(1)}>; rel="first", <${url(2)}>; rel="last"`,
    })
  })

  it('returns 401 for an anonymous caller', async () => {
    expect(await api.get('/todos')).toBeGitLabError(401, UNAUTHORIZED)
  })
})

contract('POST /todos/:id/mark_as_done', {}, ({ api, sim }) => {
  it('returns 201 with the to-do, now done and updated now (Todo.batch_update)', async () => {
    const res = await api.post('/todos/601/mark_as_done', { as: 'devon' })
    expect(res.status).toBe(201)
    expect(Object.keys(res.body)).toEqual(TODO_FIELDS)
    expect(res.body).toMatchObject({ id: 601, state: 'done', action_name: 'assigned', created_at: '2021-03-10T09:00:00.000Z', updated_at: NOW })
    expect(sim().db.tables.todos.get(601)!.state).toBe('done')
    expect(ids(await api.get('/todos', { as: 'devon' }))).toEqual([606, 603])
  })

  it('returns a to-do that is already done as it is, updated_at included', async () => {
    const res = await api.post('/todos/602/mark_as_done', { as: 'devon' })
    expect([res.status, res.body.id, res.body.state, res.body.updated_at]).toEqual([201, 602, 'done', '2021-03-05T09:00:00.000Z'])
  })

  it.each([
    ['someone else\'s to-do', '/todos/604/mark_as_done', 404, NOT_FOUND],
    ['an unknown to-do', '/todos/9999/mark_as_done', 404, NOT_FOUND],
    ['a non-integer id', '/todos/abc/mark_as_done', 400, { error: 'id is invalid' }],
  ] as const)('answers %s with GitLab\'s error and changes nothing', async (_name, path, status, body) => {
    const before = JSON.stringify(sim().db.dump())
    expect(await api.post(path, { as: 'devon' })).toBeGitLabError(status, body)
    expect(JSON.stringify(sim().db.dump())).toBe(before)
  })

  it('returns 401 for an anonymous caller', async () => {
    expect(await api.post('/todos/601/mark_as_done')).toBeGitLabError(401, UNAUTHORIZED)
  })
})

contract('POST /todos/mark_as_done', {}, ({ api, sim }) => {
  const state = (id: number) => sim().db.tables.todos.get(id)!.state

  it('returns 204 with no body and completes every pending to-do of the caller only', async () => {
    const res = await api.post('/todos/mark_as_done', { as: 'devon' })
    expect([res.status, res.text]).toEqual([204, ''])
    expect([601, 603, 606].map(state)).toEqual(['done', 'done', 'done'])
    expect([601, 602, 603].map((id) => sim().db.tables.todos.get(id)!.updated_at)).toEqual([NOW, '2021-03-05T09:00:00.000Z', NOW])
    expect([604, 605].map(state)).toEqual(['pending', 'pending'])
    expect((await api.get('/todos', { as: 'devon' })).body).toEqual([])
  })

  it('completes only the to-dos the filters select, as the list does', async () => {
    const res = await api.post('/todos/mark_as_done', { as: 'devon', query: { type: 'MergeRequest' } })
    expect(res.status).toBe(204)
    expect([601, 603, 606].map(state)).toEqual(['pending', 'done', 'pending'])
  })

  it('refuses a bad filter with 400 and changes nothing', async () => {
    const before = JSON.stringify(sim().db.dump())
    expect(await api.post('/todos/mark_as_done', { as: 'devon', query: { type: 'Epic' } })).toBeGitLabError(400, { error: 'type does not have a valid value' })
    expect(JSON.stringify(sim().db.dump())).toBe(before)
  })

  // The spec gives this route no params; GitLab 13.x hands project_id to `Project.find` undeclared,
  // so a non-integer finds no project (404), never a 400.
  it.each([
    ['a non-integer project_id', { project_id: 'acme' }],
    ['a non-integer group_id', { group_id: 'acme' }],
  ])('answers %s with the finder\'s 404 and changes nothing', async (_name, query) => {
    const before = JSON.stringify(sim().db.dump())
    expect(await api.post('/todos/mark_as_done', { as: 'devon', query })).toBeGitLabError(404, NOT_FOUND)
    expect(JSON.stringify(sim().db.dump())).toBe(before)
  })

  it('returns 401 for an anonymous caller', async () => {
    expect(await api.post('/todos/mark_as_done')).toBeGitLabError(401, UNAUTHORIZED)
  })
})

contract('POST /projects/:id/issues/:issue_iid/todo', {}, ({ api, sim }) => {
  it('returns 201 with a pending `marked` to-do by the caller, which the caller\'s list then shows', async () => {
    const res = await api.post('/projects/20/issues/3/todo', { as: 'riley' })
    expect(res.status).toBe(201)
    expect(Object.keys(res.body)).toEqual(TODO_FIELDS)
    expect(res.body).toMatchObject({
      project: { id: 20, path_with_namespace: 'acme/website' },
      author: { id: 3, username: 'riley' },
      action_name: 'marked',
      target_type: 'Issue',
      // gitlab: a to-do touches its target (`belongs_to :target, touch: true`).
      target: { id: 402, iid: 3, project_id: 20, updated_at: NOW, subscribed: false },
      target_url: `${api.baseUrl}/acme/website/-/issues/3`,
      body: 'Document the signup flow',
      state: 'pending',
      created_at: NOW,
      updated_at: NOW,
    })
    expect(res.body.id).toBeGreaterThan(607)
    expect(sim().db.tables.todos.get(res.body.id)).toMatchObject({ user_id: 3, author_id: 3, target_id: 402 })
    expect(ids(await api.get('/todos', { as: 'riley' }))).toEqual([res.body.id])
  })

  it('accepts the project\'s URL-encoded full path', async () => {
    expect((await api.post('/projects/acme%2Fwebsite/issues/3/todo', { as: 'riley' })).status).toBe(201)
  })

  it('returns 304 with no body when the caller already has a pending to-do on the issue, whatever its action', async () => {
    const before = JSON.stringify(sim().db.dump())
    const res = await api.post('/projects/20/issues/1/todo', { as: 'devon' })
    expect([res.status, res.text]).toEqual([304, ''])
    expect(JSON.stringify(sim().db.dump())).toBe(before)
  })

  it('returns 304 on a second marking', async () => {
    expect((await api.post('/projects/20/issues/3/todo', { as: 'riley' })).status).toBe(201)
    expect((await api.post('/projects/20/issues/3/todo', { as: 'riley' })).status).toBe(304)
  })

  it('creates a new to-do when the caller\'s earlier one is done', async () => {
    const res = await api.post('/projects/20/issues/2/todo', { as: 'devon' })
    expect([res.status, res.body.state, res.body.body]).toEqual([201, 'pending', 'Footer links are broken'])
  })

  it('lets the author of a confidential issue mark it', async () => {
    expect((await api.post('/projects/20/issues/4/todo', { as: 'max' })).status).toBe(201)
  })

  it.each([
    ['a confidential issue the caller may not see', '/projects/20/issues/4/todo', 'gina', 404, NOT_FOUND],
    ['an unknown issue', '/projects/20/issues/99/todo', 'devon', 404, NOT_FOUND],
    ['a non-integer issue_iid', '/projects/20/issues/abc/todo', 'devon', 400, { error: 'issue_iid is invalid' }],
    ['a private project of which the caller is no member', '/projects/21/issues/1/todo', 'nora', 404, { message: '404 Project Not Found' }],
    ['an unknown project', '/projects/999/issues/1/todo', 'devon', 404, { message: '404 Project Not Found' }],
  ] as const)('answers %s with GitLab\'s error and changes nothing', async (_name, path, as, status, body) => {
    const before = JSON.stringify(sim().db.dump())
    expect(await api.post(path, { as })).toBeGitLabError(status, body)
    expect(JSON.stringify(sim().db.dump())).toBe(before)
  })

  it('returns 401 for an anonymous caller', async () => {
    expect(await api.post('/projects/20/issues/1/todo')).toBeGitLabError(401, UNAUTHORIZED)
  })
})
