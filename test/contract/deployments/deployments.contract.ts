/**
 * Deployments (issue 36 item 3): the API's list (orders, filters, pagination), get, create (the
 * environment made when missing), update (only a deployment the API made), a deployment's merge
 * requests; deployments of CI jobs that declare `environment:`, following their job; the
 * environment's `last_deployment`; the Deployment Hook. And issue 36's done-when: a pipeline
 * triggered with a trigger token and a variable runs the rule that reads it, its job's environment
 * gets a deployment, the job run through the control call with an artifact makes it succeed, and
 * the artifact downloads as a zip.
 * Source: gitlab (13.12): lib/api/deployments.rb, lib/api/entities/deployment.rb,
 * app/models/deployment.rb, app/services/deployments/*.rb, doc/api/deployments.md,
 * doc/user/project/integrations/webhooks.md "Deployment events". Default scenario: project 20
 * acme/website (riley reporter, devon developer, max maintainer, gina guest), environments 1200
 * production and 1201 review/old-footer, deployment 1300 (iid 1, production, main, by max,
 * success); merge request !2 merged into main; clock frozen at 2021-04-01T12:00:00Z.
 */
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { unzipSync } from 'fflate'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { hookDeliveriesSettled } from '../../../src/resources/hooks/hooks.public.js'
import { createSimulator } from '../../../src/index.js'
import { contract } from '../../support/contract.js'

const NOW = '2021-04-01T12:00:00.000Z'
const TEXT = new TextDecoder()

const CI = `
stages: [build, deploy]
build:
  stage: build
  script: make
deploy_staging:
  stage: deploy
  rules:
    - if: '$CI_PIPELINE_SOURCE == "trigger" && $DEPLOY_TO == "staging"'
  environment:
    name: staging
    url: https://$CI_COMMIT_REF_SLUG.staging.example.com
  script: deploy
stop_review:
  stage: deploy
  when: manual
  environment: { name: review/old-footer, action: stop }
  script: stop
`

