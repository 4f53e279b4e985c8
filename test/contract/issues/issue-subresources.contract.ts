/**
 * The sub-resources of a project issue over both doors: time tracking, notes, participants,
 * related and closing merge requests, user agent detail, metric images.
 * Source: api-spec.md "Issues"; gitlab-behaviour.md §4.3, §5, §14 item 10;
 * gitlabhq:spec/support/shared_examples/requests/api/time_tracking_shared_examples.rb,
 * spec/requests/api/issues/*, ee/spec/requests/api/issues_spec.rb.
 * Fixtures: see issue-lists.contract.ts (ivy/tracker, project 30). acme/website (20) #1 is issue 400.
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

const FORBIDDEN = { message: '403 Forbidden' }
const NOT_FOUND = { message: '404 Not found' }
const PROJECT_NOT_FOUND = { message: '404 Project Not Found' }
const stats = (estimate: number, spent: number, humanEstimate: string | null, humanSpent: string | null) => ({
  time_estimate: estimate,
  total_time_spent: spent,
  human_time_estimate: humanEstimate,
  human_total_time_spent: humanSpent,
})

contract('POST /projects/:id/issues/:issue_iid/time_estimate', {}, ({ api, sim }) => {
  it('round-trips 1w 2d, then 3h 30m and -30m spent, as GitLab does', async () => {
    const estimate = await api.post('/projects/20/issues/1/time_estimate', { as: 'riley', body: { duration: '1w 2d' } })
    expect([estimate.status, estimate.body]).toEqual([200, stats(201_600, 0, '1w 2d', null)])
    const spent = await api.post('/projects/20/issues/1/add_spent_time', { as: 'riley', body: { duration: '3h 30m' } })
    expect([spent.status, spent.body]).toEqual([201, stats(201_600, 12_600, '1w 2d', '3h 30m')])
    const less = await api.post('/projects/20/issues/1/add_spent_time', { as: 'riley', body: { duration: '-30m' } })
    expect([less.status, less.body]).toEqual([201, stats(201_600, 10_800, '1w 2d', '3h')])
    const read = await api.get('/projects/20/issues/1/time_stats')
    expect([read.status, read.body]).toEqual([200, stats(201_600, 10_800, '1w 2d', '3h')])
  })

  it('moves updated_at when the estimate changes', async () => {
    await api.post('/projects/20/issues/1/time_estimate', { as: 'riley', body: { duration: '1mo' } })
    expect(sim().db.tables.issues.get(400)!.updated_at).toBe('2021-04-01T12:00:00.000Z')
  })

  it('accepts a negative estimate, as 13.x does', async () => {
    const res = await api.post('/projects/20/issues/1/time_estimate', { as: 'riley', body: { duration: '-1h' } })
    expect([res.status, res.body.time_estimate]).toEqual([200, -3600])
  })

  it.each([
    ['an unparsable duration', { duration: 'foo' }, 400, { message: { time_estimate: ['has an invalid format'] } }],
    ['a zero duration', { duration: '0h' }, 400, { message: { time_estimate: ['has an invalid format'] } }],
    ['no duration', {}, 400, { error: 'duration is missing' }],
  ])('refuses %s', async (_what, body, status, expected) => {
    const res = await api.post('/projects/20/issues/1/time_estimate', { as: 'riley', body })
    expect(res).toBeGitLabError(status, expected)
  })

  it.each([
    ['a guest', 'gina', '/projects/20/issues/1/time_estimate', 403, FORBIDDEN],
    ['a missing issue', 'riley', '/projects/20/issues/99/time_estimate', 404, NOT_FOUND],
    ['a confidential issue hidden from a non-member', 'nora', '/projects/20/issues/4/time_estimate', 404, NOT_FOUND],
    ['a private project', 'nora', '/projects/21/issues/1/time_estimate', 404, PROJECT_NOT_FOUND],
    ['a non-integer iid', 'riley', '/projects/20/issues/abc/time_estimate', 400, { error: 'issue_iid is invalid' }],
  ])('refuses %s', async (_what, as, path, status, expected) => {
    const res = await api.post(path, { as, body: { duration: '1h' } })
    expect(res).toBeGitLabError(status, expected)
  })
})

contract('POST /projects/:id/issues/:issue_iid/add_spent_time', {}, ({ api, sim }) => {
  it('refuses to subtract more than was spent, and changes nothing', async () => {
    const res = await api.post('/projects/30/issues/1/add_spent_time', { as: 'riley', body: { duration: '-1h' } })
    expect(res).toBeGitLabError(400, { message: { time_spent: ['Time to subtract exceeds the total time spent'] } })
    expect(sim().db.tables.issues.get(405)!.total_time_spent).toBe(1800)
  })

  it('answers 201 for a decimal duration', async () => {
    const res = await api.post('/projects/30/issues/1/add_spent_time', { as: 'riley', body: { duration: '1.5h' } })
    expect([res.status, res.body]).toEqual([201, stats(7200, 7200, '2h', '2h')])
  })
})

contract('POST /projects/:id/issues/:issue_iid/reset_time_estimate', {}, ({ api }) => {
  it('resets the estimate to 0 (200)', async () => {
    const res = await api.post('/projects/30/issues/1/reset_time_estimate', { as: 'riley' })
    expect([res.status, res.body]).toEqual([200, stats(0, 1800, null, '30m')])
  })
})

contract('POST /projects/:id/issues/:issue_iid/reset_spent_time', {}, ({ api }) => {
  it('resets the time spent to 0 (200)', async () => {
    const res = await api.post('/projects/30/issues/1/reset_spent_time', { as: 'riley' })
    expect([res.status, res.body]).toEqual([200, stats(7200, 0, '2h', null)])
  })
})

contract('GET /projects/:id/issues/:issue_iid/time_stats', {}, ({ api }) => {
  it('reads the stats of a public issue anonymously', async () => {
    const res = await api.get('/projects/30/issues/1/time_stats')
    expect([res.status, res.body]).toEqual([200, stats(7200, 1800, '2h', '30m')])
  })
})

contract('POST /projects/:id/issues/:issue_iid/notes', {}, ({ api, sim }) => {
  it('creates a note (201), counts it and touches the issue', async () => {
    const res = await api.post('/projects/20/issues/1/notes', { as: 'nora', body: { body: 'Me too' } })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      id: res.body.id,
      type: null,
      body: 'Me too',
      attachment: null,
      author: { id: 7, name: 'Nora Nobody', username: 'nora', state: 'active', avatar_url: null, web_url: `${api.baseUrl}/nora` },
      created_at: '2021-04-01T12:00:00.000Z',
      updated_at: '2021-04-01T12:00:00.000Z',
      system: false,
      noteable_id: 400,
      noteable_type: 'Issue',
      resolvable: false,
      confidential: false,
      noteable_iid: 1,
      commands_changes: {},
    })
    expect(sim().db.tables.issues.get(400)).toMatchObject({ user_notes_count: 1, updated_at: '2021-04-01T12:00:00.000Z' })
  })

  it.each([
    ['a blank body', { body: '  ' }, '/projects/20/issues/1/notes', 400, { message: '400 Bad request - Note {:note=>["can\'t be blank"]}' }],
    ['no body', {}, '/projects/20/issues/1/notes', 400, { error: 'body is missing' }],
    // `find_noteable` is IssuesFinder's `find_by!`: RecordNotFound (issue 23 item 2).
    ['a missing issue', { body: 'x' }, '/projects/20/issues/99/notes', 404, { message: '404 Not found' }],
    ['a confidential issue hidden from the caller', { body: 'x' }, '/projects/20/issues/4/notes', 404, { message: '404 Not found' }],
  ])('refuses %s', async (_what, body, path, status, expected) => {
    const before = sim().db.tables.notes.size
    const res = await api.post(path, { as: 'nora', body })
    expect(res).toBeGitLabError(status, expected)
    expect(sim().db.tables.notes.size).toBe(before)
  })

  it('needs a user', async () => {
    const res = await api.post('/projects/20/issues/1/notes', { body: { body: 'x' } })
    expect(res).toBeGitLabError(401, { message: '401 Unauthorized' })
  })
})

contract('GET /projects/:id/issues/:issue_iid/participants', {}, ({ api }) => {
  it('lists the author, the note authors, then the assignees, each once', async () => {
    const res = await api.get('/projects/30/issues/1/participants')
    expect(res.status).toBe(200)
    expect(res.body.map((user: { username: string }) => user.username)).toEqual(['devon', 'riley', 'gina'])
    expect(Object.keys(res.body[0])).toEqual(['id', 'name', 'username', 'state', 'avatar_url', 'web_url'])
  })

  it('404s an issue the caller cannot see', async () => {
    const res = await api.get('/projects/30/issues/5/participants', { as: 'gina' })
    expect(res).toBeGitLabError(404, NOT_FOUND)
  })
})

contract('GET /projects/:id/issues/:issue_iid/related_merge_requests', {}, ({ api }) => {
  it('lists closing and mentioning merge requests with the full entity', async () => {
    const closing = await api.get('/projects/30/issues/1/related_merge_requests', { as: 'devon' })
    expect(closing.status).toBe(200)
    expect(closing.body.map((mr: { id: number }) => mr.id)).toEqual([502])
    const mr = closing.body[0]
    expect(mr).toMatchObject({
      iid: 1,
      title: 'Fix crash on save',
      reference: '!1',
      references: { short: '!1', relative: '!1', full: 'ivy/tracker!1' },
      changes_count: '1', // !1's one file, from the repository
      pipeline: null,
      head_pipeline: null,
      // Issue 23 item 8: the scenario's merge requests always have their diff's SHAs.
      diff_refs: { base_sha: expect.stringMatching(/^[0-9a-f]{40}$/), head_sha: mr.sha, start_sha: expect.stringMatching(/^[0-9a-f]{40}$/) },
      merge_error: null,
      // `can_be_merged_by?`, as GET /merge_requests/:iid answers: main is protected (Maintainers merge).
      user: { can_merge: false },
    })
    expect(mr).not.toHaveProperty('subscribed')
    const mentioning = await api.get('/projects/30/issues/2/related_merge_requests', { as: 'gina' })
    expect(mentioning.body.map((m: { id: number; user: unknown }) => [m.id, m.user])).toEqual([[502, { can_merge: false }]])
  })
})

contract('GET /projects/:id/issues/:issue_iid/closed_by', {}, ({ api }) => {
  // The spec lists the same merge request fields for closed_by as for related_merge_requests
  // (gitlab-behaviour.md §14 item 7b: the spec wins over 13.x's MergeRequestBasic; issue 23 item 9).
  it('lists the merge requests that close the issue, with the fields of related_merge_requests', async () => {
    const res = await api.get('/projects/30/issues/3/closed_by')
    expect(res.status).toBe(200)
    expect(res.body.map((mr: { id: number; state: string }) => [mr.id, mr.state])).toEqual([[503, 'merged']])
    expect(res.body[0]).toMatchObject({
      reference: '!2',
      references: { short: '!2', relative: '!2', full: 'ivy/tracker!2' },
      changes_count: '0',
      latest_build_started_at: null,
      latest_build_finished_at: null,
      first_deployed_to_production_at: null,
      pipeline: null,
      head_pipeline: null,
      merge_error: null,
      user: { can_merge: false },
    })
    expect(res.body[0]).toHaveProperty('diff_refs')
    expect(res.body[0]).not.toHaveProperty('subscribed')
  })

  it.each([['anonymous', undefined], ['a developer', 'devon']])('presents the same fields, in the same order and values, as related_merge_requests, to %s', async (_who, as) => {
    const closedBy = await api.get('/projects/30/issues/3/closed_by', { as })
    const related = await api.get('/projects/30/issues/3/related_merge_requests', { as })
    const same = related.body.find((mr: { id: number }) => mr.id === 503)
    expect(Object.keys(closedBy.body[0])).toEqual(Object.keys(same))
    expect(closedBy.body[0]).toEqual(same)
  })

  it('is empty for an issue nothing closes', async () => {
    const res = await api.get('/projects/30/issues/2/closed_by')
    expect([res.status, res.body, res.headers.get('x-total')]).toEqual([200, [], '0'])
  })
})

contract('GET /projects/:id/issues/:issue_iid/user_agent_detail', {}, ({ api }) => {
  it('shows administrators how the issue was submitted', async () => {
    const res = await api.get('/projects/30/issues/1/user_agent_detail', { as: 'root' })
    expect([res.status, res.body]).toEqual([200, { user_agent: 'Mozilla/5.0 (X11; Linux x86_64)', ip_address: '192.0.2.10', akismet_submitted: false }])
  })

  it.each([
    ['anonymous', undefined, '/projects/30/issues/1/user_agent_detail', 401, { message: '401 Unauthorized' }],
    ['a maintainer (administrators only)', 'max', '/projects/30/issues/1/user_agent_detail', 403, FORBIDDEN],
    ['a non-admin on a missing issue (admin check first)', 'max', '/projects/30/issues/99/user_agent_detail', 403, FORBIDDEN],
    ['a missing issue', 'root', '/projects/30/issues/99/user_agent_detail', 404, NOT_FOUND],
    ['an issue the scenario imported (`user_agent_detail: null`)', 'root', '/projects/30/issues/2/user_agent_detail', 404, { message: '404 UserAgentDetail Not Found' }],
  ])('refuses %s', async (_what, as, path, status, expected) => {
    const res = await api.get(path, { as })
    expect(res).toBeGitLabError(status, expected)
  })

  it('answers 200 for every other issue of the default scenario, written or generated: a default detail, deterministic (issue 23 item 12)', async () => {
    const issues: { id: number; iid: number; project_id: number }[] = []
    for (let page = 1; ; page++) {
      const res = await api.get('/issues', { as: 'root', query: { scope: 'all', per_page: 100, page } })
      issues.push(...res.body)
      if (res.headers.get('x-next-page') === '') break
    }
    expect(issues.length).toBeGreaterThan(25)
    const answers = await Promise.all(issues.map((issue) => api.get(`/projects/${issue.project_id}/issues/${issue.iid}/user_agent_detail`, { as: 'root' })))
    const missing = issues.filter((_, i) => answers[i]!.status !== 200).map((issue) => issue.id)
    expect(missing).toEqual([406])
    const byId = new Map(issues.map((issue, i) => [issue.id, answers[i]!.body]))
    const browser = 'Mozilla/5.0 (X11; Linux x86_64; rv:87.0) Gecko/20100101 Firefox/87.0'
    expect(byId.get(407)).toEqual({ user_agent: browser, ip_address: `198.51.100.${1 + (407 % 254)}`, akismet_submitted: false })
    expect(byId.get(1_000_000)).toEqual({ user_agent: browser, ip_address: `198.51.100.${1 + (1_000_000 % 254)}`, akismet_submitted: false })
  })

  it('records the creating request for an issue made through the API: User-Agent and the client address', async () => {
    const made = await api.post('/projects/30/issues', { as: 'root', body: { title: 'from a script' }, headers: { 'User-Agent': 'python-gitlab/2.10.1', 'X-Forwarded-For': '203.0.113.5' } })
    const res = await api.get(`/projects/30/issues/${made.body.iid}/user_agent_detail`, { as: 'root' })
    expect([res.status, res.body]).toEqual([200, { user_agent: 'python-gitlab/2.10.1', ip_address: '203.0.113.5', akismet_submitted: false }])
  })
})

/** A small PNG-ish upload. */
function upload(url?: string): FormData {
  const form = new FormData()
  form.append('file', new File([new Uint8Array([137, 80, 78, 71, 13, 10])], 'graph.png', { type: 'image/png' }))
  if (url) form.append('url', url)
  return form
}

