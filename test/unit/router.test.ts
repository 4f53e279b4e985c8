import fc from 'fast-check'
import { pathToRegexp } from 'path-to-regexp'
import { describe, expect, it } from 'vitest'
import { noContent } from '../../src/core/respond.js'
import { route, type Route, type RouteEntry } from '../../src/core/route.js'
import { Router } from '../../src/core/router.js'
import { allRoutes as allRouteEntries, apiRouteSource } from '../../src/resources/index.js'

const handler = () => noContent()
const router = new Router([
  route('GET /runners/:id', { handler }),
  route('GET /runners/all', { handler }),
  route('PUT /projects/:id/labels/:label_id', { handler }),
  route('PUT /projects/:id/labels/promote', { handler }),
  route('GET /projects/:id/labels/:label_id', { handler }),
  route('DELETE /projects/:id/labels/:label_id', { handler }),
  route('GET /:id/odd', { handler }),
])

describe('Router', () => {
  it.each([
    ['GET', '/runners/all', 'GET /runners/all', {}],
    ['GET', '/runners/7', 'GET /runners/:id', { id: '7' }],
    ['GET', '/runners/7/', 'GET /runners/:id', { id: '7' }],
    ['GET', '/RUNNERS/7', 'GET /runners/:id', { id: '7' }],
    ['PUT', '/Projects/1/LABELS/Promote', 'PUT /projects/:id/labels/promote', { id: '1' }],
    ['PUT', '/projects/1/labels/promote', 'PUT /projects/:id/labels/promote', { id: '1' }],
    ['PUT', '/projects/1/labels/bug', 'PUT /projects/:id/labels/:label_id', { id: '1', label_id: 'bug' }],
    ['GET', '/projects/1/labels/promote', 'GET /projects/:id/labels/:label_id', { id: '1', label_id: 'promote' }],
    ['GET', '/projects/acme%2Fwebsite/labels/a%20b%2Fc', 'GET /projects/:id/labels/:label_id', { id: 'acme/website', label_id: 'a b/c' }],
    ['HEAD', '/runners/7', 'GET /runners/:id', { id: '7' }],
    ['GET', '/anything/odd', 'GET /:id/odd', { id: 'anything' }],
  ])('%s %s → %s', (method, path, key, params) => {
    const match = router.match(method, path)
    expect(match.route?.key).toBe(key)
    expect(match.miss ? undefined : match.pathParams).toEqual(params)
  })

  // gitlab-behaviour.md §1.2 "Wrong method on an existing path": GitLab answers the catch-all 404,
  // so the router only reports the kind of miss (and the methods the path has) for logs and journals.
  it('reports a known path under another method as a method miss, with the methods it has', () => {
    expect(router.match('POST', '/projects/1/labels/bug')).toEqual({ miss: 'method', allowed: ['DELETE', 'GET', 'PUT'] })
    expect(router.match('PATCH', '/runners/all')).toEqual({ miss: 'method', allowed: ['GET'] })
  })

  it.each([['GET', '/nope'], ['GET', '/projects/acme/website/labels/x/y'], ['GET', '/runners/%E0%A4%A'], ['GET', '/'], ['POST', '/runners']])(
    'reports %s %s as a path miss',
    (method, path) => {
      expect(router.match(method, path)).toEqual({ miss: 'path', allowed: [] })
    },
  )

  it('keeps no bucket for first segments no route has, however many are asked', () => {
    const fresh = new Router([route('GET /projects/:id', { handler })])
    for (let i = 0; i < 1000; i++) fresh.match('GET', `/guess-${i}/x`)
    fresh.match('GET', '/projects/1')
    expect((fresh as unknown as { byPrefix: Map<string, unknown> }).byPrefix.size).toBe(1)
  })

  it('keeps candidate lists only for last segments some route has, however many ids are asked', () => {
    const fresh = new Router([route('GET /projects/:id', { handler }), route('GET /projects/:id/labels', { handler }), route('POST /projects/:id/labels', { handler })])
    for (let i = 0; i < 1000; i++) expect(fresh.match('GET', `/projects/${i}`)).toMatchObject({ pathParams: { id: String(i) } })
    expect(fresh.match('GET', '/projects/7/labels')).toMatchObject({ route: { key: 'GET /projects/:id/labels' } })
    expect(fresh.match('PUT', '/projects/7/labels')).toEqual({ miss: 'method', allowed: ['GET', 'POST'] })
    const buckets = (fresh as unknown as { byPrefix: Map<string, { byLast?: Map<string, unknown> }> }).byPrefix
    expect([...buckets.values()].map((bucket) => bucket.byLast?.size ?? 0)).toEqual([0, 1])
  })

  it('refuses duplicate route keys', () => {
    expect(() => new Router([route('GET /a', { handler }), route('GET /a', { handler })])).toThrow('duplicate route: GET /a')
  })
})