/** A receiver of hook deliveries: the requests it got, in order. */
const received: { headers: IncomingMessage['headers']; body: Record<string, unknown> }[] = []
const receiver = createServer((req, res) => {
  let data = ''
  req.on('data', (chunk) => (data += chunk))
  req.on('end', () => {
    received.push({ headers: req.headers, body: JSON.parse(data) as Record<string, unknown> })
    res.end('ok')
  })
})
let hookUrl = ''
beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`
})
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())))

contract('/projects/:id/deployments', {}, ({ api, sim }) => {
  const mainSha = async () => ((await api.get('/projects/20/repository/branches/main', { as: 'max' })).body as { commit: { id: string } }).commit.id

  it('lists the scenario\'s deployment in 13.12\'s field order; the environment shows it as last_deployment', async () => {
    const list = await api.get('/projects/20/deployments', { as: 'riley' })
    expect(list.status).toBe(200)
    expect(list.headers.get('x-total')).toBe('1')
    const [d] = list.body as Record<string, unknown>[]
    expect(Object.keys(d!)).toEqual(['id', 'iid', 'ref', 'sha', 'created_at', 'updated_at', 'user', 'environment', 'deployable', 'status'])
    expect(d).toMatchObject({ id: 1300, iid: 1, ref: 'main', sha: await mainSha(), status: 'success', deployable: null, user: { username: 'max' } })
    expect(d!.environment).toEqual({ id: 1200, name: 'production', slug: 'production', external_url: 'https://www.acme.example.com' })
    const env = (await api.get('/projects/20/environments/1200', { as: 'riley' })).body as Record<string, unknown>
    expect(Object.keys(env)).toEqual(['id', 'name', 'slug', 'external_url', 'last_deployment', 'state'])
    const { environment: _e, ...withoutEnvironment } = d!
    expect(env.last_deployment).toEqual(withoutEnvironment)
    expect((await api.get('/projects/20/deployments/1300', { as: 'riley' })).body).toEqual(d)
  })

  it('creates deployments (the environment made when missing), filters and orders them, updates their status', async () => {
    const sha = await mainSha()
    const made = await api.post('/projects/20/deployments', { as: 'devon', body: { environment: 'canary', sha, ref: 'main', tag: false, status: 'running' } })
    expect(made.status).toBe(201)
    expect(made.body).toMatchObject({ id: 1301, iid: 2, ref: 'main', sha, created_at: NOW, updated_at: NOW, user: { username: 'devon' }, deployable: null, status: 'running' })
    expect(made.body.environment).toMatchObject({ name: 'canary', slug: 'canary', external_url: null })
    const envs = (await api.get('/projects/20/environments', { as: 'devon', query: { name: 'canary' } })).body as { id: number; state: string }[]
    expect(envs).toHaveLength(1)
    expect(envs[0]!.id).toBe(made.body.environment.id)
    // Running → success; success again is refused with the model's (empty) errors; a finished one may still fail.
    const done = await api.put('/projects/20/deployments/1301', { as: 'devon', body: { status: 'success' } })
    expect(done.status).toBe(200)
    expect(done.body.status).toBe('success')
    expect(await api.put('/projects/20/deployments/1301', { as: 'devon', body: { status: 'success' } })).toBeGitLabError(400, { message: {} })
    expect(await api.put('/projects/20/deployments/1301', { as: 'devon', body: { status: 'running' } })).toBeGitLabError(400, { message: {} })
    expect((await api.put('/projects/20/deployments/1301', { as: 'devon', body: { status: 'failed' } })).body.status).toBe('failed')
    await api.post('/projects/20/deployments', { as: 'devon', body: { environment: 'production', sha, ref: 'v1.0.0', tag: true, status: 'canceled' } })
    const ids = async (query: Record<string, string>) => ((await api.get('/projects/20/deployments', { as: 'devon', query })).body as { id: number }[]).map((d) => d.id)
    expect(await ids({})).toEqual([1300, 1301, 1302])
    expect(await ids({ sort: 'desc' })).toEqual([1302, 1301, 1300])
    expect(await ids({ order_by: 'ref' })).toEqual([1300, 1301, 1302])
    expect(await ids({ environment: 'production' })).toEqual([1300, 1302])
    expect(await ids({ status: 'failed' })).toEqual([1301])
    expect(await ids({ updated_after: '2021-03-31T00:00:00Z' })).toEqual([1301, 1302])
    expect(await ids({ updated_before: '2021-03-31T00:00:00Z' })).toEqual([1300])
    const page = await api.get('/projects/20/deployments', { as: 'devon', query: { per_page: '2', page: '2' } })
    expect(page.headers.get('x-total')).toBe('3')
    expect((page.body as { id: number }[]).map((d) => d.id)).toEqual([1302])
  })

  it('answers GitLab\'s errors', async () => {
    const sha = await mainSha()
    const body = { environment: 'production', sha, ref: 'main', tag: false, status: 'success' }
    expect(await api.get('/projects/20/deployments')).toBeGitLabError(401, { message: '401 Unauthorized' })
    expect(await api.get('/projects/20/deployments', { as: 'gina' })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect(await api.get('/projects/21/deployments', { as: 'nora' })).toBeGitLabError(404, { message: '404 Project Not Found' })
    expect(await api.get('/projects/20/deployments/999', { as: 'riley' })).toBeGitLabError(404, { message: '404 Not found' })
    expect(await api.get('/projects/20/deployments', { as: 'riley', query: { order_by: 'name' } })).toBeGitLabError(400, { error: 'order_by does not have a valid value' })
    expect(await api.get('/projects/20/deployments', { as: 'riley', query: { status: 'done' } })).toBeGitLabError(400, { error: 'status does not have a valid value' })
    expect(await api.post('/projects/20/deployments', { as: 'riley', body })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect(await api.post('/projects/20/deployments', { as: 'devon', body: { ...body, status: 'created' } })).toBeGitLabError(400, { error: 'status does not have a valid value' })
    expect(await api.post('/projects/20/deployments', { as: 'devon', body: { sha } })).toBeGitLabError(400, { error: 'environment is missing, ref is missing, tag is missing, status is missing' })
    expect(await api.post('/projects/20/deployments', { as: 'devon', body: { ...body, sha: '', ref: '' } })).toBeGitLabError(400, { message: { sha: ["can't be blank"], ref: ["can't be blank"] } })
    // Nothing half-made: the refused deployment's new environment is not there either.
    expect(await api.post('/projects/20/deployments', { as: 'devon', body: { ...body, environment: 'brand-new', sha: '' } })).toBeGitLabError(400, { message: { sha: ["can't be blank"] } })
    expect((await api.get('/projects/20/environments', { as: 'devon', query: { name: 'brand-new' } })).body).toEqual([])
    expect(await api.put('/projects/20/deployments/1300', { as: 'riley', body: { status: 'failed' } })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect(await api.put('/projects/20/deployments/1300', { as: 'devon', body: {} })).toBeGitLabError(400, { error: 'status is missing' })
  })

  it('links the merged merge requests of a successful deployment (LinkMergeRequestsService)', async () => {
    const sha = await mainSha()
    // The first successful deployment of an environment links every merge request merged into its ref.
    const first = await api.post('/projects/20/deployments', { as: 'devon', body: { environment: 'qa', sha, ref: 'main', tag: false, status: 'success' } })
    const mrs = await api.get(`/projects/20/deployments/${first.body.id}/merge_requests`, { as: 'devon' })
    expect(mrs.status).toBe(200)
    const merged = ((await api.get('/projects/20/merge_requests', { as: 'devon', query: { state: 'merged', target_branch: 'main' } })).body as { iid: number }[]).map((mr) => mr.iid)
    expect(merged.length).toBeGreaterThan(0)
    expect((mrs.body as { iid: number }[]).map((mr) => mr.iid).sort()).toEqual([...merged].sort())
    expect(Object.keys((mrs.body as object[])[0]!).slice(0, 4)).toEqual(['id', 'iid', 'project_id', 'title'])
    // The next one of the same commit ships nothing new; a review app's deployment links none.
    const again = await api.post('/projects/20/deployments', { as: 'devon', body: { environment: 'qa', sha, ref: 'main', tag: false, status: 'success' } })
    expect((await api.get(`/projects/20/deployments/${again.body.id}/merge_requests`, { as: 'devon' })).body).toEqual([])
    const review = await api.post('/projects/20/deployments', { as: 'devon', body: { environment: 'review/x', sha, ref: 'main', tag: false, status: 'success' } })
    expect((await api.get(`/projects/20/deployments/${review.body.id}/merge_requests`, { as: 'devon' })).body).toEqual([])
    expect((await api.get('/projects/20/deployments/999/merge_requests', { as: 'devon' })).body).toEqual([])
  })

  it('done when: a triggered pipeline\'s rule reads its variable, the job deploys, the control call succeeds it with an artifact, which downloads as a zip', async () => {
    expect((await api.post('/projects/20/hooks', { as: 'max', body: { url: hookUrl, deployment_events: true, push_events: false } })).body.deployment_events).toBe(true)
    received.length = 0
    expect((await api.post('/projects/20/repository/branches', { as: 'max', body: { branch: 'deploy', ref: 'main' } })).status).toBe(201)
    expect((await api.put('/projects/20/repository/files/.gitlab-ci.yml', { as: 'max', body: { branch: 'deploy', content: CI, commit_message: 'CI' } })).status).toBe(200)
    const token = (await api.post('/projects/20/triggers', { as: 'max', body: { description: 'deploy' } })).body.token as string
    const triggered = await api.post('/projects/20/trigger/pipeline', { form: { token, ref: 'deploy', 'variables[DEPLOY_TO]': 'staging' } })
    expect(triggered.status).toBe(201)
    const pipelineId = triggered.body.id as number
    const jobs = (await api.get(`/projects/20/pipelines/${pipelineId}/jobs`, { as: 'max' })).body as { id: number; name: string; status: string }[]
    expect(jobs.map((j) => j.name).sort()).toEqual(['build', 'deploy_staging', 'stop_review'])
    const deployJob = jobs.find((j) => j.name === 'deploy_staging')!
    // The environment is made with the pipeline, the deployment `created`, its deployable the job.
    const created = (await api.get('/projects/20/deployments', { as: 'max', query: { environment: 'staging' } })).body as Record<string, any>[]
    expect(created).toHaveLength(1)
    expect(created[0]).toMatchObject({ iid: 2, ref: 'deploy', sha: triggered.body.sha, status: 'created', user: { username: 'max' }, environment: { name: 'staging', external_url: null } })
    expect(created[0]!.deployable).toMatchObject({ id: deployJob.id, name: 'deploy_staging', stage: 'deploy', status: 'created' })
    // A deployment made by a job is not the API's to update.
    expect(await api.put(`/projects/20/deployments/${created[0]!.id}`, { as: 'max', body: { status: 'success' } })).toBeGitLabError(403, { message: '403 Forbidden - Deployments created using GitLab CI can not be updated using the API' })
    // The build runs; then the deploy job runs and succeeds with an artifact.
    const build = jobs.find((j) => j.name === 'build')!
    expect((await api.post('/-/fakelab/jobs/run', { body: { job: build.id } })).status).toBe(200)
    expect((await api.post('/-/fakelab/jobs/run', { body: { job: deployJob.id, status: 'running' } })).status).toBe(200)
    expect((await api.get(`/projects/20/deployments/${created[0]!.id}`, { as: 'max' })).body.status).toBe('running')
    const run = await api.post('/-/fakelab/jobs/run', { body: { job: deployJob.id, trace: 'deployed\n', artifacts: { 'deploy/url.txt': 'https://deploy.staging.example.com\n' } } })
    expect(run.body).toMatchObject({ id: deployJob.id, status: 'success', artifacts: ['deploy/url.txt'] })
    const deployment = (await api.get(`/projects/20/deployments/${created[0]!.id}`, { as: 'max' })).body
    expect(deployment).toMatchObject({ status: 'success', deployable: { id: deployJob.id, status: 'success' }, environment: { name: 'staging', external_url: 'https://deploy.staging.example.com' } })
    const env = (await api.get(`/projects/20/environments/${deployment.environment.id}`, { as: 'max' })).body
    expect(env.last_deployment).toMatchObject({ id: deployment.id, status: 'success' })
    const zip = await api.get(`/projects/20/jobs/${deployJob.id}/artifacts`, { as: 'max' })
    expect(zip.status).toBe(200)
    expect(TEXT.decode(unzipSync(zip.bytes)['deploy/url.txt'])).toBe('https://deploy.staging.example.com\n')
    // The hook got the deployment's running and success events, field for field.
    await hookDeliveriesSettled(sim().db)
    const events = received.filter((r) => r.headers['x-gitlab-event'] === 'Deployment Hook').map((r) => r.body)
    expect(events.map((e) => e.status)).toEqual(['running', 'success'])
    const success = events[1]!
    expect(Object.keys(success)).toEqual(['object_kind', 'status', 'status_changed_at', 'deployable_id', 'deployable_url', 'environment', 'project', 'short_sha', 'user', 'user_url', 'commit_url', 'commit_title'])
    expect(success).toMatchObject({
      object_kind: 'deployment', status: 'success', status_changed_at: '2021-04-01 12:00:00 UTC', deployable_id: deployJob.id,
      deployable_url: `${api.baseUrl}/acme/website/-/jobs/${deployJob.id}`, environment: 'staging', short_sha: (triggered.body.sha as string).slice(0, 8),
      user: { name: 'Max Maintainer', username: 'max' }, user_url: `${api.baseUrl}/max`,
      commit_url: `${api.baseUrl}/acme/website/-/commit/${triggered.body.sha}`, commit_title: 'CI',
    })
    // The stop job stops its environment when it succeeds; it deploys nothing.
    const stop = jobs.find((j) => j.name === 'stop_review')!
    await api.post(`/projects/20/jobs/${stop.id}/play`, { as: 'max' })
    await api.post('/-/fakelab/jobs/run', { body: { job: stop.id } })
    expect((await api.get('/projects/20/environments/1201', { as: 'max' })).body.state).toBe('stopped')
    expect((await api.get('/projects/20/deployments', { as: 'max', query: { environment: 'review/old-footer' } })).body).toEqual([])
  })

  it('follows its job when the pipeline is canceled and the job retried', async () => {
    expect((await api.post('/projects/20/repository/branches', { as: 'max', body: { branch: 'deploy', ref: 'main' } })).status).toBe(201)
    const ci = 'deploy:\n  environment: production\n  script: deploy\n'
    expect((await api.put('/projects/20/repository/files/.gitlab-ci.yml', { as: 'max', body: { branch: 'deploy', content: ci, commit_message: 'CI' } })).status).toBe(200)
    const pipeline = (await api.get('/projects/20/pipelines', { as: 'max', query: { ref: 'deploy' } })).body[0] as { id: number }
    const [job] = (await api.get(`/projects/20/pipelines/${pipeline.id}/jobs`, { as: 'max' })).body as { id: number }[]
    const deploymentOf = async (jobId: number) => ((await api.get('/projects/20/deployments', { as: 'max', query: { environment: 'production' } })).body as { deployable: { id: number }; status: string }[]).find((d) => d.deployable?.id === jobId)
    expect((await deploymentOf(job!.id))?.status).toBe('created')
    expect((await api.post(`/projects/20/pipelines/${pipeline.id}/cancel`, { as: 'max' })).status).toBe(200)
    expect((await deploymentOf(job!.id))?.status).toBe('canceled')
    const retried = await api.post(`/projects/20/jobs/${job!.id}/retry`, { as: 'max' })
    expect(retried.status).toBe(201)
    expect((await deploymentOf(retried.body.id))?.status).toBe('created')
    await api.post('/-/fakelab/jobs/run', { body: { job: retried.body.id, status: 'failed' } })
    expect((await deploymentOf(retried.body.id))?.status).toBe('failed')
    // The production environment's last deployment is still the scenario's successful one.
    expect((await api.get('/projects/20/environments/1200', { as: 'max' })).body.last_deployment.id).toBe(1300)
  })

  it('reads .gitlab-ci.yml\'s own variables in rules, below project and pipeline variables, above predefined ones', async () => {
    const ci = [
      'variables:', '  TARGET: global', '  LEVEL: low',
      'a:', '  rules: [{ if: \'$TARGET == "global"\' }]', '  script: x',
      'b:', '  variables: { TARGET: job }', '  rules: [{ if: \'$TARGET == "job"\' }]', '  script: x',
      'c:', '  rules: [{ if: \'$LEVEL == "project"\' }]', '  script: x',
      'd:', '  variables: { CI_COMMIT_BRANCH: yaml }', '  rules: [{ if: \'$CI_COMMIT_BRANCH == "yaml"\' }]', '  script: x',
      'e:', '  rules: [{ if: \'$TARGET == "api"\' }]', '  script: x', '',
    ].join('\n')
    expect((await api.post('/projects/20/variables', { as: 'max', body: { key: 'LEVEL', value: 'project' } })).status).toBe(201)
    expect((await api.post('/projects/20/repository/branches', { as: 'max', body: { branch: 'vars', ref: 'main' } })).status).toBe(201)
    expect((await api.put('/projects/20/repository/files/.gitlab-ci.yml', { as: 'max', body: { branch: 'vars', content: ci, commit_message: 'CI' } })).status).toBe(200)
    const names = async (variables: { key: string; value: string }[]) => {
      const made = await api.post('/projects/20/pipeline', { as: 'max', body: { ref: 'vars', variables } })
      expect(made.status).toBe(201)
      return ((await api.get(`/projects/20/pipelines/${made.body.id}/jobs`, { as: 'max' })).body as { name: string }[]).map((j) => j.name).sort()
    }
    expect(await names([])).toEqual(['a', 'b', 'c', 'd'])
    expect(await names([{ key: 'TARGET', value: 'api' }])).toEqual(['c', 'd', 'e'])
  })

  it('comes back from a state export: deployments, their merge requests, the environment\'s last deployment', async () => {
    const sha = await mainSha()
    const made = await api.post('/projects/20/deployments', { as: 'devon', body: { environment: 'exported', sha, ref: 'main', tag: false, status: 'success' } })
    expect(made.status).toBe(201)
    const read = async (get: (path: string) => Promise<unknown>) => [
      await get('/projects/20/deployments'),
      await get(`/projects/20/deployments/${made.body.id}/merge_requests`),
      await get(`/projects/20/environments/${made.body.environment.id}`),
    ]
    const before = await read(async (path) => (await api.get(path, { as: 'devon' })).body)
    const exported = await api.get('/-/fakelab/state')
    expect(exported.status).toBe(200)
    const other = createSimulator({ scenario: exported.text })
    const after = await read(async (path) => {
      const res = await other.handle(new Request(`${api.baseUrl}/api/v4${path}`, { headers: { 'PRIVATE-TOKEN': 'glpat-devon-fakelab' } }))
      return res.json()
    })
    expect((before[1] as unknown[]).length).toBeGreaterThan(0)
    expect(after).toEqual(before)
  })
})
