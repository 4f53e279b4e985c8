/**
 * Single issues and the issue writes over both doors (issue 16 part 1): get, create, edit with
 * `state_event`, delete, move, subscribe and unsubscribe, and what they keep consistent (iids,
 * labels and their counts, to-dos, lists, user agent detail).
 * Sources: gitlab: lib/api/issues.rb, lib/api/subscriptions.rb, app/services/issues/*,
 * app/services/todo_service.rb, spec/requests/api/issues/{post,put,get}_project_issues_spec.rb,
 * issue_spec... (see the module comments of the routes).
 *
 * Default scenario: acme/website (20, public) has #1 (400, devon → [max], bug+frontend, v1.0),
 * #2 (401, closed), #3 (402, by gina), #4 (403, confidential, by max); its next iid is 5. Users:
 * root admin, gina guest, riley reporter, devon developer, max maintainer, olive owner (of acme),
 * nora no membership. ivy/tracker (30): devon developer, max maintainer, riley reporter.
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

const NOW = '2021-04-01T12:00:00.000Z'
const FORBIDDEN = { message: '403 Forbidden' }
const NOT_FOUND = { message: '404 Not found' }
const PROJECT_NOT_FOUND = { message: '404 Project Not Found' }
const UNAUTHORIZED = { message: '401 Unauthorized' }
const user = (base: string, id: number, name: string, username: string) => ({ id, name, username, state: 'active', avatar_url: null, web_url: `${base}/${username}` })

const SINGLE_ISSUE_FIELDS = [
  'id', 'iid', 'project_id', 'title', 'description', 'state', 'created_at', 'updated_at', 'closed_at', 'closed_by',
  'labels', 'milestone', 'assignees', 'author', 'type', 'assignee', 'user_notes_count', 'merge_requests_count',
  'upvotes', 'downvotes', 'due_date', 'confidential', 'discussion_locked', 'issue_type', 'web_url', 'time_stats',
  'task_completion_status', 'has_tasks', '_links', 'reference', 'references', 'subscribed', 'moved_to_id', 'service_desk_reply_to',
]

contract('POST /projects/:id/issues', {}, ({ api, sim }) => {
  it('creates an issue (201) with the next iid, new labels created, and the single-issue entity', async () => {
    const res = await api.post('/projects/20/issues', {
      as: 'max',
      headers: { 'User-Agent': 'fakelab-test/1.0' },
      body: { title: 'New bug', description: 'It breaks', labels: 'bug,brand-new', assignee_ids: [4], milestone_id: 220, due_date: '2021-05-01' },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    expect(Object.keys(res.body)).toEqual(SINGLE_ISSUE_FIELDS)
    expect(res.body).toMatchObject({
      iid: 5,
      project_id: 20,
      title: 'New bug',
      description: 'It breaks',
      state: 'opened',
      created_at: NOW,
      updated_at: NOW,
      closed_at: null,
      closed_by: null,
      labels: ['brand-new', 'bug'],
      milestone: { id: 220, title: 'website-launch' },
      assignees: [user(api.baseUrl, 4, 'Devon Developer', 'devon')],
      author: user(api.baseUrl, 5, 'Max Maintainer', 'max'),
      type: 'ISSUE',
      user_notes_count: 0,
      upvotes: 0,
      downvotes: 0,
      due_date: '2021-05-01',
      confidential: false,
      discussion_locked: null,
      issue_type: 'issue',
      web_url: `${api.baseUrl}/acme/website/-/issues/5`,
      reference: '#5',
      references: { short: '#5', relative: '#5', full: 'acme/website#5' },
      subscribed: true,
      moved_to_id: null,
    })
    const label = sim().db.tables.labels.filter((l) => l.title === 'brand-new')
    expect(label).toMatchObject([{ project_id: 20, color: '#428BCA' }])
    const detail = await api.get(`/projects/20/issues/5/user_agent_detail`, { as: 'root' })
    expect([detail.status, detail.body]).toEqual([200, { user_agent: 'fakelab-test/1.0', ip_address: '127.0.0.1', akismet_submitted: false }])
  })

  it('gives the new assignee an assigned to-do, and the issue joins the lists and label counts', async () => {
    const res = await api.post('/projects/20/issues', { as: 'max', body: { title: 'Assigned', assignee_id: 4, labels: ['docs'] } })
    expect(res.status).toBe(201)
    const todos = await api.get('/todos', { as: 'devon' })
    expect(todos.body[0]).toMatchObject({ action_name: 'assigned', author: { username: 'max' }, target_type: 'Issue', target: { iid: 5, title: 'Assigned' }, state: 'pending' })
    const list = await api.get('/projects/20/issues', { as: 'max', query: { labels: 'docs' } })
    expect(list.body.map((i: { iid: number }) => i.iid)).toEqual([5, 3])
    const labels = await api.get('/projects/20/labels', { as: 'max', query: { with_counts: 'true', search: 'docs' } })
    expect(labels.body[0]).toMatchObject({ name: 'docs', open_issues_count: 2 })
  })

  it('joins a group milestone\'s issue list, and leaves it when the milestone is unset', async () => {
    const res = await api.post('/projects/20/issues', { as: 'max', body: { title: 'Milestoned', milestone_id: 200 } })
    expect(res.body.milestone).toMatchObject({ id: 200 })
    const ids = async () => (await api.get('/groups/10/milestones/200/issues', { as: 'max', query: { per_page: 100 } })).body.map((i: { id: number }) => i.id)
    expect(await ids()).toContain(res.body.id)
    await api.put('/projects/20/issues/5', { as: 'max', body: { milestone_id: 0 } })
    expect(await ids()).not.toContain(res.body.id)
  })

  it('drops a guest\'s labels, milestone, assignees and due date, as filter_params does', async () => {
    const res = await api.post('/projects/20/issues', {
      as: 'gina',
      body: { title: 'From a guest', labels: 'bug,unknown', assignee_ids: [4], milestone_id: 220, due_date: '2021-05-01', discussion_locked: true },
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ labels: [], assignees: [], milestone: null, due_date: null, discussion_locked: null, author: { username: 'gina' } })
    expect(sim().db.tables.labels.filter((l) => l.title === 'unknown')).toEqual([])
  })

  it('lets a non-member of a public project create an issue', async () => {
    const res = await api.post('/projects/20/issues', { as: 'nora', body: { title: 'Outsider' } })
    expect([res.status, res.body.author.username]).toEqual([201, 'nora'])
  })

  it.each([
    ['an owner', 'olive', 201, 42, '2020-01-01T00:00:00.000Z'],
    ['an administrator', 'root', 201, 42, '2020-01-01T00:00:00.000Z'],
    ['a maintainer (ignored)', 'max', 201, 5, NOW],
  ])('honours iid and created_at for %s', async (_who, as, status, iid, createdAt) => {
    const res = await api.post('/projects/20/issues', { as, body: { title: 'Imported', iid: 42, created_at: '2020-01-01T00:00:00Z' } })
    expect([res.status, res.body.iid, res.body.created_at]).toEqual([status, iid, createdAt])
  })

  it('answers 409 Duplicated issue for an iid in use, and never reuses a deleted iid', async () => {
    const dup = await api.post('/projects/20/issues', { as: 'olive', body: { title: 'Dup', iid: 1 } })
    expect(dup).toBeGitLabError(409, { message: 'Duplicated issue' })
    const five = await api.post('/projects/20/issues', { as: 'olive', body: { title: 'Five' } })
    expect((await api.delete('/projects/20/issues/5', { as: 'olive' })).status).toBe(204)
    const six = await api.post('/projects/20/issues', { as: 'olive', body: { title: 'Six' } })
    expect([five.body.iid, six.body.iid]).toEqual([5, 6])
  })

  it('acts as the sudo user', async () => {
    const res = await api.post('/projects/20/issues', { as: 'root', headers: { Sudo: 'devon' }, body: { title: 'Via sudo' } })
    expect([res.status, res.body.author.username]).toEqual([201, 'devon'])
  })

  it.each([
    ['no title', {}, { error: 'title is missing' }],
    ['a blank title', { title: ' ' }, { message: { title: ["can't be blank"] } }],
    ['a long title', { title: 'x'.repeat(256) }, { message: { title: ['is too long (maximum is 255 characters)'] } }],
    ['an unknown issue_type', { title: 'x', issue_type: 'epic' }, { error: 'issue_type does not have a valid value' }],
    ['a bad assignee_ids', { title: 'x', assignee_ids: 'a' }, { error: 'assignee_ids is invalid' }],
  ])('refuses %s (400) and stores nothing', async (_what, body, expected) => {
    const before = sim().db.tables.issues.size
    const res = await api.post('/projects/20/issues', { as: 'max', body })
    expect(res).toBeGitLabError(400, expected)
    expect(sim().db.tables.issues.size).toBe(before)
  })

  it.each([
    ['anonymous', undefined, '/projects/20/issues', 401, UNAUTHORIZED],
    ['a non-member of a private project', 'nora', '/projects/21/issues', 404, PROJECT_NOT_FOUND],
    ['sudo as a non-member of a private project', 'root', '/projects/21/issues', 404, PROJECT_NOT_FOUND],
  ])('refuses %s', async (who, as, path, status, expected) => {
    const headers: Record<string, string> = who.startsWith('sudo') ? { Sudo: 'nora' } : {}
    const res = await api.post(path, { as, headers, body: { title: 'x' } })
    expect(res).toBeGitLabError(status, expected)
  })
})

contract('GET /projects/:id/issues/:issue_iid', {}, ({ api }) => {
  it('shows one issue with subscribed (the author participates)', async () => {
    const res = await api.get('/projects/20/issues/1', { as: 'devon' })
    expect(res.status).toBe(200)
    expect(Object.keys(res.body)).toEqual(SINGLE_ISSUE_FIELDS)
    expect(res.body).toMatchObject({ id: 400, iid: 1, labels: ['bug', 'frontend'], subscribed: true })
  })

  it('answers anonymous callers on a public project, not subscribed', async () => {
    const res = await api.get('/projects/20/issues/1')
    expect([res.status, res.body.subscribed]).toEqual([200, false])
  })

  it.each([
    ['a missing issue', 'riley', '/projects/20/issues/99', 404, NOT_FOUND],
    ['a confidential issue to a non-member', 'nora', '/projects/20/issues/4', 404, NOT_FOUND],
    ['a private project', 'nora', '/projects/21/issues/1', 404, PROJECT_NOT_FOUND],
    ['a non-integer iid', 'riley', '/projects/20/issues/abc', 400, { error: 'issue_iid is invalid' }],
  ])('refuses %s', async (_what, as, path, status, expected) => {
    const res = await api.get(path, { as })
    expect(res).toBeGitLabError(status, expected)
  })
})

contract('GET /issues/:id', {}, ({ api }) => {
  it('shows any issue to an administrator', async () => {
    const res = await api.get('/issues/404', { as: 'root' })
    expect([res.status, res.body.iid, res.body.project_id, res.body.references.relative]).toEqual([200, 1, 21, '#1'])
  })

  it.each([
    ['anonymous', undefined, '/issues/400', 401, UNAUTHORIZED],
    ['a non-administrator', 'olive', '/issues/400', 403, FORBIDDEN],
    ['a missing id', 'root', '/issues/9999', 404, NOT_FOUND],
  ])('refuses %s', async (_what, as, path, status, expected) => {
    const res = await api.get(path, { as })
    expect(res).toBeGitLabError(status, expected)
  })
})

contract('PUT /projects/:id/issues/:issue_iid', {}, ({ api, sim }) => {
  it('closes with state_event, sets closed_at and closed_by, and marks the closer\'s to-dos done', async () => {
    const res = await api.put('/projects/20/issues/1', { as: 'devon', body: { state_event: 'close' } })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ state: 'closed', closed_at: NOW, updated_at: NOW, closed_by: { username: 'devon' } })
    expect(sim().db.tables.todos.get(601)!.state).toBe('done')
    expect(sim().db.tables.todos.get(606)!.state).toBe('pending')
    const closed = await api.get('/projects/20/issues', { as: 'devon', query: { state: 'closed' } })
    // Newest created first: #2 (03-02), then #1 (03-01).
    expect(closed.body.map((i: { iid: number }) => i.iid)).toEqual([2, 1])
  })

  it('reopens and clears closed_at and closed_by', async () => {
    const res = await api.put('/projects/20/issues/2', { as: 'max', body: { state_event: 'reopen' } })
    expect([res.status, res.body.state, res.body.closed_at, res.body.closed_by]).toEqual([200, 'opened', null, null])
  })

  it('replaces, adds and removes labels, creating missing ones', async () => {
    const set = await api.put('/projects/20/issues/1', { as: 'riley', body: { labels: 'docs,fresh' } })
    expect(set.body.labels).toEqual(['docs', 'fresh'])
    const add = await api.put('/projects/20/issues/1', { as: 'riley', body: { add_labels: 'bug', remove_labels: 'docs' } })
    expect(add.body.labels).toEqual(['bug', 'fresh'])
  })

  it('edits the fields and reassigns, giving the new assignee a to-do', async () => {
    const res = await api.put('/projects/20/issues/3', {
      as: 'max',
      body: { title: 'Renamed', description: 'New text', confidential: true, discussion_locked: true, assignee_ids: [3], milestone_id: 0, due_date: '2021-06-01', issue_type: 'incident' },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ title: 'Renamed', description: 'New text', confidential: true, discussion_locked: true, assignees: [{ username: 'riley' }], milestone: null, due_date: '2021-06-01', issue_type: 'incident', type: 'INCIDENT' })
    const todos = await api.get('/todos', { as: 'riley' })
    expect(todos.body[0]).toMatchObject({ action_name: 'assigned', target: { iid: 3 } })
  })

  // gitlab: lib/api/issues.rb declares due_date `type: String`; the date column casts it
  // (ActiveModel::Type::Date: ISO, else Date._parse; unparsable → nil), as for milestones.
  it.each([
    ['YYYY-MM-DD', '2021-03-01', '2021-03-01'],
    ['YYYY/MM/DD (Date._parse)', '2021/03/01', '2021-03-01'],
    ['YYYY-M-D', '2021-3-1', '2021-03-01'],
    ['YYYYMMDD', '20210301', '2021-03-01'],
    ['a date and a time', '2021-03-01T10:00:00Z', '2021-03-01'],
    ['an impossible date (nil, no error)', '2021-02-30', null],
    ['prose (nil, no error)', 'soon', null],
  ])('casts a %s due_date as a date column does', async (_what, dueDate, stored) => {
    const res = await api.put('/projects/20/issues/3', { as: 'max', body: { due_date: dueDate } })
    expect([res.status, res.body.due_date]).toEqual([200, stored])
  })

  it('lets a guest edit their own issue but drops their label changes', async () => {
    const res = await api.put('/projects/20/issues/3', { as: 'gina', body: { title: 'Mine', labels: 'bug' } })
    expect([res.status, res.body.title, res.body.labels]).toEqual([200, 'Mine', ['docs', 'feature']])
  })

  it.each([
    ['an owner', 'olive', '2021-03-31T00:00:00.000Z'],
    ['a maintainer (ignored)', 'max', NOW],
  ])('honours updated_at for %s', async (_who, as, updatedAt) => {
    const res = await api.put('/projects/20/issues/1', { as, body: { title: 'Touched', updated_at: '2021-03-31T00:00:00Z' } })
    expect([res.status, res.body.updated_at]).toEqual([200, updatedAt])
  })

  it('leaves updated_at alone when nothing changes', async () => {
    const res = await api.put('/projects/20/issues/1', { as: 'max', body: { title: 'Login button does nothing' } })
    expect([res.status, res.body.updated_at]).toEqual([200, '2021-03-10T09:00:00.000Z'])
  })

  it.each([
    [
      'no field',
      {},
      { error: 'assignee_id, assignee_ids, confidential, created_at, description, discussion_locked, due_date, labels, add_labels, remove_labels, milestone_id, state_event, title, issue_type are missing, at least one parameter must be provided' },
    ],
    ['an unknown state_event', { state_event: 'merge' }, { error: 'state_event does not have a valid value' }],
    ['a blank title', { title: '' }, { message: { title: ["can't be blank"] } }],
  ])('refuses %s (400) and changes nothing', async (_what, body, expected) => {
    const res = await api.put('/projects/20/issues/1', { as: 'max', body })
    expect(res).toBeGitLabError(400, expected)
    expect(sim().db.tables.issues.get(400)!.title).toBe('Login button does nothing')
  })

  it.each([
    ['anonymous', undefined, '/projects/20/issues/1', 401, UNAUTHORIZED],
    ['a guest on someone else\'s issue', 'gina', '/projects/20/issues/1', 403, FORBIDDEN],
    ['a non-member', 'nora', '/projects/20/issues/1', 403, FORBIDDEN],
    ['a confidential issue to a non-member (find_by!, then authorize!)', 'nora', '/projects/20/issues/4', 403, FORBIDDEN],
    ['a missing issue', 'max', '/projects/20/issues/99', 404, NOT_FOUND],
  ])('refuses %s', async (_what, as, path, status, expected) => {
    const res = await api.put(path, { as, body: { title: 'x' } })
    expect(res).toBeGitLabError(status, expected)
  })
})

contract('DELETE /projects/:id/issues/:issue_iid', {}, ({ api, sim }) => {
  it('deletes (204) with its notes, to-dos and award emoji; the lists forget it', async () => {
    const res = await api.delete('/projects/30/issues/1', { as: 'root' })
    expect([res.status, res.text]).toEqual([204, ''])
    expect(sim().db.tables.issues.get(405)).toBeUndefined()
    expect(sim().db.tables.notes.filter((n) => n.noteable_id === 405)).toEqual([])
    expect(sim().db.tables.award_emoji.filter((a) => a.awardable_type === 'Issue' && a.awardable_id === 405)).toEqual([])
    expect((await api.get('/projects/30/issues/1', { as: 'root' })).status).toBe(404)
  })

  it('answers 412 when If-Unmodified-Since is older than the issue', async () => {
    const res = await api.delete('/projects/20/issues/1', { as: 'olive', headers: { 'If-Unmodified-Since': 'Mon, 01 Mar 2021 00:00:00 GMT' } })
    expect(res).toBeGitLabError(412, { message: '412 Precondition Failed' })
  })

  it.each([
    ['a maintainer', 'max', '/projects/20/issues/1', 403, FORBIDDEN],
    ['a non-member', 'nora', '/projects/20/issues/1', 403, FORBIDDEN],
    ['a confidential issue to a non-member', 'nora', '/projects/20/issues/4', 403, FORBIDDEN],
    ['anonymous', undefined, '/projects/20/issues/1', 401, UNAUTHORIZED],
    ['a missing issue', 'olive', '/projects/20/issues/99', 404, { message: '404 Issue Not Found' }],
  ])('refuses %s', async (_what, as, path, status, expected) => {
    const before = sim().db.tables.issues.size
    const res = await api.delete(path, { as })
    expect(res).toBeGitLabError(status, expected)
    expect(sim().db.tables.issues.size).toBe(before)
  })
})

contract('POST /projects/:id/issues/:issue_iid/move', {}, ({ api, sim }) => {
  it('moves to another project: a new iid there, the old issue closed with moved_to_id', async () => {
    const res = await api.post('/projects/20/issues/3/move', { as: 'max', body: { to_project_id: 30 } })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    expect(res.body).toMatchObject({ iid: 7, project_id: 30, title: 'Document the signup flow', state: 'opened', labels: [], author: { username: 'gina' }, reference: 'ivy/tracker#7', references: { relative: 'ivy/tracker#7' } })
    expect(sim().db.tables.issues.get(402)).toMatchObject({ state: 'closed', moved_to_id: res.body.id, closed_by_id: 5, closed_at: NOW })
    const old = await api.get('/projects/20/issues/3', { as: 'max' })
    expect([old.body.state, old.body.moved_to_id]).toEqual(['closed', res.body.id])
  })

  it.each([
    ['to the same project', 'max', '/projects/20/issues/3/move', 20, 400, { message: 'Cannot move issue to project it originates from!' }],
    ['without admin_issue in the target', 'max', '/projects/20/issues/3/move', 22, 400, { message: 'Cannot move issue due to insufficient permissions!' }],
    ['as a guest', 'gina', '/projects/20/issues/3/move', 30, 400, { message: 'Cannot move issue due to insufficient permissions!' }],
    ['a confidential issue, as a non-member (no visibility check before can_move?)', 'nora', '/projects/20/issues/4/move', 30, 400, { message: 'Cannot move issue due to insufficient permissions!' }],
    ['to a missing project', 'max', '/projects/20/issues/3/move', 9999, 404, PROJECT_NOT_FOUND],
    ['a missing issue', 'max', '/projects/20/issues/99/move', 30, 404, { message: '404 Issue Not Found' }],
    ['without to_project_id', 'max', '/projects/20/issues/3/move', undefined, 400, { error: 'to_project_id is missing' }],
  ])('refuses %s', async (_what, as, path, to, status, expected) => {
    const res = await api.post(path, { as, body: to === undefined ? {} : { to_project_id: to } })
    expect(res).toBeGitLabError(status, expected)
    expect(sim().db.tables.issues.get(402)!.state).toBe('opened')
  })
})

contract('POST /projects/:id/issues/:issue_iid/subscribe', {}, ({ api }) => {
  it('subscribes (201), then answers 304', async () => {
    const first = await api.post('/projects/20/issues/1/subscribe', { as: 'nora' })
    expect([first.status, first.body.subscribed, first.body.iid]).toEqual([201, true, 1])
    const again = await api.post('/projects/20/issues/1/subscribe', { as: 'nora' })
    expect([again.status, again.text]).toEqual([304, ''])
  })

  it('answers 304 to the author, who participates already', async () => {
    expect((await api.post('/projects/20/issues/1/subscribe', { as: 'devon' })).status).toBe(304)
  })

  it.each([
    ['anonymous', undefined, '/projects/20/issues/1/subscribe', 401, UNAUTHORIZED],
    ['a confidential issue to a non-member', 'nora', '/projects/20/issues/4/subscribe', 404, NOT_FOUND],
    ['a private project', 'nora', '/projects/21/issues/1/subscribe', 404, PROJECT_NOT_FOUND],
  ])('refuses %s', async (_what, as, path, status, expected) => {
    const res = await api.post(path, { as })
    expect(res).toBeGitLabError(status, expected)
  })
})

contract('POST /projects/:id/issues/:issue_iid/unsubscribe', {}, ({ api }) => {
  it('unsubscribes the author (201), then answers 304', async () => {
    const first = await api.post('/projects/20/issues/1/unsubscribe', { as: 'devon' })
    expect([first.status, first.body.subscribed]).toEqual([201, false])
    expect((await api.post('/projects/20/issues/1/unsubscribe', { as: 'devon' })).status).toBe(304)
    expect((await api.get('/projects/20/issues/1', { as: 'devon' })).body.subscribed).toBe(false)
  })

  it('answers 304 to a user who never subscribed', async () => {
    expect((await api.post('/projects/20/issues/1/unsubscribe', { as: 'nora' })).status).toBe(304)
  })
})
