/**
 * Stage 2 of the engine, route: the route a request asks for, matched once per request. Its answer
 * serves every later stage: the fault rules (a rule may name a route), the journal, and the
 * request's own run. Source: STYLE.md §3.5; gitlab-behaviour.md §1.2.
 * Browser-safe.
 * @module
 */
import { routeNotFound } from '../errors.js'
import type { Router, RouteMatch, RouteMiss } from '../router.js'
import type { CoreRequest } from '../transport.js'
import type { Classified } from './classify.js'
import { UNSIMULATED_HEADER, type Outcome } from './render.js'

/** The marker on an API miss, shared by every such answer (header objects are read, never changed). */
const UNSIMULATED: Readonly<Record<string, string>> = Object.freeze({ [UNSIMULATED_HEADER]: 'true' })

/** The engine's two route tables: the API's (paths below `/api/v4`) and the web routes' (whole paths). */
export interface Routers {
  readonly api: Router
  readonly web: Router
}

/** What {@link routeRequest} found: a route, a miss, or `undefined` in a zone without routes (`control`, `gone`). */
export type Routed = RouteMatch | RouteMiss | undefined

/**
 * Matches a classified request against its zone's routes: the API's for `api`, the web routes'
 * for `web`. One router match, or none.
 */
export function routeRequest(routers: Routers, request: CoreRequest, where: Classified): Routed {
  if (where.zone === 'api') return routers.api.match(request.method, where.below)
  if (where.zone === 'web') return routers.web.match(request.method, request.path)
  return undefined
}

/**
 * Whether a miss in this zone is fakelab's gap rather than GitLab's own 404: every API path, and
 * every web path outside `/api/` (GitLab's Rails routes: pages, git's HTTP, uploads), where
 * fakelab serves only some. A path under `/api/` of no API version (`/api/v5`) is GitLab's 404.
 */
export function isUnsimulatedWeb(where: Classified): boolean {
  return where.zone === 'web' && !where.front
}

/**
 * The catch-all 404 `{"error":"404 Not Found"}` for a request no route takes, marked with the kind
 * of miss (the journal tells them apart). Under the API a wrong method on an existing path is a
 * `'method'` miss with the methods the path takes (GitLab's `route :any, '*path'` answers before
 * Grape's 405: gitlab-behaviour.md §1.2, §14.20); outside it every miss is a `'path'` miss.
 * Under the API, both kinds carry {@link UNSIMULATED_HEADER} (as does a web path outside `/api/`) (issue 25 item 8), the one place both
 * doors get it from: a wrong method is no proof GitLab lacks the route (fakelab serves
 * `GET /projects/:id/merge_requests` but not yet the `POST` that creates one), so the header says
 * what the journal's `simulated: false` says: no fakelab route answered.
 */
export function missOutcome(where: Classified, miss: RouteMiss | undefined): Outcome {
  const error = routeNotFound()
  if (!miss) return { status: error.status, body: error.body, routeMiss: 'path' }
  // A web path (outside `/api/`) no route takes: GitLab's Rails serves many fakelab does not (issue 35 item 5).
  if (isUnsimulatedWeb(where)) return { status: error.status, body: error.body, headers: UNSIMULATED as Record<string, string>, routeMiss: 'path' }
  if (where.zone !== 'api') return { status: error.status, body: error.body, routeMiss: 'path' }
  const outcome: Outcome = { status: error.status, body: error.body, headers: UNSIMULATED as Record<string, string>, routeMiss: miss.miss }
  if (miss.allowed.length > 0) outcome.allowed = miss.allowed
  return outcome
}
