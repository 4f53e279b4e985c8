/**
 * The route helper and the request context a handler receives.
 * A route is data: its key (`'PUT /projects/:id/labels/:label_id'`), its auth policy, its declared
 * params and a short handler (find → authorize → act → present). Source: STYLE.md §3, §4.
 * @module
 */
import type { Faker } from '@faker-js/faker'
import type { Db } from '../db/db.js'
import type { CiJobTokenRecord, PersonalAccessTokenRecord, OauthAccessTokenRecord, UserRecord } from '../db/schema.js'
import type { Clock } from './clock.js'
import type { ParamRules, ParamSpecs, ParamsOf, RawParams } from './params.js'
import type { CoreRequest } from './transport.js'

/** HTTP methods the API uses. */
export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'PATCH'

/**
 * Who may call a route:
 * - `user`: a signed-in user (anonymous → 401), the default;
 * - `optional`: anonymous allowed (public data only), a bad token is still 401;
 * - `admin`: administrators (anonymous → 401, others → 403 `{"message":"403 Forbidden"}`);
 * - `none`: no user authentication at all (runner-token routes check their own `token`).
 */
export type AuthPolicy = 'user' | 'optional' | 'admin' | 'none'

/** How the current user authenticated. */
export interface AuthInfo {
  /** The acting user (the sudo target when sudo was used), or null when anonymous. */
  user: UserRecord | null
  /** The user who owns the token (differs from `user` under sudo). */
  tokenUser: UserRecord | null
  /** The access token used, if any. */
  token: PersonalAccessTokenRecord | OauthAccessTokenRecord | null
  /** Whether sudo impersonation is in effect. */
  sudo: boolean
  /** How the user authenticated: an access token, a CI job token, the session cookie, or not at all. */
  method?: 'token' | 'job_token' | 'session' | null
  /** The CI job token used (`method: 'job_token'`): GitLab's `current_authenticated_job`. */
  jobToken?: CiJobTokenRecord | null
}

/** A handler's answer: status, JSON body (undefined = no body) and extra headers. */
export interface Reply {
  status: number
  body?: unknown
  headers?: Record<string, string>
  /** Bytes sent as they are instead of a JSON `body` (a web route's upload); `headers` give their `content-type`. */
  bytes?: Uint8Array
  /**
   * What the request journal shows beyond the route: the user a route that authenticates by itself
   * found (git's HTTP Basic credentials), and a short detail (git's service and the refs pushed).
   */
  journal?: { user?: string | null; detail?: string }
}

/** What a handler receives. `P` is the coerced declared params. */
export interface Ctx<P = Record<string, unknown>> {
  /** The request: method, raw path and query, header lookup (`ctx.request.header('if-unmodified-since')`). */
  readonly request: CoreRequest
  /**
   * The request URL (absolute, still percent-encoded), built on first use: prefer
   * `ctx.request.path` and `ctx.request.query`, which cost nothing.
   */
  readonly url: URL
  readonly method: Method
  /** The route key, e.g. `GET /projects/:id/labels`. */
  readonly routeKey: string
  /** Declared params, validated and coerced, defaults filled in. */
  readonly params: P
  /** Every parameter as received (query, body, decoded path params), for `Link` URLs. */
  readonly raw: RawParams
  /** The acting user, or null when anonymous. */
  readonly currentUser: UserRecord | null
  readonly auth: AuthInfo
  readonly db: Db
  readonly clock: Clock
  /** Today's UTC date `YYYY-MM-DD` by the injected clock. */
  readonly today: string
  /** The current instant as a GitLab timestamp string. */
  readonly now: string
  /** `scheme://host[:port]` of the GitLab being simulated, without trailing slash. */
  readonly baseUrl: string
  /** The simulator's seeded faker, for generated secrets and data. */
  readonly faker: Faker
  /**
   * The request body's bytes on a route declared with `rawBody` (undefined for none, and on every
   * other route, whose body is parsed into the params).
   */
  readonly body?: Uint8Array | undefined
  /**
   * What the route's {@link RouteDef.prepare} resolved to (undefined on a route without one): work
   * that needs a library with only an asynchronous API (an OpenPGP key's parse), done before the
   * synchronous handler runs.
   */
  readonly prepared?: unknown
}

/** A route's declaration (see {@link route}). */
export interface RouteDef<P extends ParamSpecs> {
  auth?: AuthPolicy
  /**
   * Extra token scopes the endpoint registers after GitLab's `api` and `read_api`, in registration
   * order, e.g. `read_user` (users.rb `allow_access_with_scope`). A token with one of them is
   * accepted; every registered scope is named in an `insufficient_scope` answer.
   */
  scopes?: string[]
  /**
   * Accepts a CI job token (`JOB-TOKEN` header, `job_token` param) of a running job, as GitLab's
   * `route_setting :authentication, job_token_allowed: true`. Default false: the job token is
   * ignored and the request counts as anonymous (gitlab-behaviour.md §1.5).
   */
  jobTokenAllowed?: boolean
  /** Declared params, path params included (Grape declares them too). */
  params?: P
  rules?: ParamRules
  /**
   * Grape's `before` block: runs after authentication and before the declared params are
   * validated, with `ctx.params` holding the raw params. GitLab authorizes some routes there
   * (`authorize_admin_project` on `/projects/:id/runners`), so a forbidden caller gets 403/404
   * before any 400. It may only read (it runs outside the request's transaction) and throws to refuse.
   */
  before?(ctx: Ctx<RawParams>): void
  /**
   * The body is not parsed into params: the handler reads its bytes as they came (`ctx.body`), as
   * a web route taking another protocol's payload does (git's pack requests). Default false.
   */
  rawBody?: boolean
  /**
   * Asynchronous work on the validated params before the handler, outside the transaction: it may
   * not read or write the store, and should not throw for bad input (the handler decides, in
   * GitLab's order of checks, from what it resolved to, `ctx.prepared`). For libraries whose API
   * is only asynchronous, such as openpgp's key parser (users' GPG keys).
   */
  prepare?(ctx: Ctx<ParamsOf<P>>): Promise<unknown>
  /** Synchronous by design: it runs inside the request's store transaction. */
  handler(ctx: Ctx<ParamsOf<P>>): Reply
}

