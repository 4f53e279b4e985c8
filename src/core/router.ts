/**
 * Route matching: path-to-regexp does the matching; this adds specificity (a static segment beats a
 * parameter, whatever the registration order: `/runners/all` over `/runners/:id`) and tells a wrong
 * method from an unknown path. Paths are matched still percent-encoded, so `group%2Fproject` stays
 * one `:id`; each parameter is decoded afterwards. Source: STYLE.md §3.5.
 *
 * A miss is returned, not thrown: GitLab 13.x answers both kinds with its catch-all 404 (the engine's
 * job), but a request log or journal must still be able to say which it was.
 * spec-gap: api-spec.md's status table lists 405 "method not supported", but it is generic; on
 * `/api/v4` GitLab's catch-all route answers first, so GitLab wins (gitlab-behaviour.md §1.2, §14
 * item 20).
 * @module
 */
import { pathToRegexp } from 'path-to-regexp'
import type { Method, RouteEntry, RouteList, RouteSource } from './route.js'

interface Candidate {
  route: RouteEntry
  /** One number per segment: 2 static, 1 parameter. Compared lexicographically. */
  score: number[]
  /**
   * The static segments, lower-cased, by position (`undefined` for a parameter): a request whose
   * segment differs cannot match, and is passed over without building or running the expression.
   */
  statics: Array<string | undefined>
  /** path-to-regexp's expression for the route's path (what its `match` runs), built on first need. */
  regexp?: RegExp
  /** The parameter names, in the order of the expression's groups. */
  keys?: string[]
}

/** A successful match: the route and its decoded path params. */
export interface RouteMatch {
  route: RouteEntry
  pathParams: Record<string, string>
  miss?: undefined
}

/**
 * No route for this request: `'path'` when nothing is registered at the path, `'method'` when the
 * path is registered under other methods only (listed in `allowed`, sorted).
 */
export interface RouteMiss {
  route?: undefined
  miss: 'method' | 'path'
  allowed: Method[]
}

function compareScores(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const diff = (b[i] ?? 0) - (a[i] ?? 0)
    if (diff !== 0) return diff
  }
  return 0
}

function decodeSegment(value: string): string | undefined {
  try {
    return decodeURIComponent(value)
  } catch {
    return undefined
  }
}

/**
 * Bucket key of a path: its segment count and, when static, its first segment, lower-cased because
 * path-to-regexp matches case-insensitively by default (`sensitive: false`).
 */
function bucketKey(segmentCount: number, first: string): string {
  return `${segmentCount}/${first.toLowerCase()}`
}

/**
 * The routes of one bucket. Their candidates are made and ordered per last segment, on the first
 * request that ends in it: `/projects/:id/labels` looks at the few `/projects/:id/labels`-shaped
 * routes of its bucket's hundred (and those ending in a parameter), and a first request makes and
 * sorts only those.
 */
interface Bucket {
  routes: RouteEntry[]
  /** Each route's last segment, lower-cased; `undefined` for a parameter or a wildcard route's. */
  lasts?: Array<string | undefined>
  /** Each route's candidate, made when a request first could be it. */
  made?: Array<Candidate | undefined>
  /** The candidates for a last segment some route has as static text, most specific first. */
  byLast?: Map<string, readonly Candidate[]>
  /** The candidates for any other last segment: the routes ending in a parameter. */
  lastParam?: readonly Candidate[]
}

/** A route's last segment as a request's must be to match it (lower-cased), `undefined` when any will do. */
function lastStatic(route: RouteEntry): string | undefined {
  const path = route.path
  if (path.includes('/*')) return undefined
  const last = path.slice(path.lastIndexOf('/') + 1)
  return last.startsWith(':') ? undefined : last.toLowerCase()
}

/** The candidates of `bucket` a request with these (lower-cased) segments could match, most specific first. */
function candidatesFor(bucket: Bucket, segments: readonly string[]): readonly Candidate[] {
  const last = segments[segments.length - 1]!
  const byLast = (bucket.byLast ??= new Map())
  const known = byLast.get(last)
  if (known) return known
  const lasts = (bucket.lasts ??= bucket.routes.map(lastStatic))
  // A last segment no route has as text (an id, a typo) shares one list: the map stays as small as the routes.
  const own = lasts.includes(last)
  if (!own && bucket.lastParam) return bucket.lastParam
  const made = (bucket.made ??= new Array<Candidate | undefined>(bucket.routes.length))
  const picked: Candidate[] = []
  for (let i = 0; i < lasts.length; i++) {
    if (lasts[i] === undefined || lasts[i] === last) picked.push((made[i] ??= candidateOf(bucket.routes[i]!)))
  }
  // A stable sort of routes in registration order: ties keep it, as when the whole bucket was sorted.
  picked.sort((a, b) => compareScores(a.score, b.score))
  if (own) byLast.set(last, picked)
  else bucket.lastParam = picked
  return picked
}

