/**
 * The control API under `/-/fakelab/` on both doors (issue 12 "Control API"): reset, load a
 * scenario at runtime, export the state (round-trip), set and advance the clock, list and clear
 * the journal. Each test puts the default scenario back at the end (loading changes the reset point).
 */
import { afterEach, beforeEach, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { controlClient, loadDefaultScenario, startServer } from '../../src/node.js'
import { contract, type Api } from '../support/contract.js'

const SMALL = `
version: 1
now: 2022-01-02T03:04:05Z
seed: 7
users:
  - username: solo
    admin: true
    tokens: [{ token: glpat-solo, scopes: [api] }]
`

/** GETs whose answers must be the same after a round trip (as root, and as max for the labels). */
const PROBES: [path: string, as: string][] = [
  ['/user', 'root'],
  ['/users', 'root'],
  ['/projects', 'root'],
  ['/groups', 'root'],
  ['/projects/20/labels', 'max'],
  ['/projects/20/labels/110', 'max'],
  ['/projects/20/milestones', 'max'],
  ['/groups/10/labels', 'root'],
]

async function answers(api: Api): Promise<unknown[]> {
  const out: unknown[] = []
  for (const [path, as] of PROBES) {
    const res = await api.get(path, { as })
    out.push([path, res.status, res.text, res.headers.get('x-total'), res.headers.get('link')])
  }
  return out
}

contract('control API', {}, ({ api, sim }) => {
  let defaultYaml: string
  beforeEach(async () => {
    sim().journal.clear()
    defaultYaml ??= sim().exportState()
  })
  afterEach(() => sim().loadScenario(defaultYaml))

  it('GET /-/fakelab/state exports YAML that loads back to the same answers', async () => {
    // Change state first: a new label, a deleted one, and the clock moved.
    expect((await api.post('/projects/20/labels', { as: 'max', body: { name: 'exported', color: '#123456' } })).status).toBe(201)
    expect((await api.delete('/projects/20/labels/110', { as: 'max' })).status).toBe(204)
    expect((await api.post('/-/fakelab/clock/advance', { body: { seconds: 3600 } })).status).toBe(200)
    const before = await answers(api)
    const res = await api.get('/-/fakelab/state')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/yaml')
    expect(res.text).toMatch(/^# fakelab state export/)
    expect(res.text).toMatch(/^fakelab_state: 1$/m)
    // Back to the scenario, then load the export over HTTP.
    expect((await api.post('/-/fakelab/reset')).status).toBe(204)
    expect(await answers(api)).not.toEqual(before)
    const load = await api.put('/-/fakelab/scenario', { rawBody: res.text, headers: { 'content-type': 'application/yaml' } })
    expect([load.status, load.text]).toEqual([204, ''])
    expect(await answers(api)).toEqual(before)
    // And in another simulator built from the export.
    const other = createSimulator({ scenario: res.text })
    const label = await other.handle(new Request('http://x/api/v4/projects/20/labels/110', { headers: { 'PRIVATE-TOKEN': 'glpat-max-fakelab' } }))
    expect(label.status).toBe(404)
    expect(other.exportState()).toBe(res.text)
  })

  it('PUT /-/fakelab/scenario loads a scenario and makes it the reset point', async () => {
    const load = await api.put('/-/fakelab/scenario', { rawBody: SMALL, headers: { 'content-type': 'application/yaml' } })
    expect(load.status).toBe(204)
    const me = await api.get('/user', { token: 'glpat-solo' })
    expect([me.status, me.body.username]).toEqual([200, 'solo'])
    expect((await api.get('/user', { as: 'root' })).status).toBe(401)
    expect((await api.get('/-/fakelab/clock')).body).toEqual({ now: '2022-01-02T03:04:05.000Z' })
    await api.post('/-/fakelab/reset')
    expect((await api.get('/user', { token: 'glpat-solo' })).status).toBe(200)
  })

  it('PUT /-/fakelab/scenario accepts a JSON scenario', async () => {
    const body = { version: 1, users: [{ username: 'json', tokens: [{ token: 'glpat-json', scopes: ['api'] }] }] }
    expect((await api.put('/-/fakelab/scenario', { body })).status).toBe(204)
    expect((await api.get('/user', { token: 'glpat-json' })).body.username).toBe('json')
  })

  it.each([
    ['a scenario with problems', 'version: 1\nusers:\n  - username: x\n    admin: maybe\n', 422],
    ['an empty body', '', 400],
    ['a state export of an unknown version', 'fakelab_state: 9\n', 400],
  ])('PUT /-/fakelab/scenario refuses %s and changes nothing', async (_, text, status) => {
    const res = await api.put('/-/fakelab/scenario', { rawBody: text, headers: { 'content-type': 'application/yaml' } })
    expect(res.status).toBe(status)
    expect(typeof res.body.message).toBe('string')
    if (status === 422) expect(res.body.problems[0]).toMatchObject({ line: 4, col: 12, message: expect.stringMatching(/admin/) })
    expect((await api.get('/user', { as: 'root' })).status).toBe(200)
  })

  it('sets and advances the clock, which timestamps follow', async () => {
    const set = await api.put('/-/fakelab/clock', { body: { now: '2030-05-06T07:08:09Z' } })
    expect([set.status, set.body]).toEqual([200, { now: '2030-05-06T07:08:09.000Z' }])
    const advanced = await api.post('/-/fakelab/clock/advance', { body: { ms: 1000 } })
    expect(advanced.body).toEqual({ now: '2030-05-06T07:08:10.000Z' })
    const created = await api.post('/projects/20/labels', { as: 'max', body: { name: 'clocked', color: '#123456' } })
    expect(created.status).toBe(201)
    expect(sim().db.tables.labels.all().find((l) => l.title === 'clocked')!.created_at).toBe('2030-05-06T07:08:10.000Z')
  })

  it.each([
    ['PUT', '/-/fakelab/clock', { now: 'yesterday' }],
    ['POST', '/-/fakelab/clock/advance', { hours: 1 }],
  ])('%s %s refuses a bad body with 400', async (method, path, body) => {
    const res = await api.request(method, path, { body })
    expect(res.status).toBe(400)
    expect(typeof res.body.message).toBe('string')
  })

  it('lists the journal, filtered, and clears it', async () => {
    await api.get('/user', { as: 'root' })
    await api.get('/projects/999', { as: 'max' })
    await api.get('/nothing/here')
    const all = await api.get('/-/fakelab/journal')
    expect(all.body.map((e: { path: string }) => e.path)).toEqual(['/api/v4/user', '/api/v4/projects/999', '/api/v4/nothing/here'])
    expect((await api.get('/-/fakelab/journal', { query: { user: 'max' } })).body).toHaveLength(1)
    expect((await api.get('/-/fakelab/journal', { query: { status: 404 } })).body).toHaveLength(2)
    expect((await api.get('/-/fakelab/journal', { query: { simulated: 'false' } })).body[0].routeMiss).toBe('path')
    expect((await api.get('/-/fakelab/journal', { query: { route: 'GET /user' } })).body).toHaveLength(1)
    expect((await api.delete('/-/fakelab/journal')).status).toBe(204)
    expect((await api.get('/-/fakelab/journal')).body).toEqual([])
  })

  // Issue 23, item 19: the reset point holds the clock too.
  it.each([
    ['POST /-/fakelab/clock/advance', (api: Api) => api.post('/-/fakelab/clock/advance', { body: { seconds: 86_400 } })],
    ['PUT /-/fakelab/clock', (api: Api) => api.put('/-/fakelab/clock', { body: { now: '2030-05-06T07:08:09Z' } })],
  ])('POST /-/fakelab/reset puts the clock back to the scenario\'s now after %s', async (_, move) => {
    expect((await move(api)).status).toBe(200)
    expect((await api.get('/-/fakelab/clock')).body).not.toEqual({ now: '2021-04-01T12:00:00.000Z' })
    expect((await api.post('/-/fakelab/reset')).status).toBe(204)
    expect((await api.get('/-/fakelab/clock')).body).toEqual({ now: '2021-04-01T12:00:00.000Z' })
    const created = await api.post('/projects/20/labels', { as: 'max', body: { name: 'after-reset', color: '#123456' } })
    expect(created.status).toBe(201)
    expect(sim().db.tables.labels.all().find((l) => l.title === 'after-reset')!.created_at).toBe('2021-04-01T12:00:00.000Z')
  })

  it('POST /-/fakelab/reset puts the clock back to the now of the scenario loaded last', async () => {
    expect((await api.put('/-/fakelab/scenario', { rawBody: SMALL, headers: { 'content-type': 'application/yaml' } })).status).toBe(204)
    await api.post('/-/fakelab/clock/advance', { body: { ms: 5000 } })
    expect((await api.post('/-/fakelab/reset')).status).toBe(204)
    expect((await api.get('/-/fakelab/clock')).body).toEqual({ now: '2022-01-02T03:04:05.000Z' })
  })

  it('answers an unknown control route with the catch-all 404', async () => {
    const res = await api.get('/-/fakelab/nothing')
    expect(res).toBeGitLabError(404, { error: '404 Not Found' })
  })
})

it('the library mirrors the control API', async () => {
  const sim = createSimulator({ scenario: await loadDefaultScenario() })
  expect(sim.setClock('2030-01-01T00:00:00Z').toISOString()).toBe('2030-01-01T00:00:00.000Z')
  expect(sim.advanceClock(60_000).toISOString()).toBe('2030-01-01T00:01:00.000Z')
  const exported = sim.exportState()
  sim.loadScenario(SMALL)
  expect(sim.db.tables.users.all().map((u) => u.username)).toEqual(['solo'])
  sim.loadScenario(exported)
  expect(sim.clock.now().toISOString()).toBe('2030-01-01T00:01:00.000Z')
  expect(sim.exportState()).toBe(exported)
})

it('sim.reset() puts the clock back as POST /-/fakelab/reset does: the scenario\'s now, or the wall clock', async () => {
  const sim = createSimulator({ scenario: await loadDefaultScenario() })
  sim.advanceClock(3_600_000)
  sim.reset()
  expect(sim.clock.now().toISOString()).toBe('2021-04-01T12:00:00.000Z')
  const wall = createSimulator({ scenario: 'version: 1\n' })
  expect(wall.setClock('2030-01-01T00:00:00Z').toISOString()).toBe('2030-01-01T00:00:00.000Z')
  wall.reset()
  expect(Math.abs(wall.clock.now().getTime() - Date.now())).toBeLessThan(60_000)
})

it('the typed client in fakelab/node drives a server', async () => {
  const sim = createSimulator({ scenario: await loadDefaultScenario() })
  const server = await startServer(sim, { port: 0 })
  try {
    const control = controlClient(server.url)
    await fetch(`${server.url}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': 'glpat-root-fakelab' } })
    expect((await control.journal({ user: 'root' })).map((e) => e.route)).toEqual(['GET /user'])
    await control.clearJournal()
    expect(await control.journal()).toEqual([])
    expect((await control.setClock('2031-01-01T00:00:00Z')).toISOString()).toBe('2031-01-01T00:00:00.000Z')
    expect((await control.advanceClock({ seconds: 1 })).toISOString()).toBe('2031-01-01T00:00:01.000Z')
    expect((await control.now()).toISOString()).toBe('2031-01-01T00:00:01.000Z')
    const exported = await control.exportState()
    await control.loadScenario(SMALL)
    expect(sim.db.tables.users.all().map((u) => u.username)).toEqual(['solo'])
    await control.loadScenario(exported)
    await control.reset()
    expect(sim.db.tables.users.all().length).toBeGreaterThan(1)
    await expect(control.loadScenario({ version: 1, users: [{ username: 7 }] })).rejects.toMatchObject({ name: 'ControlError', status: 422 })
  } finally {
    await server.close()
  }
})
