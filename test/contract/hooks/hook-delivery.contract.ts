/**
 * Project hooks fire (issue 34 item 5): a hook pointed at a small HTTP server on 127.0.0.1 receives
 * GitLab 13.12's issue, merge request, note, push, tag push and pipeline events, in the order the
 * requests made them, with `Content-Type: application/json`, `X-Gitlab-Event` and `X-Gitlab-Token`,
 * over both doors (under MSW the delivery passes msw's interceptor on to the network). Deliveries
 * are logged (`web_hook_logs`) with the answer, `internal error` for an unreachable URL (no retry,
 * as 13.12's WebHookService), none for a refused request, and held while delivery is paused.
 * Source: gitlab: app/services/web_hook_service.rb, lib/gitlab/data_builder/*.rb,
 * doc/user/project/integrations/webhooks.md (13.12).
 *
 * Default scenario: project 20 acme/website (max maintains it, devon develops), issue 1, merge
 * request 1, pipeline 1004 pending on feature/login.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { beforeAll, expect, it } from 'vitest'
import { hookDeliveries, hookDeliveriesSettled, pauseHookDelivery } from '../../../src/resources/hooks/hooks.public.js'
import { parseScenario } from '../../../src/index.js'
import { contract } from '../../support/contract.js'
import { hookReceiver } from '../../support/hook-receiver.js'

/** A free port for the receiver, fixed at load so a scenario can name it (the receiver listens on it in beforeAll). */
const RECEIVER_PORT = 20000 + (process.pid % 20000)
const receiver = hookReceiver({ port: RECEIVER_PORT, reply: 'thanks' })
const received = receiver.received
let url = ''
beforeAll(() => {
  url = `${receiver.url}/hook`
})

const ALL_EVENTS = {
  push_events: true, tag_push_events: true, issues_events: true, confidential_issues_events: true, merge_requests_events: true,
  note_events: true, confidential_note_events: true, job_events: true, pipeline_events: true,
}

