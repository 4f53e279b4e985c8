// The engine's stages (src/core/stages/), each called alone, in the order a request meets them.
// Behaviour through the doors is the contract suites' job; these pin what each stage decides.
import { describe, expect, it, vi } from 'vitest'
import { frozenClock } from '../../src/core/clock.js'
import { ApiError, notFound } from '../../src/core/errors.js'
import { Faults } from '../../src/core/faults.js'
import { p } from '../../src/core/params.js'
import { RateLimiter } from '../../src/core/rate-limit.js'
import { noContent, ok } from '../../src/core/respond.js'
import { route, type Ctx, type Route } from '../../src/core/route.js'
import { Router, type RouteMatch } from '../../src/core/router.js'
import { fromFetchRequest, type CoreRequest } from '../../src/core/transport.js'
import { admit, checkBodySize, decideFault, malformedHead, MAX_QUERY_LENGTH } from '../../src/core/stages/admit.js'
import { authenticateRequest, readParams } from '../../src/core/stages/authenticate.js'
import { classify, isPreflight } from '../../src/core/stages/classify.js'
import { ClockText, RequestContext } from '../../src/core/stages/context.js'
import { journalEntry, requestIdOf } from '../../src/core/stages/journal.js'
import { DateStamp, finishHeaders, render, renderError } from '../../src/core/stages/render.js'
import { missOutcome, routeRequest, type Routers } from '../../src/core/stages/route.js'
import { transact } from '../../src/core/stages/transact.js'
import { validate } from '../../src/core/stages/validate.js'
import { createSimulator } from '../../src/index.js'
import { loadDefaultScenario } from '../../src/node.js'

const request = (method: string, target: string, init: RequestInit = {}): CoreRequest =>
  fromFetchRequest(new Request(`http://gitlab.test${target}`, { method, ...init }))

const handler = () => noContent()
const routers: Routers = {
  api: new Router([route('GET /projects/:id/labels', { handler }), route('POST /projects/:id/labels', { handler })]),
  web: new Router([route('GET /uploads/:secret/:file', { auth: 'optional', handler })]),
}
const db = createSimulator({ scenario: await loadDefaultScenario() }).db
const clock = frozenClock('2021-04-01T12:00:00.000Z')

describe('1. classify', () => {
  it.each([
    ['/api/v4/projects/20', 'api', '/projects/20', true],
    ['/api/v4/', 'api', '/', true],
    ['/api/v4', 'web', '/api/v4', true],
    ['/api/v3', 'gone', '/api/v3', true],
    ['/api/v3/projects', 'gone', '/api/v3/projects', true],
    ['/api/v5/projects', 'web', '/api/v5/projects', true],
    ['/-/fakelab/clock', 'control', '/clock', false],
    ['/-/fakelab', 'web', '/-/fakelab', false],
    ['/uploads/-/system/x.png', 'web', '/uploads/-/system/x.png', false],
  ])('%s → %s below %s', (path, zone, below, front) => {
    expect(classify(request('GET', path))).toEqual({ zone, below, front, origin: undefined })
  })

  it('reads the Origin under /api/ only (rack-cors reach), and tells a preflight', () => {
    const headers = { origin: 'https://app.test', 'access-control-request-method': 'GET' }
    const api = request('OPTIONS', '/api/v4/user', { headers })
    expect(classify(api).origin).toBe('https://app.test')
    expect(isPreflight(api, classify(api))).toBe(true)
    const web = request('OPTIONS', '/uploads/x', { headers })
    expect(classify(web).origin).toBeUndefined()
    expect(isPreflight(web, classify(web))).toBe(false)
    const plain = request('GET', '/api/v4/user', { headers: { origin: 'https://app.test' } })
    expect(isPreflight(plain, classify(plain))).toBe(false)
  })
})

describe('2. route', () => {
  const routed = (method: string, path: string) => {
    const r = request(method, path)
    return routeRequest(routers, r, classify(r))
  }

  it('matches once in the zone of the request', () => {
    expect((routed('GET', '/api/v4/projects/acme%2Fsite/labels') as RouteMatch).pathParams).toEqual({ id: 'acme/site' })
    expect(routed('GET', '/uploads/abc/a.png')?.route?.key).toBe('GET /uploads/:secret/:file')
    expect(routed('GET', '/-/fakelab/clock')).toBeUndefined()
    expect(routed('GET', '/api/v3/projects')).toBeUndefined()
  })

  it('answers a miss with the catch-all 404, a method miss and X-Fakelab-Unsimulated only under the API', () => {
    const api = request('DELETE', '/api/v4/projects/1/labels')
    const miss = routeRequest(routers, api, classify(api))
    expect(missOutcome(classify(api), miss?.miss ? miss : undefined)).toEqual({ status: 404, body: { error: '404 Not Found' }, headers: { 'x-fakelab-unsimulated': 'true' }, routeMiss: 'method', allowed: ['GET', 'POST'] })
    const web = request('DELETE', '/uploads/abc/a.png')
    expect(missOutcome(classify(web), undefined)).toEqual({ status: 404, body: { error: '404 Not Found' }, routeMiss: 'path' })
  })
})

