/**
 * GitLab's health probes on both doors (issue 38 item 4): `/-/health` (the BasicHealthCheck
 * middleware's `GitLab OK`), `/-/liveness` and `/-/readiness` (HealthController's JSON, `?all=1`
 * with each service check), outside the API and outside the journal and the request count.
 * Source: gitlab (13.12): spec/requests/health_controller_spec.rb, lib/gitlab/health_checks/.
 */
import { expect, it } from 'vitest'
import { contract } from '../support/contract.js'

contract('health probes', {}, ({ api, sim }) => {
  it.each([
    ['/-/health', 'text/plain', 'GitLab OK'],
    ['/-/liveness', 'application/json; charset=utf-8', '{"status":"ok"}'],
    ['/-/readiness', 'application/json; charset=utf-8', '{"status":"ok","master_check":[{"status":"ok"}]}'],
    [
      '/-/readiness?all=1',
      'application/json; charset=utf-8',
      '{"status":"ok","master_check":[{"status":"ok"}],"db_check":[{"status":"ok"}],"redis_check":[{"status":"ok"}],"cache_check":[{"status":"ok"}],"queues_check":[{"status":"ok"}],"shared_state_check":[{"status":"ok"}],"gitaly_check":[{"status":"ok","labels":{"shard":"default"}}]}',
    ],
  ])('GET %s answers 200 %s', async (path, type, text) => {
    const res = await api.get(path)
    expect([res.status, res.headers.get('content-type'), res.text]).toEqual([200, type, text])
  })

  it('answers HEAD without a body, /-/health for any method, and the others only for GET and HEAD', async () => {
    const head = await api.request('HEAD', '/-/readiness')
    expect([head.status, head.text]).toEqual([200, ''])
    expect((await api.post('/-/health')).text).toBe('GitLab OK')
    const post = await api.post('/-/readiness')
    expect([post.status, post.body]).toEqual([404, { error: '404 Not Found' }])
  })

  it('leaves no journal entry and takes no request number, and ignores fault rules', async () => {
    sim().journal.clear()
    const before = sim().snapshot().requestCount
    sim().faults.set([{ status: 503 }])
    try {
      for (const path of ['/-/health', '/-/readiness', '/-/liveness']) expect((await api.get(path)).status).toBe(200)
    } finally {
      sim().faults.clear()
    }
    expect(sim().journal.count()).toBe(0)
    const user = await api.get('/user', { as: 'max' })
    expect(user.headers.get('x-request-id')).toBe(sim().journal.find({ route: 'GET /user' })[0]!.requestId)
    expect(sim().journal.find()[0]!.seq).toBe(before + 1)
  })

  it('answers in a session too', async () => {
    const res = await api.get('/-/fakelab/sessions/probe/-/readiness')
    expect([res.status, res.body]).toEqual([200, { status: 'ok', master_check: [{ status: 'ok' }] }])
    sim().dropSession('probe')
  })
})
