/**
 * Request limits over both doors: optional scenario rate limiting (429 with GitLab's Rack::Attack
 * headers) and `If-Unmodified-Since` on the DELETE routes GitLab guards with `destroy_conditionally!`.
 * Source: api-spec.md "Errors", "Limits"; gitlab-behaviour.md §1.2; gitlab: lib/gitlab/rack_attack.rb,
 * lib/api/helpers.rb `destroy_conditionally!`, doc/user/admin_area/settings/user_and_ip_rate_limits.md.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, expect, it } from 'vitest'
import type { ManualClock } from '../../../src/core/clock.js'
import { contract } from '../../support/contract.js'

const NOW = '2021-04-01T12:00:00.000Z' // 1617278400: a multiple of 60
const DEFAULT_YAML = readFileSync(join(import.meta.dirname, '..', '..', '..', 'scenarios', 'default.yaml'), 'utf8')
const LIMITED = DEFAULT_YAML.replace('impersonation_enabled: true', 'impersonation_enabled: true\nrate_limit: { requests: 3, period_seconds: 60 }')

contract('rate limiting (scenario rate_limit)', { scenario: LIMITED }, ({ api, sim }) => {
  beforeEach(() => (sim().clock as ManualClock).set('2021-04-01T12:00:15.000Z'))

  it('answers 429 "Retry later" with RateLimit-* and Retry-After past the budget, per user, until the window ends', async () => {
    for (let i = 0; i < 3; i++) expect((await api.get('/user', { as: 'devon' })).status).toBe(200)
    const res = await api.get('/user', { as: 'devon' })
    expect([res.status, res.text, res.headers.get('content-type')]).toEqual([429, 'Retry later\n', 'text/plain'])
    expect(Object.fromEntries(['ratelimit-name', 'ratelimit-limit', 'ratelimit-observed', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-resettime', 'retry-after'].map((h) => [h, res.headers.get(h)]))).toEqual({
      'ratelimit-name': 'throttle_authenticated_api',
      'ratelimit-limit': '3',
      'ratelimit-observed': '4',
      'ratelimit-remaining': '0',
      'ratelimit-reset': '1617278460',
      'ratelimit-resettime': 'Thu, 01 Apr 2021 12:01:00 GMT',
      'retry-after': '45',
    })
    // Another user has a budget of its own; anonymous requests share one.
    expect((await api.get('/user', { as: 'max' })).status).toBe(200)
    ;(sim().clock as ManualClock).set('2021-04-01T12:01:00.000Z')
    expect((await api.get('/user', { as: 'devon' })).status).toBe(200)
  })

  it('throttles anonymous requests as throttle_unauthenticated, and changes nothing', async () => {
    for (let i = 0; i < 3; i++) await api.get('/projects/20')
    const before = sim().snapshot().db
    const res = await api.post('/projects/20/labels', { body: { name: 'x', color: 'red' } })
    expect([res.status, res.headers.get('ratelimit-name')]).toEqual([429, 'throttle_unauthenticated'])
    expect(sim().snapshot().db).toEqual(before)
  })
})

contract('no rate limit by default', {}, ({ api }) => {
  it('serves many requests from one user', async () => {
    for (let i = 0; i < 20; i++) expect((await api.get('/user', { as: 'devon' })).status).toBe(200)
  })
})

contract('If-Unmodified-Since on DELETE (destroy_conditionally!)', {}, ({ api, sim }) => {
  beforeEach(() => (sim().clock as ManualClock).set(NOW))

  it.each([
    ['DELETE /projects/:id/labels/:label_id', '/projects/20/labels/110', {}],
    ['DELETE /projects/:id/labels', '/projects/20/labels', { name: 'frontend' }],
    ['DELETE /groups/:id/labels/:label_id', '/groups/10/labels/101', {}],
    ['DELETE /projects/:id/freeze_periods/:freeze_period_id', '/projects/20/freeze_periods/300', {}],
  ])('%s: 412 when the resource changed since, 204 when not', async (_, path, body) => {
    const stale = await api.delete(path, { as: 'root', body, headers: { 'If-Unmodified-Since': 'Thu, 01 Jan 2015 00:00:00 GMT' } })
    expect(stale).toBeGitLabError(412, { message: '412 Precondition Failed' })
    const fresh = await api.delete(path, { as: 'root', body, headers: { 'If-Unmodified-Since': 'Thu, 01 Apr 2021 12:00:00 GMT' } })
    expect(fresh.status).toBe(204)
  })
})

const SMALL_BODIES = DEFAULT_YAML.replace('impersonation_enabled: true', 'impersonation_enabled: true\nmax_request_body_bytes: 200')

contract('request body size (scenario max_request_body_bytes)', { scenario: SMALL_BODIES }, ({ api, sim, transport }) => {
  it('answers 413 with nginx\'s page for a body over the limit, before authentication, changing nothing', async () => {
    const before = sim().snapshot().db
    const res = await api.post('/projects/20/labels', { as: 'max', body: { name: 'x', color: 'red', description: 'd'.repeat(300) } })
    expect([res.status, res.headers.get('content-type')]).toEqual([413, 'text/html'])
    expect(res.text).toContain('<title>413 Request Entity Too Large</title>')
    expect(sim().snapshot().db).toEqual(before)
    expect((await api.post('/projects/20/labels', { body: { name: 'x', color: 'red', description: 'd'.repeat(300) } })).status).toBe(413)
  })

  it('accepts a body within the limit', async () => {
    expect((await api.post('/projects/20/labels', { as: 'max', body: { name: 'x', color: 'red' } })).status).toBe(201)
  })

  // Issue 23, item 18: one limit, in the engine, and one answer on both doors, however the body comes.
  it('answers a body sent without Content-Length the same way, counted and journalled as any request', async () => {
    const before = sim().snapshot().db
    sim().journal.clear()
    const res = await api.post('/projects/20/labels', { as: 'max', headers: { 'content-type': 'application/json' }, rawBody: chunked(3, 100) })
    expect([res.status, res.text]).toEqual([413, NGINX_413])
    expect(Object.fromEntries([...res.headers].filter(([name]) => !['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(name))))
      .toEqual({ 'content-type': 'text/html', 'x-request-id': expect.stringMatching(/^01FAKELAB\d{17}$/) })
    expect(sim().journal.find({ status: 413 })).toMatchObject([{ method: 'POST', path: '/api/v4/projects/20/labels', route: null, user: null, simulated: true }])
    expect(sim().snapshot().db).toEqual(before)
  })

  it('stops reading a body over the limit on the node door instead of holding it', async ({ skip }) => {
    if (transport === 'msw') skip()
    let pulled = 0
    const total = 64 * 1024 * 1024
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= total) return controller.close()
        pulled += 64 * 1024
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x61))
      },
    })
    const res = await api.post('/projects/20/labels', { as: 'max', headers: { 'content-type': 'application/json' }, rawBody: body })
    expect([res.status, res.text]).toEqual([413, NGINX_413])
    expect(pulled).toBeLessThan(total / 4)
  })
})

contract('request body size by default (250 MiB, Omnibus nginx client_max_body_size)', {}, ({ api, sim }) => {
  it('is the limit on every door', () => {
    expect(sim().maxBodyBytes).toBe(250 * 1024 * 1024)
  })

  it('accepts a body over the 10 MiB the node door used to stop at', async () => {
    const res = await api.post('/projects/20/labels', { as: 'max', body: { name: 'big', color: 'red', padding: 'x'.repeat(11 * 1024 * 1024) } })
    expect([res.status, res.body.name]).toEqual([201, 'big'])
  })

  it('refuses by Content-Length before reading, with nginx\'s page', async () => {
    sim().db.tables.auth_settings.update(1, { max_request_body_bytes: 1024 })
    const res = await api.post('/projects/20/labels', { as: 'max', headers: { 'content-type': 'application/json' }, rawBody: 'x'.repeat(2048) })
    expect([res.status, res.headers.get('content-type'), res.text]).toEqual([413, 'text/html', NGINX_413])
  })
})

/** nginx's 413 page, as Omnibus GitLab's nginx sends it. */
const NGINX_413 = '<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body>\r\n<center><h1>413 Request Entity Too Large</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n'

/** A body of `count` chunks of `size` bytes, streamed (no Content-Length). */
function chunked(count: number, size: number): ReadableStream<Uint8Array> {
  let sent = 0
  return new ReadableStream({
    pull(controller) {
      if (sent++ >= count) return controller.close()
      controller.enqueue(new Uint8Array(size).fill(0x61))
    },
  })
}
