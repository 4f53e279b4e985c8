/**
 * The refs GitLab 13.12 keeps for a merge request, read through the API on both doors (issue 35):
 * `refs/merge-requests/<iid>/head` (`fetch_ref!`: at creation, after a push to the source branch,
 * for the scenario's merge requests at load) and `refs/merge-requests/<iid>/merge` (the
 * mergeability check's `MergeToRefService`: at creation, after a push to either branch; none while
 * the merge would conflict). The commit routes take them as revisions (`git rev-parse`).
 * Default scenario: acme/website (20): main at MAIN; !1 feature/login (open, at LOGIN), !2
 * fix/footer-links (merged), !3 feature/signup (closed, its branch and sha not in the repository),
 * !4 release/prep (open). Clock frozen. gitlab: app/models/merge_request.rb, app/services/merge_requests/
 * {create,refresh,mergeability_check,merge_to_ref}_service.rb.
 * And a pipeline's persistent ref `refs/pipelines/<id>` (`Ci::PersistentRef`): there while a
 * pipeline a runner started (a running job) is not completed; gone when it completes.
 */
import { expect, it } from 'vitest'
import { DEFAULT_SCENARIO_YAML } from '../../../src/default-scenario.js'
import { contract, type Api } from '../../support/contract.js'

const MAIN = 'fd7d40d21b67d3419c468f3cd80559f888c6ff31'
const LOGIN = '69feb7e89cc3965598b7884388b8f943deee5e03'

/** The commit a revision names in acme/website, as root reads it (status and id or message). */
async function commitAt(api: Api, revision: string): Promise<{ status: number; id?: string; parent_ids?: string[]; title?: string; message?: string }> {
  const res = await api.get(`/projects/20/repository/commits/${encodeURIComponent(revision)}`, { as: 'root' })
  return res.status === 200 ? { status: 200, id: res.body.id, parent_ids: res.body.parent_ids, title: res.body.title } : { status: res.status, message: res.body.message }
}

/** One commit creating `file` on `branch` (made from `start` when new), as max; its id. */
async function commit(api: Api, branch: string, file: string, text: string, start?: string): Promise<string> {
  const body = { branch, commit_message: `Add ${file}\n`, actions: [{ action: 'create', file_path: file, content: text }], ...(start ? { start_branch: start } : {}) }
  const res = await api.post('/projects/20/repository/commits', { as: 'max', body })
  expect(res.status).toBe(201)
  return res.body.id as string
}

/** Branch name → tip. */
async function tips(api: Api): Promise<Record<string, string>> {
  const res = await api.get('/projects/20/repository/branches', { as: 'root' })
  return Object.fromEntries(res.body.map((b: { name: string; commit: { id: string } }) => [b.name, b.commit.id]))
}

