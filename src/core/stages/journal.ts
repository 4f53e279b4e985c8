/**
 * Stage 8 of the engine, journal: one {@link JournalEntry} per request, written from what the
 * earlier stages learnt on the way (the {@link Trace}) and the reply. Source: issue 12 "Request journal".
 * Browser-safe.
 * @module
 */
import type { Db } from '../../db/db.js'
import { requestUserId } from '../auth.js'
import { monotonicMs } from '../clock.js'
import { ApiError } from '../errors.js'
import type { FaultDecision } from '../faults.js'
import type { JournalEntry } from '../journal.js'
import { parseQuery, type RawParams } from '../params.js'
import type { RouteMiss } from '../router.js'
import type { CoreReply, CoreRequest } from '../transport.js'
import { isUnsimulatedWeb } from './route.js'
import type { Classified } from './classify.js'

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

/** What the engine learns about a request on the way, for its journal entry. */
export interface Trace {
  /** The route key, set once the request reaches its route. */
  route: string | null
  /** The username it acts as, set once authenticated. */
  user: string | null
  /** The token owner under sudo. */
  sudoFrom: string | undefined
  /** What the route told the journal besides (`Reply.journal.detail`). */
  detail?: string
}

/**
 * The username of the user a request's credential names (personal or OAuth token, session cookie),
 * without checking the token's state or scopes; `null` for none or an unknown one. For the journal
 * only, where authentication did not say who it was (issue 28: the log showed "as anonymous").
 * @param raw the request's params when read already; else its query is parsed.
 */
export function credentialUser(db: Db, request: CoreRequest, raw?: RawParams): string | null {
  const id = requestUserId(db, request, raw ?? parseQuery(request.query))
  return id === undefined ? null : (db.tables.users.get(id)?.username ?? null)
}

/**
 * Who a request that authentication refused ran as, for its journal entry: the credential's user
 * when the refusal came after the credential was accepted (any status but 401: a scope the token
 * lacks, sudo refused, an admin route, a blocked user), else `null` (401: no such token, expired,
 * revoked). `auth.ts` throws every token problem as 401 before it looks at anything else.
 */
export function refusedUser(db: Db, request: CoreRequest, raw: RawParams, error: unknown): string | null {
  return error instanceof ApiError && error.status !== 401 ? credentialUser(db, request, raw) : null
}

/** A request's number and when it came: its `seq`, `x-request-id`, clock instant and start time. */
export interface Arrival {
  readonly seq: number
  readonly requestId: string
  /** The simulator's clock at arrival, ISO 8601. */
  readonly at: string
  /** `performance.now()` at arrival, for `durationMs`. */
  readonly started: number
}

/** The `x-request-id` of the `seq`th request: ULID-shaped, counting (`01FAKELAB00000000000000001`). */
export function requestIdOf(seq: number): string {
  return `01FAKELAB${String(seq).padStart(17, '0')}`
}

/**
 * The journal entry of an answered request. `simulated` is `false` only for a miss under the API
 * root (a GitLab route fakelab may lack); other paths are not GitLab's API.
 */
export function journalEntry(arrival: Arrival, request: CoreRequest, where: Classified, reply: CoreReply, trace: Trace, fault: FaultDecision | undefined): JournalEntry {
  const miss = reply.routeMiss
  const entry: Mutable<JournalEntry> = {
    seq: arrival.seq,
    requestId: arrival.requestId,
    at: arrival.at,
    method: request.method,
    path: request.path,
    query: request.query,
    route: trace.route,
    simulated: !(miss && (where.zone === 'api' || isUnsimulatedWeb(where))),
    status: reply.status,
    // Whole microseconds (three decimals): a clock's last bits are noise, and a log line is read (issue 38 item 5).
    durationMs: Math.round((monotonicMs() - arrival.started) * 1000) / 1000,
    user: trace.user,
  }
  // Optional fields assigned, not spread: spread-built objects cost more per request (see params.ts).
  if (miss) entry.routeMiss = miss
  if (reply.allowed) entry.allowed = reply.allowed
  if (trace.sudoFrom) entry.sudoFrom = trace.sudoFrom
  if (fault) entry.fault = fault.label
  if (trace.detail !== undefined) entry.detail = trace.detail
  return entry
}

/**
 * The journal entry of an API request no route answers that a door passed on unanswered (MSW's
 * `onUnimplemented: 'passthrough'`): status 0, `passedThrough`, not simulated.
 * @param user the user its credential names ({@link credentialUser}).
 */
export function passedThroughEntry(seq: number, at: string, request: CoreRequest, miss: RouteMiss, user: string | null = null): JournalEntry {
  const entry: Mutable<JournalEntry> = {
    seq,
    requestId: requestIdOf(seq),
    at,
    method: request.method,
    path: request.path,
    query: request.query,
    route: null,
    routeMiss: miss.miss,
    simulated: false,
    status: 0,
    durationMs: 0,
    user,
    passedThrough: true,
  }
  if (miss.allowed.length > 0) entry.allowed = miss.allowed
  return entry
}
