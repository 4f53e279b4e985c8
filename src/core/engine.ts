/**
 * The engine: one transport-neutral function from a request to a reply, over a store and a route
 * list it is given (the composition root, `src/simulator.ts`, supplies both).
 * The doors are thin: the node:http server fills a {@link CoreRequest} from `IncomingMessage` and
 * writes the {@link CoreReply} straight back; the MSW handlers and {@link Simulator.handle} convert
 * from and to Fetch. None holds API logic. Nothing here imports `node:*`, so it runs in a browser
 * too. Source: STYLE.md §1.2, §3.
 *
 * One request is a straight line through named stages (`src/core/stages/`, one file each), read in
 * {@link createEngine}'s `serve`:
 * 1. **classify** (`classify.ts`): which zone the path is in, once: the API (`/api/v4`), the gone
 *    v3 API, the control API (`/-/fakelab`), GitLab's health probes or the web routes; and the CORS
 *    origin under `/api/`. A CORS preflight is answered here, as rack-cors does, and a health probe
 *    (`probe.ts`) before the request is counted.
 * 2. **route** (`route.ts`): one router match, in the zone's route table.
 * 3. **admit** (`admit.ts`): fault rules, then the front's limits: query length (414), body size
 *    (413), rate limit (429), malformed head (400). A read asked again may reuse its kept answer here
 *    (`reply-memo.ts`).
 * 4. **authenticate** (`authenticate.ts`): the params gathered (query, body, path), then the user.
 * 5. **validate** (`validate.ts`): the route's `before` block, then its declared params, on the one
 *    request context (`context.ts`).
 * 6. **transact** (`transact.ts`): the handler, in one store transaction.
 * 7. **render** (`render.ts`): the reply's headers and body; errors as GitLab words them.
 * 8. **journal** (`journal.ts`): one entry; then the CORS fields and the date.
 * @module
 */
import type { Faker } from '@faker-js/faker'
import type { Db, DbState } from '../db/db.js'
import { frozenClock, monotonicMs, type Clock, type ManualClock } from './clock.js'
import { apiMessage, apiV3Gone } from './errors.js'
import { createFaker } from './faker.js'
import { registeredHookControl } from './hook-control.js'
import { registeredJobControl, type JobRunInput } from './job-control.js'
import { control, stateToYaml, type ControlReply, type ControlTarget, type LoadedState } from './control.js'
import { Faults, type FaultDecision, type FaultRule } from './faults.js'
import { DEFAULT_JOURNAL_SIZE, Journal } from './journal.js'
import { RateLimiter } from './rate-limit.js'
import { ReadTracker, ReplyMemo, difference, reuse, type ReplyMemoMode } from './reply-memo.js'
import { routeEntries, type AuthInfo, type Route, type RouteEntry, type RouteList } from './route.js'
import { Router } from './router.js'
import { fromFetchRequest, toFetchResponse, type CoreReply, type CoreRequest } from './transport.js'
import { classify, isPreflight, type Classified } from './stages/classify.js'
import { probeReply } from './stages/probe.js'
import { missOutcome, routeRequest, type Routed, type Routers } from './stages/route.js'
import { admit, admitHead, decideFault, forcedError, maxBodyBytes } from './stages/admit.js'
import { authenticateRequest, readParams, readRawBody } from './stages/authenticate.js'
import type { RawParams } from './params.js'
import { ClockText, RequestContext } from './stages/context.js'
import { validate } from './stages/validate.js'
import { transact } from './stages/transact.js'
import { DateStamp, finishHeaders, preflightReply, render, renderError, type Outcome } from './stages/render.js'
import { credentialUser, journalEntry, passedThroughEntry, refusedUser, requestIdOf, type Arrival, type Trace } from './stages/journal.js'

