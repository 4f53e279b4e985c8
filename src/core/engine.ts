/**
 * The engine: one transport-neutral function from a request to a reply, over a store and a route
 * list it is given (the composition root, `src/simulator.ts`, supplies both).
 * The doors are thin: the node:http server fills a {@link CoreRequest} from `IncomingMessage` and
 * writes the {@link CoreReply} straight back; the MSW handlers and {@link Simulator.handle} convert
 * from and to Fetch. None holds API logic. Nothing here imports `node:*`, so it runs in a browser
 * too. Source: STYLE.md §1.2, §3.
 * @module
 */
import type { Faker } from '@faker-js/faker'
import type { Db, DbState } from '../db/db.js'
import { authenticate, authenticateWeb } from './auth.js'
import { frozenClock, isoDate, timestamp, type Clock, type ManualClock } from './clock.js'
import { ApiError, apiMessage, apiV3Gone, badGateway, internalError, malformedRequest, payloadTooLarge, rateLimited, routeNotFound, serviceUnavailable, throttled, uriTooLong } from './errors.js'
import { createFaker } from './faker.js'
import { control, stateToYaml, type LoadedState } from './control.js'
import { Faults, type FaultDecision, type FaultRule } from './faults.js'
import { DEFAULT_JOURNAL_SIZE, Journal, type JournalEntry } from './journal.js'
import { malformedCredentials, malformedParams, malformedPath, malformedQuery } from './malformed.js'
import { assignParams, parseBody, parseQuery, validateParams, type RawParams } from './params.js'
import { RateLimiter } from './rate-limit.js'
import { ReadTracker, ReplyMemo, difference, reuse, type ReplyMemoMode } from './reply-memo.js'
import type { AuthInfo, Ctx, Method, Reply, Route } from './route.js'
import { Router } from './router.js'
import { fromFetchRequest, toFetchResponse, type CoreReply, type CoreRequest, type HeaderList } from './transport.js'

export type { CoreReply, CoreRequest, HeaderList } from './transport.js'

/** The API root every route lives under. */
export const API_PREFIX = '/api/v4'
/** Longest query string accepted before 414 (Puma's `MAX_QUERY_STRING_LENGTH`, 10 KiB). */
export const MAX_QUERY_LENGTH = 10 * 1024
/** Largest request body by default: Omnibus nginx's `client_max_body_size 250m`. */
export const MAX_BODY_BYTES = 250 * 1024 * 1024

/**
 * Refuses a body over the scenario's `max_request_body_bytes` (default {@link MAX_BODY_BYTES}):
 * by `Content-Length` when sent, else by the body's size, read once and handed on.
 * @returns the request, or a view of it whose `body()` gives the bytes already read.
 * @throws ApiError 413 (see `payloadTooLarge`).
 */
async function checkBodySize(db: Db, request: CoreRequest): Promise<CoreRequest> {
  if (request.method === 'GET' || request.method === 'HEAD') return request
  const limit = db.tables.auth_settings.get(1)?.max_request_body_bytes ?? MAX_BODY_BYTES
  const declared = request.header('content-length')
  if (declared !== undefined && /^\d+$/.test(declared)) {
    if (Number(declared) > limit) throw payloadTooLarge()
    return request
  }
  const read = request.body()
  if (((await read)?.byteLength ?? 0) > limit) throw payloadTooLarge()
  return {
    method: request.method,
    path: request.path,
    query: request.query,
    origin: request.origin,
    header: (name) => request.header(name),
    body: () => read,
  }
}

