/**
 * A project's merge method and merging when the pipeline succeeds, over both doors (issue 26
 * item 3): `merge_method` set by the scenario and by `PUT /projects/:id`; `ff` fast-forwards the
 * target (no merge commit, a squash still squashes), `rebase_merge` makes a merge commit, and both
 * refuse a source that is not rebased on the target (406) until `PUT …/rebase`; a merge request set
 * to merge when its pipeline succeeds merges, as the user who set it, when the pipeline listener
 * hears its head pipeline succeed.
 * Default scenario: acme/website (20): main (protected: Maintainers push and merge) at MAIN, one
 * commit past the merge base of !1 (feature/login, two commits by devon). ivy/tracker (30): !1
 * (fix/crash-on-save into main, closes #1). max maintains both, devon develops.
 * Sources: gitlab: lib/api/merge_requests.rb, lib/api/projects.rb (13.x), app/models/merge_request.rb
 * (`mergeable?`, `should_be_rebased?`, `ff_merge_possible?`), app/services/merge_requests/
 * {merge,ff_merge}_service.rb, app/services/auto_merge/{base,merge_when_pipeline_succeeds}_service.rb,
 * app/services/merge_requests/refresh_service.rb (`abort_auto_merges`).
 */
import { expect, it } from 'vitest'
import { DEFAULT_SCENARIO_YAML } from '../../../src/default-scenario.js'
import { mergeWhenPipelineSucceeds } from '../../../src/resources/merge-requests/merge-requests.auto-merge.js'
import { contract, type Api } from '../../support/contract.js'
import type { Simulator } from '../../../src/index.js'

const MAIN = 'fd7d40d21b67d3419c468f3cd80559f888c6ff31'
const MERGED_FOOTER = 'bc43e0151d3ea81bc189cfd43b782e44718fcb6a'
const LOGIN = '69feb7e89cc3965598b7884388b8f943deee5e03'
const CRASH_FIX = '5d109c1310814afac890db2de5d4734beda46468'
const NOW = '2021-04-01T12:00:00.000Z'

/** The default scenario with acme/website merging by `method`. */
function withMethod(method: string): string {
  return DEFAULT_SCENARIO_YAML.replace('  - id: 20\n    path: website\n', `  - id: 20\n    path: website\n    merge_method: ${method}\n`)
}

/** Branch name → tip, as root reads them. */
async function branches(api: Api, project = 20): Promise<Record<string, string>> {
  const res = await api.get(`/projects/${project}/repository/branches`, { as: 'root' })
  return Object.fromEntries(res.body.map((b: { name: string; commit: { id: string } }) => [b.name, b.commit.id]))
}

/** A commit's parents and message. */
async function commitFacts(api: Api, id: string, project = 20): Promise<[string[], string]> {
  const res = await api.get(`/projects/${project}/repository/commits/${id}`, { as: 'root' })
  return [res.body.parent_ids, res.body.message]
}

/** The merge request's merge state as `GET` shows it with both includes. */
async function mergeState(api: Api, iid = 1) {
  const res = await api.get(`/projects/20/merge_requests/${iid}`, { query: { include_rebase_in_progress: true, include_diverged_commits_count: true } })
  const b = res.body
  return { state: b.state, merge_status: b.merge_status, has_conflicts: b.has_conflicts, diverged_commits_count: b.diverged_commits_count, rebase_in_progress: b.rebase_in_progress }
}

contract('merge_method: the scenario, PUT /projects/:id and the project entity', { scenario: withMethod('rebase_merge') }, ({ api }) => {
  it('shows the scenario method in the project entity', async () => {
    expect((await api.get('/projects/20')).body.merge_method).toBe('rebase_merge')
    expect((await api.get('/projects/30')).body.merge_method).toBe('merge')
  })

  it.each([
    ['ff', 'max', 200, 'ff'],
    ['merge', 'olive', 200, 'merge'],
    ['rebase_merge', 'root', 200, 'rebase_merge'],
  ])('sets %s as %s', async (method, as, status, shown) => {
    const res = await api.put('/projects/20', { as, body: { merge_method: method } })
    expect([res.status, res.body.merge_method]).toEqual([status, shown])
    expect((await api.get('/projects/20')).body.merge_method).toBe(shown)
  })

  it.each([
    ['an unknown method', 'max', { merge_method: 'squash' }, 400, { error: 'merge_method does not have a valid value' }],
    ['a developer', 'devon', { merge_method: 'ff' }, 403, { message: '403 Forbidden' }],
    ['anonymous', undefined, { merge_method: 'ff' }, 401, { message: '401 Unauthorized' }],
  ])('refuses %s and keeps the method', async (_name, as, body, status, error) => {
    await expect(await api.put('/projects/20', { as, body })).toBeGitLabError(status, error)
    expect((await api.get('/projects/20')).body.merge_method).toBe('rebase_merge')
  })
})

