/**
 * Stage 3 of the engine, admit: what stands in front of GitLab's API and sees every request, a
 * reused answer or not, in the order GitLab's front answers: fakelab's fault rules (in front of
 * everything, as a failing proxy is), Puma's query limit (414), nginx's body limit (413),
 * Rack::Attack's throttles (429), then the `HandleMalformedStrings` middleware (400) on the request
 * head. Source: STYLE.md §3.6; gitlab-behaviour.md; api-spec.md "Limits".
 * Browser-safe.
 * @module
 */
import type { Db } from '../../db/db.js'
import type { Clock } from '../clock.js'
import { badGateway, internalError, malformedRequest, payloadTooLarge, rateLimited, serviceUnavailable, throttled, uriTooLong, type ApiError } from '../errors.js'
import type { FaultDecision, Faults } from '../faults.js'
import { malformedCredentials, malformedParams, malformedPath, malformedQuery } from '../malformed.js'
import { parseQuery } from '../params.js'
import type { RateLimiter } from '../rate-limit.js'
import { BodyTooLarge, type CoreRequest } from '../transport.js'
import type { Classified } from './classify.js'
import type { Routed } from './route.js'

/** Longest query string accepted before 414 (Puma's `MAX_QUERY_STRING_LENGTH`, 10 KiB). */
export const MAX_QUERY_LENGTH = 10 * 1024
/** Largest request body by default: Omnibus nginx's `client_max_body_size 250m`. */
const MAX_BODY_BYTES = 250 * 1024 * 1024

/**
 * The fault rules' decision for a request (`src/core/faults.ts`); `undefined` when no rule applies,
 * when none is set, and always for the control API (its requests are never faulted). A rule naming a
 * route matches only API requests that route answers.
 */
export function decideFault(faults: Faults, request: CoreRequest, where: Classified, routed: Routed): FaultDecision | undefined {
  if (!faults.active || where.zone === 'control') return undefined
  return faults.decide(request.method, request.path, where.zone === 'api' && routed && !routed.miss ? routed.route.key : null)
}

/**
 * The error a fault's forced status answers with, as GitLab's front words it: 429 Rack::Attack's
 * `Retry later`, 502 Workhorse's text, 503 and 500 GitLab's JSON.
 */
export function forcedError(decision: FaultDecision & { status: number }): ApiError {
  switch (decision.status) {
    case 429:
      return throttled(decision.retryAfter ?? 60)
    case 502:
      return badGateway()
    case 503:
      return serviceUnavailable()
    default:
      return internalError()
  }
}

/**
 * Lets a request in, or refuses it as GitLab's front does: 414 for a query over
 * {@link MAX_QUERY_LENGTH}, 413 for a body over the scenario's `max_request_body_bytes` (see
 * {@link checkBodySize}), 429 over a Rack::Attack throttle (the scenario's rate limit on API paths, the application settings' throttles), 400 `Bad Request`
 * for a malformed head (see {@link malformedHead}).
 * @returns the request, with its body read when its size had to be measured.
 * @throws ApiError 414, 413, 429 or 400, in that order of checking.
 */
export async function admit(db: Db, limiter: RateLimiter, clock: Clock, request: CoreRequest, where: Classified): Promise<CoreRequest> {
  if (request.query.length > MAX_QUERY_LENGTH) throw uriTooLong()
  return admitHead(db, limiter, clock, await checkBodySize(db, request), where)
}

/**
 * {@link admit} of a request whose body needs no measuring (GET, HEAD, or one measured already),
 * without a promise: the engine admits its commonest requests in the same turn.
 * @returns `request`.
 * @throws ApiError 414, 429 or 400, as {@link admit}.
 */
export function admitHead(db: Db, limiter: RateLimiter, clock: Clock, request: CoreRequest, where: Classified): CoreRequest {
  if (request.query.length > MAX_QUERY_LENGTH) throw uriTooLong()
  if (where.zone === 'api' || where.zone === 'gone' || where.zone === 'web') {
    const over = limiter.check(db, request, clock.now(), where.front ? 'api' : 'web')
    if (over) throw rateLimited(over.headers)
  }
  if (malformedHead(request)) throw malformedRequest()
  return request
}

/**
 * The largest request body the store's scenario accepts, in bytes: its `max_request_body_bytes`,
 * by default {@link MAX_BODY_BYTES} (Omnibus nginx's `client_max_body_size 250m`). One limit for
 * every door: the node:http door stops reading there, the engine answers 413 past it.
 */
export function maxBodyBytes(db: Db): number {
  return db.tables.auth_settings.get(1)?.max_request_body_bytes ?? MAX_BODY_BYTES
}

/**
 * Refuses a body over {@link maxBodyBytes}: by `Content-Length` when sent, else by the body's
 * size, read once and handed on (or by the door's {@link BodyTooLarge} when it stopped reading).
 * @returns the request, or a view of it whose `body()` gives the bytes already read.
 * @throws ApiError 413 (see `payloadTooLarge`): nginx's HTML page.
 */
export async function checkBodySize(db: Db, request: CoreRequest): Promise<CoreRequest> {
  if (request.method === 'GET' || request.method === 'HEAD') return request
  const limit = maxBodyBytes(db)
  const declared = request.header('content-length')
  if (declared !== undefined && /^\d+$/.test(declared)) {
    if (Number(declared) > limit) throw payloadTooLarge()
    return request
  }
  const read = request.body()
  let bytes: Uint8Array | undefined
  try {
    bytes = await read
  } catch (error) {
    // The door stopped reading past the limit (see `BodyTooLarge`).
    if (error instanceof BodyTooLarge) throw payloadTooLarge()
    throw error
  }
  if ((bytes?.byteLength ?? 0) > limit) throw payloadTooLarge()
  return {
    method: request.method,
    path: request.path,
    query: request.query,
    origin: request.origin,
    header: (name) => request.header(name),
    body: () => read,
  }
}

/**
 * Whether `HandleMalformedStrings` refuses the request's head (`src/core/malformed.ts`): the path,
 * the query string or the credentials hold a bad percent-escape, invalid UTF-8 or a NUL byte. A
 * NUL byte in the query can only come from `%00`, so the query is parsed (to find the NUL's
 * depth) only when it holds one. The body's params are checked once read (`readParams`).
 */
export function malformedHead(request: CoreRequest): boolean {
  const query = request.query
  return malformedPath(request.path)
    || malformedQuery(query)
    || malformedCredentials(request.header('authorization'))
    || (query.includes('%00') && malformedParams(parseQuery(query)))
}
