/**
 * Group milestones, through both doors: list, get, create, update, delete, a milestone's issues
 * and merge requests, and the higher-tier burndown events (as GitLab Premium answers them).
 * Source: api-spec.md "Group milestone", "Milestone state", "Group milestones";
 * gitlab-behaviour.md §9, §4.1, §4.3; gitlab: lib/api/group_milestones.rb,
 * spec/support/shared_examples/requests/api/milestones_shared_examples.rb.
 *
 * Default scenario: acme (10, public) has milestones 200 v1.0 (due 2021-03-01, expired),
 * 201 v2.0 (due 2021-06-30), 202 v0.9 (closed, due 2021-01-15); acme/platform (11, private) has
 * 210 platform-q2; acme/website (20) has project milestone 220. The clock is 2021-04-01T12:00Z.
 */
import { expect, it } from 'vitest'
import type { Simulator } from '../../../src/index.js'
import { contract, paginationHeaders, type ApiResponse } from '../../support/contract.js'
import { schemaErrors } from '../../support/schemas.js'

const NOW = '2021-04-01T12:00:00.000Z'

/** The stored timestamps of a record (faker-generated in the scenario). */
function stamps(sim: () => Simulator, id: number) {
  const m = sim().db.tables.milestones.get(id)!
  return { created_at: m.created_at, updated_at: m.updated_at }
}

function ids(res: ApiResponse): number[] {
  return (res.body as { id: number }[]).map((row) => row.id)
}

const insufficientScope = {
  error: 'insufficient_scope',
  error_description: 'The request requires higher privileges than provided by the access token.',
  scope: 'api read_api',
}

