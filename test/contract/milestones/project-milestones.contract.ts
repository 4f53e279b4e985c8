/**
 * Project milestones, through both doors: list, get, create, update, delete, a milestone's issues
 * and merge requests, and promotion to a group milestone.
 * Source: gitlab: lib/api/project_milestones.rb, lib/api/milestone_responses.rb,
 * app/services/milestones/promote_service.rb, app/policies/project_policy.rb (13.x),
 * spec/requests/api/project_milestones_spec.rb,
 * spec/support/shared_examples/requests/api/milestones_shared_examples.rb.
 *
 * Default scenario: acme/website (20, public, in acme whose members are gina guest, riley reporter,
 * devon developer, max maintainer, olive owner; elena is a developer of the project only) has
 * milestone 220 website-launch (no dates); acme (10) has group milestones 200 v1.0, 201 v2.0,
 * 202 v0.9 (closed). ivy/tracker (30, public, personal; gina guest, riley reporter, devon
 * developer, max maintainer) has 221 sprint-1 (2021-03-25 to 2021-04-20, issue 405 with labels p1
 * (priority 0) and ux) and 222 sprint-2 (due 2021-04-10, issue 406). The clock is 2021-04-01T12:00Z.
 */
import { expect, it } from 'vitest'
import type { Simulator } from '../../../src/index.js'
import { contract, paginationHeaders, type ApiResponse } from '../../support/contract.js'
import { schemaErrors } from '../../support/schemas.js'

const NOW = '2021-04-01T12:00:00.000Z'
const TAKEN = 'Failed to create milestone {:title=>["already being used for another group or project milestone."]}'

/** The stored timestamps of a milestone (faker-generated in the scenario). */
function stamps(sim: () => Simulator, id: number) {
  const m = sim().db.tables.milestones.get(id)!
  return { created_at: m.created_at, updated_at: m.updated_at }
}

function ids(res: ApiResponse): number[] {
  return (res.body as { id: number }[]).map((row) => row.id)
}

