/**
 * `createHandlers(sim, { onUnimplemented: 'passthrough' })`: a request under /api/v4 that no route
 * answers reaches MSW's `onUnhandledRequest` (issue 12 "What a newcomer meets first"); the default
 * answers GitLab's catch-all 404. Either way the journal marks it as not simulated.
 */
import { setupServer } from 'msw/node'
import { http, HttpResponse } from 'msw'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { createHandlers } from '../../src/msw.js'

const scenario = `
version: 1
now: 2021-04-01T12:00:00Z
users:
  - username: root
    admin: true
    tokens: [{ token: glpat-root, scopes: [api] }]
`

describe('createHandlers onUnimplemented', () => {
  let close: () => void = () => {}
  afterEach(() => close())

  function start(onUnimplemented?: 'answer' | 'passthrough', unhandled: string[] = []) {
    const sim = createSimulator({ scenario })
    const server = setupServer(...createHandlers(sim, { baseUrl: 'http://gitlab.test', ...(onUnimplemented ? { onUnimplemented } : {}) }))
    server.listen({ onUnhandledRequest: (request) => void unhandled.push(`${request.method} ${new URL(request.url).pathname}`) })
    close = () => server.close()
    return { sim, server }
  }

  it('answers the catch-all 404 by default', async () => {
    const unhandled: string[] = []
    const { sim } = start(undefined, unhandled)
    const res = await fetch('http://gitlab.test/api/v4/projects/1/unknown_thing')
    expect([res.status, await res.json(), res.headers.get('x-fakelab-unsimulated')]).toEqual([404, { error: '404 Not Found' }, 'true'])
    expect(unhandled).toEqual([])
    expect(sim.journal.last()).toMatchObject({ simulated: false, routeMiss: 'path' })
  })

  it.each([
    ['GET', '/api/v4/projects/1/unknown_thing'],
    ['PATCH', '/api/v4/user'],
  ])('passes %s %s through to onUnhandledRequest', async (method, path) => {
    const unhandled: string[] = []
    const { sim } = start('passthrough', unhandled)
    // Nothing listens at gitlab.test: the passed-through request fails at the network.
    await fetch(`http://gitlab.test${path}`, { method }).catch(() => undefined)
    expect(unhandled).toEqual([`${method} ${path}`])
    expect(sim.journal.last()).toMatchObject({ method, path, simulated: false, passedThrough: true, status: 0 })
  })

  // Issue 25 item 8: MSW's own strategies, as a test suite sets them.
  it.each(['error', 'warn'] as const)("reaches onUnhandledRequest: '%s', which names the request", async (strategy) => {
    const sim = createSimulator({ scenario })
    const server = setupServer(...createHandlers(sim, { baseUrl: 'http://gitlab.test', onUnimplemented: 'passthrough' }))
    server.listen({ onUnhandledRequest: strategy })
    close = () => server.close()
    const printed = vi.spyOn(console, strategy === 'error' ? 'error' : 'warn').mockImplementation(() => {})
    try {
      // 'error' fails the request; 'warn' lets it go to the network, where nothing answers at gitlab.test.
      await expect(fetch('http://gitlab.test/api/v4/projects/1/unknown_thing')).rejects.toThrow()
      expect(printed.mock.calls.map((call) => String(call[0])).join('\n')).toContain('GET http://gitlab.test/api/v4/projects/1/unknown_thing')
      // Simulated routes still answer, without the warning.
      printed.mockClear()
      const user = await fetch('http://gitlab.test/api/v4/user', { headers: { 'PRIVATE-TOKEN': 'glpat-root' } })
      expect(user.status).toBe(200)
      expect(printed).not.toHaveBeenCalled()
    } finally {
      printed.mockRestore()
    }
    expect(sim.journal.find({ simulated: false })).toMatchObject([{ path: '/api/v4/projects/1/unknown_thing', passedThrough: true, status: 0 }])
  })

  it('still lets a server.use() override answer first', async () => {
    const { server } = start('passthrough')
    server.use(http.get('http://gitlab.test/api/v4/projects/:id/unknown_thing', () => HttpResponse.json({ mine: true })))
    expect(await (await fetch('http://gitlab.test/api/v4/projects/1/unknown_thing')).json()).toEqual({ mine: true })
  })

  it('still answers simulated routes and route 404s', async () => {
    start('passthrough')
    const user = await fetch('http://gitlab.test/api/v4/user', { headers: { 'PRIVATE-TOKEN': 'glpat-root' } })
    expect([user.status, (await user.json()).username]).toEqual([200, 'root'])
    const missing = await fetch('http://gitlab.test/api/v4/users/999')
    expect([missing.status, await missing.json()]).toEqual([404, { message: '404 User Not Found' }])
  })

  it('hands a passed-through request to the next handler in the list', async () => {
    const sim = createSimulator({ scenario })
    const server = setupServer(
      ...createHandlers(sim, { baseUrl: 'http://gitlab.test', onUnimplemented: 'passthrough' }),
      http.post('http://gitlab.test/api/v4/projects/:id/unknown_thing', async ({ request }) => HttpResponse.json(await request.json())),
    )
    server.listen({ onUnhandledRequest: 'error' })
    close = () => server.close()
    const res = await fetch('http://gitlab.test/api/v4/projects/1/unknown_thing', { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } })
    expect(await res.json()).toEqual({ a: 1 })
  })
})
