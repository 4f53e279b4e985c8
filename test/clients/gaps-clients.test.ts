/**
 * Real clients, unmodified, on what the gaps branch adds (issue 10's remaining points): `GET /job`
 * with a CI job token (gitbeaker's requester with `jobToken`, since its `Jobs.showConnectedJob()`
 * refuses the `jobToken` option client-side in 43.8; python-gitlab's
 * `http_get('/job')` with `job_token=`), `gl.auth()` refusing a job token as GitLab 13.x does, a
 * finished storage move showing in the project's `repository_storage`, and the OAuth tokens of the
 * scenario's application. The python-gitlab part is skipped, saying so, where `import gitlab` fails.
 */
import { Gitlab } from '@gitbeaker/rest'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import type { ManualClock } from '../../src/core/clock.js'
import { findPython, runPython, statusOf, serveDefaultScenario } from '../support/clients.js'

const fakelab = serveDefaultScenario()
beforeEach(() => fakelab.sim.reset())

describe('@gitbeaker/rest: the job token\'s job, storage after a move, OAuth', () => {
  it('shows the job of a CI job token through the requester (GET job with the jobToken option)', async () => {
    const api = new Gitlab({ host: fakelab.url, jobToken: 'job-token-deploy-review' })
    const job = await api.requester.get('job')
    expect(job.status).toBe(200)
    expect(job.body).toMatchObject({ id: 2002, status: 'running', name: 'deploy-review', user: { username: 'max' }, runner: { id: 5 }, pipeline: { id: 1001 } })
    expect(await statusOf(api.Users.showCurrentUser())).toBe(401)
    expect(await statusOf(new Gitlab({ host: fakelab.url, jobToken: 'job-token-finished' }).requester.get('job'))).toBe(401)
    expect(await statusOf(new Gitlab({ host: fakelab.url, token: 'glpat-max-fakelab' }).requester.get('job'))).toBe(404)
  })

  it('cannot use Jobs.showConnectedJob() with the jobToken option: gitbeaker 43.8 refuses before sending', () => {
    // @gitbeaker/core 43.8.0 checks `this.headers['job-token']`, but `jobToken` goes to `authHeaders`:
    // the call throws without a request. When this starts passing, gitbeaker has fixed it: assert the job here.
    const api = new Gitlab({ host: fakelab.url, jobToken: 'job-token-deploy-review' })
    const sent = fakelab.sim.journal.find({ route: 'GET /job' }).length
    expect(() => api.Jobs.showConnectedJob()).toThrow('Missing required header "job-token"')
    expect(fakelab.sim.journal.find({ route: 'GET /job' })).toHaveLength(sent)
  })

  it('reads and schedules storage moves through the requester, and sees the project on its new storage', async () => {
    const admin = new Gitlab({ host: fakelab.url, token: 'glpat-root-fakelab' })
    expect((await admin.Projects.show(20)).repository_storage).toBe('default')
    const made = await admin.requester.post('projects/20/repository_storage_moves', { body: { destination_storage_name: 'storage-2' } })
    expect([made.status, (made.body as { state: string }).state]).toEqual([201, 'scheduled'])
    ;(fakelab.sim.clock as ManualClock).advance(65_000)
    const read = await admin.requester.get(`project_repository_storage_moves/${(made.body as { id: number }).id}`)
    expect((read.body as { state: string }).state).toBe('finished')
    expect((await admin.Projects.show(20)).repository_storage).toBe('storage-2')
    expect('repository_storage' in (await new Gitlab({ host: fakelab.url, token: 'glpat-max-fakelab' }).Projects.show(20))).toBe(false)
  })

  it('authenticates with an OAuth token of the scenario\'s application; a revoked one gets 401', async () => {
    expect((await new Gitlab({ host: fakelab.url, oauthToken: 'oauth-root-fakelab' }).Users.showCurrentUser()).username).toBe('root')
    expect(await statusOf(new Gitlab({ host: fakelab.url, oauthToken: 'oauth-devon-revoked' }).Users.showCurrentUser())).toBe(401)
  })
})

const python = findPython()

describe.skipIf(python === undefined)('python-gitlab: the job token\'s job, storage after a move, OAuth (skipped when python3-gitlab is not installed)', () => {
  it('runs python_gitlab_gaps.py', async () => {
    const output = await runPython(python!, join(import.meta.dirname, 'python_gitlab_gaps.py'), fakelab.url)
    expect(output.trim().split('\n')).toEqual([
      'job 2002 running deploy-review max 5 1001',
      'job token auth -> 401',
      'finished job -> 401',
      'personal token -> 404 404 Job Not Found',
      'storage before default',
      'maintainer sees storage False',
      'move finished',
      'storage after storage-2',
      'next move from storage-2',
      'oauth auth root',
      'revoked oauth -> 401 invalid_token',
    ])
  })
})
