// Run with vitest in a project that installed the packed tarball: the three entry points at work.
import { createSimulator, type Simulator } from 'fakelab'
import { createHandlers } from 'fakelab/msw'
import { controlClient, loadDefaultScenario, startServer } from 'fakelab/node'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'

const scenario = await loadDefaultScenario()
const token = { 'PRIVATE-TOKEN': 'glpat-max-fakelab' }

describe('fakelab', () => {
  it('answers a Fetch request from the default scenario', async () => {
    const sim = createSimulator({ scenario })
    const res = await sim.handle(new Request('http://gitlab.test/api/v4/user', { headers: token }))
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ id: 5, username: 'max' })
  })
})

describe('fakelab/msw', () => {
  const sim: Simulator = createSimulator({ scenario })
  const server = setupServer(...createHandlers(sim, { baseUrl: 'https://gitlab.test' }))
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
  afterEach(() => {
    server.resetHandlers()
    sim.reset()
  })
  afterAll(() => server.close())

  it('serves fetch through setupServer and resets between tests', async () => {
    const created = await fetch('https://gitlab.test/api/v4/projects/20/labels', {
      method: 'POST',
      headers: { ...token, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'triage', color: '#FF0000' }),
    })
    expect(created.status).toBe(201)
    sim.journal.expectCalled({ route: 'POST /projects/:id/labels', user: 'max' }, 1)
  })

  it('sees none of the previous test\'s writes, and server.use() overrides one route', async () => {
    const res = await fetch('https://gitlab.test/api/v4/projects/20/labels?per_page=100', { headers: token })
    expect((await res.json()).map((l: { name: string }) => l.name)).not.toContain('triage')
    server.use(http.get('https://gitlab.test/api/v4/user', () => HttpResponse.json({ id: 0 }, { status: 500 })))
    expect((await fetch('https://gitlab.test/api/v4/user', { headers: token })).status).toBe(500)
  })
})

describe('fakelab/scenario.schema.json', () => {
  it('resolves through the exports map to the scenario format\'s JSON Schema', async () => {
    const { createRequire } = await import('node:module')
    const { readFileSync } = await import('node:fs')
    const path = createRequire(import.meta.url).resolve('fakelab/scenario.schema.json')
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ title: 'fakelab scenario', type: 'object' })
  })
})

describe('fakelab/node', () => {
  it('starts a server, and its control client resets it', async () => {
    const sim = createSimulator({ scenario })
    const server = await startServer(sim, { port: 0 })
    try {
      const res = await fetch(`${server.url}/api/v4/projects/acme%2Fwebsite`, { headers: token })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('application/json')
      const control = controlClient(server.url)
      expect((await control.journal({ route: 'GET /projects/:id' })).length).toBe(1)
      await control.reset()
    } finally {
      await server.close()
    }
  })
})