/**
 * Routes grouped by segment count and first segment, most specific first, so a request only runs
 * the matchers of routes that could match it. A route's expression is built the first time a
 * request's static segments agree with the route's: a start builds none of the 300-odd, and a
 * first request only those of routes it could be (issue 27, cold start and first requests).
 */
export class Router {
  /**
   * Every route, in registration order, or the source that makes them (the static table's);
   * filed into buckets only as requests ask for them.
   */
  private readonly routes: readonly RouteEntry[] | RouteSource
  /** Routes whose first segment is static, by {@link bucketKey}, filed on the first request of each key. */
  private readonly byPrefix = new Map<string, Bucket>()
  /**
   * Routes whose first segment is a parameter, by segment count (none in GitLab's API today), and
   * routes with a wildcard (`*name`, one or more whole segments, as path-to-regexp reads it), of any
   * segment count: git's web paths, whose repository path may have any depth
   * (`/*repository/info/refs`), tried after every other route, so a fixed route always wins. Both
   * filed on the first request.
   */
  private filed?: { byCount: Map<number, Bucket>; wildcards: Bucket }
  /** Whether any route is a HEAD route (else HEAD goes straight to the GET routes). */
  private readonly hasHead: boolean

  /**
   * Keeps the routes; a start files none of them (issue 39, cold start: filing 720 routes into their
   * buckets took about 4 ms of cold code at every start, and grew with every route added): a
   * request's bucket is filed the first time a request needs it, from the routes that share its
   * first segment's length, which is all a route that does not start with it costs.
   * @param routes all routes, or a source of them; keys must be unique (a list is checked here; a
   *   source's are its maker's to check: test/unit/route-table.test.ts does for the static table's).
   * @throws Error on a duplicate route key in a list (a programming error).
   */
  constructor(routes: RouteList) {
    this.routes = routes
    if (!Array.isArray(routes)) {
      this.hasHead = (routes as RouteSource).hasHead
      return
    }
    const keys = new Set<string>()
    // Indexed loops over the routes here and where buckets are filed: a start runs them in the
    // interpreter, where `for...of` allocates an iterator result per route (issue 39).
    for (let i = 0; i < routes.length; i++) {
      const key = routes[i]!.key
      if (keys.has(key)) throw new Error(`duplicate route: ${key}`)
      keys.add(key)
    }
    this.hasHead = routes.some((route) => route.method === 'HEAD')
  }

  /** The routes of a static first segment `first` (as requested) and `segmentCount` segments, filed once. */
  private prefixBucket(segmentCount: number, first: string): Bucket {
    const key = bucketKey(segmentCount, first)
    let bucket = this.byPrefix.get(key)
    if (bucket) return bucket
    bucket = { routes: [] }
    const wanted = first.toLowerCase()
    const length = wanted.length
    // A source gives the routes of the first segment as written (route paths are lower-case).
    const routes = Array.isArray(this.routes) ? this.routes : (this.routes as RouteSource).withFirstSegment(wanted, segmentCount)
    for (let i = 0; i < routes.length; i++) {
      const route = routes[i]!
      const path = route.path
      // The route's first segment must be as long as the requested one: `/<first>/` or `/<first>`.
      if (path.length > length + 1 && path.charCodeAt(length + 1) !== 47) continue
      if (path.length < length + 1 || path.charCodeAt(1) === 58) continue
      // Route paths are written lower-case; another spelling is compared as path-to-regexp would.
      if (!path.startsWith(wanted, 1) && path.slice(1, length + 1).toLowerCase() !== wanted) continue
      if (hasSegments(path, segmentCount) && !path.includes('/*')) bucket.routes.push(route)
    }
    // Only buckets that hold a route are kept: a first segment no route has (a client's typo, a
    // scanner's guesses) must not grow the map with every request.
    if (bucket.routes.length > 0) this.byPrefix.set(key, bucket)
    return bucket
  }

  /** The routes whose first segment is a parameter (by segment count) and the wildcard routes, filed once. */
  private otherBuckets(): { byCount: Map<number, Bucket>; wildcards: Bucket } {
    if (this.filed) return this.filed
    const filed = { byCount: new Map<number, Bucket>(), wildcards: { routes: [] as RouteEntry[] } }
    const routes = Array.isArray(this.routes) ? this.routes : (this.routes as RouteSource).others()
    for (let i = 0; i < routes.length; i++) {
      const route = routes[i]!
      const path = route.path
      if (path.includes('/*')) filed.wildcards.routes.push(route)
      else if (path.charCodeAt(1) === 58) push(filed.byCount, countSegments(path), route)
    }
    this.filed = filed
    return filed
  }

  /**
   * Finds the route for a method and a raw (percent-encoded) path below `/api/v4`.
   * HEAD is answered by a HEAD route of the path (GitLab declares a few: `head` in Grape), else by
   * its GET route, as Grape routes HEAD to GET; one trailing slash is ignored.
   * @returns the route and its decoded path params, or the kind of miss (a segment that does not
   *   decode counts as an unknown path).
   */
  match(method: string, rawPath: string): RouteMatch | RouteMiss {
    if (method === 'HEAD' && this.hasHead) {
      const head = this.find('HEAD', rawPath)
      if ('route' in head) return head
    }
    return this.find(method === 'HEAD' ? 'GET' : method, rawPath)
  }

