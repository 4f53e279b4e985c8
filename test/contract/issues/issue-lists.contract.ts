/**
 * The three issue lists over both doors: the entity, every filter alone and negated, orderings,
 * scopes and their defaults, visibility, and Grape's 400s.
 * Source: api-spec.md "Issues"; gitlab-behaviour.md §4.1, §4.2, §14 item 7; gitlabhq:spec/requests/api/issues/*.
 *
 * Default scenario, ivy/tracker (30, public, personal project of ivy; gina guest, riley reporter,
 * devon developer, max maintainer; today is Thursday 2021-04-01):
 *   #1 Crash on save      opened  devon→[riley]       p1,ux  sprint-1 (started)  due 03-30  2 up 1 down, 2 notes, tasks 1/2
 *   #2 Dark mode          opened  gina               ux     sprint-2 (upcoming) due 04-02  devon's heart
 *   #3 Old report…        closed  max                p2     —                   due 04-20
 *   #4 Outage on checkout opened  max→[devon,max]     p1     —  incident         no due date
 *   #5 Leaked credentials opened  riley→[devon]      p2     —  confidential
 *   #6 Flaky login test   opened  olive              —      —  test_case         due 05-10
 * Label priorities: p1 0, p2 1. MR !1 closes #1 and mentions #2; MR !2 (merged) closes #3.
 */
import { expect, it } from 'vitest'
import { contract, paginationHeaders, type Api } from '../../support/contract.js'

const ISSUE_FIELDS = [
  'id', 'iid', 'project_id', 'title', 'description', 'state', 'created_at', 'updated_at', 'closed_at', 'closed_by',
  'labels', 'milestone', 'assignees', 'author', 'type', 'assignee', 'user_notes_count', 'merge_requests_count',
  'upvotes', 'downvotes', 'due_date', 'confidential', 'discussion_locked', 'issue_type', 'web_url', 'time_stats',
  'task_completion_status', 'has_tasks', 'task_status', '_links', 'reference', 'references', 'moved_to_id', 'service_desk_reply_to',
]

/** The iids of a list answer (the project's own numbering). */
async function iids(api: Api, path: string, query: Record<string, string | string[]> = {}, as = 'riley'): Promise<number[]> {
  const res = await api.get(path, { as, query })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.map((issue: { iid: number }) => issue.iid)
}