/** Options for {@link createEngine}. */
export interface EngineOptions {
  /** The store, already loaded with the scenario; its state now is what `reset()` returns to. */
  db: Db
  /** The clock handlers read. */
  clock: Clock
  /** Faker seed for values generated while serving (tokens, secrets). */
  seed: number
  /**
   * Routes outside `/api/v4`: GitLab's web controllers that serve what API entities link to (a
   * metric image's `file_path` under `/uploads/-/system/…`). Their paths start at the root; they
   * see only the session cookie (tokens are the API's), and an unmatched path is the usual 404.
   */
  webRoutes?: Route[]
  /** Base URL used in `web_url` and `Link` headers; default: the origin of each request. */
  baseUrl?: string
  /** Routes to serve. */
  routes: Route[]
  /**
   * Called with unexpected errors (answered as 500) and the request that met them.
   * Default: `console.error` with a `[fakelab]` prefix.
   */
  onError?: (error: unknown, request: CoreRequest) => void
  /**
   * Turns a scenario (YAML/JSON text or an object) or a state export into store state, for
   * `sim.loadScenario()` and `PUT /-/fakelab/scenario`. The composition root supplies it (core
   * knows no scenario format). Without it, loading throws.
   * @throws ScenarioError (with `problems`) for a scenario with problems.
   */
  loadScenario?: (input: unknown) => LoadedState
  /** Fault rules in force from the start (the scenario's, the CLI's); see {@link Simulator.faults}. */
  faults?: readonly FaultRule[]
  /**
   * Makes an empty store of the same tables, for sessions (`X-Fakelab-Session`). The composition
   * root supplies it; without it, session requests answer 404.
   */
  createDb?: () => Db
  /** Set on a session's own engine: it takes no session header or prefix itself. */
  isSession?: boolean
  /** Entries the request journal keeps (default {@link DEFAULT_JOURNAL_SIZE}); 0 keeps none. */
  journalSize?: number
  /**
   * Whether a read that asks again what an earlier one asked, with nothing it depends on changed,
   * gets the answer already made (`src/core/reply-memo.ts`). Default `'on'`; `createSimulator`
   * takes its default from `FAKELAB_REPLY_MEMO` where a process environment has it.
   */
  replyMemo?: ReplyMemoMode
  /** Called as each API request arrives, before routing and the reply memo (the areas' `beforeRequest`). */
  beforeApiRequest?: (db: Db, now: Date) => void
}

/** A point-in-time copy of the simulator's state, from {@link Simulator.snapshot}. */
export interface SimulatorSnapshot {
  db: DbState
  requestCount: number
}

/** A running simulator. */
export interface Simulator {
  /**
   * Answers one Fetch request (the public convenience; the MSW door uses it too).
   * Never rejects: every failure becomes a GitLab error response.
   */
  handle(request: Request): Promise<Response>
  /**
   * Answers one request in the engine's own shapes, without Fetch objects: what the node:http
   * door calls. Never rejects. The reply's `routeMiss` tells a wrong method from an unknown path.
   */
  dispatch(request: CoreRequest): Promise<CoreReply>
  /**
   * For a door that can hand requests on (MSW's passthrough): whether `request` is under `/api/v4`
   * and matches no route. When it does, the request is recorded in the journal as not simulated and
   * passed through (`status` 0, `passedThrough: true`) and `true` is returned; the caller must then
   * not dispatch it. Counts as a request (`seq`, request id) either way only when recorded.
   */
  passUnsimulated(request: CoreRequest): boolean
  /**
   * The session `id`'s simulator, made on first use from the state `reset()` returns to, with its
   * own store, journal, faults and (when the clock is manual) clock. Requests select it with the
   * `X-Fakelab-Session: <id>` header or the `/-/fakelab/sessions/<id>/api/v4/...` prefix.
   * @throws RangeError for an id outside `[A-Za-z0-9_.-]{1,64}`, or when sessions are not available.
   */
  session(id: string): Simulator
  /** Drops a session (its next request starts afresh). @returns whether it existed. */
  dropSession(id: string): boolean
  /** Ids of the live sessions. */
  sessionIds(): string[]
  /** The store, for arranging data in tests through typed tables: `sim.db.tables.labels.insert({...})`. */
  readonly db: Db
  /** The clock in use (replaced by a frozen one when set or advanced from a non-manual clock). */
  readonly clock: Clock
  /**
   * Replaces the state with a scenario (YAML or JSON text, or a parsed scenario object) or a state
   * export, and makes it the point `reset()` returns to. The clock is frozen at its `now:` when it
   * has one; the faker is reseeded with its seed. The journal is kept.
   * @throws ScenarioError listing the problems; the state is then unchanged.
   */
  loadScenario(input: unknown): void
  /**
   * The current state as a YAML state export (every table, the clock, the seed). Loading it with
   * {@link loadScenario} (or `createSimulator({ scenario })`) gives the same answers.
   */
  exportState(): string
  /**
   * Sets the clock: a manual clock moves; any other (the system clock) is replaced by a clock frozen there.
   * @throws RangeError for an unparsable instant.
   * @returns the new now.
   */
  setClock(instant: Date | string): Date
  /** Moves the clock by `ms` milliseconds (negative goes back); as {@link setClock}. @returns the new now. */
  advanceClock(ms: number): Date
  /** The routes served. */
  readonly routes: readonly Route[]
  /**
   * Every request answered (bounded), queryable: `sim.journal.find({ route: 'GET /user' })`,
   * `sim.journal.expectCalled({ method: 'POST', user: 'max' }, 1)`. `reset()` and `restore()` leave it
   * alone; `sim.journal.clear()` empties it. Requests to the control routes (`/-/fakelab/*`) are
   * told to subscribers but not kept.
   */
  readonly journal: Journal
  /**
   * Latency and fault rules: `sim.faults.add({ route: 'GET /user', status: 503, times: 2 })`,
   * `sim.faults.add({ delay: { min: 50, max: 200 } })`, `sim.faults.clear()`. Seeded by the
   * simulator's seed. `reset()` leaves them alone.
   */
  readonly faults: Faults
  /** Copies the current state. */
  snapshot(): SimulatorSnapshot
  /** Goes back to a snapshot. */
  restore(snapshot: SimulatorSnapshot): void
  /** Goes back to the state right after the scenario was loaded. */
  reset(): void
}