/**
 * What the router must answer, without its shortcuts: every route's path-to-regexp expression run
 * over all routes, the most specific first (a static segment before a parameter, registration order
 * among equals), the requested method's first match winning (for HEAD, a HEAD route's, else a GET route's).
 */
const expressions = new Map<string, RegExp>()
/** A path's path-to-regexp expression, built once. */
function expression(path: string): RegExp {
  let regexp = expressions.get(path)
  if (!regexp) expressions.set(path, (regexp = pathToRegexp(path).regexp))
  return regexp
}

const orders = new WeakMap<readonly RouteEntry[], RouteEntry[]>()
/** The routes, the most specific first (registration order among equals), sorted once per list. */
function mostSpecificFirst(routes: readonly RouteEntry[]): RouteEntry[] {
  let sorted = orders.get(routes)
  if (sorted) return sorted
  const score = (r: RouteEntry) => r.path.split('/').slice(1).map((s) => (s.startsWith(':') ? 1 : 2))
  sorted = [...routes].sort((a, b) => {
    const [x, y] = [score(a), score(b)]
    for (let i = 0; i < Math.max(x.length, y.length); i++) if ((y[i] ?? 0) !== (x[i] ?? 0)) return (y[i] ?? 0) - (x[i] ?? 0)
    return 0
  })
  orders.set(routes, sorted)
  return sorted
}

function reference(routes: readonly RouteEntry[], method: string, path: string): string | undefined {
  const sorted = mostSpecificFirst(routes)
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path
  const first = (wanted: string) => sorted.find((r) => r.method === wanted && expression(r.path).test(trimmed))?.key
  // HEAD: a HEAD route of the path (Grape `head`), else its GET route.
  return method === 'HEAD' ? first('HEAD') ?? first('GET') : first(method)
}

// The router passes over a route whose static segments a request does not have before it builds or
// runs the route's expression (issue 27): on every route of fakelab, in any letter case, with any
// segment values, it must still pick what the expressions alone pick.
describe('Router on every route fakelab serves', () => {
  const allRoutes = allRouteEntries()
  const router = new Router(allRoutes)
  // The engine's: the static table as a source, whose entries are made as buckets are filed.
  const fromSource = new Router(apiRouteSource)
  // No `%`: a segment that does not decode is a miss whatever matches it (the rows above).
  const segment = fc.stringMatching(/^[A-Za-z0-9_.~-]{1,12}$/)
  const request = fc
    .record({ route: fc.constantFrom(...allRoutes), values: fc.array(segment, { minLength: 8, maxLength: 8 }), flips: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }), swap: fc.nat(7), method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'HEAD') })
    .map(({ route: r, values, flips, swap, method }) => {
      // The route's own path, its parameters filled in, some letters upper-cased, and at times one
      // static segment replaced by a value (a path only another route, or none, may have).
      const parts = r.path.split('/').slice(1).map((s, i) => (s.startsWith(':') ? values[i]! : flips[i] ? s.toUpperCase() : s))
      if (swap < parts.length && flips[swap]) parts[swap] = values[swap]!
      return { method, path: `/${parts.join('/')}` }
    })

  it('matches the route the expressions alone match, or misses when they do', () => {
    fc.assert(
      fc.property(request, ({ method, path }) => {
        const expected = reference(allRoutes, method, path)
        expect(router.match(method, path).route?.key).toBe(expected)
        expect(fromSource.match(method, path).route?.key).toBe(expected)
      }),
      { numRuns: 2000 },
    )
  })
})
