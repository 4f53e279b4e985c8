/**
 * A merge request's review as GitLab 13.12 CE has it, over both doors: approvals (read, approve with
 * an optional `sha`, unapprove; twice is 401, unapproving without an approval 404), diff versions (one
 * at creation, one per push to the source branch), and `POST …/pipelines`. `approval_state` is EE:
 * CE's catch-all 404. Issue 34 item 2; gitlab (13.12): lib/api/merge_request_approvals.rb,
 * lib/api/entities/merge_request_approvals.rb, lib/api/merge_request_diffs.rb, lib/api/merge_requests.rb.
 * Default scenario: acme/website (20) !1 "Fix the login button" (devon's, feature/login → main);
 * riley reporter, devon developer, max maintainer of acme; nora nobody; acme/platform/api (21) private.
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

const MR = '/projects/20/merge_requests/1'
const UNAUTHORIZED = { message: '401 Unauthorized' }

/** UserBasic of a default-scenario user, as `approved_by` shows it. */
function userBasic(baseUrl: string, id: number, username: string, name: string) {
  return { id, name, username, state: 'active', avatar_url: null, web_url: `${baseUrl}/${username}` }
}

contract('merge request approvals (CE 13.12)', {}, ({ api }) => {
  it('reads no approvals: nobody approved, the caller may approve when it may update the merge request', async () => {
    const reporter = await api.get(`${MR}/approvals`, { as: 'riley' })
    expect([reporter.status, reporter.body]).toEqual([200, { user_has_approved: false, user_can_approve: false, approved: false, approved_by: [] }])
    expect(Object.keys(reporter.body)).toEqual(['user_has_approved', 'user_can_approve', 'approved', 'approved_by'])
    expect((await api.get(`${MR}/approvals`, { as: 'devon' })).body.user_can_approve).toBe(true)
    expect((await api.get(`${MR}/approvals`)).body).toEqual({ user_has_approved: false, user_can_approve: false, approved: false, approved_by: [] })
  })

  it('approves: 201 with the approval, in order of approving; approving twice is 401', async () => {
    const first = await api.post(`${MR}/approve`, { as: 'max' })
    expect([first.status, first.body]).toEqual([201, { user_has_approved: true, user_can_approve: false, approved: true, approved_by: [{ user: userBasic(api.baseUrl, 5, 'max', 'Max Maintainer') }] }])
    const second = await api.post(`${MR}/approve`, { as: 'devon' })
    expect(second.body.approved_by.map((a: { user: { username: string } }) => a.user.username)).toEqual(['max', 'devon'])
    const again = await api.post(`${MR}/approve`, { as: 'max' })
    expect([again.status, again.body]).toEqual([401, UNAUTHORIZED])
    const seen = await api.get(`${MR}/approvals`, { as: 'riley' })
    expect([seen.body.approved, seen.body.user_has_approved, seen.body.approved_by.length]).toEqual([true, false, 2])
  })

  it('checks sha against the head of the source branch: 409 naming the head, and nothing approved', async () => {
    const head = (await api.get(MR, { as: 'devon' })).body.diff_refs.head_sha
    const wrong = await api.post(`${MR}/approve`, { as: 'max', body: { sha: 'a'.repeat(40) } })
    expect([wrong.status, wrong.body]).toEqual([409, { message: `SHA does not match HEAD of source branch: ${head}` }])
    expect((await api.get(`${MR}/approvals`, { as: 'max' })).body.approved).toBe(false)
    expect((await api.post(`${MR}/approve`, { as: 'max', body: { sha: head } })).status).toBe(201)
  })

  it('unapproves the caller\'s approval (201); without one, 404', async () => {
    const none = await api.post(`${MR}/unapprove`, { as: 'max' })
    expect([none.status, none.body]).toEqual([404, { message: '404 Not Found' }])
    await api.post(`${MR}/approve`, { as: 'max' })
    await api.post(`${MR}/approve`, { as: 'devon' })
    const res = await api.post(`${MR}/unapprove`, { as: 'max' })
    expect([res.status, res.body.user_has_approved, res.body.user_can_approve, res.body.approved_by.map((a: { user: { id: number } }) => a.user.id)]).toEqual([201, false, true, [4]])
  })

  it.each([
    ['anonymous', undefined, 'approve', 401, UNAUTHORIZED],
    ['a reporter (cannot update the merge request)', 'riley', 'approve', 403, { message: '403 Forbidden' }],
    ['a reporter unapproving', 'riley', 'unapprove', 403, { message: '403 Forbidden' }],
  ])('refuses %s', async (_, as, action, status, body) => {
    const res = await api.post(`${MR}/${action}`, as ? { as } : {})
    expect([res.status, res.body]).toEqual([status, body])
  })

  it('answers 404 for an unknown merge request and for a private project\'s to a non-member', async () => {
    expect((await api.post('/projects/20/merge_requests/999/approve', { as: 'max' })).body).toEqual({ message: '404 Not found' })
    expect((await api.get('/projects/21/merge_requests/1/approvals', { as: 'nora' })).body).toEqual({ message: '404 Project Not Found' })
  })

  it('lets the author approve its own merge request (CE has no such rule)', async () => {
    expect((await api.post(`${MR}/approve`, { as: 'devon' })).status).toBe(201)
  })

  it('answers approval_state (EE) with CE\'s catch-all 404', async () => {
    const res = await api.get(`${MR}/approval_state`, { as: 'max' })
    expect([res.status, res.body]).toEqual([404, { error: '404 Not Found' }])
  })
})