export type { CoreReply, CoreRequest, HeaderList } from './transport.js'
export { BodyTooLarge } from './transport.js'
export { API_PREFIX } from './stages/classify.js'
export { MAX_QUERY_LENGTH } from './stages/admit.js'

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
  webRoutes?: RouteList
  /** Base URL used in `web_url` and `Link` headers; default: the origin of each request. */
  baseUrl?: string
  /**
   * Routes to serve: whole {@link Route}s, or {@link RouteEntry}s whose route {@link loadRoute}
   * gives on the first request that matches one (the areas' static route table, given as a
   * `RouteSource` that makes its entries as requests need them).
   */
  routes: RouteList
  /**
   * The whole route of an entry of {@link routes} or {@link webRoutes} that is not a {@link Route}
   * itself: the composition root loads its area's modules (once; later calls answer at once).
   * Without it, every entry must be a whole route.
   */
  loadRoute?: (entry: RouteEntry) => Route | Promise<Route>
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
  /**
   * Called as each API request arrives, after admission and before the reply memo and the route
   * (the areas' `beforeRequest`, composed by the simulator): state that moves with requests rather
   * than with the clock, such as storage moves on a frozen clock.
   */
  beforeApiRequest?: (db: Db, now: Date) => void
  /**
   * What must have happened before a request is answered, in any zone (the composition root's:
   * the areas' registrations, issue 39 item 4): a promise the first requests await, `undefined`
   * once it is done, so that later requests go on in the same turn. Called after admission.
   */
  prepare?: () => Promise<void> | undefined
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
   * own store, journal, faults and (when the clock is manual) clock. It starts from the configured
   * fault rules (the scenario's `faults:`, `--fault`, `createSimulator({ faults })`, or the last
   * loaded scenario's) with their whole `times`, and from the reset point's clock, never from this
   * simulator's live counters or moved clock (issue 38 item 1). Requests select it with the
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
  /**
   * The largest request body accepted now, in bytes: the scenario's `max_request_body_bytes`, by
   * default 250 MiB (Omnibus nginx's `client_max_body_size`); a larger one gets nginx's 413 page.
   * A door that reads bodies itself (node:http) stops reading past it (see `BodyTooLarge`).
   */
  readonly maxBodyBytes: number
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
  /** The routes served: their keys, methods and path templates (a route's area loads on its first request). */
  readonly routes: readonly RouteEntry[]
  /**
   * Every request answered (bounded), queryable: `sim.journal.find({ route: 'GET /user' })`,
   * `sim.journal.expectCalled({ method: 'POST', user: 'max' }, 1)`. `reset()` and `restore()` leave it
   * alone; `sim.journal.clear()` empties it. Requests to the control routes (`/-/fakelab/*`) are
   * told to subscribers but not kept; so are a session's requests, with `session` set to its id
   * (its own journal keeps them).
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
  /**
   * Goes back to the state right after the scenario was loaded: the store, the request count, the
   * faker's seed and the clock (to the scenario's `now:`, or to the wall clock when it had none).
   */
  reset(): void
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


/** A request that may have been sent to a session, with the session's id and the request as it sees it. */
function sessionRequest(request: CoreRequest): [string, CoreRequest] | undefined {
  const path = request.path
  if (path.startsWith(SESSION_PREFIX)) {
    const slash = path.indexOf('/', SESSION_PREFIX.length)
    const end = slash === -1 ? path.length : slash
    const id = path.slice(SESSION_PREFIX.length, end)
    return [id, new SessionRequestView(request, end === path.length ? '/' : path.slice(end), `${request.origin}${SESSION_PREFIX}${id}`)]
  }
  const id = request.header('x-fakelab-session')
  return id === undefined ? undefined : [id, request]
}

/**
 * One engine's state between requests, and the pipeline each request runs through ({@link serve}).
 * The simulator that {@link createEngine} returns is its face.
 */
class Engine {
  readonly db: Db
  clock: Clock
  seed: number
  readonly routers: Routers
  readonly journal: Journal
  readonly faults: Faults
  readonly limiter = new RateLimiter()
  readonly memoMode: ReplyMemoMode
  readonly memo: ReplyMemo | undefined
  readonly onError: (error: unknown, request: CoreRequest) => void
  /** The configured base URL, without trailing slash; else each request's origin. */
  readonly fixedBaseUrl: string | undefined
  /** The control API's view of the simulator; set by {@link createEngine}. */
  control!: ControlTarget
  requestCount = 0
  // Made on first use, from the seed then in force (what a faker made up front and reseeded with
  // it gives): most requests generate nothing, and building a Faker costs milliseconds at every start.
  fakerMade: Faker | undefined
  // Counted, so an answer that drew from the faker is never reused (the next one would draw again).
  fakerUses = 0
  readonly fakerOf = (): Faker => {
    this.fakerUses += 1
    return (this.fakerMade ??= createFaker(this.seed))
  }
  readonly clockText = new ClockText()
  readonly dates = new DateStamp()
  // Requests a door routed already, asking `passUnsimulated` first (MSW's passthrough door): their
  // match, so that `serve` does not match them again.
  readonly routedAhead = new WeakMap<CoreRequest, Routed>()
  routesAhead = false

  readonly beforeApiRequest: EngineOptions['beforeApiRequest']
  readonly prepare: EngineOptions['prepare']
  readonly loadRoute: EngineOptions['loadRoute']

  /**
   * The whole route of a matched entry: the entry itself when it is one, else what
   * {@link EngineOptions.loadRoute} gives (a promise only while its area loads).
   * @throws Error when an entry is not a whole route and there is no loader (a programming error).
   */
  routeOf(entry: RouteEntry): Route | Promise<Route> {
    if ('handler' in entry) return entry as Route
    if (!this.loadRoute) throw new Error(`route ${entry.key} is not loaded and the engine has no loadRoute`)
    return this.loadRoute(entry)
  }

  constructor(options: EngineOptions) {
    this.db = options.db
    this.clock = options.clock
    this.seed = options.seed
    this.routers = { api: new Router(options.routes), web: new Router(options.webRoutes ?? []) }
    const routes = options.routes
    this.journal = new Journal(options.journalSize ?? DEFAULT_JOURNAL_SIZE, () => routeEntries(routes))
    this.faults = new Faults(options.seed, () => routeEntries(routes).map((route) => route.key))
    if (options.faults) this.faults.set(options.faults)
    this.memoMode = options.replyMemo ?? 'on'
    this.memo = this.memoMode === 'off' ? undefined : new ReplyMemo()
    this.onError = options.onError ?? ((error: unknown) => console.error('[fakelab] internal error:', error))
    this.fixedBaseUrl = options.baseUrl?.replace(/\/$/, '')
    this.beforeApiRequest = options.beforeApiRequest
    this.prepare = options.prepare
    this.loadRoute = options.loadRoute
  }

  /**
   * One request through the stages, in order (its session, if any, chosen already): classify,
   * route, admit, and on to the answer; then the journal, the CORS fields and the date.
   */
  async serve(request: CoreRequest): Promise<CoreReply> {
    const where = classify(request)
    const self = this.fixedBaseUrl ?? request.origin
    // A health probe is no request of the simulated GitLab: no number, no journal entry, no fault.
    if (where.zone === 'probe') return finishHeaders(probeReply(request), undefined, self, this.dates, this.clock)
    const arrival = this.arrive()
    if (isPreflight(request, where)) return preflightReply(request, where.origin!, self, this.dates, this.clock)
    const routed = (this.routesAhead && this.routedAhead.get(request)) || routeRequest(this.routers, request, where)
    const fault = decideFault(this.faults, request, where, routed)
    const trace: Trace = { route: null, user: null, sudoFrom: undefined }
    const reply = fault ? await this.answerFaulted(fault, request, where, routed, arrival.requestId, trace) : await this.answer(request, where, routed, arrival.requestId, trace)
    this.journal.record(journalEntry(arrival, request, where, reply, trace, fault), where.zone !== 'control')
    if (reply.fault === 'reset') return reply
    return finishHeaders(reply, where.origin, self, this.dates, this.clock)
  }

  /** Counts a request in: its number, its `x-request-id`, the clock's instant. */
  arrive(): Arrival {
    const started = monotonicMs()
    const seq = (this.requestCount += 1)
    // The ISO text made again only when the clock has moved (a scenario's frozen clock never does).
    return { seq, requestId: requestIdOf(seq), at: this.clockText.at(this.clock.now()).now, started }
  }

  /**
   * The answer under a fault rule: after its delay, its forced status, a reset connection, or the
   * answer itself, cut in half for a `malformed` rule.
   */
  async answerFaulted(fault: FaultDecision, request: CoreRequest, where: Classified, routed: Routed, requestId: string, trace: Trace): Promise<CoreReply> {
    if (fault.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, fault.delayMs))
    let reply: CoreReply
    if (fault.status !== undefined) reply = renderError(forcedError(fault as FaultDecision & { status: number }), requestId, request.method === 'HEAD', NO_ERROR)
    // The door drops the connection: no status, no answer.
    else if (fault.reset) reply = { status: 0, headers: [], body: undefined, fault: 'reset' }
    else reply = await this.answer(request, where, routed, requestId, trace)
    // Half the body: a client's JSON parser meets the end of input mid-document.
    if (fault.malformed && reply.body !== undefined) reply = { ...reply, body: reply.body.slice(0, Math.floor(reply.body.length / 2)), fault: 'malformed' }
    return reply
  }

  /** Admits a request, then answers it: from the reply memo when a read may reuse a kept answer, else by running it. */
  async answer(request: CoreRequest, where: Classified, routed: Routed, requestId: string, trace: Trace): Promise<CoreReply> {
    const head = request.method === 'HEAD'
    try {
      // GET and HEAD have no body to measure: admitted in this turn, without awaiting a promise.
      request = request.method === 'GET' || request.method === 'HEAD'
        ? admitHead(this.db, this.limiter, this.clock, request, where)
        : await admit(this.db, this.limiter, this.clock, request, where)
      const preparing = this.prepare?.()
      if (preparing) await preparing
      if (this.beforeApiRequest && where.zone === 'api') this.beforeApiRequest(this.db, this.clock.now())
      const line = this.memo && where.zone === 'api' ? ReplyMemo.line(request) : undefined
      if (line === undefined) return render(await this.run(request, where, routed, trace), requestId, head)
      return await this.answerRead(this.memo!, line, request, where, routed, requestId, trace)
    } catch (error) {
      const failed = request
      return renderError(error, requestId, head, (cause) => this.onError(cause, failed))
    }
  }

  /**
   * Runs an admitted request in its zone: the gone v3 API's 410, the control API, or its route
   * (a miss is GitLab's catch-all 404): authenticate, validate, transact.
   */
  async run(request: CoreRequest, where: Classified, routed: Routed, trace: Trace): Promise<Outcome> {
    if (where.zone === 'gone') throw apiV3Gone()
    if (where.zone === 'control') return controlOutcome(where, await control(this.control, request, where.below))
    if (!routed || routed.miss) {
      // GitLab's catch-all authenticates nobody; the journal still names whose token came (issue 28).
      if (where.zone === 'api') trace.user = credentialUser(this.db, request)
      return missOutcome(where, routed)
    }
    trace.route = routed.route.key
    const loaded = this.routeOf(routed.route)
    const route = loaded instanceof Promise ? await loaded : loaded
    let raw: RawParams
    let body: Uint8Array | undefined
    if (route.rawBody) ({ raw, body } = await readRawBody(request, routed))
    else {
      const read = readParams(request, routed)
      raw = read instanceof Promise ? await read : read
    }
    const now = this.clock.now()
    const baseUrl = this.fixedBaseUrl ?? request.origin
    let auth: AuthInfo
    try {
      auth = authenticateRequest(this.db, request, raw, route, where, now, baseUrl)
    } catch (error) {
      // A token refused for its scope (or sudo, or a blocked user) still names its user in the journal.
      if (where.zone === 'api') trace.user = refusedUser(this.db, request, raw, error)
      throw error
    }
    trace.user = auth.user?.username ?? null
    if (auth.sudo) trace.sudoFrom = auth.tokenUser?.username
    const ctx = new RequestContext({
      request,
      routeKey: route.key,
      raw,
      auth,
      db: this.db,
      clock: this.clock,
      text: this.clockText.at(now),
      baseUrl,
      fakerOf: this.fakerOf,
      body,
    })
    validate(route, ctx)
    if (route.prepare) ctx.prepared = await route.prepare(ctx)
    const outcome = transact(this.db, route, ctx)
    if (outcome.journal) {
      if (outcome.journal.user !== undefined) trace.user = outcome.journal.user
      if (outcome.journal.detail !== undefined) trace.detail = outcome.journal.detail
    }
    return outcome
  }

  /**
   * A read that may reuse a kept answer (`reply-memo.ts`): the kept one when nothing it was made
   * from has changed, else a fresh one, kept when its line was asked before and making it changed nothing. In `'verify'` mode the
   * route runs on reuse too, and a fresh answer that differs from the kept one is an internal error.
   */
  async answerRead(memo: ReplyMemo, line: string, request: CoreRequest, where: Classified, routed: Routed, requestId: string, trace: Trace): Promise<CoreReply> {
    const { db, clock } = this
    const head = request.method === 'HEAD'
    const writes = db.writes
    const clockMs = clock.now().getTime()
    const kept = memo.find(line, request, writes, clockMs)
    if (kept && this.memoMode === 'on') {
      trace.route = kept.trace.route
      trace.user = kept.trace.user
      trace.sudoFrom = kept.trace.sudoFrom
      return reuse(kept, requestId)
    }
    if (!kept && !memo.askedBefore(line)) return render(await this.run(request, where, routed, trace), requestId, head)
    const uses = this.fakerUses
    const tracked = new ReadTracker(request)
    let reply: CoreReply
    try {
      reply = render(await this.run(tracked, where, routed, trace), requestId, head)
    } catch (error) {
      if (kept) throw new Error(`reply memo: a reused answer to ${line} is not what the route answers now (it fails)`, { cause: error })
      throw error
    }
    // A route that wrote, drew from the faker or read the body must run every time. A clock that
    // moved meanwhile (the wall clock) leaves nothing to keep or compare, but is no fault.
    const changed = db.writes !== writes || this.fakerUses !== uses || tracked.bodyRead
    const moved = this.clock.now().getTime() !== clockMs
    if (kept) {
      const differs = changed ? 'the route changed state' : moved ? undefined : difference(kept, reply)
      if (differs !== undefined) throw new Error(`reply memo: a reused answer to ${line} is not what the route answers now (${differs})`)
    } else if (!changed && !moved && trace.route !== null) {
      memo.keep(line, tracked.reads, reply, { route: trace.route, user: trace.user, sudoFrom: trace.sudoFrom }, writes, clockMs)
    }
    return reply
  }

  /** See {@link Simulator.passUnsimulated}: classified and routed here, and the match kept for {@link serve}. */
  passUnsimulated(request: CoreRequest): boolean {
    const where = classify(request)
    if (where.zone !== 'api') return false
    const routed = routeRequest(this.routers, request, where)!
    if (!routed.miss) {
      this.routesAhead = true
      this.routedAhead.set(request, routed)
      return false
    }
    const seq = (this.requestCount += 1)
    this.journal.record(passedThroughEntry(seq, this.clock.now().toISOString(), request, routed, credentialUser(this.db, request)))
    return true
  }

  /**
   * Sets the clock: a manual clock moves; any other (the system clock) is replaced by a clock frozen there.
   * @throws RangeError for an unparsable instant.
   */
  moveClock(to: (current: Date) => Date): Date {
    const next = to(this.clock.now())
    if (Number.isNaN(next.getTime())) throw new RangeError('invalid instant')
    const manual = this.clock as Partial<ManualClock>
    if (typeof manual.set === 'function') manual.set(next)
    else this.clock = frozenClock(next)
    return this.clock.now()
  }
}