type Field = readonly [name: string, value: string]
type Mutable<T> = { -readonly [K in keyof T]: T[K] }

/**
 * Headers on every API answer (Grape's `before` block, Rack::ETag and Rack::Cors in GitLab), sorted
 * by name. The tuples are shared by every reply: header lists are read, never changed.
 */
const STANDARD_HEADERS: readonly Field[] = [
  ['cache-control', 'max-age=0, private, must-revalidate'],
  ['vary', 'Origin'],
  ['x-content-type-options', 'nosniff'],
  ['x-frame-options', 'SAMEORIGIN'],
]
const JSON_TYPE: Field = ['content-type', 'application/json']
const TEXT_TYPE: Field = ['content-type', 'text/plain']

const NO_PARAMS: RawParams = Object.freeze({})

/**
 * GitLab's CORS on `/api/*` (config/application.rb: two Rack::Cors `allow` blocks, `headers: :any`,
 * `methods: :any`): the instance's own origin gets credentials, any other origin gets `*` without.
 * rack-cors sends Allow-Methods, Expose-Headers and Max-Age (its default 7200 s) on every CORS answer.
 * gitlab: config/application.rb; rack-cors 1.0 lib/rack/cors/resource.rb (methods :any, max_age).
 */
const CORS_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS'
const CORS_EXPOSE = 'Link, X-Total, X-Total-Pages, X-Per-Page, X-Page, X-Next-Page, X-Prev-Page'
const CORS_MAX_AGE = '7200'

/** The CORS fields for a request from `origin` to an instance at `self`. */
function corsFields(origin: string, self: string): Field[] {
  const fields: Field[] = [
    ['access-control-allow-methods', CORS_METHODS],
    ['access-control-allow-origin', origin === self ? origin : '*'],
    ['access-control-expose-headers', CORS_EXPOSE],
    ['access-control-max-age', CORS_MAX_AGE],
  ]
  if (origin === self) fields.push(['access-control-allow-credentials', 'true'])
  return fields
}

/** What the engine answers before its headers and body are written out. */
interface Outcome extends Reply {
  /** A non-JSON body with its content type (the control API's YAML export). */
  textBody?: { type: string; value: string }
  routeMiss?: CoreReply['routeMiss']
  /** Methods the path accepts, for a `'method'` miss (journal only). */
  allowed?: readonly string[]
}

/** What the engine learns about a request on the way, for its journal entry. */
interface Trace {
  route: string | null
  user: string | null
  sudoFrom: string | undefined
  control: boolean
}

/** Sets `field` in `list`, replacing a field of the same name, as Fetch `Headers.set` does. */
function setField(list: Field[], field: Field): void {
  for (let i = 0; i < list.length; i++) {
    if (list[i]![0] === field[0]) {
      list[i] = field
      return
    }
  }
  list.push(field)
}

const byName = (a: Field, b: Field) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)

/**
 * The header list of an answer, sorted by name (the order Fetch `Headers` iterate in, kept on both
 * doors): `list`, then `extra` (names lower-cased; they replace fields of the same name), then
 * `last`, which replaces any earlier field of its name. `list` is taken over, not copied.
 */
function headerList(list: Field[], extra: Record<string, string> | undefined, last: Field | undefined): HeaderList {
  if (extra) for (const name in extra) setField(list, [name.toLowerCase(), extra[name]!])
  if (last) setField(list, last)
  return list.sort(byName)
}

/**
 * Serialises an answer: the standard headers, the reply's own (which win), `content-type` exactly
 * `application/json` whenever there is a body (python-gitlab only parses that spelling,
 * client-wire-facts.md), and no body for HEAD, 204 and 304.
 */
