/**
 * The reply memo's rules (src/core/reply-memo.ts), seen through `sim.handle` with probe routes that
 * count how often they run: what is reused, what always runs, and that `'verify'` catches a kept
 * answer that went stale. The contract suite (test/contract/reply-memo.contract.ts) checks through
 * both doors that every change is seen.
 */
import { describe, expect, it } from 'vitest'
import { createSimulator, type ReplyMemoMode } from '../../src/index.js'
import { ok } from '../../src/core/respond.js'
import { route } from '../../src/core/route.js'
import { allRoutes } from '../../src/resources/index.js'
import { loadDefaultScenario } from '../../src/node.js'

const scenario = await loadDefaultScenario()

function probes() {
  const runs = { plain: 0, faker: 0, writes: 0, header: 0 }
  const routes = [
    route('GET /probe/plain', { auth: 'none', handler: () => ok({ n: ++runs.plain > 0 }) }),
    route('GET /probe/faker', { auth: 'none', handler: (ctx) => ok({ run: ++runs.faker, word: ctx.faker.string.alpha(8) }) }),
    route('GET /probe/writes', {
      auth: 'none',
      handler: (ctx) => {
        runs.writes += 1
        return ok({ id: ctx.db.tables.labels.insert({ title: `probe-${runs.writes}`, color: '#123456', description: null, project_id: 20, group_id: null, type: 'ProjectLabel', created_at: ctx.now, updated_at: ctx.now } as never).id })
      },
    }),
    route('GET /probe/header', { auth: 'none', handler: (ctx) => ok({ run: ++runs.header, accept: ctx.request.header('accept') ?? null }) }),
  ]
  return { runs, routes: [...allRoutes(), ...routes] }
}

function make(replyMemo: ReplyMemoMode, onError?: (error: unknown) => void) {
  const { runs, routes } = probes()
  const sim = createSimulator({ scenario, routes, replyMemo, onError })
  const get = async (path: string, init?: RequestInit, origin = 'http://gitlab.test') => {
    const res = await sim.handle(new Request(`${origin}/api/v4${path}`, init))
    return { status: res.status, body: await res.text(), id: res.headers.get('x-request-id') }
  }
  return { sim, runs, get }
}

describe('reply memo', () => {
  it('keeps an answer when a read is asked a second time, and reuses it from the third on, each with its own request id', async () => {
    const { runs, get } = make('on')
    const answers = []
    for (let i = 0; i < 5; i++) answers.push(await get('/probe/plain'))
    expect(runs.plain).toBe(2)
    expect(new Set(answers.map((a) => a.body)).size).toBe(1)
    expect(new Set(answers.map((a) => a.id)).size).toBe(5)
  })

  it.each([
    ['off', 3],
    ['verify', 3],
  ] as const)('runs the route on every read in %s mode', async (mode, expected) => {
    const { runs, get } = make(mode)
    for (let i = 0; i < 3; i++) await get('/probe/plain')
    expect(runs.plain).toBe(expected)
  })

  it.each([
    ['draws from the faker', '/probe/faker', 'faker'],
    ['writes to the store', '/probe/writes', 'writes'],
  ] as const)('runs a read that %s every time', async (_, path, counter) => {
    const { runs, get } = make('on')
    const bodies = [await get(path), await get(path), await get(path)].map((a) => a.body)
    expect(runs[counter]).toBe(3)
    expect(new Set(bodies).size).toBe(3)
  })

  it('keeps an answer per value of a header the route read, and per origin, query and method', async () => {
    const { runs, get } = make('on')
    const thrice = async (...args: Parameters<typeof get>) => {
      for (let i = 0; i < 3; i++) await get(...args)
    }
    await thrice('/probe/header', { headers: { accept: 'a' } })
    expect(runs.header).toBe(2)
    await thrice('/probe/header', { headers: { accept: 'b' } })
    await thrice('/probe/header', { headers: { accept: 'a' } })
    expect(runs.header).toBe(3)
    await thrice('/probe/header', { headers: { accept: 'a' } }, 'http://other.test')
    await thrice('/probe/header?x=1', { headers: { accept: 'a' } })
    await thrice('/probe/header', { method: 'HEAD', headers: { accept: 'a' } })
    expect(runs.header).toBe(9)
  })

  it('keeps nothing across sessions: each has its own store and memo', async () => {
    const { sim, runs, get } = make('on')
    for (let i = 0; i < 3; i++) await get('/probe/plain')
    for (let i = 0; i < 3; i++) await get('/probe/plain', { headers: { 'X-Fakelab-Session': 'one' } })
    expect(runs.plain).toBe(4)
    expect(sim.sessionIds()).toEqual(['one'])
  })

  it('fails a reused read with a 500 in verify mode when the kept answer went stale', async () => {
    const errors: string[] = []
    const { sim, get } = make('verify', (error) => errors.push((error as Error).message))
    for (let i = 0; i < 2; i++) expect((await get('/projects/20/labels', { headers: { 'PRIVATE-TOKEN': 'glpat-root-fakelab' } })).status).toBe(200)
    // Changing a record in place bypasses the store's write counter: unsupported, and what verify is for.
    const label = sim.db.tables.labels.get(101) as { title: string }
    label.title = 'changed in place'
    const again = await get('/projects/20/labels', { headers: { 'PRIVATE-TOKEN': 'glpat-root-fakelab' } })
    expect([again.status, JSON.parse(again.body)]).toEqual([500, { message: '500 Internal Server Error' }])
    expect(errors).toEqual(['reply memo: a reused answer to GET http://gitlab.test/api/v4/projects/20/labels? is not what the route answers now (body)'])
  })
})