contract('merge request diff versions (CE 13.12)', {}, ({ api }) => {
  it('has one version from the start, with the diff refs the merge request shows', async () => {
    const mr = (await api.get(MR, { as: 'devon' })).body
    const res = await api.get(`${MR}/versions`, { as: 'devon' })
    expect(res.status).toBe(200)
    expect(res.body).toHaveLength(1)
    expect(Object.keys(res.body[0])).toEqual(['id', 'head_commit_sha', 'base_commit_sha', 'start_commit_sha', 'created_at', 'merge_request_id', 'state', 'real_size'])
    expect(res.body[0]).toMatchObject({ head_commit_sha: mr.diff_refs.head_sha, base_commit_sha: mr.diff_refs.base_sha, start_commit_sha: mr.diff_refs.start_sha, merge_request_id: mr.id, created_at: mr.created_at })
    expect(res.headers.get('x-total')).toBe('1')
  })

  it('adds a version per push to the source branch, newest first; one version shows its commits and files', async () => {
    const push = await api.post('/projects/20/repository/commits', { as: 'devon', body: { branch: 'feature/login', commit_message: 'Add the login notes', actions: [{ action: 'create', file_path: 'LOGIN.md', content: 'login\n' }] } })
    expect(push.status).toBe(201)
    const versions = (await api.get(`${MR}/versions`, { as: 'devon' })).body
    expect(versions).toHaveLength(2)
    expect(versions[0].id).toBeGreaterThan(versions[1].id)
    expect([versions[0].head_commit_sha, versions[0].state]).toEqual([push.body.id, 'collected'])
    const mr = (await api.get(MR, { as: 'devon' })).body
    expect(mr.diff_refs.head_sha).toBe(versions[0].head_commit_sha)
    const one = await api.get(`${MR}/versions/${versions[0].id}`, { as: 'devon' })
    expect(one.status).toBe(200)
    expect(Object.keys(one.body)).toEqual(['id', 'head_commit_sha', 'base_commit_sha', 'start_commit_sha', 'created_at', 'merge_request_id', 'state', 'real_size', 'commits', 'diffs'])
    expect(one.body.commits[0]).toMatchObject({ id: push.body.id, title: 'Add the login notes' })
    expect(one.body.diffs.map((d: { new_path: string }) => d.new_path)).toContain('LOGIN.md')
    expect(one.body.real_size).toBe(String(one.body.diffs.length))
    // The older version does not have the new file.
    const older = await api.get(`${MR}/versions/${versions[1].id}`, { as: 'devon' })
    expect(older.body.diffs.map((d: { new_path: string }) => d.new_path)).not.toContain('LOGIN.md')
    // A push to another branch adds none.
    await api.post('/projects/20/repository/commits', { as: 'max', body: { branch: 'main', commit_message: 'News', actions: [{ action: 'create', file_path: 'NEWS.md', content: 'news\n' }] } })
    expect((await api.get(`${MR}/versions`, { as: 'devon' })).body).toHaveLength(2)
  })

  it('gives a new merge request its first version; an unknown version is 404', async () => {
    await api.post('/projects/20/repository/branches', { as: 'devon', query: { branch: 'topic', ref: 'main' } })
    await api.post('/projects/20/repository/commits', { as: 'devon', body: { branch: 'topic', commit_message: 'Topic', actions: [{ action: 'create', file_path: 'TOPIC.md', content: 'topic\n' }] } })
    const made = await api.post('/projects/20/merge_requests', { as: 'devon', body: { title: 'Topic', source_branch: 'topic', target_branch: 'main' } })
    expect(made.status).toBe(201)
    const versions = (await api.get(`/projects/20/merge_requests/${made.body.iid}/versions`, { as: 'devon' })).body
    expect(versions).toEqual([expect.objectContaining({ head_commit_sha: made.body.diff_refs.head_sha, state: 'collected', real_size: '1', created_at: made.body.created_at })])
    const missing = await api.get(`${MR}/versions/${versions[0].id}`, { as: 'devon' })
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Not found' }])
  })
})

