/**
 * Merge requests on the repository, over both doors (issue 26 item 3): create, `changes`,
 * `commits`, `merge_ref`, `merge` (merge commit, squash, source branch removal, closing issues),
 * merge when the pipeline succeeds and its cancel, `rebase`, and the live `diff_refs` and
 * `merge_status` of an open merge request whose branches exist.
 * Default scenario: acme/website (20, public): main (protected: Maintainers push and merge) at
 * MAIN; !1 (500, devon) feature/login (two commits, login.html and js/login.js) into main.
 * ivy/tracker (30, public): !1 (502, devon, closes #1) fix/crash-on-save into main (protected).
 * gina/riley/devon/max: guest, reporter, developer, maintainer of both. Clock frozen at NOW.
 * Sources: gitlab: lib/api/merge_requests.rb (13.x), app/services/merge_requests/*,
 * app/models/merge_request.rb, spec/requests/api/merge_requests_spec.rb.
 */
import { expect, it } from 'vitest'
import { DEFAULT_SCENARIO_YAML } from '../../../src/default-scenario.js'
import { contract, type Api } from '../../support/contract.js'

const MAIN = 'fd7d40d21b67d3419c468f3cd80559f888c6ff31'
const MERGED_FOOTER = 'bc43e0151d3ea81bc189cfd43b782e44718fcb6a'
const LOGIN = '69feb7e89cc3965598b7884388b8f943deee5e03'
const LOGIN_FORM = '917b011f01ff408882f6b43c93919fcdedc1f8bb'
const CRASH_FIX = '5d109c1310814afac890db2de5d4734beda46468'
const TRACKER_MAIN = '7aba7991870e05d350b9e18922c6b6913eeb328a'
const NOW = '2021-04-01T12:00:00.000Z'
const SHA = /^[0-9a-f]{40}$/

/** Branch name → tip, as root reads them. */
async function branches(api: Api, project = 20): Promise<Record<string, string>> {
  const res = await api.get(`/projects/${project}/repository/branches`, { as: 'root' })
  return Object.fromEntries(res.body.map((b: { name: string; commit: { id: string } }) => [b.name, b.commit.id]))
}

/** One commit of `files` (path → text, created) on `branch`, as `as`. */
async function commit(api: Api, branch: string, files: Record<string, string>, as = 'max', action = 'create') {
  const actions = Object.entries(files).map(([file_path, content]) => ({ action, file_path, content }))
  const res = await api.post('/projects/20/repository/commits', { as, body: { branch, commit_message: `Change ${Object.keys(files).join(', ')}\n`, actions } })
  expect(res.status).toBe(201)
  return res.body.id as string
}

contract('merge requests on the repository: live diff_refs, merge_status, changes_count', {}, ({ api }) => {
  it('reads an open merge request whose branches exist from the repository', async () => {
    const res = await api.get('/projects/20/merge_requests/1')
    expect([res.body.sha, res.body.merge_status, res.body.has_conflicts, res.body.changes_count, res.body.diff_refs]).toEqual([
      LOGIN, 'can_be_merged', false, '2', { base_sha: MERGED_FOOTER, head_sha: LOGIN, start_sha: MAIN },
    ])
  })

  it('follows a push to the source branch, and shows a conflict with the target as cannot_be_merged', async () => {
    const head = await commit(api, 'feature/login', { 'NOTES.md': 'notes\n' }, 'devon')
    await commit(api, 'main', { 'login.html': '<form></form>\n' })
    const res = await api.get('/projects/20/merge_requests/1')
    expect([res.body.sha, res.body.merge_status, res.body.has_conflicts, res.body.changes_count]).toEqual([head, 'cannot_be_merged', true, '3'])
  })

  it('shows rebase_in_progress and diverged_commits_count before user when asked', async () => {
    await commit(api, 'main', { 'NEWS.md': 'news\n' })
    const res = await api.get('/projects/20/merge_requests/1', { query: { include_rebase_in_progress: true, include_diverged_commits_count: true } })
    expect(Object.keys(res.body).slice(-4)).toEqual(['merge_error', 'rebase_in_progress', 'diverged_commits_count', 'user'])
    expect([res.body.rebase_in_progress, res.body.diverged_commits_count]).toEqual([false, 2])
    expect(Object.keys((await api.get('/projects/20/merge_requests/1')).body)).not.toContain('rebase_in_progress')
  })

  it('keeps the stored SHAs of a merge request whose branches do not exist', async () => {
    const res = await api.get('/projects/20/merge_requests/3')
    expect([res.body.sha, res.body.merge_status, res.body.changes_count]).toEqual(['3f1c2a9b8e7d6c5b4a392817161514131211100f', 'can_be_merged', '0'])
  })
})

