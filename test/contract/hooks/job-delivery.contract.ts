/**
 * Job hooks fire (issue 34 item 5): a project hook with `job_events` receives GitLab 13.12's Job
 * Hook (`object_kind: build`) each time a build's status changes (canceled, played, retried), field
 * for field as doc/user/project/integrations/webhooks.md "Job events"; a hook without `job_events`
 * gets none (a pipeline hook still gets the pipeline's). Over both doors.
 * Source: gitlab: lib/gitlab/data_builder/build.rb, app/models/ci/build.rb, app/workers/build_hooks_worker.rb (13.12).
 *
 * Default scenario: project 20's pipeline 1004 (pending, feature/login, devon) with build 2007
 * compile (pending) and 2008 rspec (created); pipeline 1007 (manual) with build 2013 deploy-review (manual).
 */
import { beforeAll, expect, it } from 'vitest'
import { hookDeliveriesSettled } from '../../../src/resources/hooks/hooks.public.js'
import { contract } from '../../support/contract.js'
import { hookReceiver } from '../../support/hook-receiver.js'

const receiver = hookReceiver()
const received = receiver.received
let url = ''
beforeAll(() => {
  url = `${receiver.url}`
})

contract('job hook delivery', {}, ({ api, sim }) => {
  it('sends a canceled build as GitLab 13.12\'s Job Hook, key by key', async () => {
    await api.post('/projects/20/hooks', { as: 'max', body: { url: `${url}/jobs`, token: 'job', job_events: true, push_events: false } })
    await api.post('/projects/20/hooks', { as: 'max', body: { url: `${url}/none`, pipeline_events: true, push_events: false } })
    expect((await api.post('/projects/20/jobs/2007/cancel', { as: 'devon' })).status).toBe(201)
    await hookDeliveriesSettled(sim().db)
    // compile canceled; rspec of the next stage is then skipped (a second Job Hook); the pipeline's
    // status moves too (its hook only to the hook with pipeline_events).
    expect(received.map((r) => [r.path, r.headers['x-gitlab-event'], r.headers['x-gitlab-token'], r.body.object_kind, r.body.build_id, r.body.build_status])).toEqual([
      ['/jobs', 'Job Hook', 'job', 'build', 2007, 'canceled'],
      ['/jobs', 'Job Hook', 'job', 'build', 2008, 'skipped'],
      ['/none', 'Pipeline Hook', undefined, 'pipeline', undefined, undefined],
    ])
    const web = `${api.baseUrl}/acme/website`
    const ssh = `git@${new URL(api.baseUrl).hostname}:acme/website.git`
    const body = received[0]!.body
    const expected = {
      object_kind: 'build', ref: 'feature/login', tag: false, before_sha: '0000000000000000000000000000000000000000',
      sha: '6b7c8d9e0f11223344556677889900aabbccddee', build_id: 2007, build_name: 'compile', build_stage: 'build', build_status: 'canceled',
      build_created_at: body.build_created_at, build_started_at: null, build_finished_at: '2021-04-01 12:00:00 UTC', build_duration: null,
      build_allow_failure: false, build_failure_reason: null, pipeline_id: 1004, runner: null, project_id: 20, project_name: 'Acme / Website',
      user: body.user,
      commit: {
        id: 1004, sha: '6b7c8d9e0f11223344556677889900aabbccddee', message: body.commit.message, author_name: body.commit.author_name,
        author_email: body.commit.author_email, author_url: body.commit.author_url, status: body.commit.status, duration: null, started_at: null, finished_at: null,
      },
      repository: { name: 'Website', url: ssh, description: 'The Acme website', homepage: web, git_http_url: `${web}.git`, git_ssh_url: ssh, visibility_level: 20 },
    }
    expect(body).toEqual(expected)
    expect(Object.keys(body)).toEqual(Object.keys(expected))
    expect(Object.keys(body.user)).toEqual(['id', 'name', 'email', 'avatar_url'])
    expect(Object.keys(body.commit)).toEqual(Object.keys(expected.commit))
  })

  it('sends one Job Hook per build status change of a play and a retry', async () => {
    await api.post('/projects/20/hooks', { as: 'max', body: { url: `${url}/jobs`, job_events: true, push_events: false } })
    expect((await api.post('/projects/20/jobs/2013/play', { as: 'max' })).status).toBe(200)
    await hookDeliveriesSettled(sim().db)
    expect(received.map((r) => [r.body.build_id, r.body.build_name, r.body.build_status])).toEqual([[2013, 'deploy-review', 'pending']])
    received.length = 0
    expect((await api.post('/projects/20/jobs/2009/retry', { as: 'devon' })).status).toBe(201)
    await hookDeliveriesSettled(sim().db)
    const statuses = received.map((r) => [r.body.build_name, r.body.build_status])
    expect(statuses[0]).toEqual(['compile', 'pending'])
    expect(received[0]!.body.build_id).not.toBe(2009)
  })
})
