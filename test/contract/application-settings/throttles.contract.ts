/**
 * The application settings' Rack::Attack throttles take effect: `throttle_authenticated_api_*`,
 * `throttle_unauthenticated_*` and `throttle_authenticated_web_*` written with
 * `PUT /application/settings` drive the same 429 as the scenario's `rate_limit`, on both doors.
 * Source: gitlab: lib/gitlab/rack_attack.rb, lib/gitlab/throttle.rb, app/models/application_setting.rb
 * (13.12); python-gitlab tests/functional/api/test_gitlab.py `test_rate_limits`.
 */
import { beforeEach, expect, it } from 'vitest'
import type { ManualClock } from '../../../src/core/clock.js'
import { contract } from '../../support/contract.js'

const HEADERS = ['ratelimit-name', 'ratelimit-limit', 'ratelimit-observed', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-resettime', 'retry-after']

contract('application settings throttles', {}, ({ api, sim }) => {
  const at = (time: string) => (sim().clock as ManualClock).set(time)
  beforeEach(() => at('2021-04-01T12:00:01.000Z'))

  it('throttle_authenticated_api: per user, 429 "Retry later" with the headers, nothing created past the budget', async () => {
    const put = await api.put('/application/settings', {
      as: 'root',
      body: { throttle_authenticated_api_enabled: true, throttle_authenticated_api_requests_per_period: 2, throttle_authenticated_api_period_in_seconds: 3 },
    })
    expect([put.status, put.body.throttle_authenticated_api_enabled, put.body.throttle_authenticated_api_requests_per_period, put.body.throttle_authenticated_api_period_in_seconds]).toEqual([200, true, 2, 3])
    // The PUT itself was in the window before (12:00:00-12:00:02): a new one from 12:00:03.
    at('2021-04-01T12:00:03.000Z')
    expect((await api.post('/projects', { as: 'devon', body: { name: 'one' } })).status).toBe(201)
    expect((await api.post('/projects', { as: 'devon', body: { name: 'two' } })).status).toBe(201)
    const before = sim().snapshot().db
    const res = await api.post('/projects', { as: 'devon', body: { name: 'three' } })
    expect([res.status, res.text, res.headers.get('content-type')]).toEqual([429, 'Retry later\n', 'text/plain'])
    expect(Object.fromEntries(HEADERS.map((h) => [h, res.headers.get(h)]))).toEqual({
      'ratelimit-name': 'throttle_authenticated_api',
      'ratelimit-limit': '40',
      'ratelimit-observed': '3',
      'ratelimit-remaining': '0',
      'ratelimit-reset': '1617278406',
      'ratelimit-resettime': 'Thu, 01 Apr 2021 12:00:06 GMT',
      'retry-after': '3',
    })
    expect(sim().snapshot().db).toEqual(before)
    // Another user has a budget of its own; anonymous requests are not this throttle's.
    expect((await api.get('/user', { as: 'max' })).status).toBe(200)
    for (let i = 0; i < 4; i++) expect((await api.get('/projects/20')).status).toBe(200)
    at('2021-04-01T12:00:06.000Z')
    expect((await api.post('/projects', { as: 'devon', body: { name: 'three' } })).status).toBe(201)
  })

  it('turned off again, the throttle no longer counts', async () => {
    const body = { throttle_authenticated_api_enabled: true, throttle_authenticated_api_requests_per_period: 1, throttle_authenticated_api_period_in_seconds: 60 }
    // The request that turns the throttle on was not counted by it; the next one is.
    expect((await api.put('/application/settings', { as: 'root', body })).status).toBe(200)
    expect((await api.get('/user', { as: 'root' })).status).toBe(200)
    expect((await api.put('/application/settings', { as: 'root', body: { throttle_authenticated_api_enabled: false } })).status).toBe(429)
    at('2021-04-01T12:01:00.000Z')
    expect((await api.put('/application/settings', { as: 'root', body: { throttle_authenticated_api_enabled: false } })).status).toBe(200)
    for (let i = 0; i < 5; i++) expect((await api.get('/user', { as: 'root' })).status).toBe(200)
  })

  it("keeps a 429's Retry-After in real time while the clock stands still", async () => {
    const body = { throttle_authenticated_api_enabled: true, throttle_authenticated_api_requests_per_period: 1, throttle_authenticated_api_period_in_seconds: 1 }
    expect((await api.put('/application/settings', { as: 'root', body })).status).toBe(200)
    expect((await api.get('/user', { as: 'devon' })).status).toBe(200)
    const res = await api.get('/user', { as: 'devon' })
    expect([res.status, res.headers.get('retry-after')]).toEqual([429, '1'])
    expect((await api.get('/user', { as: 'devon' })).status).toBe(429)
    await new Promise((resolve) => setTimeout(resolve, 1100))
    expect((await api.get('/user', { as: 'devon' })).status).toBe(200)
    // The clock's own time again once it moves.
    expect((sim().clock.now()).toISOString()).toBe('2021-04-01T12:00:01.000Z')
  })

  it('throttle_unauthenticated counts anonymous requests on API and web paths alike', async () => {
    const body = { throttle_unauthenticated_enabled: true, throttle_unauthenticated_requests_per_period: 2, throttle_unauthenticated_period_in_seconds: 60 }
    expect((await api.put('/application/settings', { as: 'root', body })).status).toBe(200)
    expect((await api.get('/projects/20')).status).toBe(200)
    expect((await api.get('/-/health')).status).toBe(200)
    expect((await api.get('/projects/20')).status).toBe(200)
    const res = await api.get('/projects')
    expect([res.status, res.headers.get('ratelimit-name'), res.headers.get('ratelimit-limit'), res.headers.get('retry-after')]).toEqual([429, 'throttle_unauthenticated', '2', '59'])
    // A signed-in user is not counted there.
    expect((await api.get('/projects/20', { as: 'devon' })).status).toBe(200)
  })

  it('400 for a throttle period or budget that is not positive', async () => {
    const res = await api.put('/application/settings', { as: 'root', body: { throttle_authenticated_api_requests_per_period: 0, throttle_unauthenticated_period_in_seconds: -1 } })
    expect([res.status, res.body]).toEqual([400, { message: { throttle_authenticated_api_requests_per_period: ['must be greater than 0'], throttle_unauthenticated_period_in_seconds: ['must be greater than 0'] } }])
  })
})