contract('POST /projects/:id/merge_requests', {}, ({ api }) => {
  it('creates a merge request from a pushed branch (Developer), its diff from the repository', async () => {
    expect((await api.post('/projects/20/repository/branches', { as: 'devon', body: { branch: 'feature/search', ref: 'main' } })).status).toBe(201)
    const head = await commit(api, 'feature/search', { 'search.html': '<input type="search">\n' }, 'devon')
    const res = await api.post('/projects/20/merge_requests', {
      as: 'devon',
      body: { title: 'Add search', source_branch: 'feature/search', target_branch: 'main', description: 'Closes nothing.', labels: 'frontend', assignee_id: 4, remove_source_branch: true, squash: true },
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      iid: 5, project_id: 20, title: 'Add search', description: 'Closes nothing.', state: 'opened', created_at: NOW, updated_at: NOW,
      target_branch: 'main', source_branch: 'feature/search', author: { username: 'devon' }, assignees: [{ username: 'devon' }],
      source_project_id: 20, target_project_id: 20, labels: ['frontend'], draft: false, work_in_progress: false,
      merge_when_pipeline_succeeds: false, merge_status: 'can_be_merged', sha: head, merge_commit_sha: null,
      force_remove_source_branch: true, squash: true, reference: '!5', has_conflicts: false, subscribed: true,
      changes_count: '1', diff_refs: { base_sha: MAIN, head_sha: head, start_sha: MAIN }, merge_error: null, user: { can_merge: false }, // main is protected: Maintainers merge
    })
    expect((await api.get('/projects/20/merge_requests/5/changes')).body.changes).toEqual([
      { old_path: 'search.html', new_path: 'search.html', a_mode: '0', b_mode: '100644', new_file: true, renamed_file: false, deleted_file: false, diff: '@@ -0,0 +1 @@\n+<input type="search">\n' },
    ])
  })

  it('makes a draft of a Draft: title, as the update does', async () => {
    const res = await api.post('/projects/20/merge_requests', { as: 'devon', body: { title: 'Draft: footer', source_branch: 'fix/footer-links', target_branch: 'feature/login' } })
    expect([res.status, res.body.draft, res.body.work_in_progress]).toEqual([201, true, true])
  })

  it('creates one whose branches do not exist (13.x checks names, not presence): no diff, cannot be merged', async () => {
    const res = await api.post('/projects/20/merge_requests', { as: 'devon', body: { title: 'Ghost', source_branch: 'ghost', target_branch: 'main' } })
    expect(res.status).toBe(201)
    expect([res.body.sha, res.body.merge_status, res.body.changes_count, res.body.diff_refs]).toEqual([null, 'cannot_be_merged', '0', { base_sha: null, head_sha: null, start_sha: null }])
  })

  it.each([
    ['anonymous', undefined, { title: 'x', source_branch: 'a', target_branch: 'main' }, 401, { message: '401 Unauthorized' }],
    ['a reporter', 'riley', { title: 'x', source_branch: 'a', target_branch: 'main' }, 403, { message: '403 Forbidden' }],
    ['no title', 'devon', { source_branch: 'a', target_branch: 'main' }, 400, { error: 'title is missing' }],
    ['the same branch twice', 'devon', { title: 'x', source_branch: 'main', target_branch: 'main' }, 422, { message: ["You can't use same project/branch for source and target"] }],
    ['an open one with the same branches', 'devon', { title: 'x', source_branch: 'feature/login', target_branch: 'main' }, 409, { message: ['Another open merge request already exists for this source branch: !1'] }],
    ['an invalid branch name', 'devon', { title: 'x', source_branch: 'a..b', target_branch: 'main' }, 400, { message: { source_branch: ['is invalid'] } }],
    ['a title too long', 'devon', { title: 'x'.repeat(256), source_branch: 'a', target_branch: 'main' }, 400, { message: { title: ['is too long (maximum is 255 characters)'] } }],
    ['another target project', 'devon', { title: 'x', source_branch: 'a', target_branch: 'main', target_project_id: 30 }, 422, { message: ['Source project is not a fork of the target project'] }],
    ['an unknown target project', 'devon', { title: 'x', source_branch: 'a', target_branch: 'main', target_project_id: 9999 }, 404, { message: '404 Not found' }],
  ])('refuses %s', async (_name, as, body, status, error) => {
    await expect(await api.post('/projects/20/merge_requests', { as, body })).toBeGitLabError(status, error)
    expect((await api.get('/projects/20/merge_requests', { query: { per_page: 100 } })).headers.get('x-total')).toBe('4')
  })
})

