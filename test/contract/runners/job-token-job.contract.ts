/**
 * `GET /job`: the job of the CI job token the request carries, over both doors. Source: api-spec.md
 * "Authentication" (CI job token: "job token's job"); gitlab: lib/api/jobs.rb (13.x, `resource :job`
 * with `job_token_allowed: true`, `validate_current_authenticated_job`), lib/api/entities/ci/job.rb.
 *
 * Default scenario: `job-token-deploy-review` is the token of running job 2002 (deploy-review,
 * pipeline 1001 of acme/website, triggered by max, run by runner 5 `website-runner`);
 * `job-token-running` authenticates devon but names no job; `job-token-finished` is of a job that
 * has ended. The clock is frozen at 2021-04-01T12:00:00Z.
 */
import { expect, it } from 'vitest'
import { contract, type RequestOptions } from '../../support/contract.js'

const JOB_KEYS = [
  'id', 'status', 'stage', 'name', 'ref', 'tag', 'coverage', 'allow_failure', 'created_at', 'started_at', 'finished_at',
  'duration', 'user', 'commit', 'pipeline', 'web_url', 'artifacts', 'runner', 'artifacts_expire_at', 'tag_list',
]

contract('GET /job', {}, ({ api }) => {
  it.each([
    ['the JOB-TOKEN header', { headers: { 'job-token': 'job-token-deploy-review' } }],
    ['the job_token parameter', { query: { job_token: 'job-token-deploy-review' } }],
  ])('answers the job of the token sent in %s', async (_, options) => {
    const res = await api.get('/job', options as RequestOptions)
    expect(res.status).toBe(200)
    expect(Object.keys(res.body)).toEqual(JOB_KEYS)
    expect(res.body).toMatchObject({
      id: 2002,
      status: 'running',
      stage: 'deploy',
      name: 'deploy-review',
      tag: false,
      coverage: null,
      allow_failure: false,
      created_at: '2021-04-01T11:50:00.000Z',
      started_at: '2021-04-01T11:50:00.000Z',
      finished_at: null,
      duration: 600,
      user: { id: 5, username: 'max' },
      pipeline: { id: 1001 },
      web_url: `${api.baseUrl}/acme/website/-/jobs/2002`,
      artifacts: [],
      runner: { id: 5, description: expect.any(String), is_shared: false, runner_type: 'project_type' },
      artifacts_expire_at: null,
      tag_list: [],
    })
    expect(Object.keys(res.body.runner)).toEqual(['id', 'description', 'ip_address', 'active', 'is_shared', 'runner_type', 'name', 'online', 'status'])
  })

  it.each([
    ['anonymous', {}, 401, { message: '401 Unauthorized' }],
    ['an unknown job token', { headers: { 'job-token': 'no-such-job-token' } }, 401, { message: '401 Unauthorized' }],
    ['the token of a job that is not running', { headers: { 'job-token': 'job-token-finished' } }, 401, { message: '401 Unauthorized' }],
    ['a personal access token', { as: 'max' }, 404, { message: '404 Job Not Found' }],
    ['an administrator\'s personal access token', { as: 'root' }, 404, { message: '404 Job Not Found' }],
    ['an OAuth token', { headers: { authorization: 'Bearer oauth-devon-fakelab' } }, 404, { message: '404 Job Not Found' }],
    ['a session cookie', { headers: { cookie: '_gitlab_session=session-devon-fakelab' } }, 404, { message: '404 Job Not Found' }],
    ['a job token the scenario gives no job', { headers: { 'job-token': 'job-token-running' } }, 404, { message: '404 Job Not Found' }],
  ])('answers %s with %i', async (_, options, status, body) => {
    const res = await api.get('/job', options as RequestOptions)
    expect(res).toBeGitLabError(status, body)
  })

  it('prefers an access token sent with the job token (access tokens come first): 404', async () => {
    const res = await api.get('/job', { as: 'max', headers: { 'job-token': 'job-token-deploy-review' } })
    expect(res).toBeGitLabError(404, { message: '404 Job Not Found' })
  })

  it('refuses sudo with a job token (no access token to carry the sudo scope)', async () => {
    const res = await api.get('/job', { headers: { 'job-token': 'job-token-deploy-review', sudo: 'devon' } })
    expect(res).toBeGitLabError(403, { message: '403 Forbidden - Must be admin to use sudo' })
  })
})

contract('GET /user (with a job token)', {}, ({ api }) => {
  it('ignores a job token, as GitLab 13.x (users.rb opens GET /user to no job token): 401', async () => {
    for (const options of [{ headers: { 'job-token': 'job-token-deploy-review' } }, { query: { job_token: 'job-token-deploy-review' } }]) {
      const res = await api.get('/user', options)
      expect(res).toBeGitLabError(401, { message: '401 Unauthorized' })
    }
  })
})