/** A clock and, when it is one that is set ({@link ManualClock}), the instant it stands at. */
function clockPoint(clock: Clock): { clock: Clock; at: Date | undefined } {
  return { clock, at: typeof (clock as Partial<ManualClock>).set === 'function' ? clock.now() : undefined }
}

/** For errors that are never unexpected (a fault's forced status is always an `ApiError`). */
const NO_ERROR = (): void => {}

/** A control API reply as the engine's outcome; `null` (no such control route) is the catch-all 404. */
function controlOutcome(where: Classified, reply: ControlReply | null): Outcome {
  if (!reply) return missOutcome(where, undefined)
  if (reply.text) return { status: reply.status, textBody: reply.text }
  return reply.body === undefined ? { status: reply.status } : { status: reply.status, body: reply.body }
}

/**
 * Starts an engine over a loaded store. Most callers want `createSimulator` (`src/simulator.ts`),
 * which loads a scenario and passes every implemented route.
 * @throws Error on a duplicate route key (a programming error).
 */
export function createEngine(options: EngineOptions): Simulator {
  const engine = new Engine(options)
  const { db, journal, faults } = engine
  const routes = options.routes
  let initial: SimulatorSnapshot = { db: db.dump(), requestCount: 0 }
  // The clock at the reset point: the clock then in use, and where it stood when it is one that is
  // set (a scenario's `now:`); the wall clock has nothing to go back to but itself.
  let initialClock = clockPoint(engine.clock)
  // The fault rules as configured (the scenario's `faults:`, the CLI's `--fault`, `createSimulator({ faults })`),
  // with their whole `times`: what a new session starts from, never the rules' live counters (issue 38 item 1).
  let configuredFaults: readonly FaultRule[] = options.faults ?? []
  const sessions = new Map<string, Simulator>()

  function session(id: string): Simulator {
    if (!SESSION_ID.test(id)) throw new RangeError('session id must be 1 to 64 of A-Z a-z 0-9 _ . -')
    let child = sessions.get(id)
    if (!child) {
      if (!options.createDb || options.isSession) throw new RangeError('sessions are not available on this simulator')
      const childDb = options.createDb()
      childDb.load(initial.db)
      // The point `reset()` returns to, not the parent's state now: every worker starts alike,
      // whatever the parent's requests, clock moves and used-up fault rules (issue 38 item 1).
      child = createEngine({
        ...options,
        db: childDb,
        clock: initialClock.at ? frozenClock(initialClock.at) : initialClock.clock,
        seed: engine.seed,
        faults: configuredFaults,
        isSession: true,
      })
      // The parent's subscribers (the CLI's request log) hear the session's requests too, marked
      // with its id; the parent's own journal does not keep them (issue 28).
      child.journal.subscribe((entry) => journal.record({ ...entry, session: id }, false))
      sessions.set(id, child)
    }
    return child
  }

  /** Hands a request to the session it selects, if any, else serves it here. */
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
    return engine.serve(request)
  }

  const loadHook = options.loadScenario

  const sim: Simulator = {
    session,
    dropSession: (id) => sessions.delete(id),
    sessionIds: () => [...sessions.keys()],
    passUnsimulated: (request) => engine.passUnsimulated(request),
    faults,
    db,
    get maxBodyBytes() {
      return maxBodyBytes(db)
    },
    get clock() {
      return engine.clock
    },
    loadScenario(input) {
      if (!loadHook) throw new Error('this simulator was created without a scenario loader')
      // Everything is worked out before the store changes: a scenario with problems changes nothing.
      const loaded = loadHook(input)
      db.load(loaded.state)
      initial = { db: db.dump(), requestCount: 0 }
      engine.seed = loaded.seed
      engine.fakerMade?.seed(engine.seed)
      if (loaded.now !== undefined) engine.moveClock(() => new Date(loaded.now!))
      initialClock = clockPoint(engine.clock)
      // A scenario with `faults:` replaces the rules in force; one without leaves them (the CLI's, the test's).
      if (loaded.faults !== undefined) {
        faults.set(loaded.faults)
        configuredFaults = loaded.faults
      }
    },
    exportState: () => stateToYaml(db.dump(), engine.clock.now(), engine.seed),
    setClock: (instant) => engine.moveClock(() => new Date(instant)),
    advanceClock: (ms) => engine.moveClock((current) => new Date(current.getTime() + ms)),
    get routes() {
      return routeEntries(routes)
    },
    journal,
    dispatch,
    async handle(request) {
      return toFetchResponse(await dispatch(fromFetchRequest(request)))
    },
    snapshot: () => ({ db: db.dump(), requestCount: engine.requestCount }),
    restore(snapshot) {
      db.load(snapshot.db)
      engine.limiter.clear()
      engine.requestCount = snapshot.requestCount
      engine.fakerMade?.seed(engine.seed)
    },
    reset() {
      sim.restore(initial)
      engine.clock = initialClock.clock
      if (initialClock.at) (engine.clock as ManualClock).set(initialClock.at)
    },
  }
  engine.control = {
    reset: () => sim.reset(),
    loadScenario: (text: string) => sim.loadScenario(text),
    exportState: () => sim.exportState(),
    setClock: (instant: string) => sim.setClock(instant),
    advanceClock: (ms: number) => sim.advanceClock(ms),
    now: () => engine.clock.now(),
    routeKeys: () => routeEntries(routes).map((route) => route.key),
    journal,
    faults,
    get jobs() {
      const jobs = registeredJobControl()
      return jobs && { run: (input: JobRunInput, origin: string) => jobs.run(db, input, engine.fixedBaseUrl ?? origin, engine.clock.now()) }
    },
    get hooks() {
      const hooks = registeredHookControl()
      return hooks && {
        paused: () => hooks.paused(db),
        pause: (paused: boolean) => hooks.pause(db, paused),
        deliveries: async () => {
          await hooks.settled(db)
          return hooks.deliveries(db)
        },
      }
    },
  }
  return sim
}