contract('project hook delivery', {}, ({ api, sim }) => {
  it('POSTs issue, merge request, note, push, tag push and pipeline events in order, with GitLab\'s headers', async () => {
    const hook = await api.post('/projects/20/hooks', { as: 'max', body: { url, token: 's3cret', ...ALL_EVENTS } })
    expect(hook.status).toBe(201)
    const steps: [string, string, string, unknown][] = [
      ['devon', 'POST', '/projects/20/issues', { title: 'Hooked' }],
      ['max', 'PUT', '/projects/20/merge_requests/1', { title: 'Renamed' }],
      ['devon', 'POST', '/projects/20/issues/1/notes', { body: 'A comment' }],
      ['devon', 'POST', '/projects/20/repository/branches', { branch: 'topic', ref: 'main' }],
      ['max', 'POST', '/projects/20/repository/tags', { tag_name: 'v9.9', ref: 'main' }],
      ['devon', 'POST', '/projects/20/pipelines/1004/cancel', undefined],
    ]
    for (const [as, method, path, body] of steps) expect((await api.request(method, path, { as, body })).status).toBeLessThan(300)
    await hookDeliveriesSettled(sim().db)

    expect(received.map((r) => [r.path, r.headers['x-gitlab-event'], r.headers['x-gitlab-token'], r.headers['content-type'], r.body.object_kind])).toEqual([
      ['/hook', 'Issue Hook', 's3cret', 'application/json', 'issue'],
      ['/hook', 'Merge Request Hook', 's3cret', 'application/json', 'merge_request'],
      ['/hook', 'Note Hook', 's3cret', 'application/json', 'note'],
      ['/hook', 'Push Hook', 's3cret', 'application/json', 'push'],
      // main's .gitlab-ci.yml gives the new branch a push pipeline: its first job pending, then the pipeline.
      ['/hook', 'Job Hook', 's3cret', 'application/json', 'build'],
      ['/hook', 'Pipeline Hook', 's3cret', 'application/json', 'pipeline'],
      ['/hook', 'Tag Push Hook', 's3cret', 'application/json', 'tag_push'],
      // And the new tag a tag pipeline.
      ['/hook', 'Job Hook', 's3cret', 'application/json', 'build'],
      ['/hook', 'Pipeline Hook', 's3cret', 'application/json', 'pipeline'],
      // Canceling pipeline 1004 cancels its builds first (a Job Hook each), then the pipeline.
      ['/hook', 'Job Hook', 's3cret', 'application/json', 'build'],
      ['/hook', 'Job Hook', 's3cret', 'application/json', 'build'],
      ['/hook', 'Pipeline Hook', 's3cret', 'application/json', 'pipeline'],
    ])
    expect(received.every((r) => r.headers['user-agent'] === 'GitLab/13.12.15')).toBe(true)
    const logs = hookDeliveries(sim().db)
    expect(logs.map((l) => [l.trigger, l.response_status, l.response_body])).toEqual([
      ['issue_hooks', '200', 'thanks'], ['merge_request_hooks', '200', 'thanks'], ['note_hooks', '200', 'thanks'],
      ['push_hooks', '200', 'thanks'], ['job_hooks', '200', 'thanks'], ['pipeline_hooks', '200', 'thanks'],
      ['tag_push_hooks', '200', 'thanks'], ['job_hooks', '200', 'thanks'], ['pipeline_hooks', '200', 'thanks'],
      ['job_hooks', '200', 'thanks'], ['job_hooks', '200', 'thanks'], ['pipeline_hooks', '200', 'thanks'],
    ])
  })

  /** `Project#hook_attrs` of acme/website under this door's base URL. */
  function website(backward = true) {
    const web = `${api.baseUrl}/acme/website`
    const ssh = `git@${new URL(api.baseUrl).hostname}:acme/website.git`
    return {
      id: 20, name: 'Website', description: 'The Acme website', web_url: web, avatar_url: null, git_ssh_url: ssh, git_http_url: `${web}.git`,
      namespace: 'Acme', visibility_level: 20, path_with_namespace: 'acme/website', default_branch: 'main', ci_config_path: null,
      ...(backward ? { homepage: web, url: ssh, ssh_url: ssh, http_url: `${web}.git` } : {}),
    }
  }
  const DEVON = { id: 4, name: 'Devon Developer', username: 'devon', avatar_url: null, email: 'devon@example.com' }

  it('sends an opened issue as GitLab 13.12\'s Issue Hook, key by key', async () => {
    await api.post('/projects/20/hooks', { as: 'max', body: { url, issues_events: true, push_events: false } })
    const created = (await api.post('/projects/20/issues', { as: 'devon', body: { title: 'Hooked', description: 'Body', assignee_ids: [4] } })).body
    await hookDeliveriesSettled(sim().db)
    expect(received).toHaveLength(1)
    expect(received[0]!.headers['x-gitlab-token']).toBeUndefined()
    const attrs = {
      id: created.id, title: 'Hooked', author_id: 4, project_id: 20, created_at: '2021-04-01 12:00:00 UTC', updated_at: '2021-04-01 12:00:00 UTC',
      description: 'Body', milestone_id: null, iid: created.iid, updated_by_id: null, weight: null, confidential: false, due_date: null,
      moved_to_id: null, time_estimate: 0, relative_position: null, last_edited_at: null, last_edited_by_id: null, discussion_locked: null,
      closed_at: null, state_id: 1, duplicated_to_id: null, url: `${api.baseUrl}/acme/website/-/issues/${created.iid}`,
      total_time_spent: 0, time_change: 0, human_total_time_spent: null, human_time_change: null, human_time_estimate: null,
      assignee_ids: [4], assignee_id: 4, labels: [], state: 'opened', severity: 'unknown', action: 'open',
    }
    const expected = {
      object_kind: 'issue', event_type: 'issue', user: DEVON, project: website(), object_attributes: attrs, labels: [], changes: {},
      repository: { name: 'Website', url: website().url, description: 'The Acme website', homepage: website().homepage },
      assignees: [DEVON],
    }
    expect(received[0]!.body).toEqual(expected)
    expect(Object.keys(received[0]!.body)).toEqual(Object.keys(expected))
    expect(Object.keys(received[0]!.body.object_attributes)).toEqual(Object.keys(attrs))
  })

  it('sends a closed issue with its changes, and a confidential one only to confidential issue hooks', async () => {
    await api.post('/projects/20/hooks', { as: 'max', body: { url: `${url}/plain`, issues_events: true, push_events: false } })
    await api.post('/projects/20/hooks', { as: 'max', body: { url: `${url}/secret`, confidential_issues_events: true, push_events: false } })
    await api.put('/projects/20/issues/1', { as: 'devon', body: { state_event: 'close' } })
    await api.post('/projects/20/issues', { as: 'devon', body: { title: 'Hush', confidential: true } })
    await hookDeliveriesSettled(sim().db)
    expect(received.map((r) => [r.path, r.headers['x-gitlab-event'], r.body.event_type, r.body.object_attributes.action])).toEqual([
      ['/hook/plain', 'Issue Hook', 'issue', 'close'],
      ['/hook/secret', 'Confidential Issue Hook', 'confidential_issue', 'open'],
    ])
    expect(received[0]!.body.changes).toEqual({
      updated_at: { previous: expect.any(String), current: '2021-04-01 12:00:00 UTC' },
      closed_at: { previous: null, current: '2021-04-01 12:00:00 UTC' },
      state_id: { previous: 1, current: 2 },
    })
  })

  it('sends a push with its commits and changed files, and honours the branch filter', async () => {
    await api.post('/projects/20/hooks', { as: 'max', body: { url: `${url}/all` } })
    await api.post('/projects/20/hooks', { as: 'max', body: { url: `${url}/release`, push_events_branch_filter: 'release/*' } })
    const commit = (await api.post('/projects/20/repository/commits', {
      as: 'max',
      body: { branch: 'main', commit_message: 'Add docs\n\nLonger text', actions: [{ action: 'create', file_path: 'docs/a.md', content: 'a' }] },
    })).body
    await api.post('/projects/20/repository/branches', { as: 'devon', body: { branch: 'release/1', ref: 'main' } })
    await hookDeliveriesSettled(sim().db)
    expect(received.map((r) => [r.path, r.body.ref, r.body.total_commits_count])).toEqual([
      ['/hook/all', 'refs/heads/main', 1],
      ['/hook/all', 'refs/heads/release/1', 0],
      ['/hook/release', 'refs/heads/release/1', 0],
    ])
    const push = received[0]!.body
    expect(push).toEqual({
      object_kind: 'push', event_name: 'push', before: commit.parent_ids[0], after: commit.id, ref: 'refs/heads/main', checkout_sha: commit.id,
      message: null, user_id: 5, user_name: 'Max Maintainer', user_username: 'max', user_email: '', user_avatar: null,
      project_id: 20, project: website(),
      commits: [{
        id: commit.id, message: 'Add docs\n\nLonger text', title: 'Add docs', timestamp: '2021-04-01T12:00:00+00:00',
        url: `${api.baseUrl}/acme/website/-/commit/${commit.id}`, author: { name: 'Max Maintainer', email: 'max@example.com' },
        added: ['docs/a.md'], modified: [], removed: [],
      }],
      total_commits_count: 1, push_options: {},
      repository: {
        name: 'Website', url: website().url, description: 'The Acme website', homepage: website().homepage,
        git_http_url: website().git_http_url, git_ssh_url: website().git_ssh_url, visibility_level: 20,
      },
    })
  })

  it('holds deliveries while paused (control API) and sends them in order on resume', async () => {
    await api.post('/projects/20/hooks', { as: 'max', body: { url, issues_events: true, note_events: true, push_events: false } })
    expect((await api.put('/-/fakelab/hooks/delivery', { body: { paused: true } })).body).toEqual({ paused: true })
    expect((await api.get('/-/fakelab/hooks/delivery')).body).toEqual({ paused: true })
    await api.post('/projects/20/issues', { as: 'devon', body: { title: 'Held' } })
    await api.post('/projects/20/issues/1/notes', { as: 'devon', body: 'x' === 'x' ? { body: 'Held note' } : {} })
    await hookDeliveriesSettled(sim().db)
    expect(received).toEqual([])
    const held = (await api.get('/-/fakelab/hooks/deliveries')).body
    expect(held.map((d: any) => [d.trigger, d.response_status, d.request_headers['X-Gitlab-Event'], d.request_data.object_attributes.title ?? d.request_data.object_attributes.note])).toEqual([
      ['issue_hooks', 'paused', 'Issue Hook', 'Held'],
      ['note_hooks', 'paused', 'Note Hook', 'Held note'],
    ])
    expect((await api.put('/-/fakelab/hooks/delivery', { body: { paused: false } })).status).toBe(200)
    const sent = (await api.get('/-/fakelab/hooks/deliveries')).body
    expect(sent.map((d: any) => d.response_status)).toEqual(['200', '200'])
    expect(received.map((r) => r.headers['x-gitlab-event'])).toEqual(['Issue Hook', 'Note Hook'])
    expect((await api.put('/-/fakelab/hooks/delivery', { body: { paused: 'yes' } })).body).toEqual({ message: 'paused must be true or false' })
  })

  it('marks a delivery to an unreachable URL as an internal error, once, without retrying', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    await api.post('/projects/20/hooks', { as: 'max', body: { url: `http://127.0.0.1:${port}/gone`, issues_events: true, push_events: false } })
    await api.post('/projects/20/issues', { as: 'devon', body: { title: 'Lost' } })
    await hookDeliveriesSettled(sim().db)
    await new Promise((resolve) => setTimeout(resolve, 50))
    const logs = hookDeliveries(sim().db)
    expect(logs.map((l) => [l.trigger, l.response_status, l.internal_error_message !== null])).toEqual([['issue_hooks', 'internal error', true]])
  })

  it('delivers nothing for a refused request, nor for a hook whose trigger is off', async () => {
    await api.post('/projects/20/hooks', { as: 'max', body: { url, issues_events: true, push_events: false } })
    await api.post('/projects/20/hooks', { as: 'max', body: { url: `${url}/mr`, merge_requests_events: true, push_events: false } })
    expect((await api.post('/projects/20/issues', { as: 'devon', body: { title: '' } })).status).toBe(400)
    expect((await api.post('/projects/20/issues', { as: 'gina', body: { title: 'Guest', milestone_id: 999999 } })).status).toBeGreaterThanOrEqual(200)
    await api.post('/projects/20/issues/1/notes', { as: 'devon', body: { body: 'not hooked' } })
    await hookDeliveriesSettled(sim().db)
    expect(received.map((r) => r.body.object_attributes.title)).toEqual(['Guest'])
  })
})

