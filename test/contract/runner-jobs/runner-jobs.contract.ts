/**
 * The runner's API for jobs (issue 36, the runner brief): a runner registered through
 * `POST /runners` requests jobs (`POST /jobs/request`), reads the payload (variables in 13.12's
 * order, the trigger's variable among them), appends its log (`PATCH /jobs/:id/trace`), uploads
 * its artifacts (`POST /jobs/:id/artifacts`), reports its state (`PUT /jobs/:id`); and issue 36's
 * done-when through it: the triggered pipeline's rule reads the trigger variable, the job's
 * environment gets a deployment, the artifact downloads as a zip through the public jobs API.
 * Source: gitlab (13.12): lib/api/ci/runner.rb, lib/api/entities/job_request/*.rb,
 * app/presenters/ci/build_runner_presenter.rb, spec/requests/api/ci/runner/jobs_*_spec.rb.
 * Default scenario: project 20 acme/website (max maintainer), its registration token
 * GR1348941WebsiteRunnerToken01; clock frozen at 2021-04-01T12:00:00Z.
 */
import { unzipSync, zipSync } from 'fflate'
import { expect, it } from 'vitest'
import { contract, type Api } from '../../support/contract.js'

const WEBSITE_TOKEN = 'GR1348941WebsiteRunnerToken01'
const TEXT = new TextDecoder()
const UTF8 = new TextEncoder()

const CI = `
stages: [build, deploy]
variables:
  GLOBAL_VAR: global
default:
  image: ruby:2.7
  before_script: [bundle install]
build:
  stage: build
  tags: [fakelab-runner]
  rules:
    - if: '$CI_PIPELINE_SOURCE == "trigger"'
  script: make
  artifacts:
    paths: [out/]
    expire_in: 1 week
deploy_staging:
  stage: deploy
  tags: [fakelab-runner]
  rules:
    - if: '$CI_PIPELINE_SOURCE == "trigger" && $DEPLOY_TO == "staging"'
  variables:
    JOB_VAR: job
  environment:
    name: staging
    url: https://$CI_COMMIT_REF_SLUG.staging.example.com
  services:
    - name: postgres:12
      alias: db
  script: [deploy, echo done]
  after_script: [cleanup]
  cache:
    key: gems
    paths: [vendor/]
`

type Variable = { key: string; value: string; public: boolean; masked: boolean; file?: boolean }

/** A branch `deploy` with the CI file, a trigger, a triggered pipeline with `DEPLOY_TO=staging`, and a tagged project runner. */
async function arrange(api: Api) {
  expect((await api.post('/projects/20/repository/branches', { as: 'max', body: { branch: 'deploy', ref: 'main' } })).status).toBe(201)
  expect((await api.put('/projects/20/repository/files/.gitlab-ci.yml', { as: 'max', body: { branch: 'deploy', content: CI, commit_message: 'CI' } })).status).toBe(200)
  const trigger = (await api.post('/projects/20/triggers', { as: 'max', body: { description: 'deploy' } })).body.token as string
  const pipeline = await api.post('/projects/20/trigger/pipeline', { form: { token: trigger, ref: 'deploy', 'variables[DEPLOY_TO]': 'staging' } })
  expect(pipeline.status).toBe(201)
  const registered = await api.post('/runners', { body: { token: WEBSITE_TOKEN, description: 'deployer', tag_list: 'fakelab-runner', run_untagged: false, info: { name: 'gitlab-runner', version: '13.12.0' } } })
  expect(registered.status).toBe(201)
  return { pipeline: pipeline.body as { id: number; sha: string }, runner: registered.body as { id: number; token: string } }
}