contract('GET /projects/:id/issues', {}, ({ api }) => {
  it('presents the full Issue entity in GitLab 13.x field order', async () => {
    const res = await api.get('/projects/30/issues', { as: 'riley', query: { iids: ['1'] } })
    expect(res.status).toBe(200)
    const [issue] = res.body
    expect(Object.keys(issue)).toEqual(ISSUE_FIELDS)
    const user = (id: number, name: string, username: string) => ({ id, name, username, state: 'active', avatar_url: null, web_url: `${api.baseUrl}/${username}` })
    expect(issue).toMatchObject({
      id: 405,
      iid: 1,
      project_id: 30,
      title: 'Crash on save',
      state: 'opened',
      closed_at: null,
      closed_by: null,
      labels: ['p1', 'ux'],
      milestone: { iid: 1, project_id: 30, title: 'sprint-1', state: 'active', due_date: '2021-04-20', start_date: '2021-03-25' },
      assignees: [user(3, 'Riley Reporter', 'riley')],
      author: user(4, 'Devon Developer', 'devon'),
      type: 'ISSUE',
      assignee: user(3, 'Riley Reporter', 'riley'),
      user_notes_count: 2,
      merge_requests_count: 1,
      upvotes: 2,
      downvotes: 1,
      due_date: '2021-03-30',
      confidential: false,
      discussion_locked: null,
      issue_type: 'issue',
      web_url: `${api.baseUrl}/ivy/tracker/-/issues/1`,
      time_stats: { time_estimate: 7200, total_time_spent: 1800, human_time_estimate: '2h', human_total_time_spent: '30m' },
      task_completion_status: { count: 2, completed_count: 1 },
      has_tasks: true,
      task_status: '1 of 2 tasks completed',
      _links: {
        self: `${api.baseUrl}/api/v4/projects/30/issues/1`,
        notes: `${api.baseUrl}/api/v4/projects/30/issues/1/notes`,
        award_emoji: `${api.baseUrl}/api/v4/projects/30/issues/1/award_emoji`,
        project: `${api.baseUrl}/api/v4/projects/30`,
      },
      reference: '#1',
      references: { short: '#1', relative: '#1', full: 'ivy/tracker#1' },
      moved_to_id: null,
      service_desk_reply_to: null,
    })
    expect(issue).not.toHaveProperty('subscribed')
  })

  it('leaves task_status out when the description has no task items', async () => {
    const res = await api.get('/projects/30/issues', { as: 'riley', query: { iids: ['2'] } })
    expect(res.body[0].has_tasks).toBe(false)
    expect(res.body[0]).not.toHaveProperty('task_status')
  })

  it('presents labels as LabelBasic objects sorted by title with with_labels_details=true', async () => {
    const res = await api.get('/projects/30/issues', { as: 'riley', query: { iids: ['1'], with_labels_details: 'true' } })
    expect(res.body[0].labels).toEqual([
      { id: 115, name: 'p1', color: '#ff0000', description: null, description_html: '', text_color: '#FFFFFF' },
      { id: 117, name: 'ux', color: '#00aaff', description: null, description_html: '', text_color: '#FFFFFF' },
    ])
  })

  it.each([
    ['no filter (state all, created_at desc)', {}, [4, 6, 5, 3, 2, 1]],
    ['state=opened', { state: 'opened' }, [4, 6, 5, 2, 1]],
    ['state=closed', { state: 'closed' }, [3]],
    ['labels=p1', { labels: 'p1' }, [4, 1]],
    ['labels=p1,ux (all must match)', { labels: 'p1,ux' }, [1]],
    ['labels=None', { labels: 'None' }, [6]],
    ['labels=Any', { labels: 'Any' }, [4, 5, 3, 2, 1]],
    ['labels=No Label (deprecated)', { labels: 'No Label' }, [6]],
    ['labels=none (predefined names are case-insensitive)', { labels: 'none' }, [6]],
    ['milestone=sprint-1', { milestone: 'sprint-1' }, [1]],
    ['milestone=None', { milestone: 'None' }, [4, 6, 5, 3]],
    ['milestone=Any', { milestone: 'Any' }, [2, 1]],
    ['milestone=#upcoming', { milestone: '#upcoming' }, [2]],
    ['milestone=#started', { milestone: '#started' }, [1]],
    ['iids[]=1,3', { 'iids[]': ['1', '3'] }, [3, 1]],
    ['author_id=4', { author_id: '4' }, [1]],
    ['author_username=max', { author_username: 'max' }, [4, 3]],
    ['author_username of nobody', { author_username: 'ghost' }, []],
    ['assignee_id=4', { assignee_id: '4' }, [4, 5]],
    ['assignee_id=None', { assignee_id: 'None' }, [6, 3, 2]],
    ['assignee_id=any', { assignee_id: 'any' }, [4, 5, 1]],
    ['assignee_username[]=riley', { 'assignee_username[]': ['riley'] }, [1]],
    ['confidential=true', { confidential: 'true' }, [5]],
    ['confidential=false', { confidential: 'false' }, [4, 6, 3, 2, 1]],
    ['created_after (inclusive)', { created_after: '2021-03-15T09:00:00Z' }, [4, 6, 5]],
    ['created_before (inclusive)', { created_before: '2021-03-12T09:00:00Z' }, [2, 1]],
    ['updated_after (inclusive)', { updated_after: '2021-03-20T09:00:00Z' }, [4, 1]],
    ['updated_before (inclusive)', { updated_before: '2021-03-12T09:00:00Z' }, [2]],
    ['due_date=0 (none)', { due_date: '0' }, [4, 5]],
    ['due_date=overdue', { due_date: 'overdue' }, [1]],
    ['due_date=week (Monday to Sunday)', { due_date: 'week' }, [2, 1]],
    ['due_date=month', { due_date: 'month' }, [3, 2]],
    ['due_date=next_month_and_previous_two_weeks', { due_date: 'next_month_and_previous_two_weeks' }, [6, 3, 2, 1]],
    ['due_date= (empty: no filter)', { due_date: '' }, [4, 6, 5, 3, 2, 1]],
    ['issue_type=incident', { issue_type: 'incident' }, [4]],
    ['issue_type=test_case', { issue_type: 'test_case' }, [6]],
    ['search=crash (title or description)', { search: 'crash' }, [1]],
    ['search=theme in=title (no title match)', { search: 'theme', in: 'title' }, []],
    ['search=theme in=description', { search: 'theme', in: 'description' }, [2]],
    ['my_reaction_emoji=thumbsup (riley gave one)', { my_reaction_emoji: 'thumbsup' }, [1]],
    ['my_reaction_emoji=None', { my_reaction_emoji: 'None' }, [4, 6, 5, 3, 2]],
    ['my_reaction_emoji=Any', { my_reaction_emoji: 'Any' }, [1]],
    ['scope=created_by_me (riley)', { scope: 'created_by_me' }, [5]],
    ['scope=created-by-me (deprecated dashed form)', { scope: 'created-by-me' }, [5]],
    ['scope=assigned_to_me (riley)', { scope: 'assigned_to_me' }, [1]],
    ['scope=assigned-to-me', { scope: 'assigned-to-me' }, [1]],
    ['weight (higher tier: not declared, ignored)', { weight: '3' }, [4, 6, 5, 3, 2, 1]],
    ['not[labels]=p1', { 'not[labels]': 'p1' }, [6, 5, 3, 2]],
    ['not[labels]=None', { 'not[labels]': 'None' }, [4, 5, 3, 2, 1]],
    ['not[milestone]=sprint-1', { 'not[milestone]': 'sprint-1' }, [4, 6, 5, 3, 2]],
    ['not[milestone]=None', { 'not[milestone]': 'None' }, [2, 1]],
    ['not[author_id]=4', { 'not[author_id]': '4' }, [4, 6, 5, 3, 2]],
    ['not[author_username]=max', { 'not[author_username]': 'max' }, [6, 5, 2, 1]],
    ['not[assignee_id]=4', { 'not[assignee_id]': '4' }, [6, 3, 2, 1]],
    ['not[assignee_id]=None', { 'not[assignee_id]': 'None' }, [4, 5, 1]],
    ['not[assignee_username][]=riley', { 'not[assignee_username][]': ['riley'] }, [4, 6, 5, 3, 2]],
    ['not[my_reaction_emoji]=thumbsup', { 'not[my_reaction_emoji]': 'thumbsup' }, [4, 6, 5, 3, 2]],
    ['not[search]=crash', { 'not[search]': 'crash' }, [4, 6, 5, 3, 2]],
    ['not[iids] is not negatable on a project list (ignored)', { 'not[iids][]': ['1'] }, [4, 6, 5, 3, 2, 1]],
    ['labels=ux combined with not[milestone]=sprint-2', { labels: 'ux', 'not[milestone]': 'sprint-2' }, [1]],
    ['state=opened, labels=p1 and not[assignee_id]=3', { state: 'opened', labels: 'p1', 'not[assignee_id]': '3' }, [4]],
  ])('filters by %s', async (_what, query, expected) => {
    expect(await iids(api, '/projects/30/issues', query as Record<string, string | string[]>)).toEqual(expected)
  })

  it.each([
    ['created_at desc (default)', {}, [4, 6, 5, 3, 2, 1]],
    ['created_at asc', { sort: 'asc' }, [1, 2, 3, 5, 6, 4]],
    ['updated_at desc', { order_by: 'updated_at' }, [4, 1, 6, 3, 5, 2]],
    ['updated_at asc', { order_by: 'updated_at', sort: 'asc' }, [2, 5, 3, 6, 1, 4]],
    ['title asc', { order_by: 'title', sort: 'asc' }, [1, 2, 6, 5, 3, 4]],
    ['title desc', { order_by: 'title' }, [4, 3, 5, 6, 2, 1]],
    ['due_date asc (nulls last, then id desc)', { order_by: 'due_date', sort: 'asc' }, [1, 2, 3, 6, 5, 4]],
    ['due_date desc (nulls last)', { order_by: 'due_date' }, [6, 3, 2, 1, 5, 4]],
    ['popularity desc (upvotes)', { order_by: 'popularity' }, [1, 6, 5, 4, 3, 2]],
    ['popularity asc', { order_by: 'popularity', sort: 'asc' }, [6, 5, 4, 3, 2, 1]],
    ['milestone_due asc', { order_by: 'milestone_due', sort: 'asc' }, [2, 1, 6, 5, 4, 3]],
    ['milestone_due desc', { order_by: 'milestone_due' }, [1, 2, 6, 5, 4, 3]],
    ['label_priority asc', { order_by: 'label_priority', sort: 'asc' }, [4, 1, 5, 3, 6, 2]],
    ['label_priority desc', { order_by: 'label_priority' }, [5, 3, 4, 1, 6, 2]],
    ['priority asc (milestone due date, then label priority)', { order_by: 'priority', sort: 'asc' }, [2, 1, 4, 5, 3, 6]],
    ['relative_position (unset everywhere: id desc)', { order_by: 'relative_position' }, [6, 5, 4, 3, 2, 1]],
  ])('orders by %s', async (_what, query, expected) => {
    expect(await iids(api, '/projects/30/issues', query)).toEqual(expected)
  })

  it.each([
    ['anonymous', undefined, [4, 6, 3, 2, 1]],
    ['gina (guest, neither author nor assignee)', 'gina', [4, 6, 3, 2, 1]],
    ['riley (reporter, and the author)', 'riley', [4, 6, 5, 3, 2, 1]],
    ['devon (assignee)', 'devon', [4, 6, 5, 3, 2, 1]],
    ['nora (no member)', 'nora', [4, 6, 3, 2, 1]],
    ['root (administrator)', 'root', [4, 6, 5, 3, 2, 1]],
  ])('shows the confidential issue only to those allowed: %s', async (_who, as, expected) => {
    const res = await api.get('/projects/30/issues', { as })
    expect(res.body.map((issue: { iid: number }) => issue.iid)).toEqual(expected)
  })

  it('answers 404 Project Not Found for a private project the caller cannot read', async () => {
    const res = await api.get('/projects/31/issues', { as: 'nora' })
    expect(res).toBeGitLabError(404, { message: '404 Project Not Found' })
  })

  it('paginates with every header and links carrying the filters', async () => {
    const res = await api.get('/projects/31/issues', { as: 'ivy', query: { per_page: 10, page: 2, state: 'all' } })
    expect(res.body).toHaveLength(10)
    const url = (page: number) =>
      `<${api.baseUrl}/api/v4/projects/31/issues?id=31&order_by=created_at&page=${page}&per_page=10&scope=all&sort=desc&state=all&with_labels_details=false>`
    expect(paginationHeaders(res)).toEqual({
      'x-page': '2',
      'x-per-page': '10',
      'x-next-page': '3',
      'x-prev-page': '1',
      'x-total': '25',
      'x-total-pages': '3',
      link: `${url(1)}; rel="prev", ${url(3)}; rel="next", ${url(1)}; rel="first", ${url(3)}; rel="last"`,
    })
  })

  it.each([
    ['an unknown state', { state: 'open' }, 'state does not have a valid value'],
    ['an unknown order_by', { order_by: 'name' }, 'order_by does not have a valid value'],
    ['an unknown sort', { sort: 'up' }, 'sort does not have a valid value'],
    ['an unknown scope', { scope: 'mine' }, 'scope does not have a valid value'],
    ['an unknown due_date', { due_date: 'tomorrow' }, 'due_date does not have a valid value'],
    ['an unknown issue_type', { issue_type: 'epic' }, 'issue_type does not have a valid value'],
    ['a non-integer author_id', { author_id: 'max' }, 'author_id is invalid'],
    ['a non-boolean confidential', { confidential: 'maybe' }, 'confidential is invalid'],
    ['a bad created_after', { created_after: 'yesterday' }, 'created_after is invalid'],
    ['a non-integer iid', { 'iids[]': ['x'] }, 'iids is invalid'],
    ['an assignee_id that is no integer, None or Any', { assignee_id: 'max' }, "assignee_id should be an integer, 'None' or 'Any'"],
    ['two assignee usernames (community edition)', { 'assignee_username[]': ['devon', 'max'] }, 'assignee_username allows one value, but found 2: devon, max'],
    ['author_id with author_username', { author_id: '4', author_username: 'devon' }, 'author_id, author_username are mutually exclusive'],
    ['assignee_id with assignee_username', { assignee_id: '4', 'assignee_username[]': ['devon'] }, 'assignee_id, assignee_username are mutually exclusive'],
    ['not[author_id] that is no integer', { 'not[author_id]': 'x' }, 'not[author_id] is invalid'],
    ['not[assignee_id] that is no integer, None or Any', { 'not[assignee_id]': 'x' }, "not[assignee_id] should be an integer, 'None' or 'Any'"],
    ['not[author_id] with not[author_username]', { 'not[author_id]': '4', 'not[author_username]': 'devon' }, 'not[author_id], not[author_username] are mutually exclusive'],
    ['not that is no hash', { not: 'labels' }, 'not is invalid'],
  ])('refuses %s with 400', async (_what, query, error) => {
    const res = await api.get('/projects/30/issues', { as: 'riley', query: query as Record<string, string | string[]> })
    expect(res).toBeGitLabError(400, { error })
  })
})