contract('GET /projects/:id/milestones', {}, ({ api, sim }) => {
  it('lists the project milestones by due date ascending, with project_id and the project web_url', async () => {
    const res = await api.get('/projects/30/milestones', { as: 'gina' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual([
      {
        id: 222, iid: 2, project_id: 30, title: 'sprint-2', description: '', state: 'active', ...stamps(sim, 222),
        due_date: '2021-04-10', start_date: null, expired: false, web_url: `${api.baseUrl}/ivy/tracker/-/milestones/2`,
      },
      {
        id: 221, iid: 1, project_id: 30, title: 'sprint-1', description: '', state: 'active', ...stamps(sim, 221),
        due_date: '2021-04-20', start_date: '2021-03-25', expired: false, web_url: `${api.baseUrl}/ivy/tracker/-/milestones/1`,
      },
    ])
    expect(Object.keys(res.body[0])).toEqual([
      'id', 'iid', 'project_id', 'title', 'description', 'state', 'created_at', 'updated_at',
      'due_date', 'start_date', 'expired', 'web_url',
    ])
    for (const milestone of res.body) expect(schemaErrors('public_api/v4/milestone.json', milestone, false)).toEqual([])
  })

  it.each([
    ['state=active', { state: 'active' }, [222, 221]],
    ['state=closed', { state: 'closed' }, []],
    ['iids', { 'iids[]': [1] }, [221]],
    ['iids as a comma list', { iids: '2,1' }, [222, 221]],
    ['an unknown iid', { 'iids[]': [3] }, []],
    ['an exact title', { title: 'sprint-1' }, [221]],
    ['a title in another case', { title: 'Sprint-1' }, []],
    ['a search over the title', { search: 'sprint' }, [222, 221]],
    ['include_parent_milestones on a personal project', { include_parent_milestones: true }, [222, 221]],
  ])('filters by %s', async (_what, query, expected) => {
    const res = await api.get('/projects/30/milestones', { as: 'gina', query })
    expect([res.status, ids(res)]).toEqual([200, expected])
  })

  it('with include_parent_milestones adds the group\'s milestones and ignores iids', async () => {
    const own = await api.get('/projects/20/milestones', { as: 'nora' })
    const withParents = await api.get('/projects/20/milestones', { as: 'nora', query: { include_parent_milestones: true, 'iids[]': [1] } })
    expect([ids(own), ids(withParents)]).toEqual([[220], [202, 200, 201, 220]])
    expect(withParents.body[0]).toMatchObject({ id: 202, group_id: 10 })
    expect(withParents.body[0]).not.toHaveProperty('project_id')
  })

  it('finds the project by its full path', async () => {
    const res = await api.get('/projects/acme%2Fwebsite/milestones', { as: 'gina' })
    expect([res.status, ids(res)]).toEqual([200, [220]])
  })

  it('paginates with GitLab headers', async () => {
    const res = await api.get('/projects/30/milestones', { as: 'gina', query: { per_page: 1 } })
    expect(ids(res)).toEqual([222])
    expect(paginationHeaders(res)).toMatchObject({ 'x-page': '1', 'x-per-page': '1', 'x-next-page': '2', 'x-total': '2', 'x-total-pages': '2' })
  })

  it.each([
    ['anonymous on a public project', undefined, '/projects/20/milestones', 401, { message: '401 Unauthorized' }],
    ['a non-member on a private project', 'nora', '/projects/22/milestones', 404, { message: '404 Project Not Found' }],
    ['anyone on an unknown project', 'root', '/projects/999/milestones', 404, { message: '404 Project Not Found' }],
    ['an invalid state', 'gina', '/projects/20/milestones?state=opened', 400, { error: 'state does not have a valid value' }],
    ['an invalid include_parent_milestones', 'gina', '/projects/20/milestones?include_parent_milestones=maybe', 400, { error: 'include_parent_milestones is invalid' }],
  ])('refuses %s', async (_who, as, path, status, body) => {
    expect(await api.get(path, { as })).toBeGitLabError(status, body)
  })
})

contract('GET /projects/:id/milestones/:milestone_id', {}, ({ api, sim }) => {
  it('returns the milestone', async () => {
    const res = await api.get('/projects/20/milestones/220', { as: 'nora' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      id: 220, iid: 1, project_id: 20, title: 'website-launch', description: '', state: 'active', ...stamps(sim, 220),
      due_date: null, start_date: null, expired: false, web_url: `${api.baseUrl}/acme/website/-/milestones/1`,
    })
  })

  it.each([
    ['a group milestone of the project\'s group', 'max', '/projects/20/milestones/200', 404, { message: '404 Not found' }],
    ['another project\'s milestone', 'max', '/projects/20/milestones/221', 404, { message: '404 Not found' }],
    ['an unknown milestone', 'max', '/projects/20/milestones/1234', 404, { message: '404 Not found' }],
    ['a non-integer milestone_id', 'max', '/projects/20/milestones/abc', 400, { error: 'milestone_id is invalid' }],
    ['anonymous', undefined, '/projects/20/milestones/220', 401, { message: '401 Unauthorized' }],
  ])('refuses %s', async (_what, as, path, status, body) => {
    expect(await api.get(path, { as })).toBeGitLabError(status, body)
  })
})

contract('POST /projects/:id/milestones', {}, ({ api, sim }) => {
  it('creates an active milestone with the project\'s next iid (Developer+)', async () => {
    const res = await api.post('/projects/20/milestones', { as: 'devon', body: { title: 'foo & bar 1.1 -> 2.2' } })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      id: res.body.id, iid: 2, project_id: 20, title: 'foo & bar 1.1 -> 2.2', description: null, state: 'active',
      created_at: NOW, updated_at: NOW, due_date: null, start_date: null, expired: false,
      web_url: `${api.baseUrl}/acme/website/-/milestones/2`,
    })
    expect(sim().db.tables.milestones.get(res.body.id)).toMatchObject({ project_id: 20, group_id: null })
  })

  it('takes a description and dates', async () => {
    const res = await api.post('/projects/30/milestones', {
      as: 'devon',
      body: { title: 'sprint-3', description: 'release', due_date: '2013-03-02', start_date: '2013-02-02' },
    })
    expect([res.status, res.body.iid, res.body.description, res.body.start_date, res.body.due_date, res.body.expired])
      .toEqual([201, 3, 'release', '2013-02-02', '2013-03-02', true])
  })

  it.each([
    ['the project\'s own title', '/projects/20/milestones', 'website-launch', 400],
    ['its group\'s title', '/projects/20/milestones', 'v1.0', 400],
    ['a subgroup\'s title', '/projects/20/milestones', 'platform-q2', 201],
    ['a group title in a personal project', '/projects/30/milestones', 'v1.0', 201],
    ['another project\'s title', '/projects/30/milestones', 'website-launch', 201],
  ])('checks the title against %s', async (_what, path, title, status) => {
    const res = await api.post(path, { as: 'max', body: { title } })
    if (status === 400) expect(res).toBeGitLabError(400, { message: TAKEN })
    else expect(res.status).toBe(201)
  })

  it.each([
    ['a guest', 'gina', '/projects/20/milestones', { title: 'x' }, 403, { message: '403 Forbidden' }],
    ['a reporter', 'riley', '/projects/30/milestones', { title: 'x' }, 403, { message: '403 Forbidden' }],
    ['a non-member of a public project', 'nora', '/projects/20/milestones', { title: 'x' }, 403, { message: '403 Forbidden' }],
    ['a non-member of a private project', 'nora', '/projects/22/milestones', { title: 'x' }, 404, { message: '404 Project Not Found' }],
    ['a missing title', 'max', '/projects/20/milestones', {}, 400, { error: 'title is missing' }],
    ['a due date before the start date', 'max', '/projects/20/milestones', { title: 'x', start_date: '2021-05-01', due_date: '2021-04-01' }, 400,
      { message: 'Failed to create milestone {:due_date=>["must be greater than start date"]}' }],
  ])('refuses %s', async (_what, as, path, body, status, error) => {
    expect(await api.post(path, { as, body })).toBeGitLabError(status, error)
  })

  it('refuses everyone on an archived project, administrators too', async () => {
    sim().db.tables.projects.update(20, { archived: true })
    for (const as of ['max', 'root']) {
      expect(await api.post('/projects/20/milestones', { as, body: { title: 'x' } })).toBeGitLabError(403, { message: '403 Forbidden' })
    }
  })
})

