/**
 * Stage 4 of the engine, authenticate: who the request acts as. GitLab reads credentials from
 * headers and from params alike (`private_token`, `access_token`, `job_token`, `sudo`), so the
 * request's params are gathered here first, as Rack parses them before Grape's guards run: query,
 * body and path params merged into one bag. Source: STYLE.md §3.6, §3.7, §8; gitlab-behaviour.md §1.5.
 * Browser-safe.
 * @module
 */
import type { Db } from '../../db/db.js'
import { authenticate, authenticateWeb } from '../auth.js'
import { malformedRequest } from '../errors.js'
import { malformedParams } from '../malformed.js'
import { assignParams, parseBody, parseQuery, type RawParams } from '../params.js'
import type { RouteMatch } from '../router.js'
import type { AuthInfo, Route } from '../route.js'
import type { CoreRequest } from '../transport.js'
import type { Classified } from './classify.js'

const NO_PARAMS: RawParams = Object.freeze({})

/**
 * Every parameter of a routed request as received: the query, the body (JSON, form or multipart;
 * none for GET and HEAD) and the decoded path params, merged as Rack merges them (the body wins
 * over the query) with the path params winning over both (python-gitlab's stray `?id=`).
 * @returns a fresh object the later stages may add defaults to; as it is for GET and HEAD, else a
 *   promise of it.
 * @throws ApiError 400 for a body that does not parse (see `parseBody`) or holds a malformed
 *   string (`HandleMalformedStrings`, see `malformed.ts`).
 */
export function readParams(request: CoreRequest, found: RouteMatch): RawParams | Promise<RawParams> {
  // GET and HEAD carry no body: the params come back as they are, no promise to wait for on the
  // commonest requests (an `await` of a plain value still costs the caller a turn of the queue).
  if (request.method === 'GET' || request.method === 'HEAD') return mergeParams(request, NO_PARAMS, found)
  return parseBody(request).then((body) => mergeParams(request, body, found))
}

/**
 * The params and body of a request to a route declared with `rawBody`: the query and path params
 * merged as {@link readParams} merges them, and the body's bytes as they came (undefined for none).
 */
export async function readRawBody(request: CoreRequest, found: RouteMatch): Promise<{ raw: RawParams; body: Uint8Array | undefined }> {
  const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.body()
  return { raw: mergeParams(request, NO_PARAMS, found), body }
}

/** The query, `body` and path params merged (see {@link readParams}). @throws ApiError 400 for a malformed body param. */
function mergeParams(request: CoreRequest, body: RawParams, found: RouteMatch): RawParams {
  const query = parseQuery(request.query)
  if (malformedParams(body)) throw malformedRequest()
  return assignParams(assignParams(assignParams({}, query), body), found.pathParams)
}

/**
 * Authenticates a routed request: an API request by its token (in GitLab's order, with scopes,
 * sudo and the route's policy), a web request by its session cookie only.
 * @param route the matched route, loaded (its policy, scopes and job-token rule).
 * @param now the clock's now (token expiry).
 * @param baseUrl the base URL answers link to (a deactivated user's 403 names it).
 * @throws ApiError 401 or 403 as `auth.ts` words them.
 */
export function authenticateRequest(db: Db, request: CoreRequest, raw: RawParams, route: Route, where: Classified, now: Date, baseUrl: string): AuthInfo {
  return where.zone === 'api' ? authenticate(db, request, raw, route, now, baseUrl) : authenticateWeb(db, request)
}
