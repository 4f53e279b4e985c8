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
import type { Method, Route } from './route.js'

interface Compiled {
  route: Route
  /** path-to-regexp's expression for the route's path (what its `match` runs). */
  regexp: RegExp
  /** The parameter names, in the order of the expression's groups. */
  keys: string[]
  /** One number per segment: 2 static, 1 parameter. Compared lexicographically. */
  score: number[]
}

/** A successful match: the route and its decoded path params. */
export interface RouteMatch {
  route: Route
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

/** The routes of one bucket: compiled (and sorted) on the first request that looks in it. */
interface Bucket {
  routes: Route[]
  compiled?: Compiled[]
}

/**
 * Routes grouped by segment count and first segment, most specific first, so a request only runs
 * the matchers of routes that could match it. A bucket's expressions are built on its first use:
 * a start builds none of the 200-odd (issue 27, cold start), and a first request only its bucket's.
 */
export class Router {
  /** Routes whose first segment is static, by {@link bucketKey}. */
  private readonly byPrefix = new Map<string, Bucket>()
  /** Routes whose first segment is a parameter, by segment count (none in GitLab's API today). */
  private readonly byCount = new Map<number, Bucket>()
  private readonly keys = new Set<string>()

  /**
   * @param routes all routes; keys must be unique.
   * @throws Error on a duplicate route key (a programming error).
   */
  constructor(routes: readonly Route[]) {
    for (const route of routes) {
      if (this.keys.has(route.key)) throw new Error(`duplicate route: ${route.key}`)
      this.keys.add(route.key)
      const path = route.path
      const firstEnd = path.indexOf('/', 1)
      const first = path.slice(1, firstEnd < 0 ? path.length : firstEnd)
      if (first.startsWith(':')) push(this.byCount, countSegments(path), route)
      else push(this.byPrefix, bucketKey(countSegments(path), first), route)
    }
  }

  /**
   * Finds the route for a method and a raw (percent-encoded) path below `/api/v4`.
   * HEAD is answered by GET routes; one trailing slash is ignored.
   * @returns the route and its decoded path params, or the kind of miss (a segment that does not
   *   decode counts as an unknown path).
   */
  match(method: string, rawPath: string): RouteMatch | RouteMiss {
    const wanted = method === 'HEAD' ? 'GET' : method
    const path = rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath
    const segmentCount = countSegments(path)
    const firstEnd = path.indexOf('/', 1)
    const first = path.slice(1, firstEnd < 0 ? path.length : firstEnd)
    let allowed: Set<Method> | undefined
    for (const bucket of [this.byPrefix.get(bucketKey(segmentCount, first)), this.byCount.get(segmentCount)]) {
      if (!bucket) continue
      for (const candidate of (bucket.compiled ??= compileBucket(bucket.routes))) {
        const groups = candidate.regexp.exec(path)
        if (!groups) continue
        // The most specific route of the requested method wins; other methods only tell a wrong method.
        if (candidate.route.method !== wanted) {
          ;(allowed ??= new Set()).add(candidate.route.method)
          continue
        }
        const pathParams: Record<string, string> = {}
        const keys = candidate.keys
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
    return allowed ? { miss: 'method', allowed: [...allowed].sort() } : { miss: 'path', allowed: [] }
  }
}

function push<K>(map: Map<K, Bucket>, key: K, route: Route): void {
  const bucket = map.get(key)
  if (bucket) bucket.routes.push(route)
  else map.set(key, { routes: [route] })
}

/** A bucket's routes with their expressions, most specific first (ties keep registration order). */
function compileBucket(routes: readonly Route[]): Compiled[] {
  const compiled = routes.map((route): Compiled => {
    // The expression `match(route.path)` would run; its groups are read here straight into the
    // params, without the null-prototype object `match` builds and that would be walked again.
    const { regexp, keys } = pathToRegexp(route.path)
    return { route, regexp, keys: keys.map((key) => key.name), score: route.path.split('/').slice(1).map((s) => (s.startsWith(':') ? 1 : 2)) }
  })
  return compiled.sort((a, b) => compareScores(a.score, b.score))
}

/** Segments of `/a/b/c` (3); `/` has one empty segment, as `'/'.split('/').slice(1)` does. */
function countSegments(path: string): number {
  let count = 0
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 47) count++
  return count
}
