/**
 * Resource label, milestone and state events over both doors (issue 25 item 5): the scenario's
 * history, the events every issue and merge request write records, who sees which, and 13.x's
 * refusals. Sources: gitlab: lib/api/resource_label_events.rb, resource_milestone_events.rb,
 * resource_state_events.rb, lib/api/entities/resource_*_event.rb,
 * app/services/resource_events/*, app/policies/resource_label_event_policy.rb,
 * app/finders/resource_milestone_event_finder.rb.
 *
 * Default scenario: ivy/tracker (30, public) #1 (issue 405) has label events 1 (devon adds p1, 115)
 * and 2 (riley adds ux, 117) and milestone event 1 (max adds sprint-1, 221); #3 (407) state event 1
 * (closed); !2 (merge request 503) state event 2 (merged); !1 (merge request 502) label events 3
 * (devon adds ux) and 4 (removes it), milestone events 2 and 3 (sprint-1 added, removed). #5 is confidential. acme/platform/api
 * (21) is private, its label 113 `performance`; acme/platform's milestone 210 is private.
 */
import { expect, it } from 'vitest'
import { contract, type Api } from '../../support/contract.js'

const NOW = '2021-04-01T12:00:00.000Z'
const NOT_FOUND = { message: '404 Not found' }
const PROJECT_NOT_FOUND = { message: '404 Project Not Found' }
const UNAUTHORIZED = { message: '401 Unauthorized' }
const ISSUE = '/projects/30/issues/1'
const MR = '/projects/30/merge_requests/1'

/** `UserBasic` of a default-scenario user. */
function user(api: Api, id: number, name: string, username: string) {
  return { id, name, username, state: 'active', avatar_url: null, web_url: `${api.baseUrl}/${username}` }
}

/** `LabelBasic` of a label, as the labels route shows it (without its counts and priority). */
async function labelBasic(api: Api, projectId: number, labelId: number) {
  const { body } = await api.get(`/projects/${projectId}/labels/${labelId}`, { as: 'root' })
  return { id: body.id, name: body.name, color: body.color, description: body.description, description_html: body.description_html, text_color: body.text_color }
}