/** A paused scenario: user u (token glpat-u-fakelab) owns u/p, whose hook fires on issues at `<receiver>/s`. */
function pausedScenario() {
  return parseScenario(`version: 1
webhook_delivery: paused
users: [{ username: u, tokens: [{ token: glpat-u-fakelab, name: t, scopes: [api] }] }]
projects: [{ path: p, namespace: u, hooks: [{ url: "http://127.0.0.1:${RECEIVER_PORT}/s", issues_events: true }] }]
`)
}

contract('project hook delivery paused by the scenario', { scenario: pausedScenario() }, ({ api, sim }) => {
  it('holds what a scenario with webhook_delivery: paused would send until delivery resumes', async () => {
    expect((await api.get('/-/fakelab/hooks/delivery')).body).toEqual({ paused: true })
    expect((await api.post('/projects/u%2Fp/issues', { token: 'glpat-u-fakelab', body: { title: 'Queued' } })).status).toBe(201)
    await hookDeliveriesSettled(sim().db)
    expect(received).toEqual([])
    expect(hookDeliveries(sim().db).map((l) => [l.url, l.response_status])).toEqual([[`http://127.0.0.1:${RECEIVER_PORT}/s`, 'paused']])
    await api.put('/-/fakelab/hooks/delivery', { body: { paused: false } })
    await hookDeliveriesSettled(sim().db)
    expect(received.map((r) => [r.path, r.body.object_attributes.title])).toEqual([['/s', 'Queued']])
  })
})
