import { Faker, base, en } from '@faker-js/faker'
import { describe, expect, it, vi } from 'vitest'
import { createFaker } from '../../src/core/faker.js'
import { Router } from '../../src/core/router.js'
import { fromFetchRequest, toFetchResponse, type CoreRequest } from '../../src/core/transport.js'
import { createSimulator } from '../../src/index.js'
import { loadDefaultScenario } from '../../src/node.js'

const sim = createSimulator({ scenario: await loadDefaultScenario() })
const request = (method: string, path: string, init: RequestInit = {}): CoreRequest =>
  fromFetchRequest(new Request(`http://gitlab.test${path}`, { method, ...init, headers: { 'PRIVATE-TOKEN': 'glpat-root-fakelab', ...init.headers } }))

describe('sim.dispatch', () => {
  // Issue 17 item 1: both misses answer the same 404, but a request log or journal must tell them apart.
  it.each([
    ['PATCH', '/api/v4/projects/20/labels', 'method'],
    ['DELETE', '/api/v4/user', 'method'],
    ['GET', '/api/v4/nope', 'path'],
    ['GET', '/api/v4', 'path'],
    ['GET', '/api/v5/projects', 'path'],
    ['GET', '/-/fakelab/nothing', 'path'],
    ['GET', '/api/v4/projects/20', undefined],
    ['GET', '/api/v4/projects/999', undefined],
  ])('%s %s → routeMiss %s', async (method, path, miss) => {
    const reply = await sim.dispatch(request(method, path))
    expect(reply.routeMiss).toBe(miss)
    if (miss) expect([reply.status, reply.body]).toEqual([404, '{"error":"404 Not Found"}'])
  })

  it('answers with headers sorted by name and the body serialised once', async () => {
    const reply = await sim.dispatch(request('GET', '/api/v4/projects/20/labels?per_page=2'))
    expect(reply.headers.map(([name]) => name)).toEqual([...reply.headers.map(([name]) => name)].sort())
    expect(JSON.parse(reply.body as string)).toHaveLength(2)
  })

  it('reads a body once, however often it is asked for', async () => {
    let reads = 0
    const once = request('POST', '/api/v4/projects/20/labels', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'once', color: 'red' }),
    })
    const counted: CoreRequest = {
      method: once.method,
      path: once.path,
      query: once.query,
      origin: once.origin,
      header: (name) => once.header(name),
      body: () => (reads++, once.body()),
    }
    const reply = await sim.dispatch(counted)
    expect([reply.status, reads]).toEqual([201, 1])
    sim.reset()
  })

  // Issue 24 item 4: one router match per request, with fault rules set and through the passthrough door too.
  it('matches the router once per request', async () => {
    const fresh = createSimulator({ scenario: await loadDefaultScenario(), faults: [{ route: 'GET /projects/:id', delay: 0 }] })
    const match = vi.spyOn(Router.prototype, 'match')
    try {
      await fresh.dispatch(request('GET', '/api/v4/projects/20/labels'))
      expect(match).toHaveBeenCalledTimes(1)
      const routed = request('GET', '/api/v4/projects/20')
      expect(fresh.passUnsimulated(routed)).toBe(false)
      expect((await fresh.dispatch(routed)).status).toBe(200)
      expect(match).toHaveBeenCalledTimes(2)
    } finally {
      match.mockRestore()
    }
  })

  it('converts to a Fetch Response with the same status, headers and bytes', async () => {
    const reply = await sim.dispatch(request('GET', '/api/v4/projects/20'))
    const response = toFetchResponse(reply)
    expect([response.status, [...response.headers], await response.text()]).toEqual([reply.status, reply.headers, reply.body])
  })
})

describe('createFaker', () => {
  // The English subpath avoids loading every locale; its output must not change (STYLE.md §10).
  it('gives what new Faker({ locale: [en, base] }) seeded the same gives', () => {
    const ours = createFaker(42)
    const root = new Faker({ locale: [en, base] })
    root.seed(42)
    const draw = (f: Faker) => [f.person.fullName(), f.internet.email(), f.string.alphanumeric(20), f.lorem.sentence(), f.number.int(1000)]
    expect(draw(ours)).toEqual(draw(root))
  })
})