contract('GET /groups/:id/issues', {}, ({ api }) => {
  it('lists the issues of the group and its subgroups the caller can see, newest first', async () => {
    // acme: website (20) #1-#4 (ids 400-403, #4 confidential) and platform/api (21) #1 (404).
    const res = await api.get('/groups/10/issues', { as: 'riley' })
    expect(res.body.map((issue: { id: number }) => issue.id)).toEqual([404, 403, 402, 401, 400])
  })

  it('makes references relative to the group', async () => {
    const res = await api.get('/groups/10/issues', { as: 'riley', query: { 'iids[]': ['1'] } })
    expect(res.body.map((issue: { references: unknown }) => issue.references)).toEqual([
      { short: '#1', relative: 'acme/platform/api#1', full: 'acme/platform/api#1' },
      { short: '#1', relative: 'website#1', full: 'acme/website#1' },
    ])
  })

  it('gives the deprecated reference relative to no project, as merge requests\' to_reference(options[:project]) does on a group list', async () => {
    const res = await api.get('/groups/10/issues', { as: 'riley', query: { 'iids[]': ['1'] } })
    expect(res.body.map((issue: { reference: unknown }) => issue.reference)).toEqual(['#1', '#1'])
  })

  it('hides private subgroup projects from those who cannot read them', async () => {
    const res = await api.get('/groups/10/issues', { as: 'nora' })
    expect(res.body.map((issue: { id: number }) => issue.id)).toEqual([402, 401, 400])
  })

  it.each([
    ['not[labels]=bug', { 'not[labels]': 'bug' }, [403, 402]],
    ['milestone=v1.0 with not[author_username]=devon', { milestone: 'v1.0', 'not[author_username]': 'devon' }, [401]],
    ['non_archived=false (no archived projects here)', { non_archived: 'false' }, [404, 403, 402, 401, 400]],
  ])('filters by %s', async (_what, query, expected) => {
    const res = await api.get('/groups/10/issues', { as: 'riley', query: query as Record<string, string> })
    expect(res.body.map((issue: { id: number }) => issue.id)).toEqual(expected)
  })

  it('answers 404 Group Not Found for a private group the caller cannot read', async () => {
    const res = await api.get('/groups/12/issues', { as: 'max' })
    expect(res).toBeGitLabError(404, { message: '404 Group Not Found' })
  })
})