contract('GET /projects/:id/merge_requests/:merge_request_iid/{changes,commits,merge_ref}', {}, ({ api }) => {
  it('answers the MergeRequest entity with the changes from the merge base to the head', async () => {
    const res = await api.get('/projects/20/merge_requests/1/changes')
    const entity = await api.get('/projects/20/merge_requests/1')
    expect(res.status).toBe(200)
    expect(Object.keys(res.body)).toEqual([...Object.keys(entity.body), 'changes', 'overflow'])
    expect([res.body.changes, res.body.overflow]).toEqual([[
      { old_path: 'js/login.js', new_path: 'js/login.js', a_mode: '0', b_mode: '100644', new_file: true, renamed_file: false, deleted_file: false, diff: "@@ -0,0 +1 @@\n+document.querySelector('#login button').addEventListener('click', signIn)\n" },
      { old_path: 'login.html', new_path: 'login.html', a_mode: '0', b_mode: '100644', new_file: true, renamed_file: false, deleted_file: false, diff: '@@ -0,0 +1,4 @@\n+<form id="login">\n+  <input name="username">\n+  <button>Sign in</button>\n+</form>\n' },
    ], false])
  })

  it('lists the commits on the source branch the target lacks, newest first, as Commit', async () => {
    const res = await api.get('/projects/20/merge_requests/1/commits', { query: { per_page: 1 } })
    expect([res.status, res.headers.get('x-total')]).toEqual([200, '2'])
    expect(res.body).toEqual([{
      id: LOGIN, short_id: LOGIN.slice(0, 8), created_at: '2021-03-11T09:00:00.000+00:00', parent_ids: [LOGIN_FORM],
      title: 'Fix the login button', message: 'Fix the login button\n\nThe handler was never bound.\n',
      author_name: 'Devon Developer', author_email: expect.any(String), authored_date: '2021-03-11T09:00:00.000+00:00',
      committer_name: 'Devon Developer', committer_email: expect.any(String), committed_date: '2021-03-11T09:00:00.000+00:00',
      trailers: {}, web_url: `${api.baseUrl}/acme/website/-/commit/${LOGIN}`,
    }])
  })

  it('answers [] for a merge request without a diff in the repository', async () => {
    expect((await api.get('/projects/20/merge_requests/3/changes')).body.changes).toEqual([])
    expect((await api.get('/projects/20/merge_requests/3/commits')).body).toEqual([])
  })

  it('answers the merge ref commit, or 400 when the merge request is not mergeable', async () => {
    const res = await api.get('/projects/20/merge_requests/1/merge_ref')
    expect([res.status, Object.keys(res.body), res.body.commit_id]).toEqual([200, ['commit_id'], expect.stringMatching(SHA)])
    // Nothing is stored: the main branch is where it was.
    expect((await branches(api)).main).toBe(MAIN)
    await expect(await api.get('/projects/20/merge_requests/3/merge_ref')).toBeGitLabError(400, { message: 'Merge request is not mergeable' })
  })

  it('refuses a guest of a private project as the merge request reads do (404 to a non-member)', async () => {
    await expect(await api.get('/projects/21/merge_requests/1/changes', { as: 'nora' })).toBeGitLabError(404, { message: '404 Project Not Found' })
  })
})

