/**
 * Merge requests over the default scenario (issue 25 item 1; issue 23 items 7, 8).
 * acme/website (20, public): !1 (500, opened, devon, frontend, v1.0), !2 (501, merged, max, bug),
 * !3 (504, closed by max, devon, reviewer max, head commit = pipeline 1000), !4 (505, draft, max,
 * assigned devon, reviewer riley). ivy/tracker (30): !1 (502, closes #1), !2 (503, merged).
 * acme/platform/api (21, private) has none. Sources: gitlab: lib/api/merge_requests.rb,
 * spec/requests/api/merge_requests_spec.rb.
 */
import { expect, it } from 'vitest'
import { contract, type ApiResponse } from '../../support/contract.js'

const ids = (res: ApiResponse): number[] => res.body.map((mr: { id: number }) => mr.id)
const SHA = /^[0-9a-f]{40}$/
/** The default scenario's frozen clock. */
const NOW = '2021-04-01T12:00:00.000Z'

contract('GET /merge_requests', {}, ({ api }) => {
  it('returns 401 for an anonymous caller unless scope=all', async () => {
    await expect(await api.get('/merge_requests')).toBeGitLabError(401, { message: '401 Unauthorized' })
    const all = await api.get('/merge_requests', { query: { scope: 'all' } })
    expect(all.status).toBe(200)
    expect(ids(all)).toEqual([502, 505, 503, 500, 504, 501])
  })

  it('defaults to the merge requests the caller created, newest first', async () => {
    expect(ids(await api.get('/merge_requests', { as: 'devon' }))).toEqual([502, 500, 504])
  })

  it.each([
    ['assigned_to_me', { scope: 'assigned_to_me' }, [505]],
    ['assigned-to-me (dashed)', { scope: 'assigned-to-me' }, [505]],
    ['state=opened', { scope: 'all', state: 'opened' }, [502, 505, 500]],
    ['state=merged', { scope: 'all', state: 'merged' }, [503, 501]],
    ['state=closed', { scope: 'all', state: 'closed' }, [504]],
    ['author_username', { scope: 'all', author_username: 'max' }, [505, 503, 501]],
    ['reviewer_id', { scope: 'all', reviewer_id: 3 }, [505]],
    ['reviewer_username', { scope: 'all', reviewer_username: 'max' }, [504]],
    ['reviewer_id=None', { scope: 'all', reviewer_id: 'None' }, [502, 503, 500, 501]],
    ['assignee_id=Any', { scope: 'all', assignee_id: 'Any' }, [505]],
    ['labels (all of them)', { scope: 'all', labels: 'frontend,docs' }, [504]],
    ['labels=None', { scope: 'all', labels: 'None' }, [502, 505, 503]],
    ['milestone', { scope: 'all', milestone: 'v1.0' }, [500]],
    ['milestone=None', { scope: 'all', milestone: 'None' }, [502, 505, 503, 504]],
    ['search in title', { scope: 'all', search: 'login' }, [500]],
    ['source_branch', { scope: 'all', source_branch: 'release/prep' }, [505]],
    ['target_branch', { scope: 'all', target_branch: 'nope' }, []],
    ['wip=yes', { scope: 'all', wip: 'yes' }, [505]],
    ['created_after', { scope: 'all', created_after: '2021-03-15T09:00:00Z' }, [502, 505, 503]],
    ['not[author_username]', { scope: 'all', 'not[author_username]': 'max' }, [502, 500, 504]],
    ['order_by=updated_at&sort=asc', { scope: 'all', order_by: 'updated_at', sort: 'asc' }, [501, 500, 504, 503, 502, 505]],
  ])('filters: %s', async (_name, query, expected) => {
    expect(ids(await api.get('/merge_requests', { as: 'devon', query }))).toEqual(expected)
  })

  it.each([
    [{ scope: 'mine' }, 'scope does not have a valid value'],
    [{ assignee_id: 'someone' }, "assignee_id should be an integer, 'None' or 'Any'"],
    [{ author_id: 4, author_username: 'devon' }, 'author_id, author_username are mutually exclusive'],
    [{ state: 'open' }, 'state does not have a valid value'],
  ])('answers %j with 400', async (query, error) => {
    await expect(await api.get('/merge_requests', { as: 'devon', query })).toBeGitLabError(400, { error })
  })

  it('presents view=simple as MergeRequestSimple', async () => {
    const res = await api.get('/merge_requests', { as: 'devon', query: { view: 'simple', scope: 'all', per_page: 1 } })
    expect(Object.keys(res.body[0])).toEqual(['id', 'iid', 'project_id', 'title', 'description', 'state', 'created_at', 'updated_at', 'web_url'])
    expect(res.headers.get('x-total')).toBe('6')
  })
})

