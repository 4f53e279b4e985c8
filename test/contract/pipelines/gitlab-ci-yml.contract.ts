/**
 * A project's `.gitlab-ci.yml` as its CI definition (issue 26, python-gitlab's
 * test_cancel_merge_when_pipeline_succeeds), over both doors: committed through the API, it is what
 * `POST /projects/:id/pipeline` runs at the ref's commit (rules, only/except, its errors), and what a
 * new merge request's pipeline is made from (MergeRequests::CreatePipelineService: source
 * `merge_request_event`, ref `refs/merge-requests/<iid>/head`, the source head; none when no job is
 * for merge requests). Without the file at the commit there is none ("Missing CI config file"):
 * project 30 has no file anywhere, project 20 has its .gitlab-ci.yml on every branch but not at
 * tag v0.9.0 (the scenario's `ci_config:` stand-in is only for projects without a repository).
 * Source: gitlab (13.x): app/services/merge_requests/create_pipeline_service.rb,
 * lib/gitlab/ci/pipeline/chain/config/content.rb, chain/populate.rb,
 * lib/gitlab/ci/config/external/file/{base,local}.rb, lib/gitlab/ci/build/rules.rb,
 * lib/gitlab/ci/build/policy/refs.rb.
 * Default scenario (clock frozen at 2021-04-01T12:00:00Z): project 30 ivy/tracker (public, main,
 * no CI definition; devon developer, max maintainer); the next pipeline id is 1008.
 */
import { expect, it } from 'vitest'
import { contract, type Api } from '../../support/contract.js'

const NOW = '2021-04-01T12:00:00.000Z'
const BLANK_SHA = '0000000000000000000000000000000000000000'

/** python-gitlab's fixture: one job, for merge request pipelines only. */
const MR_ONLY = `
test:
  rules:
    - if: '$CI_PIPELINE_SOURCE == "merge_request_event"'
  script:
    - sleep 24h  # We don't expect this to finish
`

/** Jobs for every kind of pipeline, and jobs their rules or refs leave out. */
const MIXED = `
stages: [build, test, deploy]
variables:
  FOO: bar
.template:
  script: echo hidden
build:
  stage: build
  script: make
test:
  rules:
    - if: '$CI_PIPELINE_SOURCE == "merge_request_event" && $CI_MERGE_REQUEST_IID != null'
  script: make test
lint:
  only: [merge_requests]
  script: make lint
review:
  stage: deploy
  rules:
    - if: '$CI_COMMIT_BRANCH == "main" || $CI_COMMIT_REF_NAME == "nope"'
    - if: '$CI_PIPELINE_SOURCE == "api"'
      when: manual
  script: deploy
never:
  rules:
    - if: '$CI_PIPELINE_SOURCE == "merge_request_event"'
      when: never
    - when: always
  script: echo
not-on-ci-yml:
  except: [/^ci-/]
  script: echo
`

/** Commits `content` as `.gitlab-ci.yml` on a new branch `branch` off main (as max), and returns the branch's tip. */
async function branchWithCi(api: Api, branch: string, content: string): Promise<string> {
  expect((await api.post('/projects/30/repository/branches', { as: 'max', body: { branch, ref: 'main' } })).status).toBe(201)
  const file = await api.post('/projects/30/repository/files/.gitlab-ci.yml', { as: 'max', body: { branch, content, commit_message: 'Add a simple pipeline' } })
  expect(file.status).toBe(201)
  return (await api.get(`/projects/30/repository/branches/${branch}`, { as: 'max' })).body.commit.id as string
}

/** The jobs of a pipeline as [name, stage, status, when-allowed-to-fail], in the jobs API's order (newest first). */
async function jobsOf(api: Api, id: number): Promise<[string, string, string, boolean][]> {
  const res = await api.get(`/projects/30/pipelines/${id}/jobs`, { as: 'max' })
  expect(res.status).toBe(200)
  return (res.body as { name: string; stage: string; status: string; allow_failure: boolean }[]).map((j) => [j.name, j.stage, j.status, j.allow_failure])
}