contract('POST /projects/:id/issues/:issue_iid/metric_images', {}, ({ api, sim }) => {
  it('stores an image on an incident (201) and lists it', async () => {
    const res = await api.post('/projects/30/issues/4/metric_images', { as: 'riley', multipart: upload('https://grafana.example/d/1') })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      id: res.body.id,
      created_at: '2021-04-01T12:00:00.000Z',
      filename: 'graph.png',
      file_path: `/uploads/-/system/issuable_metric_image/file/${res.body.id}/graph.png`,
      url: 'https://grafana.example/d/1',
    })
    const stored = sim().db.tables.issuable_metric_images.get(res.body.id)!
    expect(Buffer.from(stored.data, 'base64')).toEqual(Buffer.from([137, 80, 78, 71, 13, 10]))
    const list = await api.get('/projects/30/issues/4/metric_images')
    expect([list.status, list.body, list.headers.get('x-total')]).toEqual([200, [res.body], null])
  })

  it.each([
    ['an issue that is no incident', 'riley', '/projects/30/issues/1/metric_images', 403, { message: 'Not allowed!' }],
    ['a guest', 'gina', '/projects/30/issues/4/metric_images', 403, { message: 'Not allowed!' }],
    // EE IssuablePolicy `~is_project_member` (issue 23 item 4): an administrator who is no member too.
    ['an administrator who is no member', 'root', '/projects/30/issues/4/metric_images', 403, { message: 'Not allowed!' }],
    ['a missing issue', 'riley', '/projects/30/issues/99/metric_images', 404, NOT_FOUND],
  ])('refuses %s', async (_what, as, path, status, expected) => {
    const res = await api.post(path, { as, multipart: upload() })
    expect(res).toBeGitLabError(status, expected)
  })

  it('refuses a missing file', async () => {
    const res = await api.post('/projects/30/issues/4/metric_images', { as: 'riley', body: {} })
    expect(res).toBeGitLabError(400, { error: 'file is missing' })
  })
})