contract('GET /projects/:id/merge_requests', {}, ({ api }) => {
  it('lists the project merge requests, iids[] and pagination', async () => {
    expect(ids(await api.get('/projects/20/merge_requests'))).toEqual([505, 500, 504, 501])
    expect(ids(await api.get('/projects/20/merge_requests', { query: { 'iids[]': [1, 3] } }))).toEqual([500, 504])
    const page = await api.get('/projects/20/merge_requests', { query: { per_page: 3, page: 2 } })
    expect([ids(page), page.headers.get('x-total'), page.headers.get('x-total-pages')]).toEqual([[501], '4', '2'])
  })

  it('refuses a guest of a private project (read_merge_request is Reporter+) and hides it from others', async () => {
    await expect(await api.get('/projects/21/merge_requests', { as: 'gina' })).toBeGitLabError(403, { message: '403 Forbidden' })
    await expect(await api.get('/projects/21/merge_requests', { as: 'nora' })).toBeGitLabError(404, { message: '404 Project Not Found' })
  })
})

contract('GET /groups/:id/merge_requests', {}, ({ api }) => {
  it('lists the merge requests of the group and its subgroups with references relative to it', async () => {
    const res = await api.get('/groups/10/merge_requests', { query: { state: 'opened' } })
    expect(ids(res)).toEqual([505, 500])
    expect(res.body[1].references).toEqual({ short: '!1', relative: 'website!1', full: 'acme/website!1' })
  })
})

contract('GET /projects/:id/merge_requests/:merge_request_iid', {}, ({ api }) => {
  it('presents the MergeRequest entity with diff_refs, subscribed and the head pipeline', async () => {
    const res = await api.get('/projects/20/merge_requests/3', { as: 'devon' })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      id: 504,
      state: 'closed',
      closed_by: { username: 'max' },
      reviewers: [{ username: 'max' }],
      subscribed: true,
      diff_refs: { base_sha: expect.stringMatching(SHA), head_sha: '3f1c2a9b8e7d6c5b4a392817161514131211100f', start_sha: expect.stringMatching(SHA) },
      pipeline: { id: 1000, status: 'failed', web_url: `${api.baseUrl}/acme/website/-/pipelines/1000` },
      head_pipeline: { id: 1000, status: 'failed', coverage: '97.50', detailed_status: { text: 'failed', group: 'failed' } },
      user: { can_merge: false }, // `can_be_merged_by?`: main is protected (Maintainers merge)
    })
    const merged = await api.get('/projects/20/merge_requests/2')
    expect([merged.body.merge_commit_sha, merged.body.subscribed, merged.body.user]).toEqual([expect.stringMatching(SHA), false, { can_merge: false }])
  })

  it('answers the same SHAs on every load of the scenario', async () => {
    const a = await api.get('/projects/20/merge_requests/1')
    const b = await api.get('/projects/20/merge_requests/1')
    expect(a.body.diff_refs).toEqual(b.body.diff_refs)
  })

  it('returns 404 for a missing merge request and for a private project', async () => {
    await expect(await api.get('/projects/20/merge_requests/99')).toBeGitLabError(404, { message: '404 Not found' })
    await expect(await api.get('/projects/21/merge_requests/1')).toBeGitLabError(404, { message: '404 Project Not Found' })
  })
})