describe('3. admit', () => {
  const limiter = new RateLimiter()
  const admitted = (r: CoreRequest) => admit(db, limiter, clock, r, classify(r))
  const status = (promise: Promise<unknown>) => promise.then(() => 'admitted', (error: ApiError) => error.status)

  it('decides faults for routed API requests by route key, never for the control API', () => {
    const faults = new Faults(1)
    expect(decideFault(faults, request('GET', '/api/v4/projects/1/labels'), classify(request('GET', '/api/v4/projects/1/labels')), undefined)).toBeUndefined()
    faults.add({ route: 'GET /projects/:id/labels', status: 503 })
    faults.add({ path: '^/-/fakelab', status: 500 })
    const api = request('GET', '/api/v4/projects/1/labels')
    expect(decideFault(faults, api, classify(api), routeRequest(routers, api, classify(api)))?.label).toBe('status 503')
    const ctl = request('GET', '/-/fakelab/clock')
    expect(decideFault(faults, ctl, classify(ctl), undefined)).toBeUndefined()
  })

  it.each([
    ['a query over the limit', request('GET', `/api/v4/user?q=${'a'.repeat(MAX_QUERY_LENGTH)}`), 414],
    ['a body over the limit by Content-Length', request('POST', '/api/v4/user', { body: 'x', headers: { 'content-length': String(300 * 1024 * 1024) } }), 413],
    ['a bad escape in the path', request('GET', '/api/v4/projects/%E9'), 400],
    ['a NUL in the query', request('GET', '/api/v4/user?a[b]=%00'), 400],
    ['a NUL in the credentials', request('GET', '/api/v4/user', { headers: { authorization: 'Basic AA==' } }), 400],
    ['a plain request', request('GET', '/api/v4/user?a=%41'), 'admitted'],
  ])('%s → %s', async (_, r, expected) => {
    expect(await status(admitted(r))).toBe(expected)
  })

  it('measures a body without Content-Length once, and hands the bytes on', async () => {
    let reads = 0
    const inner = request('POST', '/api/v4/user', { body: 'hello' })
    const counted: CoreRequest = { method: 'POST', path: inner.path, query: '', origin: inner.origin, header: () => undefined, body: () => (reads++, inner.body()) }
    const checked = await checkBodySize(db, counted)
    expect(new TextDecoder().decode(await checked.body())).toBe('hello')
    expect(reads).toBe(1)
  })

  it('looks for a NUL in the parsed query only when the query holds %00, at the depth GitLab looks', () => {
    expect(malformedHead(request('GET', '/x?a=%2500'))).toBe(false)
    expect(malformedHead(request('GET', '/x?a[b][c][d]=%00'))).toBe(false)
    expect(malformedHead(request('GET', '/x?a[b][c]=%00'))).toBe(true)
  })
})

describe('4. authenticate', () => {
  it('gathers query, body and path params, the body over the query, the path over both', async () => {
    const r = request('POST', '/api/v4/projects/20/labels?id=9&name=q&color=red', { body: JSON.stringify({ name: 'b' }), headers: { 'content-type': 'application/json' } })
    const found = routeRequest(routers, r, classify(r)) as RouteMatch
    expect(await readParams(r, found)).toEqual({ id: '20', name: 'b', color: 'red' })
  })

  it('authenticates an API request by token, a web request by session cookie only', async () => {
    const headers = { 'private-token': 'glpat-root-fakelab' }
    const api = request('GET', '/api/v4/projects/20/labels', { headers })
    const found = routeRequest(routers, api, classify(api)) as RouteMatch
    expect(authenticateRequest(db, api, {}, found.route as Route, classify(api), clock.now(), 'http://gitlab.test').user?.username).toBe('root')
    const web = request('GET', '/uploads/abc/a.png', { headers })
    const webFound = routeRequest(routers, web, classify(web)) as RouteMatch
    expect(authenticateRequest(db, web, {}, webFound.route as Route, classify(web), clock.now(), 'http://gitlab.test').user).toBeNull()
  })
})