contract('DELETE /projects/:id/issues/:issue_iid/metric_images/:image_id', {}, ({ api, sim }) => {
  it('deletes an image (204)', async () => {
    const made = await api.post('/projects/30/issues/4/metric_images', { as: 'riley', multipart: upload() })
    const res = await api.delete(`/projects/30/issues/4/metric_images/${made.body.id}`, { as: 'riley' })
    expect([res.status, res.text]).toEqual([204, ''])
    expect(sim().db.tables.issuable_metric_images.size).toBe(0)
  })

  it.each([
    ['an unknown image', 'riley', 404, { message: 'Metric image not found' }],
    ['a guest who is not the author', 'gina', 403, FORBIDDEN],
    ['a non-member', 'nora', 403, FORBIDDEN],
    ['an administrator who is no member', 'root', 403, FORBIDDEN],
  ])('refuses %s', async (_what, as, status, expected) => {
    const res = await api.delete('/projects/30/issues/4/metric_images/9999', { as })
    expect(res).toBeGitLabError(status, expected)
  })

  it('refuses an administrator who is no member an existing image, and lets one who is a member delete it', async () => {
    const made = await api.post('/projects/30/issues/4/metric_images', { as: 'riley', multipart: upload() })
    const refused = await api.delete(`/projects/30/issues/4/metric_images/${made.body.id}`, { as: 'root' })
    expect([refused.status, refused.body]).toEqual([403, FORBIDDEN])
    expect(sim().db.tables.issuable_metric_images.size).toBe(1)
    sim().db.tables.members.insert({ source_type: 'project', source_id: 30, user_id: 1, access_level: 10, expires_at: null, created_at: '2021-03-20T00:00:00.000Z', updated_at: '2021-03-20T00:00:00.000Z', created_by_id: null, override: false })
    const upload2 = await api.post('/projects/30/issues/4/metric_images', { as: 'root', multipart: upload() })
    expect(upload2.status).toBe(201)
    const res = await api.delete(`/projects/30/issues/4/metric_images/${made.body.id}`, { as: 'root' })
    expect([res.status, res.text]).toEqual([204, ''])
  })
})

contract('GET /projects/:id/issues/:issue_iid/metric_images', {}, ({ api }) => {
  it('is an empty, unpaginated array for an incident without images', async () => {
    const res = await api.get('/projects/30/issues/4/metric_images')
    expect([res.status, res.body, res.headers.get('x-total')]).toEqual([200, [], null])
  })
})