contract('.gitlab-ci.yml: merge request pipelines', {}, ({ api }) => {
  it.each([
    // No job for a push: the file's commit made no pipeline.
    ['python-gitlab\'s rules: merge_request_event', 'ci-mr', MR_ONLY, [['test', 'test', 'pending', false]], 1008],
    // The file's commit made push pipeline 1008 (build, never).
    ['rules, only: [merge_requests], a rule with when: never, except', 'ci-mixed', MIXED, [['lint', 'test', 'pending', false], ['test', 'test', 'pending', false]], 1009],
  ] as const)('%s: the new merge request gets a pipeline, its head pipeline', async (_what, branch, content, jobs, id) => {
    const sha = await branchWithCi(api, branch, content)
    const mr = await api.post('/projects/30/merge_requests', { as: 'devon', body: { source_branch: branch, target_branch: 'main', title: 'CI' } })
    expect(mr.status).toBe(201)
    const iid = mr.body.iid as number
    const basic = { id, project_id: 30, sha, ref: `refs/merge-requests/${iid}/head`, status: 'pending', created_at: NOW, updated_at: NOW, web_url: `${api.baseUrl}/ivy/tracker/-/pipelines/${id}` }
    const devon = { id: 4, name: 'Devon Developer', username: 'devon', state: 'active', avatar_url: null, web_url: `${api.baseUrl}/devon` }
    const pipeline = {
      ...basic,
      before_sha: BLANK_SHA,
      tag: false,
      yaml_errors: null,
      user: devon,
      started_at: null,
      finished_at: null,
      committed_at: null,
      duration: null,
      coverage: null,
      detailed_status: { icon: 'status_pending', text: 'pending', label: 'pending', group: 'pending', tooltip: 'pending', has_details: true, details_path: `/ivy/tracker/-/pipelines/${id}`, illustration: null, favicon: '/assets/ci_favicons/favicon_status_pending.png' },
    }
    expect(mr.body.head_pipeline).toEqual(pipeline)
    expect((await api.get(`/projects/30/pipelines/${id}`, { as: 'max' })).body).toEqual(pipeline)
    expect(await jobsOf(api, id)).toEqual(jobs)
    const listed = await api.get(`/projects/30/merge_requests/${iid}/pipelines`, { as: 'max' })
    expect(listed.status).toBe(200)
    expect(listed.body.map((p: { id: number; ref: string }) => [p.id, p.ref])).toEqual(id === 1008 ? [[1008, basic.ref]] : [[1009, basic.ref], [1008, branch]])
    expect((await api.get('/projects/30/pipelines', { as: 'max' })).body[0]).toEqual(basic)

    // A running head pipeline: merge when it succeeds (200, set), then cancel it (201 {"status":"success"}).
    const merge = await api.put(`/projects/30/merge_requests/${iid}/merge`, { as: 'max', body: { merge_when_pipeline_succeeds: true } })
    expect(merge.status).toBe(200)
    expect(merge.body).toMatchObject({ state: 'opened', merged_at: null, merge_when_pipeline_succeeds: true })
    const cancel = await api.post(`/projects/30/merge_requests/${iid}/cancel_merge_when_pipeline_succeeds`, { as: 'max' })
    expect([cancel.status, cancel.body]).toEqual([201, { status: 'success' }])
  })

  it.each([
    ['every job excluded by its rules', 'deploy:\n  rules:\n    - if: \'$CI_COMMIT_BRANCH == "main"\'\n  script: x\n'],
    ['no job for a push or a merge request', 'deploy:\n  only: [tags]\n  script: x\n'],
  ])('%s: no pipeline, and merge when pipeline succeeds is refused (405)', async (_what, content) => {
    await branchWithCi(api, 'ci-none', content)
    const mr = await api.post('/projects/30/merge_requests', { as: 'devon', body: { source_branch: 'ci-none', target_branch: 'main', title: 'CI' } })
    expect(mr.status).toBe(201)
    expect(mr.body.head_pipeline).toBeNull()
    expect((await api.get('/projects/30/pipelines', { as: 'max' })).body).toEqual([])
    const merge = await api.put(`/projects/30/merge_requests/${mr.body.iid}/merge`, { as: 'max', body: { merge_when_pipeline_succeeds: true } })
    expect([merge.status, merge.body]).toEqual([405, { message: '405 Method Not Allowed' }])
  })

  it.each([
    ['no job for merge requests (default only: branches, tags)', 'build:\n  script: make\n', 'pending', null],
    ['YAML that does not parse', 'test: [unclosed\n', 'failed', 'Included file `.gitlab-ci.yml` does not have valid YAML syntax!'],
    ['no visible job', '.hidden:\n  script: x\nvariables:\n  A: b\n', 'failed', 'jobs config should contain at least one visible job'],
  ])('%s: no merge request pipeline; the push pipeline of the file\'s commit is the head pipeline', async (_what, content, status, yamlErrors) => {
    const sha = await branchWithCi(api, 'ci-none', content)
    const mr = await api.post('/projects/30/merge_requests', { as: 'devon', body: { source_branch: 'ci-none', target_branch: 'main', title: 'CI' } })
    expect(mr.status).toBe(201)
    expect(mr.body.head_pipeline).toMatchObject({ id: 1008, sha, ref: 'ci-none', status, yaml_errors: yamlErrors, user: { username: 'max' } })
    expect((await api.get('/projects/30/pipelines', { as: 'max' })).body.map((p: { id: number }) => p.id)).toEqual([1008])
  })

  it('a branch without the file makes no pipeline at all (project 20, off v0.9.0, before its .gitlab-ci.yml)', async () => {
    const before = (await api.get('/projects/20/pipelines', { as: 'max', query: { per_page: 100 } })).body.length as number
    expect((await api.post('/projects/20/repository/branches', { as: 'max', body: { branch: 'plain', ref: 'v0.9.0' } })).status).toBe(201)
    expect((await api.post('/projects/20/repository/files/README.plain', { as: 'max', body: { branch: 'plain', content: 'x', commit_message: 'x' } })).status).toBe(201)
    const mr = await api.post('/projects/20/merge_requests', { as: 'devon', body: { source_branch: 'plain', target_branch: 'main', title: 'No CI' } })
    expect(mr.status).toBe(201)
    expect(mr.body.head_pipeline).toBeNull()
    expect((await api.get('/projects/20/pipelines', { as: 'max', query: { per_page: 100 } })).body).toHaveLength(before)
  })
})