contract('GET /issues', {}, ({ api }) => {
  it('needs a user unless scope=all', async () => {
    const res = await api.get('/issues')
    expect(res).toBeGitLabError(401, { message: '401 Unauthorized' })
  })

  it('lists public issues to anonymous callers with scope=all, references without a base', async () => {
    const res = await api.get('/issues', { query: { scope: 'all', per_page: 100 } })
    expect(res.body.map((issue: { id: number }) => issue.id)).toEqual([408, 410, 407, 406, 405, 402, 401, 400])
    expect(res.body[0].references).toEqual({ short: '#4', relative: '#4', full: 'ivy/tracker#4' })
    expect(res.body[0].reference).toBe('#4')
  })

  it.each([
    ['the default scope created_by_me', {}, [405, 404, 400]],
    ['scope=assigned_to_me', { scope: 'assigned_to_me' }, [408, 409]],
    ['scope=all with author_id (the spec pairs them)', { scope: 'all', author_id: '4' }, [405, 404, 400]],
  ])('lists devon\'s issues by %s', async (_what, query, expected) => {
    const res = await api.get('/issues', { as: 'devon', query })
    expect(res.body.map((issue: { id: number }) => issue.id)).toEqual(expected)
  })

  it('accepts not[iids] on the global list', async () => {
    const res = await api.get('/issues', { as: 'devon', query: { 'not[iids][]': ['1'] } })
    expect(res.body.map((issue: { id: number }) => issue.id)).toEqual([])
  })
})