function render(outcome: Outcome, requestId: string, head: boolean): CoreReply {
  const { status, body } = outcome
  if (outcome.bytes) {
    // Bytes as they are (an upload); the reply's own headers name their type.
    return { status, headers: headerList([...STANDARD_HEADERS, ['x-request-id', requestId]], outcome.headers, undefined), body: head ? undefined : outcome.bytes }
  }
  if (outcome.textBody) {
    return {
      status,
      headers: headerList([...STANDARD_HEADERS, ['x-request-id', requestId]], undefined, ['content-type', outcome.textBody.type]),
      body: head ? undefined : outcome.textBody.value,
    }
  }
  const hasBody = body !== undefined && status !== 204 && status !== 304
  const reply: CoreReply = {
    status,
    headers: headerList([...STANDARD_HEADERS, ['x-request-id', requestId]], outcome.headers, hasBody ? JSON_TYPE : undefined),
    body: hasBody && !head ? JSON.stringify(body) : undefined,
  }
  if (outcome.routeMiss) reply.routeMiss = outcome.routeMiss
  if (outcome.allowed) reply.allowed = outcome.allowed
  return reply
}

/** A plain-text answer from in front of the API (Rack middleware): only its type and the request id. */
function renderText(error: ApiError & { text: string }, requestId: string, head: boolean): CoreReply {
  return {
    status: error.status,
    // text/plain unless the error names its type (nginx's 413 page is text/html).
    headers: headerList([['x-request-id', requestId]], error.headers, error.headers['content-type'] ? undefined : TEXT_TYPE),
    body: head ? undefined : error.text,
  }
}

/** The catch-all 404 for a request no route takes, marked with the kind of miss. */
function routeMiss(miss: 'method' | 'path', allowed?: readonly string[]): Outcome {
  const error = routeNotFound()
  const outcome: Outcome = { status: error.status, body: error.body, routeMiss: miss }
  if (allowed && allowed.length > 0) outcome.allowed = allowed
  return outcome
}

/** Session ids: what fits a header and a URL segment as it is. */
const SESSION_ID = /^[A-Za-z0-9_.-]{1,64}$/
/** The URL prefix that selects a session for clients that cannot set headers. */
const SESSION_PREFIX = '/-/fakelab/sessions/'

/**
 * A request under `/-/fakelab/sessions/<id>` as its session sees it: the path after the prefix, and
 * the prefixed origin as its base URL (so `Link` and `web_url` lead back through the session).
 */
class SessionRequestView implements CoreRequest {
  readonly method: string
  readonly path: string
  readonly query: string
  readonly origin: string
  readonly #inner: CoreRequest

  constructor(inner: CoreRequest, path: string, origin: string) {
    this.method = inner.method
    this.path = path
    this.query = inner.query
    this.origin = origin
    this.#inner = inner
  }

  header(name: string): string | undefined {
    return this.#inner.header(name)
  }

  body(): Promise<Uint8Array | undefined> {
    return this.#inner.body()
  }
}

/** What a handler receives ({@link Ctx}); a class, so every request's context has one shape. */
class RequestContext implements Ctx {
  readonly request: CoreRequest
  readonly method: Method
  readonly routeKey: string
  readonly params: Record<string, unknown>
  readonly raw: RawParams
  readonly currentUser: AuthInfo['user']
  readonly auth: AuthInfo
  readonly db: Db
  readonly clock: Clock
  readonly today: string
  readonly now: string
  readonly baseUrl: string
  readonly #fakerOf: () => Faker
  #url: URL | undefined

  constructor(fields: Omit<Ctx, 'url' | 'method' | 'currentUser' | 'faker'> & { fakerOf: () => Faker }) {
    this.request = fields.request
    this.method = (fields.request.method === 'HEAD' ? 'GET' : fields.request.method) as Method
    this.routeKey = fields.routeKey
    this.params = fields.params
    this.raw = fields.raw
    this.currentUser = fields.auth.user
    this.auth = fields.auth
    this.db = fields.db
    this.clock = fields.clock
    this.today = fields.today
    this.now = fields.now
    this.baseUrl = fields.baseUrl
    this.#fakerOf = fields.fakerOf
  }

  /** The simulator's faker, made on first use (few requests generate anything). */
  get faker(): Faker {
    return this.#fakerOf()
  }