contract('PUT /projects/:id/milestones/:milestone_id', {}, ({ api }) => {
  it('updates the sent attributes and closes and reopens', async () => {
    const res = await api.put('/projects/30/milestones/221', { as: 'devon', body: { title: 'sprint-one', state_event: 'close', due_date: null } })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id: 221, title: 'sprint-one', state: 'closed', due_date: null, start_date: '2021-03-25', updated_at: NOW })
    const reopened = await api.put('/projects/30/milestones/221', { as: 'devon', body: { state_event: 'activate' } })
    expect(reopened.body.state).toBe('active')
  })

  it.each([
    ['no attribute', 'max', '/projects/30/milestones/221', {}, 400,
      { error: 'title, description, start_date, due_date, state_event are missing, at least one parameter must be provided' }],
    ['an unknown state_event', 'max', '/projects/30/milestones/221', { state_event: 'reopen' }, 400, { error: 'state_event does not have a valid value' }],
    ['a title taken in the project', 'max', '/projects/30/milestones/221', { title: 'sprint-2' }, 400,
      { message: 'Failed to update milestone {:title=>["already being used for another group or project milestone."]}' }],
    ['a title of the project\'s group', 'max', '/projects/20/milestones/220', { title: 'v2.0' }, 400,
      { message: 'Failed to update milestone {:title=>["already being used for another group or project milestone."]}' }],
    ['an unknown milestone', 'max', '/projects/30/milestones/1234', { title: 'x' }, 404, { message: '404 Not found' }],
    ['a group milestone', 'max', '/projects/20/milestones/200', { title: 'x' }, 404, { message: '404 Not found' }],
    ['a reporter', 'riley', '/projects/30/milestones/221', { title: 'x' }, 403, { message: '403 Forbidden' }],
    ['a reporter on an unknown milestone (permission first)', 'riley', '/projects/30/milestones/1234', { title: 'x' }, 403, { message: '403 Forbidden' }],
  ])('refuses %s', async (_what, as, path, body, status, error) => {
    expect(await api.put(path, { as, body })).toBeGitLabError(status, error)
  })
})

