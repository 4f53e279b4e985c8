/**
 * Stage 1 of the engine, classify: which part of the server a request is for, decided once from
 * its path, so that no later stage tests the path's prefix again. GitLab's own layers decide the
 * same way: Rack middleware (rack-cors, Rack::Attack) sees everything under `/api/`, Grape's API
 * takes `/api/v4`, `/api/v3` is gone (410), and Rails' routes serve the web paths (uploads) that
 * API entities link to. fakelab adds its control namespace `/-/fakelab/`. Source: STYLE.md §3.3.
 * Browser-safe.
 * @module
 */
import type { CoreRequest } from '../transport.js'
import { isProbe } from './probe.js'

/** The API root every route lives under. */
export const API_PREFIX = '/api/v4'
/** fakelab's own control namespace (`src/core/control.ts`), in the way Mockoon reserves `/mockoon-admin`. */
const CONTROL_PREFIX = '/-/fakelab'

/**
 * Where a request goes:
 * - `api`: GitLab's REST API, `/api/v4/…`: the routes;
 * - `gone`: the removed v3 API, `/api/v3` and below: 410;
 * - `control`: fakelab's control API, `/-/fakelab/…`;
 * - `probe`: GitLab's health probes, `/-/health`, `/-/readiness`, `/-/liveness` (`probe.ts`),
 *   answered before everything else, as GitLab's middleware and HealthController do;
 * - `web`: every other path: GitLab's web routes (uploads an entity links to); any other path there
 *   is GitLab's plain 404, as is a path under `/api/` of no API version.
 */
export type Zone = 'api' | 'gone' | 'control' | 'probe' | 'web'

/** A request's classification, made once by {@link classify}. */
export interface Classified {
  readonly zone: Zone
  /**
   * The path the zone's routes match: below {@link API_PREFIX} for `api` (`/projects/20`), below
   * {@link CONTROL_PREFIX} for `control` (`/clock`), the whole path otherwise; still percent-encoded.
   */
  readonly below: string
  /**
   * Whether the path is under `/api/`, where GitLab's Rack middleware acts: CORS (rack-cors) and
   * the rate limit (Rack::Attack's API throttles).
   */
  readonly front: boolean
  /** The request's `Origin` header when `front` (rack-cors answers it), else `undefined`. */
  readonly origin: string | undefined
}

/**
 * Classifies a request by its path (and, under `/api/`, reads its `Origin`).
 * @example classify(request) // GET /api/v4/user → { zone: 'api', below: '/user', front: true, origin: undefined }
 */
export function classify(request: CoreRequest): Classified {
  const path = request.path
  if (path.startsWith('/api/')) {
    const origin = request.header('origin')
    if (path.startsWith(`${API_PREFIX}/`)) return { zone: 'api', below: path.slice(API_PREFIX.length), front: true, origin }
    if (path === '/api/v3' || path.startsWith('/api/v3/')) return { zone: 'gone', below: path, front: true, origin }
    return { zone: 'web', below: path, front: true, origin }
  }
  if (path.startsWith(`${CONTROL_PREFIX}/`)) return { zone: 'control', below: path.slice(CONTROL_PREFIX.length), front: false, origin: undefined }
  if (isProbe(request)) return { zone: 'probe', below: path, front: false, origin: undefined }
  return { zone: 'web', below: path, front: false, origin: undefined }
}

/**
 * Whether a request is a CORS preflight that rack-cors answers itself, before GitLab's API (and so
 * before routing and the journal): `OPTIONS` with `Origin` and `Access-Control-Request-Method`
 * under `/api/`. gitlab: config/application.rb (Rack::Cors).
 */
export function isPreflight(request: CoreRequest, where: Classified): boolean {
  return where.origin !== undefined && request.method === 'OPTIONS' && request.header('access-control-request-method') !== undefined
}