  /** Built on first use only; handlers rarely need more than `request.path` and `request.query`. */
  get url(): URL {
    const { origin, path, query } = this.request
    return (this.#url ??= new URL(`${origin}${path}${query ? `?${query}` : ''}`))
  }
}

/**
 * Declared params a client left out but that have defaults, per route, worked out once:
 * GitLab's `Link` URLs carry them.
 */
const defaultsOf = new WeakMap<Route, [name: string, value: unknown][]>()

function routeDefaults(route: Route): [string, unknown][] {
  let list = defaultsOf.get(route)
  if (!list) {
    list = Object.entries(route.params).filter(([, spec]) => spec.default !== undefined).map(([name, spec]) => [name, spec.default])
    defaultsOf.set(route, list)
  }
  return list
}

/**
 * Starts an engine over a loaded store. Most callers want `createSimulator` (`src/simulator.ts`),
 * which loads a scenario and passes every implemented route.
 * @throws Error on a duplicate route key (a programming error).
 */
export function createEngine(options: EngineOptions): Simulator {
  const { db, routes } = options
  let { clock, seed } = options
  const router = new Router(routes)
  const webRouter = new Router(options.webRoutes ?? [])
  // Made on first use, from the seed then in force (what a faker made up front and reseeded with
  // it gives): most requests generate nothing, and building a Faker costs milliseconds at every start.
  let fakerMade: Faker | undefined
  // Counted, so an answer that drew from the faker is never reused (the next one would draw again).
  let fakerUses = 0
  const fakerOf = (): Faker => {
    fakerUses += 1
    return (fakerMade ??= createFaker(seed))
  }
  const memoMode = options.replyMemo ?? 'on'
  const memo = memoMode === 'off' ? undefined : new ReplyMemo()
  const onError = options.onError ?? ((error: unknown) => console.error('[fakelab] internal error:', error))
  const fixedBaseUrl = options.baseUrl?.replace(/\/$/, '')
  let requestCount = 0
  const limiter = new RateLimiter()
  // The clock's strings, worked out again only when the clock has moved (a frozen clock never does).
  let clockMs = Number.NaN
  let today = ''
  let nowText = ''

  let initial: SimulatorSnapshot = { db: db.dump(), requestCount: 0 }
  const journal = new Journal(options.journalSize ?? DEFAULT_JOURNAL_SIZE, routes)
  const faults = new Faults(seed)
  if (options.faults) faults.set(options.faults)

  /** The fault for a request, if a rule applies; control requests are never faulted. */
  function faultFor(request: CoreRequest): FaultDecision | undefined {
    const path = request.path
    if (path.startsWith('/-/fakelab/')) return undefined
    const found = path.startsWith(`${API_PREFIX}/`) ? router.match(request.method, path.slice(API_PREFIX.length)) : undefined
    return faults.decide(request.method, path, found && !found.miss ? found.route.key : null)
  }

  /** The answer a forced status gives, with GitLab's body for it. */
  function forced(status: number, decision: FaultDecision, requestId: string, head: boolean): CoreReply {
    const error = status === 429 ? throttled(decision.retryAfter ?? 60) : status === 502 ? badGateway() : status === 503 ? serviceUnavailable() : internalError()
    return error.text !== undefined ? renderText(error as ApiError & { text: string }, requestId, head) : render(error, requestId, head)
  }

  /**
   * What stands in front of the API and sees every request, reused answer or not: Puma's query
   * limit, then nginx's body limit, then Rack::Attack's throttles.
   * @returns the request, with its body read when its size had to be measured.
   */
  async function admit(request: CoreRequest): Promise<CoreRequest> {
    if (request.query.length > MAX_QUERY_LENGTH) throw uriTooLong()
    request = await checkBodySize(db, request)
    if (request.path.startsWith('/api/')) {
      const throttled = limiter.check(db, request, clock.now())
      if (throttled) throw rateLimited(throttled.headers)
    }
    return request
  }

  async function respond(request: CoreRequest, trace: Trace): Promise<Outcome> {
    // GitLab's HandleMalformedStrings middleware runs before any route (malformed.ts).
    if (malformedPath(request.path) || malformedQuery(request.query) || malformedCredentials(request.header('authorization'))) {
      throw malformedRequest()
    }
    const query = parseQuery(request.query)
    if (malformedParams(query)) throw malformedRequest()
    const path = request.path
    if (path === '/api/v3' || path.startsWith('/api/v3/')) throw apiV3Gone()
    if (path.startsWith('/-/fakelab/')) {
      trace.control = true
      const reply = await control(controlTarget, request, path.slice('/-/fakelab'.length))
      if (!reply) return routeMiss('path')
      if (reply.text) return { status: reply.status, textBody: reply.text }
      return reply.body === undefined ? { status: reply.status } : { status: reply.status, body: reply.body }
    }
    const api = path.startsWith(`${API_PREFIX}/`)
    // gitlab-behaviour.md §1.2 and §14.20: a wrong method on an existing path gets the catch-all
    // 404 (Grape tries GitLab's `route :any, '*path'` before its own 405), not the spec's 405.
    // Outside the API only the web routes answer; anything else there is a plain path miss.
    const found = api ? router.match(request.method, path.slice(API_PREFIX.length)) : webRouter.match(request.method, path)
    if (found.miss) return api ? routeMiss(found.miss, found.allowed) : routeMiss('path')
    const { route } = found
    trace.route = route.key
    // GET and HEAD carry no body: no promise to wait for on the commonest requests.
    const body = request.method === 'GET' || request.method === 'HEAD' ? NO_PARAMS : await parseBody(request)
    if (malformedParams(body)) throw malformedRequest()
    // Rack merges query and body (body wins); route params win over both (python-gitlab's stray `?id=`).
    const raw = assignParams(assignParams(assignParams({}, query), body), found.pathParams)
    const now = clock.now()
    if (now.getTime() !== clockMs) {
      clockMs = now.getTime()
      today = isoDate(now)
      nowText = timestamp(now)
    }
    const auth = api ? authenticate(db, request, raw, route, now) : authenticateWeb(db, request)
    trace.user = auth.user?.username ?? null
    if (auth.sudo) trace.sudoFrom = auth.tokenUser?.username
    const fields = {
      request,
      routeKey: route.key,
      raw,
      auth,
      db,
      clock,
      today,
      now: nowText,
      baseUrl: fixedBaseUrl ?? request.origin,
      fakerOf,
    }
    // Grape order: `before` blocks (GitLab's route-wide authorization, e.g. runners.rb
    // `authorize_admin_project`) see the raw params, then the declared params are validated.
    if (route.before) route.before(new RequestContext({ ...fields, params: raw }))
    const params = validateParams(route.params, raw, route.rules)
    // Defaults go into the merged params in place, after validation has seen what was sent.
    for (const [name, value] of routeDefaults(route)) if (raw[name] === undefined) raw[name] = value
    const ctx = new RequestContext({ ...fields, params })
    // One transaction per request: a handler that throws leaves no half-made change behind.
    return db.transaction(() => route.handler(ctx))
  }

  async function answer(request: CoreRequest, requestId: string, head: boolean, trace: Trace): Promise<CoreReply> {
    try {
      request = await admit(request)
      if (options.beforeApiRequest && request.path.startsWith(`${API_PREFIX}/`)) options.beforeApiRequest(db, clock.now())
      const line = memo ? ReplyMemo.line(request, API_PREFIX) : undefined
      if (line === undefined) return render(await respond(request, trace), requestId, head)
      return await answerRead(memo!, line, request, requestId, head, trace)
    } catch (error) {
      if (error instanceof ApiError && error.text !== undefined) return renderText(error as ApiError & { text: string }, requestId, head)
      const apiError = error instanceof ApiError ? error : internalError()
      if (!(error instanceof ApiError)) onError(error, request)
      return render(apiError, requestId, head)
    }
  }

  /**
   * A read that may reuse a kept answer (`reply-memo.ts`): the kept one when nothing it was made
   * from has changed, else a fresh one, kept when its line was asked before and making it changed nothing. In `'verify'` mode the
   * route runs on reuse too, and a fresh answer that differs from the kept one is an internal error.
   */
  async function answerRead(memo: ReplyMemo, line: string, request: CoreRequest, requestId: string, head: boolean, trace: Trace): Promise<CoreReply> {
    const writes = db.writes
    const clockMs = clock.now().getTime()
    const kept = memo.find(line, request, writes, clockMs)
    if (kept && memoMode === 'on') {
      trace.route = kept.trace.route
      trace.user = kept.trace.user
      trace.sudoFrom = kept.trace.sudoFrom
      return reuse(kept, requestId)
    }
    if (!kept && !memo.askedBefore(line)) return render(await respond(request, trace), requestId, head)
    const uses = fakerUses
    const tracked = new ReadTracker(request)
    let reply: CoreReply
    try {
      reply = render(await respond(tracked, trace), requestId, head)
    } catch (error) {
      if (kept) throw new Error(`reply memo: a reused answer to ${line} is not what the route answers now (it fails)`, { cause: error })
      throw error
    }
    // A route that wrote, drew from the faker or read the body must run every time. A clock that
    // moved meanwhile (the wall clock) leaves nothing to keep or compare, but is no fault.
    const changed = db.writes !== writes || fakerUses !== uses || tracked.bodyRead
    const moved = clock.now().getTime() !== clockMs
    if (kept) {
      const differs = changed ? 'the route changed state' : moved ? undefined : difference(kept, reply)
      if (differs !== undefined) throw new Error(`reply memo: a reused answer to ${line} is not what the route answers now (${differs})`)
    } else if (!changed && !moved && trace.route !== null) {
      memo.keep(line, tracked.reads, reply, { route: trace.route, user: trace.user, sudoFrom: trace.sudoFrom }, writes, clockMs)
    }
    return reply
  }

  const sessions = new Map<string, Simulator>()

  function session(id: string): Simulator {
    if (!SESSION_ID.test(id)) throw new RangeError('session id must be 1 to 64 of A-Z a-z 0-9 _ . -')
    let child = sessions.get(id)
    if (!child) {
      if (!options.createDb || options.isSession) throw new RangeError('sessions are not available on this simulator')
      const childDb = options.createDb()
      childDb.load(initial.db)
      const manual = typeof (clock as Partial<ManualClock>).set === 'function'
      child = createEngine({
        ...options,
        db: childDb,
        clock: manual ? frozenClock(clock.now()) : clock,
        seed,
        faults: faults.list(),
        isSession: true,
      })
      sessions.set(id, child)
    }
    return child
  }

  /** The session a request selects, with the request as the session sees it; `undefined` for none. */
  function sessionRequest(request: CoreRequest): [string, CoreRequest] | undefined {
    const path = request.path
    if (path.startsWith(SESSION_PREFIX)) {
      const end = path.indexOf('/', SESSION_PREFIX.length)
      const id = path.slice(SESSION_PREFIX.length, end < 0 ? path.length : end)
      return [id, new SessionRequestView(request, end < 0 ? '/' : path.slice(end), `${request.origin}${SESSION_PREFIX}${id}`)]
    }
    const id = request.header('x-fakelab-session')
    return id === undefined ? undefined : [id, request]
  }

  async function dispatch(request: CoreRequest): Promise<CoreReply> {
    if (!options.isSession && options.createDb) {
      const selected = sessionRequest(request)
      if (selected) {
        let child: Simulator
        try {
          child = session(selected[0])
        } catch (error) {
          return render(apiMessage(400, (error as Error).message), 'fakelab-session', request.method === 'HEAD')
        }
        return child.dispatch(selected[1])
      }
    }
    return dispatchHere(request)
  }

  async function dispatchHere(request: CoreRequest): Promise<CoreReply> {
    const started = performance.now()
    requestCount += 1
    const seq = requestCount
    const requestId = `01FAKELAB${String(seq).padStart(17, '0')}`
    const at = clock.now().toISOString()
    const trace: Trace = { route: null, user: null, sudoFrom: undefined, control: false }
    const head = request.method === 'HEAD'
    const origin = request.path.startsWith('/api/') ? request.header('origin') : undefined
    // rack-cors answers a preflight itself, before GitLab's API (and its journal-worthy routing).
    if (origin !== undefined && request.method === 'OPTIONS' && request.header('access-control-request-method') !== undefined) {
      const fields = corsFields(origin, fixedBaseUrl ?? request.origin)
      const asked = request.header('access-control-request-headers')
      if (asked !== undefined) fields.push(['access-control-allow-headers', asked])
      fields.push(['vary', 'Origin'])
      return { status: 200, headers: withDate(fields), body: undefined }
    }
    const decision = faults.active ? faultFor(request) : undefined
    let reply: CoreReply
    if (decision) {
      if (decision.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, decision.delayMs))
      if (decision.status !== undefined) reply = forced(decision.status, decision, requestId, head)
      else if (decision.reset) reply = { status: 0, headers: [], body: undefined, fault: 'reset' }
      else reply = await answer(request, requestId, head, trace)
      if (decision.malformed && reply.body !== undefined) {
        // Half the body: a client's JSON parser meets the end of input mid-document.
        reply = { ...reply, body: reply.body.slice(0, Math.floor(reply.body.length / 2)), fault: 'malformed' }
      }
    } else {
      reply = await answer(request, requestId, head, trace)
    }
    const miss = reply.routeMiss
    const entry: Mutable<JournalEntry> = {
      seq,
      requestId,
      at,
      method: request.method,
      path: request.path,
      query: request.query,
      route: trace.route,
      // Only a miss under the API root may be a GitLab route fakelab lacks; other paths are not GitLab's API.
      simulated: !(miss && request.path.startsWith(`${API_PREFIX}/`)),
      status: reply.status,
      durationMs: performance.now() - started,
      user: trace.user,
    }
    // Optional fields assigned, not spread: spread-built objects cost more per request (see params.ts).
    if (miss) entry.routeMiss = miss
    if (reply.allowed) entry.allowed = reply.allowed
    if (trace.sudoFrom) entry.sudoFrom = trace.sudoFrom
    if (decision) entry.fault = decision.label
    journal.record(entry, !trace.control)
    if (reply.fault === 'reset') return reply
    const headers: Field[] = origin !== undefined ? [...reply.headers, ...corsFields(origin, fixedBaseUrl ?? request.origin)] : [...reply.headers]
    reply.headers = withDate(headers)
    return reply
  }

