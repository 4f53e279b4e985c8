/**
 * The engine: one transport-neutral function from a request to a reply, over a store and a route
 * list it is given (the composition root, `src/simulator.ts`, supplies both).
 * The node:http server and the MSW handlers are thin doors onto {@link Simulator.handle}; neither
 * holds API logic. Nothing here imports `node:*`, so it runs in a browser too. Source: STYLE.md §3.
 * @module
 */
import { Faker, base, en } from '@faker-js/faker'
import type { Db, DbState } from '../db/db.js'
import { authenticate } from './auth.js'
import { isoDate, timestamp, type Clock } from './clock.js'
import { ApiError, apiV3Gone, internalError, PAYLOAD_TOO_LARGE_HTML, payloadTooLarge, routeNotFound, uriTooLong } from './errors.js'
import { parseBody, parseQuery, validateParams, type RawParams } from './params.js'
import { RATE_LIMIT_TEXT, RateLimiter } from './rate-limit.js'
import type { Ctx, Method, Reply, Route } from './route.js'
import { Router } from './router.js'

/** The API root every route lives under. */
export const API_PREFIX = '/api/v4'
/** Longest query string accepted before 414 (Puma's `MAX_QUERY_STRING_LENGTH`, 10 KiB). */
export const MAX_QUERY_LENGTH = 10 * 1024
/** Largest request body by default: Omnibus nginx's `client_max_body_size 250m`. */
export const MAX_BODY_BYTES = 250 * 1024 * 1024

/**
 * Refuses a body over the scenario's `max_request_body_bytes` (default {@link MAX_BODY_BYTES}):
 * by `Content-Length` when sent, else by the body's size.
 * @throws ApiError 413 (see `payloadTooLarge`).
 */
async function checkBodySize(db: Db, request: Request): Promise<void> {
  if (!request.body) return
  const limit = db.tables.application_settings.get(1)?.max_request_body_bytes ?? MAX_BODY_BYTES
  const declared = request.headers.get('content-length')
  const size = declared !== null && /^\d+$/.test(declared) ? Number(declared) : (await request.clone().arrayBuffer()).byteLength
  if (size > limit) throw payloadTooLarge()
}

/** Options for {@link createEngine}. */
export interface EngineOptions {
  /** The store, already loaded with the scenario; its state now is what `reset()` returns to. */
  db: Db
  /** The clock handlers read. */
  clock: Clock
  /** Faker seed for values generated while serving (tokens, secrets). */
  seed: number
  /** Base URL used in `web_url` and `Link` headers; default: the origin of each request. */
  baseUrl?: string
  /** Routes to serve. */
  routes: Route[]
  /** Called with unexpected errors (answered as 500). Default: `console.error` with a `[fakelab]` prefix. */
  onError?: (error: unknown, request: Request) => void
}

/** A point-in-time copy of the simulator's state, from {@link Simulator.snapshot}. */
export interface SimulatorSnapshot {
  db: DbState
  requestCount: number
}

/** A running simulator. */
export interface Simulator {
  /** Answers one request. Never rejects: every failure becomes a GitLab error response. */
  handle(request: Request): Promise<Response>
  /** The store, for arranging data in tests through typed tables: `sim.db.tables.labels.insert({...})`. */
  readonly db: Db
  /** The clock in use. */
  readonly clock: Clock
  /** The routes served. */
  readonly routes: readonly Route[]
  /** Copies the current state. */
  snapshot(): SimulatorSnapshot
  /** Goes back to a snapshot. */
  restore(snapshot: SimulatorSnapshot): void
  /** Goes back to the state right after the scenario was loaded. */
  reset(): void
}

const STANDARD_HEADERS: Record<string, string> = {
  'cache-control': 'max-age=0, private, must-revalidate',
  vary: 'Origin',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
}

function render(status: number, body: unknown, extra: Record<string, string> | undefined, requestId: string, head: boolean): Response {
  const headers = new Headers(STANDARD_HEADERS)
  headers.set('x-request-id', requestId)
  for (const [name, value] of Object.entries(extra ?? {})) headers.set(name, value)
  if (body === undefined || status === 204 || status === 304) return new Response(null, { status, headers })
  // Exactly `application/json`: python-gitlab only parses that spelling (client-wire-facts.md).
  headers.set('content-type', 'application/json')
  return new Response(head ? null : JSON.stringify(body), { status, headers })
}