contract('runner API: /jobs', {}, ({ api }) => {
  it('done when: a runner runs the triggered pipeline\'s jobs, the deploy job deploys, its artifact downloads as a zip', async () => {
    const { pipeline, runner } = await arrange(api)
    const jobs = (await api.get(`/projects/20/pipelines/${pipeline.id}/jobs`, { as: 'max' })).body as { id: number; name: string }[]
    const buildId = jobs.find((j) => j.name === 'build')!.id
    const deployId = jobs.find((j) => j.name === 'deploy_staging')!.id

    // The first stage's job comes first, in 13.12's payload shape.
    const first = await api.post('/jobs/request', { body: { token: runner.token, info: { name: 'gitlab-runner', version: '13.12.0' } } })
    expect(first.status).toBe(201)
    const build = first.body
    expect(Object.keys(build)).toEqual(['id', 'token', 'allow_git_fetch', 'job_info', 'git_info', 'runner_info', 'variables', 'steps', 'image', 'services', 'artifacts', 'cache', 'credentials', 'dependencies', 'features'])
    expect(build.id).toBe(buildId)
    expect(build.token).toMatch(/^[A-Za-z0-9]{20}$/)
    expect(build.job_info).toEqual({ id: buildId, name: 'build', stage: 'build', project_id: 20, project_name: 'Website' })
    const host = new URL(api.baseUrl)
    expect(build.git_info).toEqual({
      repo_url: `${host.protocol}//gitlab-ci-token:${build.token}@${host.host}/acme/website.git`,
      ref: 'deploy', sha: pipeline.sha, before_sha: '0'.repeat(40), ref_type: 'branch',
      refspecs: ['+refs/heads/deploy:refs/remotes/origin/deploy'], depth: 50,
    })
    expect(build.runner_info).toEqual({ timeout: 3600, runner_session_url: null })
    expect(build.steps).toEqual([{ name: 'script', script: ['bundle install', 'make'], timeout: 3600, when: 'on_success', allow_failure: false }])
    expect(build.image).toEqual({ name: 'ruby:2.7', entrypoint: null, ports: [] })
    expect(build.artifacts).toEqual([{ name: null, untracked: null, paths: ['out/'], when: null, expire_in: '1 week', artifact_type: 'archive', artifact_format: 'zip' }])
    expect(build.cache).toEqual([])
    expect(build.dependencies).toEqual([])
    expect(build.features).toEqual({ trace_sections: true })
    const vars = build.variables as Variable[]
    expect(vars.slice(0, 5).map((v) => v.key)).toEqual(['CI_PIPELINE_ID', 'CI_PIPELINE_URL', 'CI_JOB_ID', 'CI_JOB_URL', 'CI_JOB_TOKEN'])
    expect(vars.find((v) => v.key === 'CI_JOB_TOKEN')).toEqual({ key: 'CI_JOB_TOKEN', value: build.token, public: false, masked: true })
    expect(vars.find((v) => v.key === 'CI_JOB_URL')).toEqual({ key: 'CI_JOB_URL', value: `${api.baseUrl}/acme/website/-/jobs/${buildId}`, public: true, masked: false })
    expect(vars.find((v) => v.key === 'CI_RUNNER_TAGS')!.value).toBe('fakelab-runner')
    expect(vars.find((v) => v.key === 'CI_PIPELINE_SOURCE')!.value).toBe('trigger')
    expect(vars.find((v) => v.key === 'GITLAB_USER_LOGIN')!.value).toBe('max')
    // The trigger's variable is the pipeline's own: not public, after the YAML's.
    const keys = vars.map((v) => v.key)
    expect(vars.find((v) => v.key === 'DEPLOY_TO')).toEqual({ key: 'DEPLOY_TO', value: 'staging', public: false, masked: false })
    expect(keys.indexOf('GLOBAL_VAR')).toBeGreaterThan(keys.indexOf('CI_RUNNER_ID'))
    expect(keys.indexOf('DEPLOY_TO')).toBeGreaterThan(keys.indexOf('GLOBAL_VAR'))

    // The job runs on the runner; the pipeline runs.
    const running = (await api.get(`/projects/20/jobs/${buildId}`, { as: 'max' })).body
    expect(running).toMatchObject({ status: 'running', started_at: '2021-04-01T12:00:00.000Z', runner: { id: runner.id, description: 'deployer' } })
    expect((await api.get(`/projects/20/pipelines/${pipeline.id}`, { as: 'max' })).body.status).toBe('running')
    // Nothing else for this runner until the build finishes.
    const none = await api.post('/jobs/request', { body: { token: runner.token } })
    expect(none.status).toBe(204)
    const lastUpdate = none.headers.get('x-gitlab-last-update')!
    expect(lastUpdate).toMatch(/^[0-9a-f]{32}$/)
    const cached = await api.post('/jobs/request', { body: { token: runner.token, last_update: lastUpdate } })
    expect(cached.status).toBe(204)
    expect(cached.headers.get('x-gitlab-last-update')).toBe(lastUpdate)

    // The build uploads its archive and succeeds; the deploy job is next, the build its dependency.
    const zip = zipSync({ 'out/app.txt': UTF8.encode('built\n') })
    const form = new FormData()
    form.append('file', new Blob([zip]), 'artifacts.zip')
    expect((await api.post(`/jobs/${buildId}/artifacts`, { headers: { 'job-token': build.token }, query: { artifact_format: 'zip', artifact_type: 'archive', expire_in: '1 week' }, multipart: form })).status).toBe(201)
    const done = await api.put(`/jobs/${buildId}`, { body: { token: build.token, state: 'success', checksum: 'crc32:00000000' } })
    expect(done.status).toBe(200)
    expect(done.body).toBe('200')
    expect((await api.get(`/projects/20/jobs/${buildId}`, { as: 'max' })).body.artifacts_expire_at).toBe('2021-04-08T12:00:00.000Z')

    const second = await api.post('/jobs/request', { body: { token: runner.token, last_update: lastUpdate } })
    expect(second.status).toBe(201)
    const deploy = second.body
    expect(deploy.id).toBe(deployId)
    expect(deploy.steps).toEqual([
      { name: 'script', script: ['bundle install', 'deploy', 'echo done'], timeout: 3600, when: 'on_success', allow_failure: false },
      { name: 'after_script', script: ['cleanup'], timeout: 3600, when: 'always', allow_failure: true },
    ])
    expect(deploy.services).toEqual([{ name: 'postgres:12', entrypoint: null, ports: [], alias: 'db', command: null }])
    expect(deploy.artifacts).toBeNull()
    expect(deploy.cache).toEqual([{ key: 'gems', untracked: false, paths: ['vendor/'], policy: 'pull-push', when: 'on_success' }])
    expect(deploy.dependencies).toEqual([{ id: buildId, name: 'build', token: build.token, artifacts_file: { filename: 'artifacts.zip', size: expect.any(Number) } }])
    const deployVars = deploy.variables as Variable[]
    expect(deployVars.find((v) => v.key === 'JOB_VAR')).toEqual({ key: 'JOB_VAR', value: 'job', public: true, masked: false })
    expect(deployVars.slice(-3).map((v) => [v.key, v.value])).toEqual([['CI_ENVIRONMENT_NAME', 'staging'], ['CI_ENVIRONMENT_SLUG', expect.stringMatching(/^staging$/)], ['CI_ENVIRONMENT_URL', 'https://deploy.staging.example.com']])
    // The dependency's archive downloads with the dependency's own token.
    const dep = await api.get(`/jobs/${buildId}/artifacts`, { query: { token: build.token } })
    expect(dep.status).toBe(200)
    expect(TEXT.decode(unzipSync(dep.bytes)['out/app.txt'])).toBe('built\n')
    expect(await api.get(`/jobs/${buildId}/artifacts`, { query: { token: deploy.token } })).toBeGitLabError(403, { message: '403 Forbidden' })

    // The deployment runs with its job.
    const deployments = (await api.get('/projects/20/deployments', { as: 'max', query: { environment: 'staging' } })).body as { id: number; status: string; deployable: { id: number } }[]
    expect(deployments).toHaveLength(1)
    expect(deployments[0]).toMatchObject({ status: 'running', deployable: { id: deployId } })

    // The log in two pieces; a wrong offset is 416 with the size there is.
    const patch = (body: string, range: string) => api.request('PATCH', `/jobs/${deployId}/trace`, { headers: { 'job-token': deploy.token, 'content-range': range, 'content-type': 'text/plain' }, rawBody: body })
    const one = await patch('$ deploy\n', '0-9')
    expect(one.status).toBe(202)
    expect(one.headers.get('job-status')).toBe('running')
    expect(one.headers.get('range')).toBe('0-9')
    expect(one.headers.get('x-gitlab-trace-update-interval')).toBe('60')
    expect((await patch(`token ${deploy.token}\n`, '9-36')).headers.get('range')).toBe('0-36')
    const wrong = await patch('again\n', '3-9')
    expect(wrong).toBeGitLabError(416, { message: '416 Range Not Satisfiable' })
    expect(wrong.headers.get('range')).toBe('0-36')
    expect((await api.request('PATCH', `/jobs/${deployId}/trace`, { headers: { 'job-token': deploy.token }, rawBody: 'x' })).status).toBe(400)
    const trace = await api.get(`/projects/20/jobs/${deployId}/trace`, { as: 'max' })
    expect(trace.text).toBe(`$ deploy\ntoken ${'x'.repeat(20)}\n`)

    // It uploads its archive and succeeds: the deployment succeeds, the archive downloads through the jobs API.
    const deployZip = new FormData()
    deployZip.append('file', new Blob([zipSync({ 'deploy/url.txt': UTF8.encode('https://deploy.staging.example.com\n') })]), 'artifacts.zip')
    expect((await api.post(`/jobs/${deployId}/artifacts`, { query: { token: deploy.token }, multipart: deployZip })).status).toBe(201)
    const again = new FormData()
    again.append('file', new Blob([zip]), 'artifacts.zip')
    expect(await api.post(`/jobs/${deployId}/artifacts`, { query: { token: deploy.token }, multipart: again })).toBeGitLabError(400, { message: 'another artifact of the same type already exists' })
    expect((await api.put(`/jobs/${deployId}`, { body: { token: deploy.token, state: 'success' } })).status).toBe(200)
    const deployment = (await api.get(`/projects/20/deployments/${deployments[0]!.id}`, { as: 'max' })).body
    expect(deployment).toMatchObject({ status: 'success', deployable: { id: deployId, status: 'success' }, environment: { name: 'staging', external_url: 'https://deploy.staging.example.com' } })
    expect((await api.get(`/projects/20/pipelines/${pipeline.id}`, { as: 'max' })).body.status).toBe('success')
    const archive = await api.get(`/projects/20/jobs/${deployId}/artifacts`, { as: 'max' })
    expect(archive.status).toBe(200)
    expect(TEXT.decode(unzipSync(archive.bytes)['deploy/url.txt'])).toBe('https://deploy.staging.example.com\n')

    // A finished job takes no more reports.
    const late = await api.put(`/jobs/${deployId}`, { body: { token: deploy.token, state: 'failed' } })
    expect(late).toBeGitLabError(403, { message: '403 Forbidden - Job is not running' })
    expect(late.headers.get('job-status')).toBe('success')
  })

  it('answers 403 for an unknown runner or job token, 204 to a paused runner, 400 for a report without a state', async () => {
    const { runner } = await arrange(api)
    expect(await api.post('/jobs/request', { body: { token: 'nope' } })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect(await api.post('/jobs/request', { body: {} })).toBeGitLabError(400, { error: 'token is missing' })
    const mine = (await api.get('/runners', { as: 'max' })).body as { id: number; description: string }[]
    const id = mine.find((r) => r.description === 'deployer')!.id
    expect((await api.put(`/runners/${id}`, { as: 'max', body: { active: false } })).status).toBe(200)
    const paused = await api.post('/jobs/request', { body: { token: runner.token } })
    expect(paused.status).toBe(204)
    expect(paused.headers.get('x-gitlab-last-update')).toMatch(/^[0-9a-f]{32}$/)
    expect((await api.put(`/runners/${id}`, { as: 'max', body: { active: true } })).status).toBe(200)
    const job = (await api.post('/jobs/request', { body: { token: runner.token } })).body as { id: number; token: string }
    expect(await api.put(`/jobs/${job.id}`, { body: { token: 'wrong', state: 'success' } })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect(await api.put('/jobs/999999', { body: { token: job.token, state: 'success' } })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect(await api.put(`/jobs/${job.id}`, { body: { state: 'success' } })).toBeGitLabError(400, { error: 'token is missing' })
    const noState = await api.put(`/jobs/${job.id}`, { body: { token: job.token } })
    expect(noState.status).toBe(400)
    expect(noState.body).toBe('400')
    expect((await api.put(`/jobs/${job.id}`, { body: { token: job.token, state: 'running', trace: 'so far\n' } })).status).toBe(200)
    expect((await api.get(`/projects/20/jobs/${job.id}/trace`, { as: 'max' })).text).toBe('so far\n')
    expect((await api.post(`/jobs/${job.id}/artifacts/authorize`, { query: { token: job.token, filesize: 200 * 1024 * 1024 } }))).toBeGitLabError(413, { message: 'file size has reached maximum size limit' })
    const authorized = await api.post(`/jobs/${job.id}/artifacts/authorize`, { headers: { 'job-token': job.token } })
    expect(authorized.status).toBe(200)
    expect(authorized.headers.get('content-type')).toContain('application/vnd.gitlab-workhorse+json')
    expect(authorized.body).toEqual({ TempPath: '/var/opt/gitlab/gitlab-rails/shared/artifacts/tmp/uploads', MaximumSize: 104857600 })
    expect(await api.get(`/jobs/${job.id}/artifacts`, { query: { token: job.token } })).toBeGitLabError(404, { message: '404 Not Found' })
    // A failure with its reason.
    expect((await api.put(`/jobs/${job.id}`, { body: { token: job.token, state: 'failed', failure_reason: 'script_failure' } })).status).toBe(200)
    expect((await api.get(`/projects/20/jobs/${job.id}`, { as: 'max' })).body.status).toBe('failed')
  })
})