  // The HTTP date of the clock's now, worked out again only when the clock has moved.
  let dateMs = Number.NaN
  let dateText = ''
  /** `fields` with `date` from the simulator's clock (node would add the wall clock's), sorted by name. */
  function withDate(fields: Field[]): HeaderList {
    const now = clock.now()
    if (now.getTime() !== dateMs) {
      dateMs = now.getTime()
      dateText = now.toUTCString()
    }
    fields.push(['date', dateText])
    return fields.sort(byName)
  }

  function passUnsimulated(request: CoreRequest): boolean {
    const path = request.path
    if (!path.startsWith(`${API_PREFIX}/`)) return false
    const found = router.match(request.method, path.slice(API_PREFIX.length))
    if (!found.miss) return false
    requestCount += 1
    const entry: Mutable<JournalEntry> = {
      seq: requestCount,
      requestId: `01FAKELAB${String(requestCount).padStart(17, '0')}`,
      at: clock.now().toISOString(),
      method: request.method,
      path,
      query: request.query,
      route: null,
      routeMiss: found.miss,
      simulated: false,
      status: 0,
      durationMs: 0,
      user: null,
      passedThrough: true,
    }
    if (found.allowed.length > 0) entry.allowed = found.allowed
    journal.record(entry)
    return true
  }

