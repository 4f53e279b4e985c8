/**
 * Latency and fault injection on both doors (issue 12 "Latency and faults"): forced statuses with
 * GitLab's bodies, connection resets, malformed bodies, delays; per route, for the next N
 * requests, with a seeded probability; set from the library and the control API.
 */
import { afterEach, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { contract } from '../support/contract.js'

contract('faults', {}, ({ api, sim }) => {
  afterEach(() => sim().faults.clear())

  it.each([
    [429, 'text/plain', 'Retry later\n', '60'],
    [500, 'application/json', '{"message":"500 Internal Server Error"}', null],
    [502, 'text/plain', 'GitLab is not responding\n', null],
    [503, 'application/json', '{"message":"503 Service Unavailable"}', null],
  ] as const)('forces %i with GitLab\'s body for the next request only', async (status, type, text, retryAfter) => {
    sim().faults.add({ route: 'GET /user', status, times: 1 })
    const res = await api.get('/user', { as: 'root' })
    expect([res.status, res.headers.get('content-type'), res.text, res.headers.get('retry-after')]).toEqual([status, type, text, retryAfter])
    expect(res.headers.get('x-request-id')).toMatch(/^01FAKELAB/)
    expect((await api.get('/user', { as: 'root' })).status).toBe(200)
    expect(sim().journal.last({ status })).toMatchObject({ route: null, fault: `status ${status}` })
  })

  it('changes nothing when a write is faulted', async () => {
    sim().faults.add({ route: 'POST /projects/:id/labels', status: 503 })
    const res = await api.post('/projects/20/labels', { as: 'max', body: { name: 'faulted', color: '#123456' } })
    expect(res.status).toBe(503)
    expect(sim().db.tables.labels.all().some((l) => l.title === 'faulted')).toBe(false)
  })

  it('sets Retry-After on a forced 429', async () => {
    sim().faults.add({ status: 429, retryAfter: 7, times: 1 })
    expect((await api.get('/projects')).headers.get('retry-after')).toBe('7')
  })

  it('resets the connection', async () => {
    sim().faults.add({ method: 'GET', path: '^/api/v4/user$', reset: true, times: 1 })
    await expect(api.get('/user', { as: 'root' })).rejects.toThrow(TypeError)
    expect(sim().journal.last()).toMatchObject({ status: 0, fault: 'reset' })
    expect((await api.get('/user', { as: 'root' })).status).toBe(200)
  })

  it('sends a malformed body', async () => {
    sim().faults.add({ route: 'GET /user', malformed: true, times: 1 })
    const res = await api.get('/user', { as: 'root' })
    expect(res.status).toBe(200)
    expect(() => JSON.parse(res.text)).toThrow(SyntaxError)
    expect(res.text.startsWith('{"id":1,')).toBe(true)
  })

  it('delays matching requests', async () => {
    sim().faults.add({ route: 'GET /user', delay: 150, times: 1 })
    const started = performance.now()
    expect((await api.get('/user', { as: 'root' })).status).toBe(200)
    expect(performance.now() - started).toBeGreaterThanOrEqual(140)
    expect(sim().journal.last()).toMatchObject({ fault: 'delay 150ms' })
    expect(sim().journal.last()!.durationMs).toBeGreaterThanOrEqual(140)
  })

  it('leaves other routes alone', async () => {
    sim().faults.add({ route: 'GET /user', status: 500 })
    expect((await api.get('/projects', { as: 'root' })).status).toBe(200)
  })

  it('is set, listed and cleared through the control API', async () => {
    const put = await api.put('/-/fakelab/faults', { body: [{ route: 'GET /user', status: 502, times: 2 }] })
    expect([put.status, put.body]).toEqual([200, [{ route: 'GET /user', status: 502, times: 2 }]])
    expect((await api.get('/user', { as: 'root' })).status).toBe(502)
    expect((await api.get('/-/fakelab/faults')).body).toEqual([{ route: 'GET /user', status: 502, times: 1 }])
    const post = await api.post('/-/fakelab/faults', { body: { delay: { min: 1, max: 2 } } })
    expect(post.body).toHaveLength(2)
    expect((await api.delete('/-/fakelab/faults')).status).toBe(204)
    expect((await api.get('/-/fakelab/faults')).body).toEqual([])
    expect((await api.get('/user', { as: 'root' })).status).toBe(200)
  })

  it.each([
    [{ status: 404 }, 'fault status: must be 429, 500, 502 or 503'],
    [{ route: 'GET /user' }, 'fault rule: needs delay, status, reset or malformed'],
    [{ status: 500, probability: 2 }, 'fault probability: must be from 0 to 1'],
    [{ status: 500, path: '(' }, 'fault path: must be a regular expression'],
    // Issue 28: a mistyped key used to be ignored, making a rule for every request.
    [{ rout: 'GET /user', status: 503 }, 'fault rout: unknown key (did you mean "route"?); a rule has route, method, path, delay, status, retryAfter, reset, malformed, probability, times'],
    [{ route: 'GET /user', status: 503, time: 2 }, 'fault time: unknown key (did you mean "times"?); a rule has route, method, path, delay, status, retryAfter, reset, malformed, probability, times'],
    [{ route: 'GET /user', status: 503, retry_after: 2 }, 'fault retry_after: unknown key (did you mean "retryAfter"?); a rule has route, method, path, delay, status, retryAfter, reset, malformed, probability, times'],
    [{ route: 'GET /user', status: 503, xyzzy: true }, 'fault xyzzy: unknown key; a rule has route, method, path, delay, status, retryAfter, reset, malformed, probability, times'],
    [{ route: '', status: 503 }, 'fault route: must be a non-empty string'],
    [{ method: 7, status: 503 }, 'fault method: must be a non-empty string'],
    // ...and a route key that names no route was accepted and never matched.
    [{ route: 'GET /usr', status: 503 }, 'fault route: no route "GET /usr" (did you mean "GET /user"?); a route key is a method and a path below /api/v4, e.g. "GET /projects/:id/labels"'],
    [{ route: 'GET /api/v4/user', status: 503 }, 'fault route: no route "GET /api/v4/user" (did you mean "GET /user"?); a route key is a method and a path below /api/v4, e.g. "GET /projects/:id/labels"'],
    [{ route: 'get /projects/:id/labels', status: 503 }, 'fault route: no route "get /projects/:id/labels" (did you mean "GET /projects/:id/labels"?); a route key is a method and a path below /api/v4, e.g. "GET /projects/:id/labels"'],
    [{ route: 'GET /projects/20/labels', status: 503 }, 'fault route: no route "GET /projects/20/labels" (did you mean "GET /projects/:id/labels"?); a route key is a method and a path below /api/v4, e.g. "GET /projects/:id/labels"'],
    [{ route: 'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz', status: 503 }, 'fault route: no route "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"; a route key is a method and a path below /api/v4, e.g. "GET /projects/:id/labels"'],
  ])('refuses the bad rule %j with 400', async (rule, message) => {
    const res = await api.post('/-/fakelab/faults', { body: rule })
    expect(res).toBeGitLabError(400, { message })
    expect(sim().faults.list()).toEqual([])
  })

  it('refuses a PUT with one bad rule among good ones, changing nothing', async () => {
    await api.post('/-/fakelab/faults', { body: { route: 'GET /user', status: 500 } })
    const res = await api.put('/-/fakelab/faults', { body: [{ route: 'GET /projects', status: 502 }, { rout: 'GET /user', status: 503 }] })
    expect(res).toBeGitLabError(400, { message: 'fault rout: unknown key (did you mean "route"?); a rule has route, method, path, delay, status, retryAfter, reset, malformed, probability, times' })
    expect((await api.get('/-/fakelab/faults')).body).toEqual([{ route: 'GET /user', status: 500 }])
  })

  it('refuses a scenario whose faults name no route, before changing anything', async () => {
    const before = sim().db.tables.users.all().length
    const res = await api.put('/-/fakelab/scenario', {
      rawBody: 'version: 1\nusers: [{ username: solo }]\nfaults:\n  - { route: GET /usr, status: 503 }\n',
      headers: { 'content-type': 'application/yaml' },
    })
    expect(res).toBeGitLabError(400, {
      message: `the scenario's faults[0]: fault route: no route "GET /usr" (did you mean "GET /user"?); a route key is a method and a path below /api/v4, e.g. "GET /projects/:id/labels"`,
    })
    expect(sim().db.tables.users.all()).toHaveLength(before)
    expect(sim().faults.list()).toEqual([])
  })
})

it('draws probabilities from the seed, so a run is reproducible', async () => {
  const run = async () => {
    const sim = createSimulator({ seed: 42, faults: [{ status: 503, probability: 0.5 }] })
    const out: number[] = []
    for (let i = 0; i < 20; i++) out.push((await sim.handle(new Request('http://x/api/v4/projects'))).status)
    return out
  }
  const first = await run()
  expect(first).toEqual(await run())
  expect(first).toContain(503)
  expect(first).toContain(200)
})

it('adds a global random delay to a per-route fault', async () => {
  const sim = createSimulator({ faults: [{ delay: { min: 20, max: 40 } }, { route: 'GET /projects', status: 500 }] })
  const res = await sim.handle(new Request('http://x/api/v4/projects'))
  expect(res.status).toBe(500)
  expect(sim.journal.last()!.fault).toMatch(/^delay (2\d|3\d|40)ms, status 500$/)
})

it('checks the rules given to createSimulator against the routes (issue 28)', () => {
  expect(() => createSimulator({ faults: [{ route: 'GET /usr', status: 503 }] })).toThrow(
    new RangeError('fault route: no route "GET /usr" (did you mean "GET /user"?); a route key is a method and a path below /api/v4, e.g. "GET /projects/:id/labels"'),
  )
  expect(() => createSimulator({ faults: [{ rout: 'GET /user', status: 503 } as never] })).toThrow(
    new RangeError('fault rout: unknown key (did you mean "route"?); a rule has route, method, path, delay, status, retryAfter, reset, malformed, probability, times'),
  )
  expect(() => createSimulator({ scenario: 'version: 1\nfaults:\n  - { route: GET /usr, status: 503 }\n' })).toThrow(
    new RangeError(`the scenario's faults[0]: fault route: no route "GET /usr" (did you mean "GET /user"?); a route key is a method and a path below /api/v4, e.g. "GET /projects/:id/labels"`),
  )
})