describe('5. validate and 6. transact, on one context', () => {
  const contextFor = (raw: Record<string, unknown>) => new RequestContext({
    request: request('GET', '/api/v4/things'), routeKey: 'GET /things', raw, auth: { user: null, tokenUser: null, token: null, sudo: false }, db, clock,
    text: new ClockText().at(clock.now()), baseUrl: 'http://gitlab.test', fakerOf: () => { throw new Error('no faker') },
  })

  it('runs the before block on the raw params, then validates and adds defaults to the raw params', () => {
    const seen: unknown[] = []
    const things = route('GET /things', {
      params: { page: p.integer({ default: 1 }), name: p.string() },
      before: (ctx) => void seen.push({ ...ctx.params }),
      handler: (ctx) => ok(ctx.params),
    })
    const ctx = contextFor({ name: 'x', extra: 'y' })
    validate(things, ctx)
    expect(seen).toEqual([{ name: 'x', extra: 'y' }])
    expect(ctx.params).toEqual({ page: 1, name: 'x' })
    expect(ctx.raw).toEqual({ name: 'x', extra: 'y', page: 1 })
    expect([ctx.today, ctx.now]).toEqual(['2021-04-01', '2021-04-01T12:00:00.000Z'])
  })

  it('refuses undeclared shapes with a Grape 400', () => {
    const things = route('GET /things', { params: { page: p.integer({ required: true }) }, handler })
    expect(() => validate(things, contextFor({}))).toThrow(expect.objectContaining({ status: 400, body: { error: 'page is missing' } }))
  })

  it('rolls the store back when the handler throws', () => {
    const before = db.tables.labels.all().length
    const failing = route('POST /things', {
      handler: (ctx: Ctx) => {
        ctx.db.tables.labels.insert({ ...ctx.db.tables.labels.all()[0]!, id: 99_999, title: 'gone' })
        throw notFound('Thing')
      },
    })
    expect(() => transact(db, failing, contextFor({}))).toThrow(ApiError)
    expect(db.tables.labels.all().length).toBe(before)
  })
})

describe('7. render and 8. journal', () => {
  it('serialises a JSON body once, none for HEAD, and no content type without a body', () => {
    const get = render({ status: 200, body: { a: 1 } }, 'id-1', false)
    expect([get.body, get.headers.find(([n]) => n === 'content-type')?.[1]]).toEqual(['{"a":1}', 'application/json'])
    const head = render({ status: 200, body: { a: 1 } }, 'id-1', true)
    expect([head.body, head.headers.find(([n]) => n === 'content-type')?.[1]]).toEqual([undefined, 'application/json'])
    expect(render({ status: 204, body: {} }, 'id-1', false).headers.some(([n]) => n === 'content-type')).toBe(false)
  })

  it('renders an unexpected error as a 500 after telling onError, a text error as text', () => {
    const onError = vi.fn()
    const reply = renderError(new TypeError('boom'), 'id-2', false, onError)
    expect([reply.status, reply.body, onError.mock.calls.length]).toEqual([500, '{"message":"500 Internal Server Error"}', 1])
    const text = renderError(new ApiError(400, undefined, {}, 'Bad Request'), 'id-2', false, onError)
    expect([text.body, text.headers]).toEqual(['Bad Request', [['content-type', 'text/plain'], ['x-request-id', 'id-2']]])
  })

  it('adds the CORS fields and the date of the simulator clock last', () => {
    const reply = finishHeaders(render({ status: 200, body: [] }, 'id-3', false), 'https://app.test', 'http://gitlab.test', new DateStamp(), clock)
    expect(reply.headers.map(([n]) => n)).toEqual([...reply.headers.map(([n]) => n)].sort())
    expect(reply.headers).toContainEqual(['date', 'Thu, 01 Apr 2021 12:00:00 GMT'])
    expect(reply.headers).toContainEqual(['access-control-allow-origin', '*'])
  })

  it('journals a miss under the API as not simulated', () => {
    const r = request('GET', '/api/v4/nope')
    const reply = render(missOutcome(classify(r), { miss: 'path', allowed: [] }), requestIdOf(7), false)
    const entry = journalEntry({ seq: 7, requestId: requestIdOf(7), at: 'now', started: 0 }, r, classify(r), reply, { route: null, user: null, sudoFrom: undefined }, undefined)
    expect(entry).toMatchObject({ seq: 7, requestId: '01FAKELAB00000000000000007', route: null, routeMiss: 'path', simulated: false, status: 404 })
  })
})