  function moveClock(to: (current: Date) => Date): Date {
    const next = to(clock.now())
    if (Number.isNaN(next.getTime())) throw new RangeError('invalid instant')
    const manual = clock as Partial<ManualClock>
    if (typeof manual.set === 'function') manual.set(next)
    else clock = frozenClock(next)
    return clock.now()
  }

  const loadHook = options.loadScenario

  const controlTarget = {
    reset: () => sim.reset(),
    loadScenario: (text: string) => sim.loadScenario(text),
    exportState: () => sim.exportState(),
    setClock: (instant: string) => sim.setClock(instant),
    advanceClock: (ms: number) => sim.advanceClock(ms),
    now: () => clock.now(),
    journal,
    faults,
  }

  const sim: Simulator = {
    session,
    dropSession: (id) => sessions.delete(id),
    sessionIds: () => [...sessions.keys()],
    passUnsimulated,
    faults,
    db,
    get clock() {
      return clock
    },
    loadScenario(input) {
      if (!loadHook) throw new Error('this simulator was created without a scenario loader')
      // Everything is worked out before the store changes: a scenario with problems changes nothing.
      const loaded = loadHook(input)
      db.load(loaded.state)
      initial = { db: db.dump(), requestCount: 0 }
      seed = loaded.seed
      fakerMade?.seed(seed)
      if (loaded.now !== undefined) moveClock(() => new Date(loaded.now!))
      // A scenario with `faults:` replaces the rules in force; one without leaves them (the CLI's, the test's).
      if (loaded.faults !== undefined) faults.set(loaded.faults)
    },
    exportState: () => stateToYaml(db.dump(), clock.now(), seed),
    setClock: (instant) => moveClock(() => new Date(instant)),
    advanceClock: (ms) => moveClock((current) => new Date(current.getTime() + ms)),
    routes,
    journal,
    dispatch,
    async handle(request) {
      return toFetchResponse(await dispatch(fromFetchRequest(request)))
    },
    snapshot: () => ({ db: db.dump(), requestCount }),
    restore(snapshot) {
      db.load(snapshot.db)
      limiter.clear()
      requestCount = snapshot.requestCount
      fakerMade?.seed(seed)
    },
    reset() {
      sim.restore(initial)
    },
  }
  return sim
}