contract('merge_method ff: fast-forward only', { scenario: withMethod('ff') }, ({ api }) => {
  it('refuses a source not rebased on the target with 406, and shows why: merge_status can_be_merged, diverged commits', async () => {
    expect(await mergeState(api)).toEqual({ state: 'opened', merge_status: 'can_be_merged', has_conflicts: false, diverged_commits_count: 1, rebase_in_progress: false })
    for (const body of [{}, { squash: true }, { sha: LOGIN }]) {
      await expect(await api.put('/projects/20/merge_requests/1/merge', { as: 'max', body })).toBeGitLabError(406, { message: 'Branch cannot be merged' })
    }
    expect((await branches(api)).main).toBe(MAIN)
    // merge_ref still answers: MergeToRefService merges to the merge ref whatever the method.
    expect((await api.get('/projects/20/merge_requests/1/merge_ref')).status).toBe(200)
  })

  it('fast-forwards the target to the rebased head: no merge commit, the source removed when asked', async () => {
    expect((await api.put('/projects/20/merge_requests/1/rebase', { as: 'devon' })).status).toBe(202)
    const state = await mergeState(api)
    expect(state).toEqual({ state: 'opened', merge_status: 'can_be_merged', has_conflicts: false, diverged_commits_count: 0, rebase_in_progress: false })
    const head = (await api.get('/projects/20/merge_requests/1')).body.sha
    const res = await api.put('/projects/20/merge_requests/1/merge', { as: 'max', body: { should_remove_source_branch: true, merge_commit_message: 'unused' } })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ state: 'merged', merged_by: { username: 'max' }, merged_at: NOW, merge_commit_sha: null, squash_commit_sha: null, sha: head, merge_when_pipeline_succeeds: false })
    expect(await branches(api)).toEqual({ 'fix/footer-links': expect.any(String), main: head, 'release/prep': expect.any(String) })
    const [parents, message] = await commitFacts(api, head)
    expect([parents.length, message]).toEqual([1, 'Fix the login button\n\nThe handler was never bound.\n'])
  })

  it('squashes onto the target tip, then fast-forwards to the squash commit', async () => {
    await api.put('/projects/20/merge_requests/1/rebase', { as: 'devon' })
    const res = await api.put('/projects/20/merge_requests/1/merge', { as: 'max', body: { squash: true, squash_commit_message: 'Login form' } })
    expect([res.status, res.body.squash, res.body.merge_commit_sha]).toEqual([200, true, null])
    expect((await branches(api)).main).toBe(res.body.squash_commit_sha)
    expect(await commitFacts(api, res.body.squash_commit_sha)).toEqual([[MAIN], 'Login form'])
  })

})

contract('merge_method rebase_merge: semi-linear history', { scenario: withMethod('rebase_merge') }, ({ api }) => {
  it('refuses a source not rebased on the target with 406', async () => {
    await expect(await api.put('/projects/20/merge_requests/1/merge', { as: 'max' })).toBeGitLabError(406, { message: 'Branch cannot be merged' })
    expect((await branches(api)).main).toBe(MAIN)
  })

  it('makes a merge commit of the target tip and the rebased head once rebased', async () => {
    await api.put('/projects/20/merge_requests/1/rebase', { as: 'devon' })
    const head = (await api.get('/projects/20/merge_requests/1')).body.sha
    expect(head).not.toBe(LOGIN)
    const res = await api.put('/projects/20/merge_requests/1/merge', { as: 'max' })
    expect([res.status, res.body.state, res.body.squash_commit_sha]).toEqual([200, 'merged', null])
    expect((await branches(api)).main).toBe(res.body.merge_commit_sha)
    expect(await commitFacts(api, res.body.merge_commit_sha)).toEqual([[MAIN, head], "Merge branch 'feature/login' into 'main'\n\nFix the login button\n\nSee merge request acme/website!1"])
  })

  it('a push to the target that needs a rebase again refuses the merge again', async () => {
    await api.put('/projects/20/merge_requests/1/rebase', { as: 'devon' })
    const push = await api.post('/projects/20/repository/commits', { as: 'max', body: { branch: 'main', commit_message: 'News', actions: [{ action: 'create', file_path: 'NEWS.md', content: 'news\n' }] } })
    expect(push.status).toBe(201)
    expect((await mergeState(api)).diverged_commits_count).toBe(1)
    await expect(await api.put('/projects/20/merge_requests/1/merge', { as: 'max' })).toBeGitLabError(406, { message: 'Branch cannot be merged' })
  })
})