contract('POST /projects/:id/merge_requests/:merge_request_iid/pipelines (CE 13.12)', {}, ({ api }) => {
  /** Writes (or, with null, deletes) feature/login's `.gitlab-ci.yml`, whether or not it is there. */
  async function setCi(content: string | null): Promise<void> {
    const commit = (action: string) => api.post('/projects/20/repository/commits', { as: 'devon', body: { branch: 'feature/login', commit_message: 'CI', actions: [{ action, file_path: '.gitlab-ci.yml', ...(content === null ? {} : { content }) }] } })
    const first = await commit(content === null ? 'delete' : 'create')
    if (content !== null && first.status !== 201) expect((await commit('update')).status).toBe(201)
  }

  it('creates a merge request pipeline from the source branch\'s head: 200 with the pipeline', async () => {
    await setCi('test:\n  script: echo test\n  only: [merge_requests]\n')
    const res = await api.post(`${MR}/pipelines`, { as: 'devon' })
    const head = (await api.get(MR, { as: 'devon' })).body.diff_refs.head_sha
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ ref: 'refs/merge-requests/1/head', sha: head, status: 'pending', user: expect.objectContaining({ username: 'devon' }) })
    const listed = await api.get(`${MR}/pipelines`, { as: 'devon' })
    expect(listed.body.map((p: { id: number }) => p.id)).toContain(res.body.id)
  })

  it.each([
    ['no CI definition (ivy/tracker has none)', '/projects/30/merge_requests/1', undefined, { base: ['Missing CI config file'] }],
    ['no job for merge requests', MR, 'test:\n  script: echo test\n  only: [tags]\n', { base: ['No stages / jobs for this pipeline.'] }],
  ])('answers 400 for %s, creating nothing', async (_, mr, content, message) => {
    if (content !== undefined) await setCi(content)
    const project = mr.split('/')[2]
    const before = (await api.get(`/projects/${project}/pipelines`, { as: 'devon' })).headers.get('x-total')
    const res = await api.post(`${mr}/pipelines`, { as: 'devon' })
    expect([res.status, res.body]).toEqual([400, { message }])
    expect((await api.get(`/projects/${project}/pipelines`, { as: 'devon' })).headers.get('x-total')).toBe(before)
  })

  it('answers 400 for a reporter, 405 for a merge request without commits', async () => {
    await setCi('test:\n  script: echo test\n  only: [merge_requests]\n')
    const reporter = await api.post(`${MR}/pipelines`, { as: 'riley' })
    expect([reporter.status, reporter.body]).toEqual([400, { message: { base: ['Insufficient permissions to create a new pipeline'] } }])
    await api.post('/projects/20/repository/branches', { as: 'devon', query: { branch: 'same', ref: 'main' } })
    const empty = await api.post('/projects/20/merge_requests', { as: 'devon', body: { title: 'Nothing', source_branch: 'same', target_branch: 'main' } })
    const refused = await api.post(`/projects/20/merge_requests/${empty.body.iid}/pipelines`, { as: 'devon' })
    expect([refused.status, refused.body]).toEqual([405, { message: '405 Method Not Allowed' }])
  })
})