contract('PUT /projects/:id/merge_requests/:merge_request_iid', {}, ({ api, sim }) => {
  it('changes the title, and a Draft: prefix makes it a draft', async () => {
    const res = await api.put('/projects/20/merge_requests/1', { as: 'max', body: { title: 'Draft: Fix the login button' } })
    expect([res.status, res.body.title, res.body.draft, res.body.work_in_progress]).toEqual([200, 'Draft: Fix the login button', true, true])
    const undraft = await api.put('/projects/20/merge_requests/1', { as: 'max', body: { title: 'Fix it' } })
    expect([undraft.body.draft, undraft.body.updated_at]).toEqual([false, NOW])
  })

  it('closes and reopens with state_event', async () => {
    const closed = await api.put('/projects/20/merge_requests/1', { as: 'max', body: { state_event: 'close' } })
    expect([closed.body.state, closed.body.closed_by?.username, closed.body.closed_at]).toEqual(['closed', 'max', NOW])
    const reopened = await api.put('/projects/20/merge_requests/1', { as: 'max', body: { state_event: 'reopen' } })
    expect([reopened.body.state, reopened.body.closed_by, reopened.body.closed_at]).toEqual(['opened', null, null])
  })

  it('changes labels, assignees, reviewers, milestone and merge options', async () => {
    const res = await api.put('/projects/20/merge_requests/1', {
      as: 'max',
      body: { add_labels: 'docs', remove_labels: 'frontend', assignee_ids: [5], reviewer_ids: [3], milestone_id: 201, remove_source_branch: true, squash: true, discussion_locked: true },
    })
    expect(res.status).toBe(200)
    expect({
      labels: res.body.labels,
      assignees: res.body.assignees.map((u: { username: string }) => u.username),
      reviewers: res.body.reviewers.map((u: { username: string }) => u.username),
      milestone: res.body.milestone.title,
      force_remove_source_branch: res.body.force_remove_source_branch,
      squash: res.body.squash,
      discussion_locked: res.body.discussion_locked,
    }).toEqual({ labels: ['docs'], assignees: ['max'], reviewers: ['riley'], milestone: 'v2.0', force_remove_source_branch: true, squash: true, discussion_locked: true })
  })

  it('lets the author below Developer change the title but not the labels', async () => {
    sim().db.tables.merge_requests.update(500, { author_id: 3 })
    const res = await api.put('/projects/20/merge_requests/1', { as: 'riley', body: { title: 'Mine', labels: 'docs' } })
    expect([res.status, res.body.title, res.body.labels]).toEqual([200, 'Mine', ['frontend']])
  })

  it.each([
    [{}, 400, { error: 'assignee_id, assignee_ids, reviewer_ids, description, labels, add_labels, remove_labels, milestone_id, remove_source_branch, allow_collaboration, allow_maintainer_to_push, squash, target_branch, title, state_event, discussion_locked are missing, at least one parameter must be provided' }],
    [{ title: '' }, 400, { error: 'title is empty' }],
    [{ title: 'x'.repeat(256) }, 400, { message: { title: ['is too long (maximum is 255 characters)'] } }],
    [{ state_event: 'merge' }, 400, { error: 'state_event does not have a valid value' }],
    [{ target_branch: 'feature/login' }, 422, { message: ["You can't use same project/branch for source and target"] }],
  ])('answers %j with %i', async (body, status, error) => {
    const res = await api.put('/projects/20/merge_requests/1', { as: 'max', body })
    await expect(res).toBeGitLabError(status, error)
  })

  it('returns 409 when another open merge request has the same branches', async () => {
    sim().db.tables.merge_requests.update(505, { source_branch: 'feature/login', target_branch: 'develop' })
    const res = await api.put('/projects/20/merge_requests/1', { as: 'max', body: { target_branch: 'develop' } })
    await expect(res).toBeGitLabError(409, { message: ['Another open merge request already exists for this source branch: !4'] })
  })

  it('returns 403 for a reporter who is neither author nor assignee', async () => {
    await expect(await api.put('/projects/20/merge_requests/1', { as: 'riley', body: { title: 'x' } })).toBeGitLabError(403, { message: '403 Forbidden' })
  })
})

contract('DELETE /projects/:id/merge_requests/:merge_request_iid', {}, ({ api, sim }) => {
  it('lets the owner delete it, with its to-dos', async () => {
    expect((await api.delete('/projects/20/merge_requests/1', { as: 'olive' })).status).toBe(204)
    expect([sim().db.tables.merge_requests.get(500), sim().db.tables.todos.get(603)]).toEqual([undefined, undefined])
    await expect(await api.get('/projects/20/merge_requests/1')).toBeGitLabError(404, { message: '404 Not found' })
  })

  it('refuses a maintainer, and answers 404 for a missing one', async () => {
    await expect(await api.delete('/projects/20/merge_requests/1', { as: 'max' })).toBeGitLabError(403, { message: '403 Forbidden' })
    await expect(await api.delete('/projects/20/merge_requests/9', { as: 'olive' })).toBeGitLabError(404, { message: '404 Not found' })
  })
})