contract('merge_method merge (the default): a merge commit without a rebase', {}, ({ api }) => {
  it('merges a source the target moved past', async () => {
    expect((await mergeState(api)).diverged_commits_count).toBe(1)
    const res = await api.put('/projects/20/merge_requests/1/merge', { as: 'max' })
    expect(res.status).toBe(200)
    expect((await commitFacts(api, res.body.merge_commit_sha))[0]).toEqual([MAIN, LOGIN])
  })
})

/** The default scenario with a running pipeline (1090) on the head of ivy/tracker !1. */
const RUNNING_PIPELINE = DEFAULT_SCENARIO_YAML.replace(
  '    merge_requests:\n      - id: 502\n',
  `    pipelines:\n      - { id: 1090, ref: fix/crash-on-save, sha: ${CRASH_FIX}, status: running, user: devon, created_at: 2021-04-01T11:00:00.000Z }\n    merge_requests:\n      - id: 502\n`,
)

/** Sets pipeline `id` to `status` and runs the merge requests' `pipeline` subscriber, as a status change does. */
function changePipeline(sim: Simulator, baseUrl: string, id: number, status: string): void {
  const db = sim.db
  const after = db.tables.pipelines.update(id, { status })
  mergeWhenPipelineSucceeds({ db, baseUrl, today: '2021-04-01', now: NOW, currentUser: null }, after)
}

contract('merge when the pipeline succeeds: the merge when it does', { scenario: RUNNING_PIPELINE }, ({ api, sim }) => {
  async function setAutoMerge(as = 'max', body: Record<string, unknown> = {}) {
    const res = await api.put('/projects/30/merge_requests/1/merge', { as, body: { merge_when_pipeline_succeeds: true, ...body } })
    expect([res.status, res.body.merge_when_pipeline_succeeds, res.body.state]).toEqual([200, true, 'opened'])
  }

  it('merges as the user who set it with the params given then, closing its issues, when the head pipeline succeeds', async () => {
    await setAutoMerge('max', { merge_commit_message: 'Merged by the pipeline', should_remove_source_branch: true })
    changePipeline(sim(), api.baseUrl, 1090, 'success')
    const mr = (await api.get('/projects/30/merge_requests/1')).body
    expect([mr.state, mr.merged_by?.username, mr.merged_at, mr.merge_when_pipeline_succeeds, mr.should_remove_source_branch, mr.merge_error]).toEqual(['merged', 'max', NOW, false, true, null])
    expect(await commitFacts(api, mr.merge_commit_sha, 30)).toEqual([[expect.any(String), CRASH_FIX], 'Merged by the pipeline'])
    expect(Object.keys(await branches(api, 30))).toEqual(['main', 'rework-report'])
    const issue = (await api.get('/projects/30/issues/1', { as: 'max' })).body
    expect([issue.state, issue.closed_by.username]).toEqual(['closed', 'max'])
  })

  it.each([['failed'], ['canceled'], ['running']])('leaves it set, unmerged, when the pipeline turns %s; a later success merges it', async (status) => {
    await setAutoMerge()
    changePipeline(sim(), api.baseUrl, 1090, status)
    const mr = (await api.get('/projects/30/merge_requests/1')).body
    expect([mr.state, mr.merge_when_pipeline_succeeds, mr.merged_by]).toEqual(['opened', true, null])
    changePipeline(sim(), api.baseUrl, 1090, 'success')
    expect((await api.get('/projects/30/merge_requests/1')).body.state).toBe('merged')
  })

  it('does nothing for a merge request that was not set, or whose setting was cancelled', async () => {
    changePipeline(sim(), api.baseUrl, 1090, 'success')
    expect((await api.get('/projects/30/merge_requests/1')).body.state).toBe('opened')
  })

  it('cancels on a push to the source branch (abort_auto_merges): the old pipeline no longer merges it', async () => {
    await setAutoMerge()
    const push = await api.post('/projects/30/repository/commits', { as: 'devon', body: { branch: 'fix/crash-on-save', commit_message: 'More', actions: [{ action: 'create', file_path: 'MORE.md', content: 'more\n' }] } })
    expect(push.status).toBe(201)
    expect((await api.get('/projects/30/merge_requests/1')).body.merge_when_pipeline_succeeds).toBe(false)
    changePipeline(sim(), api.baseUrl, 1090, 'success')
    expect((await api.get('/projects/30/merge_requests/1')).body.state).toBe('opened')
    const cancel = await api.post('/projects/30/merge_requests/1/cancel_merge_when_pipeline_succeeds', { as: 'max' })
    expect([cancel.status, cancel.body]).toEqual([201, { message: "Can't cancel the automatic merge", status: 'error', http_status: 406 }])
  })

  it('records merge_error and stays open when the user who set it may no longer merge', async () => {
    await setAutoMerge()
    const db = sim().db
    const max = db.tables.members.where('user_id', 5).find((m) => m.source_type === 'project' && m.source_id === 30)!
    db.tables.members.update(max.id, { access_level: 30 })
    changePipeline(sim(), api.baseUrl, 1090, 'success')
    const mr = (await api.get('/projects/30/merge_requests/1')).body
    expect([mr.state, mr.merge_error, mr.merge_when_pipeline_succeeds]).toEqual(['opened', 'You are not allowed to merge this merge request', true])
  })

  it('cancelling drops the kept params: should_remove_source_branch reads null again', async () => {
    await setAutoMerge('max', { should_remove_source_branch: true })
    const cancel = await api.post('/projects/30/merge_requests/1/cancel_merge_when_pipeline_succeeds', { as: 'max' })
    expect([cancel.status, cancel.body]).toEqual([201, { status: 'success' }])
    const mr = (await api.get('/projects/30/merge_requests/1')).body
    expect([mr.merge_when_pipeline_succeeds, mr.should_remove_source_branch]).toEqual([false, null])
    changePipeline(sim(), api.baseUrl, 1090, 'success')
    expect((await api.get('/projects/30/merge_requests/1')).body.state).toBe('opened')
  })
})