  /**
   * {@link match} for one method: HEAD routes take part only when HEAD is wanted. The routes of the
   * method are tried first, most specific first; only when none matches are the other methods'
   * expressions run, to tell a wrong method from an unknown path (GitLab answers both alike).
   */
  private find(wanted: string, rawPath: string): RouteMatch | RouteMiss {
    const path = rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath
    const segmentCount = countSegments(path)
    const firstEnd = path.indexOf('/', 1)
    const first = path.slice(1, firstEnd < 0 ? path.length : firstEnd)
    const { byCount, wildcards } = this.otherBuckets()
    const buckets = [this.prefixBucket(segmentCount, first), byCount.get(segmentCount), wildcards]
    const segments = path.toLowerCase().split('/')
    for (const bucket of buckets) {
      if (!bucket || bucket.routes.length === 0) continue
      for (const candidate of candidatesFor(bucket, segments)) {
        if (candidate.route.method !== wanted || !staticsAgree(candidate.statics, segments)) continue
        const groups = expressionOf(candidate).exec(path)
        if (!groups) continue
        const pathParams: Record<string, string> = {}
        const keys = candidate.keys!
        for (let i = 0; i < keys.length; i++) {
          const value = groups[i + 1]
          if (value === undefined) continue
          const decoded = decodeSegment(value)
          if (decoded === undefined) return { miss: 'path', allowed: [] }
          pathParams[keys[i]!] = decoded
        }
        return { route: candidate.route, pathParams }
      }
    }
    // No route of the method: the methods the path accepts (HEAD routes only ever answer HEAD).
    const allowed = new Set<Method>()
    for (const bucket of buckets) {
      if (!bucket || bucket.routes.length === 0) continue
      for (const candidate of candidatesFor(bucket, segments)) {
        const method = candidate.route.method
        if (method === wanted || method === 'HEAD' || allowed.has(method) || !staticsAgree(candidate.statics, segments)) continue
        if (expressionOf(candidate).test(path)) allowed.add(method)
      }
    }
    return allowed.size > 0 ? { miss: 'method', allowed: [...allowed].sort() } : { miss: 'path', allowed: [] }
  }
}

function push<K>(map: Map<K, Bucket>, key: K, route: RouteEntry): void {
  const bucket = map.get(key)
  if (bucket) bucket.routes.push(route)
  else map.set(key, { routes: [route] })
}

/** A route as a candidate: its specificity and its static segments. */
function candidateOf(route: RouteEntry): Candidate {
  // `split('/')` gives a leading '' for the leading slash, as it does for a request's path.
  const segments = route.path.split('/')
  // A wildcard's segments do not line up with a request's: only its expression decides.
  const wildcard = route.path.includes('/*')
  return {
    route,
    score: segments.slice(1).map((s) => (s.startsWith(':') || s.startsWith('*') ? 1 : 2)),
    statics: wildcard ? [] : segments.map((s) => (s.startsWith(':') ? undefined : s.toLowerCase())),
  }
}

/**
 * Whether a request's segments (lower-cased) have the route's static segments where it has them.
 * Only a shortcut: the expression still decides. It never passes over a route the expression would
 * match: path-to-regexp's case-insensitive expressions match a static segment only by its ASCII
 * letters in either case, which lower-casing compares the same way.
 */
function staticsAgree(statics: ReadonlyArray<string | undefined>, segments: readonly string[]): boolean {
  for (let i = 1; i < statics.length; i++) {
    const wanted = statics[i]
    if (wanted !== undefined && wanted !== segments[i]) return false
  }
  return true
}

/**
 * A route's expression, built on first need: the one `match(route.path)` would run, its groups read
 * straight into the params, without the null-prototype object `match` builds and that would be walked again.
 */
function expressionOf(candidate: Candidate): RegExp {
  if (!candidate.regexp) {
    const { regexp, keys } = pathToRegexp(candidate.route.path)
    candidate.regexp = regexp
    candidate.keys = keys.map((key) => key.name)
  }
  return candidate.regexp
}

/**
 * Whether `path` (from index `from`: a route key's path after its space) has exactly `count`
 * segments (slashes), found by the native `indexOf` from one
 * slash to the next: this runs over a bucket's routes when a first request files it, in cold code,
 * where a loop over each path's characters cost a millisecond or two, and a `split` allocated an
 * array and its strings per route (issue 39).
 */
export function hasSegments(path: string, count: number, from = 0): boolean {
  let at = from
  for (let n = 0; n < count; n++) {
    at = path.indexOf('/', at)
    if (at < 0) return false
    at++
  }
  return path.indexOf('/', at) < 0
}

/** Segments of `/a/b/c` (3); `/` has one empty segment, as `'/'.split('/').slice(1)` does. */
function countSegments(path: string): number {
  let count = 0
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 47) count++
  return count
}