contract('GET /projects/:id/merge_requests/:merge_request_iid sub-resources', {}, ({ api }) => {
  it('lists participants: the author, then the assignees', async () => {
    const res = await api.get('/projects/20/merge_requests/4/participants')
    expect(res.body.map((u: { username: string }) => u.username)).toEqual(['max', 'devon'])
  })

  it('lists the issues it closes (IssueBasic), hiding those the caller cannot see', async () => {
    const res = await api.get('/projects/30/merge_requests/1/closes_issues')
    expect([res.status, res.body.map((i: { id: number }) => i.id), res.body[0].iid]).toEqual([200, [405], 1])
  })

  it('lists its pipelines (PipelineBasic), newest first', async () => {
    const res = await api.get('/projects/20/merge_requests/3/pipelines')
    expect(res.body).toEqual([
      { id: 1000, project_id: 20, sha: '3f1c2a9b8e7d6c5b4a392817161514131211100f', ref: 'main', status: 'failed', created_at: '2021-03-11T09:00:00.000Z', updated_at: res.body[0].updated_at, web_url: `${api.baseUrl}/acme/website/-/pipelines/1000` },
    ])
    // !1's source branch feature/login has pipelines 1004, 1005 and 1007 (pipelines area, issue 25 item 3).
    expect(ids(await api.get('/projects/20/merge_requests/1/pipelines'))).toEqual([1007, 1005, 1004])
  })
})

contract('POST /projects/:id/merge_requests/:merge_request_iid/subscribe', {}, ({ api }) => {
  it('subscribes (201), then answers 304; unsubscribe likewise', async () => {
    const res = await api.post('/projects/20/merge_requests/1/subscribe', { as: 'riley' })
    expect([res.status, res.body.subscribed]).toEqual([201, true])
    expect((await api.post('/projects/20/merge_requests/1/subscribe', { as: 'riley' })).status).toBe(304)
    const off = await api.post('/projects/20/merge_requests/1/unsubscribe', { as: 'riley' })
    expect([off.status, off.body.subscribed]).toEqual([201, false])
    expect((await api.post('/projects/20/merge_requests/1/unsubscribe', { as: 'riley' })).status).toBe(304)
  })
})

contract('POST /projects/:id/merge_requests/:merge_request_iid/todo', {}, ({ api }) => {
  it('creates a marked to-do on the merge request, 304 when one is pending', async () => {
    const res = await api.post('/projects/20/merge_requests/1/todo', { as: 'max' })
    expect([res.status, res.body.action_name, res.body.target_type, res.body.target.id, res.body.target.subscribed]).toEqual([201, 'marked', 'MergeRequest', 500, false])
    expect((await api.post('/projects/20/merge_requests/1/todo', { as: 'max' })).status).toBe(304)
    await expect(await api.post('/projects/20/merge_requests/9/todo', { as: 'max' })).toBeGitLabError(404, { message: '404 Not found' })
  })
})

contract('time tracking on merge requests', {}, ({ api }) => {
  it('sets, adds, resets and reads the time stats', async () => {
    const estimate = await api.post('/projects/20/merge_requests/1/time_estimate', { as: 'devon', body: { duration: '1w 2d' } })
    expect([estimate.status, estimate.body.human_time_estimate]).toEqual([200, '1w 2d'])
    const spent = await api.post('/projects/20/merge_requests/1/add_spent_time', { as: 'devon', body: { duration: '3h' } })
    expect([spent.status, spent.body.total_time_spent]).toEqual([201, 10800])
    expect((await api.get('/projects/20/merge_requests/1/time_stats')).body).toEqual({ time_estimate: 201600, total_time_spent: 10800, human_time_estimate: '1w 2d', human_total_time_spent: '3h' })
    expect((await api.post('/projects/20/merge_requests/1/reset_spent_time', { as: 'devon' })).body.total_time_spent).toBe(0)
    expect((await api.post('/projects/20/merge_requests/1/reset_time_estimate', { as: 'devon' })).body.time_estimate).toBe(0)
  })

  it('refuses a reporter and an unparsable duration', async () => {
    await expect(await api.post('/projects/20/merge_requests/1/time_estimate', { as: 'riley', body: { duration: '1h' } })).toBeGitLabError(403, { message: '403 Forbidden' })
    await expect(await api.post('/projects/20/merge_requests/1/time_estimate', { as: 'devon', body: { duration: 'soon' } })).toBeGitLabError(400, { message: { time_estimate: ['has an invalid format'] } })
  })
})