contract('GET /groups/:id/milestones', {}, ({ api, sim }) => {
  it('lists the group milestones by due date ascending, nulls last, then id descending', async () => {
    const res = await api.get('/groups/10/milestones', { as: 'gina' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual([
      {
        id: 202, iid: 3, group_id: 10, title: 'v0.9', description: '', state: 'closed', ...stamps(sim, 202),
        due_date: '2021-01-15', start_date: null, expired: true, web_url: `${api.baseUrl}/groups/acme/-/milestones/3`,
      },
      {
        id: 200, iid: 1, group_id: 10, title: 'v1.0', description: '', state: 'active', ...stamps(sim, 200),
        due_date: '2021-03-01', start_date: '2021-02-01', expired: true, web_url: `${api.baseUrl}/groups/acme/-/milestones/1`,
      },
      {
        id: 201, iid: 2, group_id: 10, title: 'v2.0', description: '', state: 'active', ...stamps(sim, 201),
        due_date: '2021-06-30', start_date: null, expired: false, web_url: `${api.baseUrl}/groups/acme/-/milestones/2`,
      },
    ])
    for (const milestone of res.body) expect(schemaErrors('public_api/v4/milestone.json', milestone, false)).toEqual([])
  })

  it('writes the milestone fields in GitLab order', async () => {
    const res = await api.get('/groups/10/milestones', { as: 'gina' })
    expect(Object.keys(res.body[0])).toEqual([
      'id', 'iid', 'group_id', 'title', 'description', 'state', 'created_at', 'updated_at',
      'due_date', 'start_date', 'expired', 'web_url',
    ])
  })

  it('puts milestones without a due date last, newest first among equals', async () => {
    sim().db.tables.milestones.update(200, { due_date: null, start_date: null })
    sim().db.tables.milestones.update(202, { due_date: null })
    const res = await api.get('/groups/10/milestones', { as: 'gina' })
    expect(ids(res)).toEqual([201, 202, 200])
  })

  it.each([
    ['anonymous on a public group', undefined, '/groups/10/milestones', 401, { message: '401 Unauthorized' }],
    ['anonymous with an invalid filter', undefined, '/groups/10/milestones?state=bogus', 401, { message: '401 Unauthorized' }],
    ['a non-member of the private subgroup', 'nora', '/groups/11/milestones', 404, { message: '404 Group Not Found' }],
    ['a member of acme on the secret-lab group', 'devon', '/groups/12/milestones', 404, { message: '404 Group Not Found' }],
    ['anyone on an unknown group', 'root', '/groups/999/milestones', 404, { message: '404 Group Not Found' }],
  ])('refuses %s', async (_who, as, path, status, body) => {
    const res = await api.get(path, { as })
    expect(res).toBeGitLabError(status, body)
  })

  it.each([
    ['a signed-in non-member of the public group', 'nora', '/groups/10/milestones', [202, 200, 201]],
    ['an acme member on the private subgroup (inherited)', 'devon', '/groups/11/milestones', [210]],
    ['an administrator', 'root', '/groups/11/milestones', [210]],
    ['the full path of the group', 'devon', '/groups/acme%2Fplatform/milestones', [210]],
    ['a read_api token', undefined, '/groups/10/milestones', [202, 200, 201]],
  ])('lists for %s', async (_who, as, path, expected) => {
    const res = await api.get(path, as ? { as } : { token: 'glpat-devon-readonly' })
    expect([res.status, ids(res)]).toEqual([200, expected])
  })

  it.each([
    ['state=active', { state: 'active' }, [200, 201]],
    ['state=closed', { state: 'closed' }, [202]],
    ['state=all', { state: 'all' }, [202, 200, 201]],
    ['iids[]', { 'iids[]': [1, 3] }, [202, 200]],
    ['a comma-separated iids list', { iids: '2,3' }, [202, 201]],
    ['iids nobody has', { 'iids[]': [99] }, []],
    ['the exact title', { title: 'v1.0' }, [200]],
    ['the title in another case (exact match only)', { title: 'V1.0' }, []],
    ['an empty title (matches nothing)', { title: '' }, []],
    ['a search in titles, case-insensitively', { search: 'V2.0' }, [201]],
    ['a search of a short word (whole-title match)', { search: 'v2' }, []],
    ['a blank search (ignored)', { search: ' ' }, [202, 200, 201]],
    ['state and title together', { state: 'closed', title: 'v1.0' }, []],
    ['the undeclared sort GitLab hands to its finder', { sort: 'name_desc' }, [201, 200, 202]],
    ['an unknown sort (id descending only)', { sort: 'asc' }, [202, 201, 200]],
  ])('filters by %s', async (_what, query, expected) => {
    const res = await api.get('/groups/10/milestones', { as: 'max', query })
    expect([res.status, ids(res)]).toEqual([200, expected])
  })

  it('searches descriptions as well as titles, every word of 3+ characters', async () => {
    sim().db.tables.milestones.update(201, { description: 'The big Relaunch of the shop' })
    const hit = await api.get('/groups/10/milestones', { as: 'max', query: { search: 'relaunch shop' } })
    const miss = await api.get('/groups/10/milestones', { as: 'max', query: { search: 'relaunch cart' } })
    const quoted = await api.get('/groups/10/milestones', { as: 'max', query: { search: '"big relaunch"' } })
    expect([ids(hit), ids(miss), ids(quoted)]).toEqual([[201], [], [201]])
  })

  it('adds the ancestor groups milestones with include_parent_milestones, ignoring iids', async () => {
    const res = await api.get('/groups/11/milestones', {
      as: 'devon',
      query: { include_parent_milestones: true, 'iids[]': [1] },
    })
    // 201 and 210 share a due date: the higher id comes first.
    expect([res.status, ids(res)]).toEqual([200, [202, 200, 210, 201]])
    expect(res.body[2]).toMatchObject({ id: 210, group_id: 11, web_url: `${api.baseUrl}/groups/acme/platform/-/milestones/1` })
  })

  it('keeps the iids filter when include_parent_milestones is false', async () => {
    const res = await api.get('/groups/11/milestones', { as: 'devon', query: { include_parent_milestones: false, 'iids[]': [2] } })
    expect([res.status, ids(res)]).toEqual([200, []])
  })

  it.each([
    [{ state: 'opened' }, 'state does not have a valid value'],
    [{ include_parent_milestones: 'maybe' }, 'include_parent_milestones is invalid'],
    [{ iids: 'one' }, 'iids is invalid'],
    [{ page: 'x' }, 'page is invalid'],
    [{ state: 'x', per_page: 'y' }, 'state does not have a valid value, per_page is invalid'],
  ])('answers 400 for %j', async (query, error) => {
    const res = await api.get('/groups/10/milestones', { as: 'max', query })
    expect(res).toBeGitLabError(400, { error })
  })

  it('paginates with GitLab headers, the Link URLs carrying the declared defaults', async () => {
    const res = await api.get('/groups/10/milestones', { as: 'max', query: { per_page: 2 } })
    const url = (page: number) =>
      `${api.baseUrl}/api/v4/groups/10/milestones?id=10&include_parent_milestones=false&page=${page}&per_page=2&state=all`
    expect(ids(res)).toEqual([202, 200])
    expect(paginationHeaders(res)).toEqual({
      'x-page': '1',
      'x-per-page': '2',
      'x-next-page': '2',
      'x-prev-page': '',
      'x-total': '3',
      'x-total-pages': '2',
      link: `<${url(2)}>; rel="next", <${url(1)}>; rel="first", <${url(2)}>; rel="last"`,
    })
    const second = await api.get('/groups/10/milestones', { as: 'max', query: { per_page: 2, page: 2 } })
    expect(ids(second)).toEqual([201])
  })
})

contract('GET /groups/:id/milestones/:milestone_id', {}, ({ api, sim }) => {
  it('returns a milestone by its global id', async () => {
    const res = await api.get('/groups/10/milestones/201', { as: 'nora' })
    expect([res.status, res.body]).toEqual([200, {
      id: 201, iid: 2, group_id: 10, title: 'v2.0', description: '', state: 'active', ...stamps(sim, 201),
      due_date: '2021-06-30', start_date: null, expired: false, web_url: `${api.baseUrl}/groups/acme/-/milestones/2`,
    }])
    expect(schemaErrors('public_api/v4/milestone.json', res.body, false)).toEqual([])
  })

  it.each([
    ['due yesterday', '2021-03-31', true],
    ['due today', '2021-04-01', false],
    ['due tomorrow', '2021-04-02', false],
    ['without a due date', null, false],
  ])('derives expired for a milestone %s', async (_when, due, expired) => {
    sim().db.tables.milestones.update(201, { due_date: due })
    const res = await api.get('/groups/10/milestones/201', { as: 'max' })
    expect([res.status, res.body.expired]).toEqual([200, expired])
  })

  it('finds the milestone through the group path', async () => {
    const res = await api.get('/groups/acme/milestones/200', { as: 'max' })
    expect([res.status, res.body.title]).toEqual([200, 'v1.0'])
  })

  it.each([
    ['anonymous', undefined, '/groups/10/milestones/200', 401, { message: '401 Unauthorized' }],
    ['a non-integer milestone_id', 'max', '/groups/10/milestones/abc', 400, { error: 'milestone_id is invalid' }],
    ['an unknown milestone', 'max', '/groups/10/milestones/9999', 404, { message: '404 Not found' }],
    ['the iid instead of the id', 'max', '/groups/10/milestones/1', 404, { message: '404 Not found' }],
    ['a subgroup milestone under the parent', 'max', '/groups/10/milestones/210', 404, { message: '404 Not found' }],
    ['a parent milestone under the subgroup', 'max', '/groups/11/milestones/200', 404, { message: '404 Not found' }],
    ['a project milestone', 'max', '/groups/10/milestones/220', 404, { message: '404 Not found' }],
    ['a non-member on the private subgroup', 'nora', '/groups/11/milestones/210', 404, { message: '404 Group Not Found' }],
  ])('refuses %s', async (_what, as, path, status, body) => {
    const res = await api.get(path, { as })
    expect(res).toBeGitLabError(status, body)
  })
})

contract('POST /groups/:id/milestones', {}, ({ api, sim }) => {
  it('creates an active milestone with the next group iid and a null description', async () => {
    const id = sim().db.tables.milestones.peekNextId()
    const res = await api.post('/groups/10/milestones', { as: 'devon', body: { title: 'v3.0' } })
    expect([res.status, res.body]).toEqual([201, {
      id, iid: 4, group_id: 10, title: 'v3.0', description: null, state: 'active', created_at: NOW, updated_at: NOW,
      due_date: null, start_date: null, expired: false, web_url: `${api.baseUrl}/groups/acme/-/milestones/4`,
    }])
    expect(schemaErrors('public_api/v4/milestone.json', res.body, false)).toEqual([])
    const stored = await api.get(`/groups/10/milestones/${id}`, { as: 'gina' })
    expect(stored.body).toEqual(res.body)
  })

  it('creates a milestone with description and dates from a form body', async () => {
    const res = await api.post('/groups/11/milestones', {
      as: 'max',
      form: { title: 'q3', description: 'release', start_date: '2013-02-02', due_date: '2013-03-02' },
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      iid: 2, group_id: 11, title: 'q3', description: 'release', start_date: '2013-02-02', due_date: '2013-03-02', expired: true,
      web_url: `${api.baseUrl}/groups/acme/platform/-/milestones/2`,
    })
  })

  // gitlab: lib/api/milestone_responses.rb declares the dates `type: String`; the date columns cast
  // them (ActiveModel::Type::Date), the same rule as an issue's due_date.
  it.each([
    ['YYYY-MM-DD', '2021-03-01', '2021-03-01'],
    ['YYYY/MM/DD (Date._parse)', '2021/03/01', '2021-03-01'],
    ['YYYY-M-D', '2021-3-1', '2021-03-01'],
    ['YYYYMMDD', '20210301', '2021-03-01'],
    ['a date and a time', '2021-03-01T10:00:00Z', '2021-03-01'],
    ['an impossible date (nil, no error)', '2021-02-30', null],
    ['prose (nil, no error)', 'soon', null],
  ])('casts a %s due_date as a date column does', async (_what, dueDate, stored) => {
    const res = await api.post('/groups/10/milestones', { as: 'max', body: { title: 'dated', due_date: dueDate } })
    expect([res.status, res.body.due_date]).toEqual([201, stored])
  })

  it.each([
    ['gina (guest)', 'gina', 403],
    ['riley (reporter)', 'riley', 403],
    ['nora (no membership, public group)', 'nora', 403],
    ['devon (developer)', 'devon', 201],
    ['max (maintainer)', 'max', 201],
    ['olive (owner)', 'olive', 201],
    ['root (admin, no membership)', 'root', 201],
  ])('lets %s create: %i', async (_who, as, status) => {
    const res = await api.post('/groups/10/milestones', { as, body: { title: 'v3.0' } })
    if (status === 403) expect(res).toBeGitLabError(403, { message: '403 Forbidden' })
    else expect(res.status).toBe(status)
  })

  it.each([
    ['anonymous', { body: { title: 'x' } }, '/groups/10/milestones', 401, { message: '401 Unauthorized' }],
    ['anonymous without a title', {}, '/groups/10/milestones', 401, { message: '401 Unauthorized' }],
    ['a read_api token', { token: 'glpat-devon-readonly', body: { title: 'x' } }, '/groups/10/milestones', 403, insufficientScope],
    ['a missing title', { as: 'max', body: {} }, '/groups/10/milestones', 400, { error: 'title is missing' }],
    ['a missing title from a guest (validation first)', { as: 'gina', body: {} }, '/groups/10/milestones', 400, { error: 'title is missing' }],
    ['a hash as description', { as: 'max', body: { title: 'x', description: { a: 1 } } }, '/groups/10/milestones', 400, { error: 'description is invalid' }],
    ['a missing title and an invalid date', { as: 'max', body: { due_date: [1] } }, '/groups/10/milestones', 400, { error: 'title is missing, due_date is invalid' }],
    ['a non-member on the private subgroup', { as: 'nora', body: { title: 'x' } }, '/groups/11/milestones', 404, { message: '404 Group Not Found' }],
    ['an unknown group', { as: 'root', body: { title: 'x' } }, '/groups/999/milestones', 404, { message: '404 Group Not Found' }],
  ])('refuses %s', async (_what, options, path, status, body) => {
    const res = await api.post(path, options)
    expect(res).toBeGitLabError(status, body)
  })

  it.each([
    ['a blank title', { title: '   ' }, '{:title=>["can\'t be blank"]}'],
    ['a title that is only markup', { title: '<b></b>' }, '{:title=>["can\'t be blank"]}'],
    ['the title of a group milestone', { title: 'v1.0' }, '{:title=>["already being used for another group or project milestone."]}'],
    ['the title of a milestone of a project in the group', { title: 'website-launch' }, '{:title=>["already being used for another group or project milestone."]}'],
    ['a title that becomes a taken one once stripped', { title: '  v2.0 ' }, '{:title=>["already being used for another group or project milestone."]}'],
    ['a due date before the start date', { title: 'x', start_date: '2021-05-02', due_date: '2021-05-01' }, '{:due_date=>["must be greater than start date"]}'],
    ['a due date equal to the start date', { title: 'x', start_date: '2021-05-01', due_date: '2021-05-01' }, '{:due_date=>["must be greater than start date"]}'],
    ['a start date after year 9999', { title: 'x', start_date: '10000-01-01' }, '{:start_date=>["date must not be after 9999-12-31"]}'],
    [
      'several problems at once',
      { title: 'v1.0', start_date: '2021-05-02', due_date: '2021-05-01' },
      '{:due_date=>["must be greater than start date"], :title=>["already being used for another group or project milestone."]}',
    ],
  ])('answers 400 with the model errors for %s', async (_what, body, errors) => {
    const before = sim().db.tables.milestones.size
    const res = await api.post('/groups/10/milestones', { as: 'max', body })
    expect(res).toBeGitLabError(400, { message: `Failed to create milestone ${errors}` })
    expect(sim().db.tables.milestones.size).toBe(before)
  })

  it('checks title uniqueness against the group and its own projects only, not ancestors or subgroups', async () => {
    const inSubgroup = await api.post('/groups/11/milestones', { as: 'max', body: { title: 'v1.0' } })
    const inParent = await api.post('/groups/10/milestones', { as: 'max', body: { title: 'platform-q2' } })
    expect([inSubgroup.status, inParent.status]).toEqual([201, 201])
  })

  it.each([
    ['keeps ordinary punctuation', 'foo & bar 1.1 -> 2.2', 'foo & bar 1.1 -> 2.2'],
    ['removes HTML tags', '<b>v3</b> <script>alert(1)</script>final', 'v3 final'],
    ['decodes entities', 'R&amp;D &lt;3', 'R&D <3'],
    ['strips surrounding whitespace', '  padded  ', 'padded'],
  ])('sanitises the title: %s', async (_what, title, stored) => {
    const res = await api.post('/groups/10/milestones', { as: 'max', body: { title } })
    expect([res.status, res.body.title]).toEqual([201, stored])
  })

  it.each([
    ['an ISO date', '2021-05-01', '2021-05-01'],
    ['a date with a time', '2021-05-01T10:00:00Z', '2021-05-01'],
    ['a slashed date', '2021/5/1', '2021-05-01'],
    ['a compact date', '20210501', '2021-05-01'],
    ['an impossible date', '2021-02-30', null],
    ['text', 'soon', null],
    ['an empty string', '', null],
    ['JSON null', null, null],
  ])('reads the due date from %s like a Rails date column', async (_what, due, stored) => {
    const res = await api.post('/groups/10/milestones', { as: 'max', body: { title: 'x', due_date: due } })
    expect([res.status, res.body.due_date]).toEqual([201, stored])
  })

  it('keeps an empty description empty and a null one null', async () => {
    const empty = await api.post('/groups/10/milestones', { as: 'max', body: { title: 'a', description: '' } })
    const none = await api.post('/groups/10/milestones', { as: 'max', body: { title: 'b', description: null } })
    expect([empty.body.description, none.body.description]).toEqual(['', null])
  })

  it('never reuses an iid, even after a delete', async () => {
    const first = await api.post('/groups/10/milestones', { as: 'max', body: { title: 'a' } })
    await api.delete(`/groups/10/milestones/${first.body.id}`, { as: 'max' })
    const second = await api.post('/groups/10/milestones', { as: 'max', body: { title: 'b' } })
    expect([first.body.iid, second.body.iid]).toEqual([4, 5])
  })
})

contract('PUT /groups/:id/milestones/:milestone_id', {}, ({ api, sim }) => {
  it('updates the sent attributes and moves updated_at', async () => {
    const res = await api.put('/groups/10/milestones/201', {
      as: 'devon',
      body: { title: 'v2.0-final', description: 'Final', start_date: '2021-06-01' },
    })
    expect([res.status, res.body]).toEqual([200, {
      id: 201, iid: 2, group_id: 10, title: 'v2.0-final', description: 'Final', state: 'active',
      created_at: sim().db.tables.milestones.get(201)!.created_at, updated_at: NOW,
      due_date: '2021-06-30', start_date: '2021-06-01', expired: false, web_url: `${api.baseUrl}/groups/acme/-/milestones/2`,
    }])
    expect(schemaErrors('public_api/v4/milestone.json', res.body, false)).toEqual([])
  })

  it.each([
    ['closes an active milestone', 201, 'close', 'closed', true],
    ['reopens a closed milestone', 202, 'activate', 'active', true],
    ['leaves a closed milestone closed', 202, 'close', 'closed', false],
    ['leaves an active milestone active', 200, 'activate', 'active', false],
  ])('%s', async (_what, id, stateEvent, state, moved) => {
    const before = stamps(sim, id).updated_at
    const res = await api.put(`/groups/10/milestones/${id}`, { as: 'max', body: { state_event: stateEvent } })
    expect([res.status, res.body.state, res.body.updated_at]).toEqual([200, state, moved ? NOW : before])
  })

  it.each([
    ['JSON null', { due_date: null }],
    ['an empty form value', undefined],
  ])('clears the due date given %s', async (_how, body) => {
    const res = body
      ? await api.put('/groups/10/milestones/200', { as: 'max', body })
      : await api.put('/groups/10/milestones/200', { as: 'max', form: { due_date: '' } })
    expect([res.status, res.body.due_date, res.body.start_date, res.body.expired]).toEqual([200, null, '2021-02-01', false])
  })

  it('clears the description with null', async () => {
    const res = await api.put('/groups/10/milestones/200', { as: 'max', body: { description: null } })
    expect([res.status, res.body.description]).toEqual([200, null])
  })

  it('ignores a blank title and keeps the milestone unchanged', async () => {
    const before = stamps(sim, 201).updated_at
    const res = await api.put('/groups/10/milestones/201', { as: 'max', body: { title: '  ' } })
    expect([res.status, res.body.title, res.body.updated_at]).toEqual([200, 'v2.0', before])
  })

  it('ignores a null title, which still counts as a sent attribute', async () => {
    const before = stamps(sim, 201).updated_at
    const res = await api.put('/groups/10/milestones/201', { as: 'max', body: { title: null } })
    expect([res.status, res.body.title, res.body.updated_at]).toEqual([200, 'v2.0', before])
  })

  it('accepts the milestone own title again (uniqueness only checks a changed title)', async () => {
    const res = await api.put('/groups/10/milestones/201', { as: 'max', body: { title: 'v2.0', description: 'same title' } })
    expect([res.status, res.body.title, res.body.description]).toEqual([200, 'v2.0', 'same title'])
  })

  it.each([
    ['no attribute at all', '/groups/10/milestones/200', {}, 400,
      { error: 'title, description, start_date, due_date, state_event are missing, at least one parameter must be provided' }],
    ['a non-integer milestone_id and no attribute', '/groups/10/milestones/abc', {}, 400,
      { error: 'milestone_id is invalid, title, description, start_date, due_date, state_event are missing, at least one parameter must be provided' }],
    ['an unknown state_event', '/groups/10/milestones/200', { state_event: 'reopen' }, 400,
      { error: 'state_event does not have a valid value' }],
    ['an array as due date', '/groups/10/milestones/200', { due_date: ['2021-01-01'] }, 400, { error: 'due_date is invalid' }],
    ['several invalid params, in declaration order', '/groups/10/milestones/200', { start_date: {}, state_event: 'x', description: [] }, 400,
      { error: 'state_event does not have a valid value, description is invalid, start_date is invalid' }],
    ['a taken title', '/groups/10/milestones/201', { title: 'v1.0' }, 400,
      { message: 'Failed to update milestone {:title=>["already being used for another group or project milestone."]}' }],
    ['a due date before the start date', '/groups/10/milestones/200', { due_date: '2021-01-01' }, 400,
      { message: 'Failed to update milestone {:due_date=>["must be greater than start date"]}' }],
    ['an unknown milestone', '/groups/10/milestones/9999', { title: 'x' }, 404, { message: '404 Not found' }],
    ['a subgroup milestone under the parent', '/groups/10/milestones/210', { title: 'x' }, 404, { message: '404 Not found' }],
  ])('refuses %s', async (_what, path, body, status, expected) => {
    const res = await api.put(path, { as: 'max', body })
    expect(res).toBeGitLabError(status, expected)
  })

  it('changes nothing when the update fails, state_event included', async () => {
    const before = sim().db.tables.milestones.get(201)
    const res = await api.put('/groups/10/milestones/201', { as: 'max', body: { title: 'v1.0', state_event: 'close' } })
    expect(res.status).toBe(400)
    expect(sim().db.tables.milestones.get(201)).toEqual(before)
  })

  it.each([
    ['anonymous', undefined, '/groups/10/milestones/200', 401, { message: '401 Unauthorized' }],
    ['gina (guest)', 'gina', '/groups/10/milestones/200', 403, { message: '403 Forbidden' }],
    ['riley (reporter)', 'riley', '/groups/10/milestones/200', 403, { message: '403 Forbidden' }],
    ['riley on an unknown milestone (permission first)', 'riley', '/groups/10/milestones/9999', 403, { message: '403 Forbidden' }],
    ['nora on the private subgroup', 'nora', '/groups/11/milestones/210', 404, { message: '404 Group Not Found' }],
  ])('refuses %s', async (_who, as, path, status, body) => {
    const res = await api.put(path, { as, body: { title: 'x' } })
    expect(res).toBeGitLabError(status, body)
  })

  it('lets a developer inherited from the parent update a subgroup milestone', async () => {
    const res = await api.put('/groups/11/milestones/210', { as: 'devon', body: { state_event: 'close' } })
    expect([res.status, res.body.state]).toEqual([200, 'closed'])
  })
})

contract('DELETE /groups/:id/milestones/:milestone_id', {}, ({ api, sim }) => {
  it('deletes the milestone and unassigns its issues and merge requests', async () => {
    const res = await api.delete('/groups/10/milestones/200', { as: 'devon' })
    expect([res.status, res.text]).toEqual([204, ''])
    const { tables } = sim().db
    expect(tables.milestones.get(200)).toBeUndefined()
    // 404 is the acme/platform/api issue with the parent group's milestone.
    expect([400, 401, 404].map((id) => [tables.issues.get(id)!.milestone_id, tables.issues.get(id)!.updated_at])).toEqual([
      [null, NOW], [null, NOW], [null, NOW],
    ])
    expect([tables.merge_requests.get(500)!.milestone_id, tables.merge_requests.get(500)!.updated_at]).toEqual([null, NOW])
    expect(tables.issues.get(402)!.milestone_id).toBe(201)
    const gone = await api.get('/groups/10/milestones/200', { as: 'devon' })
    expect(gone).toBeGitLabError(404, { message: '404 Not found' })
  })

  it.each([
    ['anonymous', undefined, '/groups/10/milestones/200', 401, { message: '401 Unauthorized' }],
    ['gina (guest)', 'gina', '/groups/10/milestones/200', 403, { message: '403 Forbidden' }],
    ['riley (reporter)', 'riley', '/groups/10/milestones/200', 403, { message: '403 Forbidden' }],
    ['riley on an unknown milestone (permission first)', 'riley', '/groups/10/milestones/9999', 403, { message: '403 Forbidden' }],
    ['nora on the private subgroup', 'nora', '/groups/11/milestones/210', 404, { message: '404 Group Not Found' }],
    ['an unknown milestone', 'max', '/groups/10/milestones/9999', 404, { message: '404 Not found' }],
    ['a non-numeric id (not validated, never found)', 'max', '/groups/10/milestones/abc', 404, { message: '404 Not found' }],
    ['a subgroup milestone under the parent', 'max', '/groups/10/milestones/210', 404, { message: '404 Not found' }],
    ['a project milestone', 'max', '/groups/10/milestones/220', 404, { message: '404 Not found' }],
  ])('refuses %s', async (_who, as, path, status, body) => {
    const before = sim().db.tables.milestones.size
    const res = await api.delete(path, { as })
    expect(res).toBeGitLabError(status, body)
    expect(sim().db.tables.milestones.size).toBe(before)
  })

  it('reads the id like ActiveRecord does (leading digits)', async () => {
    const res = await api.delete('/groups/10/milestones/202abc', { as: 'olive' })
    expect(res.status).toBe(204)
    expect(sim().db.tables.milestones.get(202)).toBeUndefined()
  })

  it('lets an administrator delete without a membership', async () => {
    const res = await api.delete('/groups/11/milestones/210', { as: 'root' })
    expect(res.status).toBe(204)
  })
})

contract('GET /groups/:id/milestones/:milestone_id/issues', {}, ({ api, sim }) => {
  it('returns IssueBasic entities of the group projects, by label priority', async () => {
    const res = await api.get('/groups/10/milestones/200/issues', { as: 'nora' })
    expect(res.status).toBe(200)
    // 400 has `frontend` (priority 1 in acme/website); 401 has only `bug` (no priority);
    // 404 is in a subgroup project and is not returned.
    expect(ids(res)).toEqual([400, 401])
    const issue = sim().db.tables.issues.get(400)!
    const milestone = (await api.get('/groups/10/milestones/200', { as: 'nora' })).body
    const user = (id: number, name: string, username: string) => ({
      id, name, username, state: 'active', avatar_url: null, web_url: `${api.baseUrl}/${username}`,
    })
    expect(res.body[0]).toEqual({
      id: 400,
      iid: 1,
      project_id: 20,
      title: 'Login button does nothing',
      description: issue.description,
      state: 'opened',
      created_at: '2021-03-01T09:00:00.000Z',
      updated_at: '2021-03-10T09:00:00.000Z',
      closed_at: null,
      closed_by: null,
      labels: ['bug', 'frontend'],
      milestone,
      assignees: [user(5, 'Max Maintainer', 'max')],
      author: user(4, 'Devon Developer', 'devon'),
      type: 'ISSUE',
      assignee: user(5, 'Max Maintainer', 'max'),
      user_notes_count: 0,
      merge_requests_count: 0,
      upvotes: 0,
      downvotes: 0,
      due_date: null,
      confidential: false,
      discussion_locked: null,
      issue_type: 'issue',
      web_url: `${api.baseUrl}/acme/website/-/issues/1`,
      time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
      task_completion_status: { count: 0, completed_count: 0 },
    })
    expect(Object.keys(res.body[0])).toEqual([
      'id', 'iid', 'project_id', 'title', 'description', 'state', 'created_at', 'updated_at', 'closed_at', 'closed_by',
      'labels', 'milestone', 'assignees', 'author', 'type', 'assignee', 'user_notes_count', 'merge_requests_count',
      'upvotes', 'downvotes', 'due_date', 'confidential', 'discussion_locked', 'issue_type', 'web_url', 'time_stats',
      'task_completion_status',
    ])
    expect(res.body[1]).toMatchObject({ id: 401, state: 'closed', closed_by: user(5, 'Max Maintainer', 'max'), labels: ['bug'] })
  })

  it('matches issue.json (with avatar URLs set: the schema does not allow a null one)', async () => {
    for (const id of [3, 4, 5]) sim().db.tables.users.update(id, { avatar_url: `https://avatars.test/${id}.png` })
    const res = await api.get('/groups/10/milestones/200/issues', { as: 'max' })
    for (const issue of res.body) expect(schemaErrors('public_api/v4/issue.json', issue, false)).toEqual([])
  })

  it('orders by the highest label priority, nulls last, then newest first', async () => {
    const { tables } = sim().db
    tables.issues.update(401, { label_ids: [100, 112] }) // good first issue: priority 0
    tables.issues.update(402, { milestone_id: 200, label_ids: [] })
    const res = await api.get('/groups/10/milestones/200/issues', { as: 'max' })
    expect(ids(res)).toEqual([401, 400, 402])
  })

  it('derives time stats and task completion', async () => {
    sim().db.tables.issues.update(400, {
      time_estimate: 5400,
      total_time_spent: 460_800,
      description: '- [x] reproduce\n- [ ] fix\n* [X] write a test\nplain [ ] text',
    })
    const res = await api.get('/groups/10/milestones/200/issues', { as: 'max' })
    expect([res.body[0].time_stats, res.body[0].task_completion_status]).toEqual([
      { time_estimate: 5400, total_time_spent: 460_800, human_time_estimate: '1h 30m', human_total_time_spent: '3w 1d' },
      { count: 3, completed_count: 2 },
    ])
  })

  it.each([
    ['riley (reporter)', 'riley', true],
    ['max (the author)', 'max', true],
    ['root (admin)', 'root', true],
    ['gina (guest)', 'gina', false],
    ['nora (no membership)', 'nora', false],
  ])('shows a confidential issue to %s: %s', async (_who, as, visible) => {
    sim().db.tables.issues.update(403, { milestone_id: 200 })
    const res = await api.get('/groups/10/milestones/200/issues', { as })
    expect(ids(res).includes(403)).toBe(visible)
  })

  it('shows a confidential issue to its assignee', async () => {
    sim().db.tables.issues.update(403, { milestone_id: 200, assignee_ids: [7] })
    const res = await api.get('/groups/10/milestones/200/issues', { as: 'nora' })
    expect(ids(res)).toContain(403)
  })

  it('matches issues by milestone title, as GitLab finder does ("Any" means any milestone)', async () => {
    const created = await api.post('/groups/10/milestones', { as: 'max', body: { title: 'Any' } })
    const res = await api.get(`/groups/10/milestones/${created.body.id}/issues`, { as: 'max' })
    expect(ids(res)).toEqual([400, 402, 401])
  })

  it('returns nothing for a subgroup milestone whose issues live elsewhere', async () => {
    const res = await api.get('/groups/11/milestones/210/issues', { as: 'devon' })
    expect([res.status, res.body]).toEqual([200, []])
  })

  it('paginates', async () => {
    const res = await api.get('/groups/10/milestones/200/issues', { as: 'max', query: { per_page: 1, page: 2 } })
    const url = (page: number) => `${api.baseUrl}/api/v4/groups/10/milestones/200/issues?id=10&milestone_id=200&page=${page}&per_page=1`
    expect(ids(res)).toEqual([401])
    expect(paginationHeaders(res)).toEqual({
      'x-page': '2',
      'x-per-page': '1',
      'x-next-page': '',
      'x-prev-page': '1',
      'x-total': '2',
      'x-total-pages': '2',
      link: `<${url(1)}>; rel="prev", <${url(1)}>; rel="first", <${url(2)}>; rel="last"`,
    })
  })

  it.each([
    ['anonymous', undefined, '/groups/10/milestones/200/issues', 401, { message: '401 Unauthorized' }],
    ['a non-integer milestone_id', 'max', '/groups/10/milestones/abc/issues', 400, { error: 'milestone_id is invalid' }],
    ['an unknown milestone', 'max', '/groups/10/milestones/9999/issues', 404, { message: '404 Not found' }],
    ['another group milestone', 'max', '/groups/10/milestones/210/issues', 404, { message: '404 Not found' }],
    ['nora on the private subgroup', 'nora', '/groups/11/milestones/210/issues', 404, { message: '404 Group Not Found' }],
  ])('refuses %s', async (_what, as, path, status, body) => {
    const res = await api.get(path, { as })
    expect(res).toBeGitLabError(status, body)
  })
})

contract('GET /groups/:id/milestones/:milestone_id/merge_requests', {}, ({ api, sim }) => {
  /** A private project directly in acme, with a merge request on milestone 200. */
  function privateProjectWithMergeRequest(): number {
    const { tables } = sim().db
    const website = tables.projects.get(20)!
    const project = tables.projects.insert({ ...website, id: undefined, path: 'vault', name: 'Vault', visibility: 'private' })
    const mr = tables.merge_requests.get(500)!
    return tables.merge_requests.insert({ ...mr, id: undefined, iid: 1, project_id: project.id, source_project_id: project.id, label_ids: [] }).id
  }

  it('returns MergeRequestBasic entities of the group projects', async () => {
    const res = await api.get('/groups/10/milestones/200/merge_requests', { as: 'nora' })
    expect(res.status).toBe(200)
    const mr = sim().db.tables.merge_requests.get(500)!
    // Its branches exist in acme/website's repository: `sha` is the source branch's tip there.
    const { sha } = (await api.get('/projects/20/merge_requests/1', { as: 'root' })).body
    const milestone = (await api.get('/groups/10/milestones/200', { as: 'nora' })).body
    const devon = { id: 4, name: 'Devon Developer', username: 'devon', state: 'active', avatar_url: null, web_url: `${api.baseUrl}/devon` }
    expect(res.body).toEqual([{
      id: 500,
      iid: 1,
      project_id: 20,
      title: 'Fix the login button',
      description: mr.description,
      state: 'opened',
      created_at: '2021-03-11T09:00:00.000Z',
      updated_at: '2021-03-11T09:00:00.000Z',
      merged_by: null,
      merged_at: null,
      closed_by: null,
      closed_at: null,
      target_branch: 'main',
      source_branch: 'feature/login',
      user_notes_count: 0,
      upvotes: 0,
      downvotes: 0,
      author: devon,
      assignees: [],
      assignee: null,
      reviewers: [],
      source_project_id: 20,
      target_project_id: 20,
      labels: ['frontend'],
      draft: false,
      work_in_progress: false,
      milestone,
      merge_when_pipeline_succeeds: false,
      merge_status: mr.merge_status,
      sha,
      merge_commit_sha: null,
      squash_commit_sha: null,
      discussion_locked: null,
      should_remove_source_branch: null,
      force_remove_source_branch: null,
      reference: '!1',
      references: { short: '!1', relative: '!1', full: 'acme/website!1' },
      web_url: `${api.baseUrl}/acme/website/-/merge_requests/1`,
      time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
      squash: false,
      task_completion_status: { count: 0, completed_count: 0 },
      has_conflicts: false,
      blocking_discussions_resolved: true,
    }])
    expect(Object.keys(res.body[0])).toEqual([
      'id', 'iid', 'project_id', 'title', 'description', 'state', 'created_at', 'updated_at', 'merged_by', 'merged_at',
      'closed_by', 'closed_at', 'target_branch', 'source_branch', 'user_notes_count', 'upvotes', 'downvotes', 'author',
      'assignees', 'assignee', 'reviewers', 'source_project_id', 'target_project_id', 'labels', 'draft',
      'work_in_progress', 'milestone', 'merge_when_pipeline_succeeds', 'merge_status', 'sha', 'merge_commit_sha',
      'squash_commit_sha', 'discussion_locked', 'should_remove_source_branch', 'force_remove_source_branch', 'reference',
      'references', 'web_url', 'time_stats', 'squash', 'task_completion_status', 'has_conflicts',
      'blocking_discussions_resolved',
    ])
    expect(schemaErrors('public_api/v4/merge_request.json', res.body[0], false)).toEqual([])
  })

  it('shows a merged merge request with its merge data', async () => {
    sim().db.tables.merge_requests.update(501, { merged_by_id: 5 })
    const res = await api.get('/groups/10/milestones/201/merge_requests', { as: 'max' })
    expect(res.body).toHaveLength(1)
    expect(res.body[0]).toMatchObject({
      id: 501, state: 'merged', merged_at: '2021-03-05T08:00:00.000Z', merged_by: { id: 5, username: 'max' }, labels: ['bug'],
    })
    expect(schemaErrors('public_api/v4/merge_request.json', res.body[0], false)).toEqual([])
  })

  it('orders by the highest label priority, nulls last, then newest first', async () => {
    const { tables } = sim().db
    tables.merge_requests.update(501, { milestone_id: 200 })
    const before = await api.get('/groups/10/milestones/200/merge_requests', { as: 'max' })
    tables.merge_requests.update(501, { label_ids: [112] })
    const after = await api.get('/groups/10/milestones/200/merge_requests', { as: 'max' })
    expect([ids(before), ids(after)]).toEqual([[500, 501], [501, 500]])
  })

  it('adds the fork fields for a merge request from another project', async () => {
    sim().db.tables.merge_requests.update(500, { source_project_id: 23 })
    const res = await api.get('/groups/10/milestones/200/merge_requests', { as: 'max' })
    const keys = Object.keys(res.body[0])
    expect(keys.slice(keys.indexOf('force_remove_source_branch'), keys.indexOf('reference') + 1)).toEqual([
      'force_remove_source_branch', 'allow_collaboration', 'allow_maintainer_to_push', 'reference',
    ])
    expect(res.body[0]).toMatchObject({ source_project_id: 23, allow_collaboration: false, allow_maintainer_to_push: false })
  })

  it.each([
    ['devon (developer, inherited reporter+)', 'devon', true],
    ['riley (reporter)', 'riley', true],
    ['root (admin)', 'root', true],
    ['gina (guest: private merge requests need reporter)', 'gina', false],
    ['nora (cannot read the project)', 'nora', false],
  ])('shows the merge requests of a private project to %s: %s', async (_who, as, visible) => {
    const id = privateProjectWithMergeRequest()
    const res = await api.get('/groups/10/milestones/200/merge_requests', { as })
    expect(ids(res).includes(id)).toBe(visible)
  })

  it('leaves out subgroup projects', async () => {
    sim().db.tables.merge_requests.update(500, { project_id: 21, source_project_id: 21 })
    const res = await api.get('/groups/10/milestones/200/merge_requests', { as: 'root' })
    expect([res.status, res.body]).toEqual([200, []])
  })

  it('paginates', async () => {
    const res = await api.get('/groups/10/milestones/200/merge_requests', { as: 'max' })
    const url = `${api.baseUrl}/api/v4/groups/10/milestones/200/merge_requests?id=10&milestone_id=200&page=1&per_page=20`
    expect(paginationHeaders(res)).toEqual({
      'x-page': '1',
      'x-per-page': '20',
      'x-next-page': '',
      'x-prev-page': '',
      'x-total': '1',
      'x-total-pages': '1',
      link: `<${url}>; rel="first", <${url}>; rel="last"`,
    })
  })

  it.each([
    ['anonymous', undefined, '/groups/10/milestones/200/merge_requests', 401, { message: '401 Unauthorized' }],
    ['a non-integer milestone_id', 'max', '/groups/10/milestones/abc/merge_requests', 400, { error: 'milestone_id is invalid' }],
    ['an unknown milestone', 'max', '/groups/10/milestones/9999/merge_requests', 404, { message: '404 Not found' }],
    ['nora on the private subgroup', 'nora', '/groups/11/milestones/210/merge_requests', 404, { message: '404 Group Not Found' }],
  ])('refuses %s', async (_what, as, path, status, body) => {
    const res = await api.get(path, { as })
    expect(res).toBeGitLabError(status, body)
  })
})

// Higher-tier, answered as GitLab Premium does (issue 23 item 10; ee/app/models/burndown.rb).
// Milestone 200 v1.0 (start 2021-02-01, due 2021-03-01) has issues 400 (website, opened, created
// 2021-03-01T09:00), 401 (website, closed 2021-03-05T09:00, created 2021-03-02) and 404 (api, private,
// created 2021-03-06); the chart ends at the due date, or today (2021-04-01) when that is later.
contract('GET /groups/:id/milestones/:milestone_id/burndown_events', {}, ({ api, sim }) => {
  const created = (id: number, weight: number | null = null) => ({ created_at: sim().db.tables.issues.get(id)!.created_at, weight, action: 'created' })

  it('lists the events of the issues created by the due date, as a plain array', async () => {
    const res = await api.get('/groups/10/milestones/200/burndown_events', { as: 'max' })
    expect([res.status, res.body, res.headers.get('x-total')]).toEqual([200, [created(400)], null])
  })

  it('ends today while the due date is ahead: newest issue first, with weights and close events', async () => {
    sim().db.tables.milestones.update(200, { due_date: '2021-06-30' })
    sim().db.tables.issues.update(400, { weight: 3 })
    sim().db.tables.issues.update(401, { weight: 1 })
    const res = await api.get('/groups/10/milestones/200/burndown_events', { as: 'max' })
    expect([res.status, res.body]).toEqual([200, [
      created(404),
      created(401, 1),
      { created_at: '2021-03-05T09:00:00.000Z', weight: 1, action: 'closed' },
      created(400, 3),
    ]])
  })

  it('leaves out the issues of projects the caller cannot read', async () => {
    sim().db.tables.milestones.update(200, { due_date: '2021-06-30' })
    const res = await api.get('/groups/10/milestones/200/burndown_events', { as: 'nora' })
    expect(res.body.map((e: { action: string }) => e.action)).toEqual(['created', 'closed', 'created'])
  })

  it('shows an issue closed after the end as closed at the start date (no close event in time)', async () => {
    sim().db.tables.milestones.update(200, { due_date: '2021-03-03' })
    const res = await api.get('/groups/10/milestones/200/burndown_events', { as: 'max' })
    expect(res.body).toEqual([created(401), { created_at: '2021-02-01T00:00:00.000Z', weight: null, action: 'closed' }, created(400)])
  })

  it('is empty for a milestone without a start date', async () => {
    const res = await api.get('/groups/10/milestones/201/burndown_events', { as: 'max' })
    expect([res.status, res.body]).toEqual([200, []])
  })

  it.each([
    ['anonymous', undefined, '/groups/10/milestones/200/burndown_events', 401, { message: '401 Unauthorized' }],
    ['an unknown milestone', 'max', '/groups/10/milestones/999/burndown_events', 404, { message: '404 Not found' }],
    ['a subgroup\'s milestone through its parent', 'max', '/groups/10/milestones/210/burndown_events', 404, { message: '404 Not found' }],
    ['a milestone id that is no number', 'max', '/groups/10/milestones/abc/burndown_events', 404, { message: '404 Not found' }],
    ['a private group to a non-member', 'nora', '/groups/11/milestones/210/burndown_events', 404, { message: '404 Group Not Found' }],
  ])('refuses %s', async (_what, as, path, status, body) => {
    const res = await api.get(path, { as })
    expect([res.status, res.body]).toEqual([status, body])
  })
})