contract('DELETE /projects/:id/milestones/:milestone_id', {}, ({ api, sim }) => {
  it('deletes the milestone and unassigns its issues', async () => {
    const res = await api.delete('/projects/30/milestones/221', { as: 'devon' })
    expect([res.status, res.text]).toEqual([204, ''])
    expect(sim().db.tables.milestones.get(221)).toBeUndefined()
    expect(sim().db.tables.issues.get(405)).toMatchObject({ milestone_id: null, updated_at: NOW })
    expect(await api.get('/projects/30/milestones/221', { as: 'devon' })).toBeGitLabError(404, { message: '404 Not found' })
  })

  it.each([
    ['a reporter', 'riley', '/projects/30/milestones/221', 403, { message: '403 Forbidden' }],
    ['a non-member of a private project', 'nora', '/projects/22/milestones/221', 404, { message: '404 Project Not Found' }],
    ['an unknown project', 'max', '/projects/0/milestones/221', 404, { message: '404 Project Not Found' }],
    ['an unknown milestone', 'max', '/projects/30/milestones/0', 404, { message: '404 Not found' }],
    ['a non-integer milestone_id (not declared: not found)', 'max', '/projects/30/milestones/abc', 404, { message: '404 Not found' }],
  ])('refuses %s', async (_what, as, path, status, body) => {
    expect(await api.delete(path, { as })).toBeGitLabError(status, body)
  })
})

contract('GET /projects/:id/milestones/:milestone_id/issues', {}, ({ api, sim }) => {
  it('lists the milestone\'s issues as IssueBasic', async () => {
    const res = await api.get('/projects/30/milestones/221/issues', { as: 'gina' })
    expect([res.status, ids(res)]).toEqual([200, [405]])
    expect(res.body[0].milestone).toMatchObject({ id: 221, title: 'sprint-1', project_id: 30 })
    expect(paginationHeaders(res)).toMatchObject({ 'x-total': '1', 'x-page': '1' })
  })

  it('orders by label priority, issues without a prioritised label last', async () => {
    sim().db.tables.issues.update(406, { milestone_id: 221 })
    const first = await api.get('/projects/30/milestones/221/issues', { as: 'gina' })
    sim().db.tables.issues.update(405, { label_ids: [116] })
    sim().db.tables.issues.update(406, { label_ids: [115] })
    const swapped = await api.get('/projects/30/milestones/221/issues', { as: 'gina' })
    expect([ids(first), ids(swapped)]).toEqual([[405, 406], [406, 405]])
  })

  it.each([
    ['a reporter', 'riley', [405]],
    ['a guest', 'gina', []],
    ['a non-member', 'nora', []],
  ])('shows confidential issues to %s as GitLab does', async (_who, as, expected) => {
    sim().db.tables.issues.update(405, { confidential: true })
    const res = await api.get('/projects/30/milestones/221/issues', { as })
    expect([res.status, ids(res)]).toEqual([200, expected])
  })

  it.each([
    ['anonymous', undefined, '/projects/30/milestones/221/issues', 401, { message: '401 Unauthorized' }],
    ['another project\'s milestone', 'max', '/projects/20/milestones/221/issues', 404, { message: '404 Not found' }],
    ['a non-integer milestone_id', 'max', '/projects/30/milestones/abc/issues', 400, { error: 'milestone_id is invalid' }],
  ])('refuses %s', async (_what, as, path, status, body) => {
    expect(await api.get(path, { as })).toBeGitLabError(status, body)
  })
})