contract('merge request refs: refs/merge-requests/<iid>/head and /merge', {}, ({ api }) => {
  it("gives the scenario's merge requests their head ref: the source branch's tip, none without the branch or its commit", async () => {
    const branches = await tips(api)
    expect(await commitAt(api, 'refs/merge-requests/1/head')).toMatchObject({ status: 200, id: LOGIN })
    expect(await commitAt(api, 'merge-requests/1/head')).toMatchObject({ status: 200, id: LOGIN })
    expect(await commitAt(api, 'refs/merge-requests/2/head')).toMatchObject({ status: 200, id: branches['fix/footer-links'] })
    expect(await commitAt(api, 'refs/merge-requests/4/head')).toMatchObject({ status: 200, id: branches['release/prep'] })
    expect(await commitAt(api, 'refs/merge-requests/3/head')).toEqual({ status: 404, message: '404 Commit Not Found' })
    // The API's branch list never shows them.
    expect(Object.keys(branches).some((name) => name.includes('merge-requests'))).toBe(false)
  })

  it('writes the head ref and the merge ref when a merge request is created, and the merge ref is what GET merge_ref answers', async () => {
    const tip = await commit(api, 'feature/refs', 'refs.txt', 'refs\n', 'main')
    const created = await api.post('/projects/20/merge_requests', { as: 'max', body: { source_branch: 'feature/refs', target_branch: 'main', title: 'Refs' } })
    expect(created.status).toBe(201)
    const iid = created.body.iid as number
    expect(await commitAt(api, `refs/merge-requests/${iid}/head`)).toMatchObject({ status: 200, id: tip })
    const merge = await commitAt(api, `refs/merge-requests/${iid}/merge`)
    expect(merge).toMatchObject({ status: 200, parent_ids: [MAIN, tip], title: "Merge branch 'feature/refs' into 'main'" })
    const mergeRef = await api.get(`/projects/20/merge_requests/${iid}/merge_ref`, { as: 'max' })
    expect([mergeRef.status, mergeRef.body]).toEqual([200, { commit_id: merge.id }])
  })

  it('moves both refs on a push to the source branch, the merge ref on a push to the target branch', async () => {
    const next = await commit(api, 'feature/login', 'later.txt', 'later\n')
    expect(await commitAt(api, 'refs/merge-requests/1/head')).toMatchObject({ status: 200, id: next })
    expect(await commitAt(api, 'refs/merge-requests/1/merge')).toMatchObject({ status: 200, parent_ids: [MAIN, next] })
    const main = await commit(api, 'main', 'news.txt', 'news\n')
    expect(await commitAt(api, 'refs/merge-requests/1/merge')).toMatchObject({ status: 200, parent_ids: [main, next] })
    expect(await commitAt(api, 'refs/merge-requests/1/head')).toMatchObject({ status: 200, id: next })
  })

  it('keeps the older merge ref while a merge would conflict (MergeToRefService fails)', async () => {
    const next = await commit(api, 'feature/login', 'later.txt', 'later\n')
    const before = await commitAt(api, 'refs/merge-requests/1/merge')
    expect(before.parent_ids).toEqual([MAIN, next])
    await commit(api, 'main', 'later.txt', 'a conflicting text\n')
    expect((await api.get('/projects/20/merge_requests/1')).body.merge_status).toBe('cannot_be_merged')
    expect(await commitAt(api, 'refs/merge-requests/1/merge')).toEqual(before)
  })

  it("does not hand the source's merge request refs to a fork (Gitaly's CreateFork clones branches and tags)", async () => {
    const fork = await api.post('/projects/20/fork', { as: 'nora' })
    expect(fork.status).toBe(201)
    const inFork = await api.get(`/projects/${fork.body.id}/repository/commits/${encodeURIComponent('refs/merge-requests/1/head')}`, { as: 'nora' })
    expect([inFork.status, inFork.body]).toEqual([404, { message: '404 Commit Not Found' }])
    expect((await api.get(`/projects/${fork.body.id}/repository/commits/feature%2Flogin`, { as: 'nora' })).body.id).toBe(LOGIN)
  })
})

const CRASH_FIX = '5d109c1310814afac890db2de5d4734beda46468'
// ivy/tracker (30): 1090 running with a running job on fix/crash-on-save's tip; 1091 pending, no job started; 1092 on a commit the repository lacks.
const PIPELINES = DEFAULT_SCENARIO_YAML.replace(
  '    merge_requests:\n      - id: 502\n',
  `    pipelines:
      - { id: 1090, ref: fix/crash-on-save, sha: ${CRASH_FIX}, status: running, user: devon, created_at: 2021-04-01T11:00:00.000Z, jobs: [{ id: 2090, name: build, status: running, started_at: 2021-04-01T11:00:10.000Z }] }
      - { id: 1091, ref: fix/crash-on-save, sha: ${CRASH_FIX}, status: pending, user: devon, created_at: 2021-04-01T11:01:00.000Z, jobs: [{ id: 2091, name: build, status: pending }] }
      - { id: 1092, ref: main, sha: ${'ab'.repeat(20)}, status: running, user: devon, created_at: 2021-04-01T11:02:00.000Z, jobs: [{ id: 2092, name: build, status: running, started_at: 2021-04-01T11:02:10.000Z }] }
    merge_requests:
      - id: 502\n`,
)

contract('persistent pipeline refs: refs/pipelines/<id>', { scenario: PIPELINES }, ({ api }) => {
  const at = async (revision: string) => {
    const res = await api.get(`/projects/30/repository/commits/${encodeURIComponent(revision)}`, { as: 'root' })
    return [res.status, res.status === 200 ? res.body.id : res.body.message]
  }

  it('is there for a pipeline a runner started, until it completes; never for one no runner started or whose commit is missing', async () => {
    expect(await at('refs/pipelines/1090')).toEqual([200, CRASH_FIX])
    expect(await at('pipelines/1090')).toEqual([200, CRASH_FIX])
    expect(await at('refs/pipelines/1091')).toEqual([404, '404 Commit Not Found'])
    expect(await at('refs/pipelines/1092')).toEqual([404, '404 Commit Not Found'])
    const canceled = await api.post('/projects/30/pipelines/1090/cancel', { as: 'root' })
    expect([canceled.status, canceled.body.status]).toEqual([200, 'canceled'])
    expect(await at('refs/pipelines/1090')).toEqual([404, '404 Commit Not Found'])
  })
})