/**
 * A route as the router sees it before its area is loaded: its key, method and path template. The
 * static route table (`src/resources/route-table.ts`) holds one per route, so that a start registers
 * every route without running any area's modules; the engine loads the whole {@link Route} (its
 * policy, params and handler) when a request first matches it (issue 39 item 4).
 */
export interface RouteEntry {
  /** `'<METHOD> <path>'`, e.g. `'GET /projects/:id/labels'`. */
  readonly key: string
  readonly method: Method
  /** Path template below `/api/v4` (or from the root, for a web route), e.g. `/projects/:id/labels`. */
  readonly path: string
}

/**
 * Route entries made only as they are needed (issue 39, a start's growth with the routes): the
 * static route table's, which a start would otherwise make into some 700 entry objects, every one
 * young garbage or a survivor its scavenges copy. The router asks for the routes of a first
 * segment when a request first needs them; everything else that wants every entry calls
 * {@link all}. Each key's entry is made once: every answer holds the same objects.
 */
export interface RouteSource {
  /** Every entry, in the source's order (made on the first call). */
  all(): readonly RouteEntry[]
  /**
   * The entries whose path's first segment is `first` (lower-case; a path spelling it otherwise
   * is compared lower-cased) and that have `segments` segments, none of them a wildcard, in the
   * source's order: the routes of one router bucket, whose entries only are made.
   */
  withFirstSegment(first: string, segments: number): readonly RouteEntry[]
  /** The entries whose first segment is a parameter, and those with a wildcard segment. */
  others(): readonly RouteEntry[]
  /** Whether any entry is a HEAD route. */
  readonly hasHead: boolean
}

/** The routes an engine or a router serves: entries, or a {@link RouteSource} of them. */
export type RouteList = readonly RouteEntry[] | RouteSource

/** Every entry of a {@link RouteList}. */
export function routeEntries(routes: RouteList): readonly RouteEntry[] {
  return Array.isArray(routes) ? routes : (routes as RouteSource).all()
}

/**
 * The {@link RouteEntry} a route key names.
 * @throws Error for a malformed key (a programming error, found at start-up).
 */
export function routeEntry(key: string): RouteEntry {
  const match = /^(GET|HEAD|POST|PUT|DELETE|PATCH) (\/\S*)$/.exec(key)
  if (!match) throw new Error(`bad route key: ${key}`)
  return { key, method: match[1] as Method, path: match[2]! }
}

/** A registered route: its {@link RouteEntry}, policy, params and handler. */
export interface Route extends RouteEntry {
  readonly auth: AuthPolicy
  readonly scopes: string[]
  readonly jobTokenAllowed: boolean
  readonly params: ParamSpecs
  readonly rules: ParamRules
  /** See {@link RouteDef.before}. */
  readonly before?: (ctx: Ctx<RawParams>) => void
  /** See {@link RouteDef.rawBody}. */
  readonly rawBody?: boolean
  /** See {@link RouteDef.prepare}. */
  readonly prepare?: (ctx: Ctx<Record<string, unknown>>) => Promise<unknown>
  readonly handler: (ctx: Ctx<Record<string, unknown>>) => Reply
}

/**
 * Declares a route.
 * @param key `'<METHOD> <path>'`, the path relative to `/api/v4` with `:name` params (GitLab's names).
 * @throws Error for a malformed key (a programming error, found at start-up).
 * @example
 * route('GET /projects/:id/freeze_periods/:freeze_period_id', {
 *   params: { id: p.string({ required: true }), freeze_period_id: p.integer({ required: true }) },
 *   handler(ctx) { return ok(FreezePeriod(findFreezePeriod(ctx), ctx)) },
 * })
 */
export function route<P extends ParamSpecs = Record<never, never>>(key: string, def: RouteDef<P>): Route {
  return {
    ...routeEntry(key),
    auth: def.auth ?? 'user',
    scopes: def.scopes ?? [],
    jobTokenAllowed: def.jobTokenAllowed ?? false,
    params: def.params ?? {},
    rules: def.rules ?? {},
    ...(def.before ? { before: def.before } : {}),
    ...(def.rawBody ? { rawBody: true } : {}),
    ...(def.prepare ? { prepare: def.prepare as Route['prepare'] } : {}),
    handler: def.handler as Route['handler'],
  }
}