contract('GET /projects/:id/milestones/:milestone_id/merge_requests', {}, ({ api, sim }) => {
  it('lists the milestone\'s merge requests as MergeRequestBasic', async () => {
    const empty = await api.get('/projects/20/milestones/220/merge_requests', { as: 'nora' })
    sim().db.tables.merge_requests.update(500, { milestone_id: 220 })
    const res = await api.get('/projects/20/milestones/220/merge_requests', { as: 'nora' })
    expect([empty.status, ids(empty), res.status, ids(res)]).toEqual([200, [], 200, [500]])
    expect(res.body[0].milestone).toMatchObject({ id: 220, title: 'website-launch' })
  })

  it.each([
    ['anonymous', undefined, '/projects/20/milestones/220/merge_requests', 401, { message: '401 Unauthorized' }],
    ['an unknown milestone', 'max', '/projects/20/milestones/1234/merge_requests', 404, { message: '404 Not found' }],
    ['a non-member of a private project', 'nora', '/projects/22/milestones/220/merge_requests', 404, { message: '404 Project Not Found' }],
  ])('refuses %s', async (_what, as, path, status, body) => {
    expect(await api.get(path, { as })).toBeGitLabError(status, body)
  })
})

contract('POST /projects/:id/milestones/:milestone_id/promote', {}, ({ api, sim }) => {
  it('turns the milestone into a group milestone of the project\'s group, its issues following', async () => {
    sim().db.tables.issues.update(400, { milestone_id: 220 })
    const before = sim().db.tables.issues.get(400)!.updated_at
    const res = await api.post('/projects/20/milestones/220/promote', { as: 'devon' })
    expect([res.status, res.body]).toEqual([200, 200])
    const group = await api.get('/groups/10/milestones', { as: 'devon', query: { title: 'website-launch' } })
    expect(group.body).toEqual([{
      id: group.body[0].id, iid: 4, group_id: 10, title: 'website-launch', description: '', state: 'active',
      created_at: NOW, updated_at: NOW, due_date: null, start_date: null, expired: false,
      web_url: `${api.baseUrl}/groups/acme/-/milestones/4`,
    }])
    expect(sim().db.tables.milestones.get(220)).toBeUndefined()
    expect(sim().db.tables.issues.get(400)).toMatchObject({ milestone_id: group.body[0].id, updated_at: before })
    expect(await api.get('/projects/20/milestones/220', { as: 'devon' })).toBeGitLabError(404, { message: '404 Not found' })
  })

  it('merges the same title from the group\'s other projects, and a closed milestone becomes an active one', async () => {
    const twin = await api.post('/projects/23/milestones', { as: 'max', body: { title: 'website-launch' } })
    await api.put('/projects/20/milestones/220', { as: 'max', body: { state_event: 'close' } })
    const res = await api.post('/projects/20/milestones/220/promote', { as: 'max' })
    expect(res.status).toBe(200)
    expect(sim().db.tables.milestones.get(twin.body.id)).toBeUndefined()
    const group = await api.get('/groups/10/milestones', { as: 'max', query: { title: 'website-launch' } })
    expect(group.body.map((m: { state: string }) => m.state)).toEqual(['active'])
  })

  it.each([
    ['a reporter of the group', 'riley', '/projects/20/milestones/220/promote', 403, { message: '403 Forbidden' }],
    ['a developer of the project only (not of its group)', 'elena', '/projects/20/milestones/220/promote', 403, { message: '403 Forbidden' }],
    ['a maintainer of a personal project (no group)', 'max', '/projects/30/milestones/221/promote', 403, { message: '403 Forbidden' }],
    ['an administrator on a personal project', 'root', '/projects/30/milestones/221/promote', 403, { message: '403 Forbidden' }],
    ['an unknown project', 'devon', '/projects/0/milestones/220/promote', 404, { message: '404 Project Not Found' }],
    ['an unknown milestone', 'devon', '/projects/20/milestones/0/promote', 404, { message: '404 Not found' }],
    ['a group milestone', 'devon', '/projects/20/milestones/200/promote', 404, { message: '404 Not found' }],
    ['a non-integer milestone_id (not declared: not found)', 'devon', '/projects/20/milestones/abc/promote', 404, { message: '404 Not found' }],
    ['anonymous', undefined, '/projects/20/milestones/220/promote', 401, { message: '401 Unauthorized' }],
  ])('refuses %s', async (_what, as, path, status, body) => {
    expect(await api.post(path, { as })).toBeGitLabError(status, body)
  })
})