contract('PUT /projects/:id/merge_requests/:merge_request_iid/merge', {}, ({ api }) => {
  it('makes a merge commit on the target, removes the source branch when asked, and marks it merged', async () => {
    const res = await api.put('/projects/20/merge_requests/1/merge', { as: 'max', body: { should_remove_source_branch: true, sha: LOGIN } })
    expect(res.status).toBe(200)
    const tips = await branches(api)
    expect(res.body).toMatchObject({
      state: 'merged', merged_by: { username: 'max' }, merged_at: NOW, updated_at: NOW, merge_commit_sha: tips.main, squash_commit_sha: null,
      sha: LOGIN, should_remove_source_branch: true, diff_refs: { base_sha: MERGED_FOOTER, head_sha: LOGIN, start_sha: MAIN }, changes_count: '2',
    })
    expect(Object.keys(tips)).toEqual(['fix/footer-links', 'main', 'release/prep'])
    const merge = await api.get(`/projects/20/repository/commits/${tips.main}`)
    expect([merge.body.parent_ids, merge.body.message, merge.body.committer_name, merge.body.created_at]).toEqual([
      [MAIN, LOGIN], "Merge branch 'feature/login' into 'main'\n\nFix the login button\n\nSee merge request acme/website!1", 'Max Maintainer', '2021-04-01T12:00:00.000+00:00',
    ])
    expect((await api.get('/projects/20/merge_requests/1/commits')).body.map((c: { id: string }) => c.id)).toEqual([LOGIN, LOGIN_FORM])
  })

  it('squashes onto the merge base with the title as message, then merges the squash commit', async () => {
    const res = await api.put('/projects/20/merge_requests/1/merge', { as: 'max', body: { squash: true, merge_commit_message: 'Merge it' } })
    expect([res.status, res.body.squash, res.body.squash_commit_sha]).toEqual([200, true, expect.stringMatching(SHA)])
    const squash = await api.get(`/projects/20/repository/commits/${res.body.squash_commit_sha}`)
    expect([squash.body.parent_ids, squash.body.message, squash.body.author_name]).toEqual([[MERGED_FOOTER], 'Fix the login button', 'Devon Developer'])
    const merge = await api.get(`/projects/20/repository/commits/${res.body.merge_commit_sha}`)
    expect([merge.body.parent_ids, merge.body.message]).toEqual([[MAIN, res.body.squash_commit_sha], 'Merge it'])
    // Not asked to remove it: the source branch stays.
    expect((await branches(api))['feature/login']).toBe(LOGIN)
  })

  it('closes the issues it closes, by the merger, with "Closes #1" in the merge commit', async () => {
    const res = await api.put('/projects/30/merge_requests/1/merge', { as: 'max' })
    expect(res.status).toBe(200)
    const issue = await api.get('/projects/30/issues/1', { as: 'max' })
    expect([issue.body.state, issue.body.closed_by.username, issue.body.closed_at]).toEqual(['closed', 'max', NOW])
    const merge = await api.get(`/projects/30/repository/commits/${res.body.merge_commit_sha}`)
    expect([merge.body.parent_ids, merge.body.message]).toEqual([[TRACKER_MAIN, CRASH_FIX], "Merge branch 'fix/crash-on-save' into 'main'\n\nFix crash on save\n\nCloses #1\n\nSee merge request ivy/tracker!1"])
  })

  it('writes the merged resource state event (PostMergeService → SystemNoteService.change_status), and the closed issue its closed one', async () => {
    const mr = (await api.get('/projects/30/merge_requests/1', { as: 'max' })).body
    expect((await api.get('/projects/30/merge_requests/1/resource_state_events', { as: 'max' })).body).toEqual([])
    expect((await api.put('/projects/30/merge_requests/1/merge', { as: 'max' })).status).toBe(200)
    const events = (await api.get('/projects/30/merge_requests/1/resource_state_events', { as: 'max' })).body
    expect(events).toEqual([{ id: expect.any(Number), user: expect.objectContaining({ username: 'max' }), created_at: NOW, resource_type: 'MergeRequest', resource_id: mr.id, state: 'merged' }])
    expect((await api.get(`/projects/30/merge_requests/1/resource_state_events/${events[0].id}`, { as: 'max' })).body).toEqual(events[0])
    const closed = (await api.get('/projects/30/issues/1/resource_state_events', { as: 'max' })).body.at(-1)
    expect([closed.state, closed.user.username, closed.created_at]).toEqual(['closed', 'max', NOW])
  })

  it.each([
    ['a developer (main is protected: Maintainers merge)', 20, 1, 'devon', {}, 401, { message: '401 Unauthorized' }],
    ['a reporter', 20, 1, 'riley', {}, 401, { message: '401 Unauthorized' }],
    ['a closed merge request', 20, 3, 'max', {}, 405, { message: '405 Method Not Allowed' }],
    ['a draft', 20, 4, 'max', {}, 405, { message: '405 Method Not Allowed' }],
    ['a merged one', 20, 2, 'max', {}, 405, { message: '405 Method Not Allowed' }],
    ['a sha that is not the head', 20, 1, 'max', { sha: MAIN }, 409, { message: `SHA does not match HEAD of source branch: ${LOGIN}` }],
    ['merge when the pipeline succeeds without a pipeline', 20, 1, 'max', { merge_when_pipeline_succeeds: true }, 405, { message: '405 Method Not Allowed' }],
  ])('refuses %s and leaves the repository as it was', async (_name, project, iid, as, body, status, error) => {
    const before = await branches(api, project)
    await expect(await api.put(`/projects/${project}/merge_requests/${iid}/merge`, { as, body })).toBeGitLabError(status, error)
    expect(await branches(api, project)).toEqual(before)
    expect((await api.get(`/projects/${project}/merge_requests/${iid}`)).body.merged_by).toEqual(iid === 2 ? expect.anything() : null)
  })

  it('answers 405 for a merge request already checked as cannot_be_merged (broken?), 406 once a push left it unchecked', async () => {
    expect((await api.post('/projects/20/repository/branches', { as: 'max', body: { branch: 'feature/clash', ref: 'main' } })).status).toBe(201)
    await commit(api, 'feature/clash', { 'CLASH.md': 'ours\n' })
    await commit(api, 'main', { 'CLASH.md': 'theirs\n' })
    const created = await api.post('/projects/20/merge_requests', { as: 'max', body: { title: 'Clash', source_branch: 'feature/clash', target_branch: 'main' } })
    expect([created.status, created.body.merge_status, created.body.has_conflicts]).toEqual([201, 'cannot_be_merged', true])
    const before = await branches(api)
    // mergeable_state? is false for a broken? merge request: cannot_be_merged is stored.
    await expect(await api.put(`/projects/20/merge_requests/${created.body.iid}/merge`, { as: 'max' })).toBeGitLabError(405, { message: '405 Method Not Allowed' })
    expect(await branches(api)).toEqual(before)
    // A push marks it unchecked; the merge's own check finds the conflict: 406.
    await commit(api, 'feature/clash', { 'MORE.md': 'more\n' })
    await expect(await api.put(`/projects/20/merge_requests/${created.body.iid}/merge`, { as: 'max' })).toBeGitLabError(406, { message: 'Branch cannot be merged' })
  })

  it('answers 406 when the merge would conflict', async () => {
    await commit(api, 'main', { 'login.html': '<form></form>\n' })
    const before = await branches(api)
    await expect(await api.put('/projects/20/merge_requests/1/merge', { as: 'max' })).toBeGitLabError(406, { message: 'Branch cannot be merged' })
    expect(await branches(api)).toEqual(before)
  })
})

