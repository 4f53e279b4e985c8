/**
 * Route matching: path-to-regexp does the matching; this adds specificity (a static segment beats a
 * parameter, whatever the registration order: `/runners/all` over `/runners/:id`) and 405 for a
 * known path under another method. Paths are matched still percent-encoded, so `group%2Fproject`
 * stays one `:id`; each parameter is decoded afterwards. Source: STYLE.md §3.5.
 * @module
 */
import { match, type MatchFunction } from 'path-to-regexp'
import { methodNotAllowed, routeNotFound } from './errors.js'
import type { Method, Route } from './route.js'

interface Compiled {
  route: Route
  matcher: MatchFunction<Record<string, string>>
  /** One number per segment: 2 static, 1 parameter. Compared lexicographically. */
  score: number[]
}

/** A successful match: the route and its decoded path params. */
export interface RouteMatch {
  route: Route
  pathParams: Record<string, string>
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

/** Routes grouped by segment count, most specific first. */
export class Router {
  private readonly bySegments = new Map<number, Compiled[]>()
  private readonly keys = new Set<string>()

  /**
   * @param routes all routes; keys must be unique.
   * @throws Error on a duplicate route key (a programming error).
   */
  constructor(routes: Route[]) {
    for (const route of routes) {
      if (this.keys.has(route.key)) throw new Error(`duplicate route: ${route.key}`)
      this.keys.add(route.key)
      const segments = route.path.split('/').slice(1)
      const compiled: Compiled = {
        route,
        matcher: match<Record<string, string>>(route.path, { decode: false }),
        score: segments.map((s) => (s.startsWith(':') ? 1 : 2)),
      }
      const list = this.bySegments.get(segments.length) ?? []
      list.push(compiled)
      this.bySegments.set(segments.length, list)
    }
    for (const list of this.bySegments.values()) list.sort((a, b) => compareScores(a.score, b.score))
  }

  /**
   * Finds the route for a method and a raw (percent-encoded) path below `/api/v4`.
   * HEAD is answered by GET routes.
   * @throws ApiError 405 `{error: "405 Not Allowed"}` with `Allow` when only other methods match;
   *   404 `{error: "404 Not Found"}` when nothing matches or a segment is wrongly encoded.
   */
  match(method: string, rawPath: string): RouteMatch {
    const wanted = method === 'HEAD' ? 'GET' : method
    const path = rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath
    const candidates = this.bySegments.get(path.split('/').length - 1) ?? []
    const allowed = new Set<Method>()
    for (const candidate of candidates) {
      const result = candidate.matcher(path)
      if (!result) continue
      // The most specific route of the requested method wins; other methods only matter for 405.
      if (candidate.route.method !== wanted) {
        allowed.add(candidate.route.method)
        continue
      }
      const pathParams: Record<string, string> = {}
      for (const [name, value] of Object.entries(result.params)) {
        const decoded = decodeSegment(value)
        if (decoded === undefined) throw routeNotFound()
        pathParams[name] = decoded
      }
      return { route: candidate.route, pathParams }
    }
    if (allowed.size > 0) throw methodNotAllowed([...allowed].sort())
    throw routeNotFound()
  }
}