contract('GET /projects/:id/issues/:eventable_id/resource_label_events', {}, ({ api, sim }) => {
  it('lists the issue\'s label events oldest first, as Entities::ResourceLabelEvent', async () => {
    const res = await api.get(`${ISSUE}/resource_label_events`, { as: 'nora' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual([
      { id: 1, user: user(api, 4, 'Devon Developer', 'devon'), created_at: '2021-03-10T09:00:00.000Z', resource_type: 'Issue', resource_id: 405, label: await labelBasic(api, 30, 115), action: 'add' },
      { id: 2, user: user(api, 3, 'Riley Reporter', 'riley'), created_at: '2021-03-11T10:00:00.000Z', resource_type: 'Issue', resource_id: 405, label: await labelBasic(api, 30, 117), action: 'add' },
    ])
    expect([res.headers.get('x-total'), res.headers.get('x-per-page')]).toEqual(['2', '20'])
  })

  it('leaves out, after paginating, an event whose label the caller cannot read', async () => {
    // A label of the private acme/platform/api, readable by devon (acme developer), not by nora.
    sim().db.tables.resource_label_events.insert({ issue_id: 405, merge_request_id: null, label_id: 113, user_id: 5, action: 'add', created_at: NOW })
    const nora = await api.get(`${ISSUE}/resource_label_events`, { as: 'nora' })
    expect([nora.body.map((e: { id: number }) => e.id), nora.headers.get('x-total')]).toEqual([[1, 2], '3'])
    const devon = await api.get(`${ISSUE}/resource_label_events`, { as: 'devon' })
    expect(devon.body.map((e: { id: number; label: { name: string } }) => [e.id, e.label.name])).toEqual([[1, 'p1'], [2, 'ux'], [5, 'performance']])
  })

  it('shows a deleted label as null', async () => {
    expect((await api.delete('/projects/30/labels/115', { as: 'max' })).status).toBe(204)
    const res = await api.get(`${ISSUE}/resource_label_events`, { as: 'nora' })
    expect(res.body.map((e: { label: unknown }) => e.label)).toEqual([null, await labelBasic(api, 30, 117)])
  })

  it.each([
    ['anonymous', undefined, `${ISSUE}/resource_label_events`, 401, UNAUTHORIZED],
    ['a confidential issue to a non-member', 'nora', '/projects/30/issues/5/resource_label_events', 404, NOT_FOUND],
    ['a missing issue', 'riley', '/projects/30/issues/99/resource_label_events', 404, NOT_FOUND],
    ['an eventable id that is not a number', 'riley', '/projects/30/issues/abc/resource_label_events', 404, NOT_FOUND],
    ['a private project', 'nora', '/projects/21/issues/1/resource_label_events', 404, PROJECT_NOT_FOUND],
  ])('refuses %s', async (_what, as, path, status, expected) => {
    expect(await api.get(path, { as })).toBeGitLabError(status, expected)
  })
})

contract('GET /projects/:id/issues/:eventable_id/resource_label_events/:event_id', {}, ({ api, sim }) => {
  it('shows one event', async () => {
    const res = await api.get(`${ISSUE}/resource_label_events/2`, { as: 'gina' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ id: 2, user: user(api, 3, 'Riley Reporter', 'riley'), created_at: '2021-03-11T10:00:00.000Z', resource_type: 'Issue', resource_id: 405, label: await labelBasic(api, 30, 117), action: 'add' })
  })

  it.each([
    ['an event of another issue', `/projects/30/issues/2/resource_label_events/1`, 404, NOT_FOUND],
    ['a missing event', `${ISSUE}/resource_label_events/99`, 404, NOT_FOUND],
    ['an event id that is not a number', `${ISSUE}/resource_label_events/abc`, 404, NOT_FOUND],
  ])('refuses %s', async (_what, path, status, expected) => {
    expect(await api.get(path, { as: 'riley' })).toBeGitLabError(status, expected)
  })

  it('answers 404 ResourceLabelEvent Not Found for an event whose label the caller cannot read', async () => {
    const event = sim().db.tables.resource_label_events.insert({ issue_id: 405, merge_request_id: null, label_id: 113, user_id: 5, action: 'remove', created_at: NOW })
    expect(await api.get(`${ISSUE}/resource_label_events/${event.id}`, { as: 'nora' })).toBeGitLabError(404, { message: '404 ResourceLabelEvent Not Found' })
    expect((await api.get(`${ISSUE}/resource_label_events/${event.id}`, { as: 'devon' })).status).toBe(200)
  })
})

contract('GET /projects/:id/issues/:eventable_id/resource_milestone_events', {}, ({ api, sim }) => {
  it('lists the issue\'s milestone events, as Entities::ResourceMilestoneEvent', async () => {
    const milestone = (await api.get('/projects/30/milestones/221', { as: 'nora' })).body
    const res = await api.get(`${ISSUE}/resource_milestone_events`, { as: 'nora' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual([{ id: 1, user: user(api, 5, 'Max Maintainer', 'max'), created_at: '2021-03-12T09:00:00.000Z', resource_type: 'Issue', resource_id: 405, milestone, action: 'add', state: 'opened' }])
    expect(res.headers.get('x-total')).toBe('1')
  })

  it('leaves out, before paginating, an event whose milestone the caller cannot read; 404 for that event alone', async () => {
    const event = sim().db.tables.resource_milestone_events.insert({ issue_id: 405, merge_request_id: null, milestone_id: 210, user_id: 5, action: 'add', state: 'opened', created_at: NOW })
    const nora = await api.get(`${ISSUE}/resource_milestone_events`, { as: 'nora' })
    expect([nora.body.map((e: { id: number }) => e.id), nora.headers.get('x-total')]).toEqual([[1], '1'])
    const devon = await api.get(`${ISSUE}/resource_milestone_events`, { as: 'devon' })
    expect(devon.body.map((e: { id: number }) => e.id)).toEqual([1, event.id])
    expect(await api.get(`${ISSUE}/resource_milestone_events/${event.id}`, { as: 'nora' })).toBeGitLabError(404, { message: '404 ResourceMilestoneEvent Not Found' })
  })

  it('shows one event; refuses an event of another issue', async () => {
    expect((await api.get(`${ISSUE}/resource_milestone_events/1`, { as: 'riley' })).body).toMatchObject({ id: 1, action: 'add', milestone: { id: 221 } })
    expect(await api.get('/projects/30/issues/2/resource_milestone_events/1', { as: 'riley' })).toBeGitLabError(404, NOT_FOUND)
  })
})

contract('GET /projects/:id/issues/:eventable_iid/resource_state_events', {}, ({ api }) => {
  it('lists the issue\'s state events, as Entities::ResourceStateEvent', async () => {
    const res = await api.get('/projects/30/issues/3/resource_state_events', { as: 'nora' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual([{ id: 1, user: user(api, 5, 'Max Maintainer', 'max'), created_at: '2021-03-16T09:00:00.000Z', resource_type: 'Issue', resource_id: 407, state: 'closed' }])
  })

  it.each([
    ['a state event of another eventable', 'riley', '/projects/30/issues/3/resource_state_events/2', 404, NOT_FOUND],
    ['an event id that is not an integer', 'riley', '/projects/30/issues/3/resource_state_events/abc', 400, { error: 'event_id is invalid' }],
    ['an eventable iid that is not an integer', 'riley', '/projects/30/issues/abc/resource_state_events', 400, { error: 'eventable_iid is invalid' }],
    ['anonymous', undefined, '/projects/30/issues/3/resource_state_events', 401, UNAUTHORIZED],
  ])('refuses %s', async (_what, as, path, status, expected) => {
    expect(await api.get(path, { as })).toBeGitLabError(status, expected)
  })
})

contract('GET /projects/:id/merge_requests/:eventable_id/resource_label_events', {}, ({ api }) => {
  it('lists and shows the merge request\'s label events (the scenario\'s: ux added, then removed)', async () => {
    const ux = await labelBasic(api, 30, 117)
    const devon = user(api, 4, 'Devon Developer', 'devon')
    const expected = [
      { id: 3, user: devon, created_at: '2021-03-21T09:10:00.000Z', resource_type: 'MergeRequest', resource_id: 502, label: ux, action: 'add' },
      { id: 4, user: devon, created_at: '2021-03-21T09:20:00.000Z', resource_type: 'MergeRequest', resource_id: 502, label: ux, action: 'remove' },
    ]
    expect((await api.get(`${MR}/resource_label_events`, { as: 'nora' })).body).toEqual(expected)
    expect((await api.get(`${MR}/resource_label_events/4`, { as: 'nora' })).body).toEqual(expected[1])
    expect(await api.get('/projects/30/issues/1/resource_label_events/4', { as: 'nora' })).toBeGitLabError(404, NOT_FOUND)
  })

  it('lists the merge request\'s milestone events', async () => {
    const res = await api.get(`${MR}/resource_milestone_events`, { as: 'nora' })
    expect(res.body.map((e: { id: number; milestone: { id: number }; action: string; state: string }) => [e.id, e.milestone.id, e.action, e.state])).toEqual([[2, 221, 'add', 'opened'], [3, 221, 'remove', 'opened']])
  })
})

contract('GET /projects/:id/merge_requests/:eventable_iid/resource_state_events', {}, ({ api }) => {
  it('lists and shows the merge request\'s state events', async () => {
    const expected = { id: 2, user: user(api, 5, 'Max Maintainer', 'max'), created_at: '2021-03-16T08:00:00.000Z', resource_type: 'MergeRequest', resource_id: 503, state: 'merged' }
    expect((await api.get('/projects/30/merge_requests/2/resource_state_events', { as: 'nora' })).body).toEqual([expected])
    expect((await api.get('/projects/30/merge_requests/2/resource_state_events/2', { as: 'nora' })).body).toEqual(expected)
  })

  it('refuses merge requests the caller cannot read (a guest of a private project) with 404 Not found', async () => {
    // gina is a guest of acme, which holds acme/platform/api; guests read no merge requests there.
    expect(await api.get('/projects/21/merge_requests/1/resource_state_events', { as: 'gina' })).toBeGitLabError(404, NOT_FOUND)
  })
})

contract('events written by the issue writes', {}, ({ api }) => {
  it('records a create\'s labels and milestone (no state event)', async () => {
    const created = await api.post('/projects/30/issues', { as: 'max', body: { title: 'Evented', labels: 'ux,p2', milestone_id: 222 } })
    expect(created.status).toBe(201)
    const base = `/projects/30/issues/${created.body.iid}`
    const labels = await api.get(`${base}/resource_label_events`, { as: 'max' })
    expect(labels.body.map((e: { label: { name: string }; action: string; user: { username: string }; created_at: string; resource_id: number }) => [e.label.name, e.action, e.user.username, e.created_at, e.resource_id])).toEqual([
      ['p2', 'add', 'max', NOW, created.body.id],
      ['ux', 'add', 'max', NOW, created.body.id],
    ])
    const milestones = await api.get(`${base}/resource_milestone_events`, { as: 'max' })
    expect(milestones.body.map((e: { milestone: { id: number }; action: string; state: string }) => [e.milestone.id, e.action, e.state])).toEqual([[222, 'add', 'opened']])
    expect((await api.get(`${base}/resource_state_events`, { as: 'max' })).body).toEqual([])
  })

  it('records an update\'s added and removed labels, milestone change and state changes', async () => {
    expect((await api.put(ISSUE, { as: 'riley', body: { add_labels: 'p2', remove_labels: 'ux', milestone_id: 222 } })).status).toBe(200)
    expect((await api.put(ISSUE, { as: 'riley', body: { milestone_id: 0, state_event: 'close' } })).status).toBe(200)
    expect((await api.put(ISSUE, { as: 'riley', body: { state_event: 'reopen' } })).status).toBe(200)
    const labels = (await api.get(`${ISSUE}/resource_label_events`, { as: 'riley' })).body
    expect(labels.map((e: { id: number; label: { name: string }; action: string }) => [e.id, e.label.name, e.action])).toEqual([[1, 'p1', 'add'], [2, 'ux', 'add'], [5, 'p2', 'add'], [6, 'ux', 'remove']])
    const milestones = (await api.get(`${ISSUE}/resource_milestone_events`, { as: 'riley' })).body
    expect(milestones.map((e: { milestone: { id: number }; action: string; state: string }) => [e.milestone.id, e.action, e.state])).toEqual([[221, 'add', 'opened'], [222, 'add', 'opened'], [222, 'remove', 'closed']])
    const states = (await api.get(`${ISSUE}/resource_state_events`, { as: 'riley' })).body
    expect(states).toEqual([
      { id: 3, user: user(api, 3, 'Riley Reporter', 'riley'), created_at: NOW, resource_type: 'Issue', resource_id: 405, state: 'closed' },
      { id: 4, user: user(api, 3, 'Riley Reporter', 'riley'), created_at: NOW, resource_type: 'Issue', resource_id: 405, state: 'reopened' },
    ])
  })

  it('records nothing for an update that changes none of them, or that a guest cannot make', async () => {
    expect((await api.put(ISSUE, { as: 'riley', body: { labels: 'p1,ux', title: 'Crash on save!' } })).status).toBe(200)
    // A guest's labels are dropped (`filter_params` without `admin_issue`): nothing changes.
    expect((await api.put('/projects/30/issues/2', { as: 'gina', body: { labels: 'p1' } })).status).toBe(200)
    expect((await api.get(`${ISSUE}/resource_label_events`, { as: 'riley' })).body).toHaveLength(2)
    expect((await api.get('/projects/30/issues/2/resource_label_events', { as: 'riley' })).body).toEqual([])
  })

  it('records the close of a moved issue on the original', async () => {
    expect((await api.post('/projects/30/issues/2/move', { as: 'max', body: { to_project_id: 20 } })).status).toBe(201)
    const states = (await api.get('/projects/30/issues/2/resource_state_events', { as: 'max' })).body
    expect(states.map((e: { state: string; user: { username: string } }) => [e.state, e.user.username])).toEqual([['closed', 'max']])
  })

  it('records the close a /promote note makes', async () => {
    // acme/website (20) is in group acme, where riley (Reporter) may create epics.
    expect((await api.post('/projects/20/issues/1/notes', { as: 'riley', body: { body: '/promote' } })).status).toBe(202)
    const states = (await api.get('/projects/20/issues/1/resource_state_events', { as: 'riley' })).body
    expect(states).toEqual([{ id: 3, user: user(api, 3, 'Riley Reporter', 'riley'), created_at: NOW, resource_type: 'Issue', resource_id: 400, state: 'closed' }])
  })

  it('acts as the sudo user', async () => {
    await api.put(ISSUE, { as: 'root', headers: { Sudo: 'max' }, body: { state_event: 'close' } })
    expect((await api.get(`${ISSUE}/resource_state_events`, { as: 'max' })).body.map((e: { user: { username: string } }) => e.user.username)).toEqual(['max'])
  })
})

contract('events written by the merge request writes', {}, ({ api }) => {
  it('records labels, milestone and state changes of PUT …/merge_requests/:iid', async () => {
    expect((await api.put(MR, { as: 'devon', body: { labels: 'p1', milestone_id: 221, state_event: 'close' } })).status).toBe(200)
    const labels = (await api.get(`${MR}/resource_label_events`, { as: 'devon' })).body
    expect(labels.slice(2)).toEqual([{ id: 5, user: user(api, 4, 'Devon Developer', 'devon'), created_at: NOW, resource_type: 'MergeRequest', resource_id: 502, label: await labelBasic(api, 30, 115), action: 'add' }])
    const milestones = (await api.get(`${MR}/resource_milestone_events`, { as: 'devon' })).body
    expect(milestones.map((e: { resource_type: string; milestone: { id: number }; action: string; state: string }) => [e.resource_type, e.milestone.id, e.action, e.state])).toEqual([
      ['MergeRequest', 221, 'add', 'opened'],
      ['MergeRequest', 221, 'remove', 'opened'],
      ['MergeRequest', 221, 'add', 'closed'],
    ])
    const states = (await api.get(`${MR}/resource_state_events`, { as: 'devon' })).body
    expect(states.map((e: { id: number; state: string }) => [e.id, e.state])).toEqual([[3, 'closed']])
    expect((await api.put(MR, { as: 'devon', body: { state_event: 'reopen' } })).status).toBe(200)
    expect((await api.get(`${MR}/resource_state_events/4`, { as: 'devon' })).body).toMatchObject({ id: 4, state: 'reopened', resource_type: 'MergeRequest' })
  })
})

contract('merging a merge request writes its merged state event', {}, ({ api }) => {
  it('PUT …/merge records `merged` by the merger (PostMergeService → SystemNoteService.change_status)', async () => {
    // acme/website !1 (feature/login into main) merges cleanly for max, a maintainer.
    expect((await api.put('/projects/20/merge_requests/1/merge', { as: 'max' })).status).toBe(200)
    const res = await api.get('/projects/20/merge_requests/1/resource_state_events', { as: 'max' })
    expect(res.body.map((e: { state: string; user: { username: string }; created_at: string }) => [e.state, e.user.username, e.created_at])).toEqual([['merged', 'max', NOW]])
  })
})