/** Declared params a client left out but that have defaults: GitLab's `Link` URLs carry them. */
function withDefaults(route: Route, raw: RawParams): RawParams {
  const out = { ...raw }
  for (const [name, spec] of Object.entries(route.params)) {
    if (out[name] === undefined && spec.default !== undefined) out[name] = spec.default
  }
  return out
}

/**
 * Starts an engine over a loaded store. Most callers want `createSimulator` (`src/simulator.ts`),
 * which loads a scenario and passes every implemented route.
 * @throws Error on a duplicate route key (a programming error).
 */
export function createEngine(options: EngineOptions): Simulator {
  const { db, clock, seed, routes } = options
  const router = new Router(routes)
  const faker = new Faker({ locale: [en, base] })
  const onError = options.onError ?? ((error: unknown) => console.error('[fakelab] internal error:', error))
  let requestCount = 0
  const limiter = new RateLimiter()

  faker.seed(seed)
  const initial: SimulatorSnapshot = { db: db.dump(), requestCount: 0 }

  async function dispatch(request: Request, url: URL): Promise<Reply> {
    if (url.search.length - 1 > MAX_QUERY_LENGTH) throw uriTooLong()
    await checkBodySize(db, request)
    const pathname = url.pathname
    if (pathname === '/api/v3' || pathname.startsWith('/api/v3/')) throw apiV3Gone()
    if (pathname.startsWith('/-/fakelab/')) return control(request, pathname.slice('/-/fakelab'.length))
    if (!pathname.startsWith(`${API_PREFIX}/`)) throw routeNotFound()
    const { route, pathParams } = router.match(request.method, pathname.slice(API_PREFIX.length))
    // Rack merges query and body (body wins); route params win over both (python-gitlab's stray `?id=`).
    const raw: RawParams = { ...parseQuery(url.search), ...(await parseBody(request)), ...pathParams }
    const now = clock.now()
    const auth = authenticate(db, request, raw, route, now)
    const params = validateParams(route.params, raw, route.rules)
    const ctx: Ctx = {
      request,
      url,
      method: (request.method === 'HEAD' ? 'GET' : request.method) as Method,
      routeKey: route.key,
      params,
      raw: withDefaults(route, raw),
      currentUser: auth.user,
      auth,
      db,
      clock,
      today: isoDate(now),
      now: timestamp(now),
      baseUrl: (options.baseUrl ?? url.origin).replace(/\/$/, ''),
      faker,
    }
    // One transaction per request: a handler that throws leaves no half-made change behind.
    return db.transaction(() => route.handler(ctx))
  }

  function control(request: Request, path: string): Reply {
    if (path === '/reset' && request.method === 'POST') {
      sim.reset()
      return { status: 204 }
    }
    throw routeNotFound()
  }

  const sim: Simulator = {
    db,
    clock,
    routes,
    async handle(request) {
      requestCount += 1
      const requestId = `01FAKELAB${String(requestCount).padStart(17, '0')}`
      const head = request.method === 'HEAD'
      try {
        const url = new URL(request.url)
        const throttled = url.pathname.startsWith('/api/') ? limiter.check(db, request, url, clock.now()) : undefined
        if (throttled) {
          const headers = new Headers({ ...STANDARD_HEADERS, ...throttled.headers, 'x-request-id': requestId, 'content-type': 'text/plain' })
          return new Response(head ? null : RATE_LIMIT_TEXT, { status: 429, headers })
        }
        const reply = await dispatch(request, url)
        return render(reply.status, reply.body, reply.headers, requestId, head)
      } catch (error) {
        const apiError = error instanceof ApiError ? error : internalError()
        if (!(error instanceof ApiError)) onError(error, request)
        if (apiError.status === 413) {
          const headers = new Headers({ ...STANDARD_HEADERS, 'x-request-id': requestId, 'content-type': 'text/html' })
          return new Response(head ? null : PAYLOAD_TOO_LARGE_HTML, { status: 413, headers })
        }
        return render(apiError.status, apiError.body, apiError.headers, requestId, head)
      }
    },
    snapshot: () => ({ db: db.dump(), requestCount }),
    restore(snapshot) {
      db.load(snapshot.db)
      limiter.clear()
      requestCount = snapshot.requestCount
      faker.seed(seed)
    },
    reset() {
      sim.restore(initial)
    },
  }
  return sim
}