contract('.gitlab-ci.yml: POST /projects/:id/pipeline', {}, ({ api }) => {
  it('runs the file at the ref\'s commit: jobs by rules (a rule\'s when: manual) and only/except', async () => {
    const sha = await branchWithCi(api, 'ci-api', MIXED)
    const res = await api.post('/projects/30/pipeline', { as: 'devon', body: { ref: 'ci-api' } })
    expect(res.status).toBe(201)
    // 1008 is the push pipeline of the file's commit.
    expect(res.body).toMatchObject({ id: 1009, sha, ref: 'ci-api', status: 'pending', before_sha: BLANK_SHA, tag: false })
    expect(await jobsOf(api, 1009)).toEqual([
      ['never', 'test', 'created', false],
      ['review', 'deploy', 'created', true],
      ['build', 'build', 'pending', false],
    ])
    // main has no file: still none.
    const main = await api.post('/projects/30/pipeline', { as: 'max', body: { ref: 'main' } })
    expect([main.status, main.body]).toEqual([400, { message: { base: ['Missing CI config file'] } }])
  })

  it('a file on project 20\'s branch replaces main\'s definition there', async () => {
    expect((await api.post('/projects/20/repository/branches', { as: 'max', body: { branch: 'ci-own', ref: 'main' } })).status).toBe(201)
    // The branch has main's file: rewrite it.
    expect((await api.put('/projects/20/repository/files/.gitlab-ci.yml', { as: 'max', body: { branch: 'ci-own', content: 'only-job:\n  script: x\n', commit_message: 'CI' } })).status).toBe(200)
    const res = await api.post('/projects/20/pipeline', { as: 'devon', body: { ref: 'ci-own' } })
    expect(res.status).toBe(201)
    const jobs = await api.get(`/projects/20/pipelines/${res.body.id}/jobs`, { as: 'devon' })
    expect((jobs.body as { name: string; status: string }[]).map((j) => [j.name, j.status])).toEqual([['only-job', 'pending']])
  })

  it.each([
    ['YAML that does not parse', 'test: [unclosed\n', 'Included file `.gitlab-ci.yml` does not have valid YAML syntax!', true],
    ['YAML that is not a mapping', '- a\n- b\n', 'Included file `.gitlab-ci.yml` does not have valid YAML syntax!', true],
    ['no visible job', '.hidden:\n  script: x\nstages: [build]\n', 'jobs config should contain at least one visible job', true],
    ['a job in an unknown stage', 'stages: [build]\nx:\n  stage: qa\n  script: y\n', 'x job: chosen stage does not exist; available stages are .pre, build, .post', true],
    ['no job for an api pipeline', MR_ONLY, 'No stages / jobs for this pipeline.', false],
  ])('%s: 400 with 13.x\'s message, no pipeline', async (_what, content, message, pushFailed) => {
    await branchWithCi(api, 'ci-bad', content)
    const res = await api.post('/projects/30/pipeline', { as: 'devon', body: { ref: 'ci-bad' } })
    expect([res.status, res.body]).toEqual([400, { message: { base: [message] } }])
    // The API's refused pipeline is not saved; the push of the file saved a failed one (`save_on_errors`).
    const pipelines = (await api.get('/projects/30/pipelines', { as: 'max' })).body as { id: number; status: string; source: string }[]
    expect(pipelines.map((p) => [p.id, p.status])).toEqual(pushFailed ? [[1008, 'failed']] : [])
    if (pushFailed) expect((await api.get('/projects/30/pipelines/1008', { as: 'max' })).body.yaml_errors).toBe(message)
  })
})