/** The default scenario with a running pipeline on the head of ivy/tracker !1. */
const RUNNING_PIPELINE = DEFAULT_SCENARIO_YAML.replace(
  '    merge_requests:\n      - id: 502\n',
  `    pipelines:\n      - { id: 1090, ref: fix/crash-on-save, sha: ${CRASH_FIX}, status: running, user: devon, created_at: 2021-04-01T11:00:00.000Z }\n    merge_requests:\n      - id: 502\n`,
)

contract('merge when the pipeline succeeds, and its cancel', { scenario: RUNNING_PIPELINE }, ({ api }) => {
  it('sets the flag while the head pipeline runs, without merging; the author or a merger cancels it', async () => {
    const res = await api.put('/projects/30/merge_requests/1/merge', { as: 'max', body: { merge_when_pipeline_succeeds: true, should_remove_source_branch: true } })
    expect([res.status, res.body.state, res.body.merge_when_pipeline_succeeds, res.body.should_remove_source_branch, res.body.merged_by]).toEqual([200, 'opened', true, true, null])
    expect((await branches(api, 30))['fix/crash-on-save']).toBe(CRASH_FIX)
    await expect(await api.post('/projects/30/merge_requests/1/cancel_merge_when_pipeline_succeeds', { as: 'riley' })).toBeGitLabError(401, { message: '401 Unauthorized' })
    const cancel = await api.post('/projects/30/merge_requests/1/cancel_merge_when_pipeline_succeeds', { as: 'devon' })
    expect([cancel.status, cancel.body]).toEqual([201, { status: 'success' }])
    expect((await api.get('/projects/30/merge_requests/1')).body.merge_when_pipeline_succeeds).toBe(false)
    const again = await api.post('/projects/30/merge_requests/1/cancel_merge_when_pipeline_succeeds', { as: 'devon' })
    expect([again.status, again.body]).toEqual([201, { message: "Can't cancel the automatic merge", status: 'error', http_status: 406 }])
  })
})