/** {@link RUNNING_PIPELINE} with ivy/tracker fast-forward only. */
const RUNNING_PIPELINE_FF = RUNNING_PIPELINE.replace('  - id: 30\n    path: tracker\n', '  - id: 30\n    path: tracker\n    merge_method: ff\n')

contract('merge when the pipeline succeeds in a fast-forward project', { scenario: RUNNING_PIPELINE_FF }, ({ api, sim }) => {
  /** A commit on tracker's main, as max (the target moves on: a rebase is needed). */
  async function moveTarget() {
    const res = await api.post('/projects/30/repository/commits', { as: 'max', body: { branch: 'main', commit_message: 'News', actions: [{ action: 'create', file_path: 'NEWS.md', content: 'news\n' }] } })
    expect(res.status).toBe(201)
  }

  it('refuses to set it while a rebase is needed (406)', async () => {
    await moveTarget()
    await expect(await api.put('/projects/30/merge_requests/1/merge', { as: 'max', body: { merge_when_pipeline_succeeds: true } })).toBeGitLabError(406, { message: 'Branch cannot be merged' })
  })

  it('fast-forwards the target to the head when the pipeline succeeds', async () => {
    const set = await api.put('/projects/30/merge_requests/1/merge', { as: 'max', body: { merge_when_pipeline_succeeds: true } })
    expect([set.status, set.body.merge_when_pipeline_succeeds]).toEqual([200, true])
    changePipeline(sim(), api.baseUrl, 1090, 'success')
    const mr = (await api.get('/projects/30/merge_requests/1')).body
    expect([mr.state, mr.merge_commit_sha]).toEqual(['merged', null])
    expect((await branches(api, 30)).main).toBe(CRASH_FIX)
  })

  it('reads it cancelled after the target moved', async () => {
    await api.put('/projects/30/merge_requests/1/merge', { as: 'max', body: { merge_when_pipeline_succeeds: true } })
    await moveTarget()
    expect((await api.get('/projects/30/merge_requests/1')).body.merge_when_pipeline_succeeds).toBe(false)
    changePipeline(sim(), api.baseUrl, 1090, 'success')
    expect((await api.get('/projects/30/merge_requests/1')).body.state).toBe('opened')
  })
})

contract('merge when the pipeline succeeds, through POST /projects/:id/statuses/:sha', { scenario: RUNNING_PIPELINE }, ({ api }) => {
  it('merges when an external status makes the head pipeline succeed, and not when it fails', async () => {
    await api.put('/projects/30/merge_requests/1/merge', { as: 'max', body: { merge_when_pipeline_succeeds: true } })
    const failed = await api.post(`/projects/30/statuses/${CRASH_FIX}`, { as: 'devon', body: { state: 'failed', name: 'external' } })
    expect([failed.status, (await api.get('/projects/30/merge_requests/1')).body.state]).toEqual([201, 'opened'])
    const passed = await api.post(`/projects/30/statuses/${CRASH_FIX}`, { as: 'devon', body: { state: 'success', name: 'external' } })
    expect(passed.status).toBe(201)
    const mr = (await api.get('/projects/30/merge_requests/1')).body
    expect([mr.state, mr.merged_by?.username, mr.head_pipeline?.status]).toEqual(['merged', 'max', 'success'])
  })
})