// order_by=weight (higher tier, as GitLab Premium orders: EE `order_weight_asc/desc`, nulls last either
// way, then id descending; issue 23 item 10). ivy/tracker's issues 405-410 are iids 1-6; weights are
// set on 1 (5), 2 (2), 3 (5) and 4 (0); 5 and 6 have none.
contract('order_by=weight on the issue lists', {}, ({ api, sim }) => {
  const arrange = (): void => {
    for (const [id, weight] of [[405, 5], [406, 2], [407, 5], [408, 0]] as const) sim().db.tables.issues.update(id, { weight })
  }

  it.each([
    ['desc (default): heaviest first, equal weights newest first, nulls last', {}, [3, 1, 2, 4, 6, 5]],
    ['asc: lightest first, nulls still last', { sort: 'asc' }, [4, 2, 3, 1, 6, 5]],
  ])('orders a project list by weight %s', async (_what, query, expected) => {
    arrange()
    expect(await iids(api, '/projects/30/issues', { order_by: 'weight', state: 'all', ...query })).toEqual(expected)
  })

  it('orders the global list by weight (scope=all)', async () => {
    arrange()
    const res = await api.get('/issues', { as: 'riley', query: { order_by: 'weight', scope: 'all', state: 'all', per_page: 4 } })
    expect([res.status, res.body.map((i: { id: number }) => i.id)]).toEqual([200, [407, 405, 406, 408]])
  })

  it('orders every issue by id descending when none has a weight', async () => {
    expect(await iids(api, '/projects/30/issues', { order_by: 'weight', state: 'all' })).toEqual([6, 5, 4, 3, 2, 1])
  })

  it('loads weight from a scenario issue', async () => {
    const { parseScenario, createSimulator } = await import('../../../src/index.js')
    const other = createSimulator({ scenario: parseScenario('version: 1\nusers: [{ username: u }]\nprojects: [{ path: p, namespace: u, issues: [{ title: t, weight: 3 }, { title: s }] }]') })
    expect(other.db.tables.issues.all().map((i) => i.weight ?? null)).toEqual([3, null])
  })
})