contract('PUT /projects/:id/merge_requests/:merge_request_iid/rebase', {}, ({ api }) => {
  it('replays the source commits on the target tip at once and answers 202 {"rebase_in_progress":true}', async () => {
    const tip = await commit(api, 'main', { 'NEWS.md': 'news\n' })
    const res = await api.put('/projects/20/merge_requests/1/rebase', { as: 'devon' })
    expect([res.status, res.body]).toEqual([202, { rebase_in_progress: true }])
    const mr = await api.get('/projects/20/merge_requests/1')
    expect(mr.body.diff_refs).toEqual({ base_sha: tip, head_sha: mr.body.sha, start_sha: tip })
    const commits = await api.get('/projects/20/merge_requests/1/commits')
    expect(commits.body.map((c: { title: string; author_name: string; committer_name: string }) => [c.title, c.author_name, c.committer_name])).toEqual([
      ['Fix the login button', 'Devon Developer', 'Devon Developer'],
      ['Add the login form', 'Devon Developer', 'Devon Developer'],
    ])
    expect(commits.body[1].parent_ids).toEqual([tip])
  })

  it('leaves the branch and records merge_error when the rebase does not apply', async () => {
    await commit(api, 'main', { 'login.html': '<form></form>\n' })
    expect((await api.put('/projects/20/merge_requests/1/rebase', { as: 'devon' })).status).toBe(202)
    const mr = await api.get('/projects/20/merge_requests/1')
    expect([mr.body.sha, mr.body.merge_error]).toEqual([LOGIN, 'Rebase failed. Please rebase locally'])
  })

  it.each([
    ['a reporter', 1, 'riley', 403, { message: '403 Forbidden - Cannot push to source branch' }],
    ['a merge request whose source branch does not exist', 3, 'devon', 403, { message: '403 Forbidden - Source branch does not exist' }],
  ])('refuses %s', async (_name, iid, as, status, error) => {
    await expect(await api.put(`/projects/20/merge_requests/${iid}/rebase`, { as })).toBeGitLabError(status, error)
  })
})
