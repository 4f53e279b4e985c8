/**
 * The request journal: what a simulator was asked and what it answered, one {@link JournalEntry}
 * per request, bounded (oldest entries dropped first). Tests query it (`sim.journal.find(...)`),
 * assert on it ({@link Journal.expectCalled}), and ask why a request matched no route
 * ({@link Journal.nearMisses}); the CLI prints one log line per entry through
 * {@link Journal.subscribe}. Browser-safe: nothing here imports `node:*`.
 * Source: issue 12 "Request journal".
 * @module
 */
import type { RouteEntry } from './route.js'

/** One request as the journal keeps it. */
export interface JournalEntry {
  /** 1 for the simulator's first request (the counter `x-request-id` carries too). */
  readonly seq: number
  /** The `x-request-id` the reply carried. */
  readonly requestId: string
  /** When the request arrived, by the simulator's clock (ISO 8601). */
  readonly at: string
  /** Upper-case method, e.g. `GET`. */
  readonly method: string
  /** The path, still percent-encoded, e.g. `/api/v4/projects/20/labels`. */
  readonly path: string
  /** The query string without `?` (`''` when none). */
  readonly query: string
  /** The route that answered, e.g. `GET /projects/:id/labels`; `null` when none did. */
  readonly route: string | null
  /**
   * Why no route answered: `'path'` when nothing is registered at the path, `'method'` when the
   * path exists under other methods (both answer GitLab's catch-all 404); absent when a route did.
   */
  readonly routeMiss?: 'method' | 'path'
  /**
   * `false` when the request is under `/api/v4` but no route answered it: either GitLab has no such
   * route either, or fakelab does not simulate it (the two cannot be told apart from the request).
   * `true` for every request a route, a control route or GitLab's own front (410 for `/api/v3`, 414,
   * malformed strings) answered.
   */
  readonly simulated: boolean
  /** Methods the path accepts, when `routeMiss` is `'method'`. */
  readonly allowed?: readonly string[]
  /** Status answered; 0 when the request was passed through unanswered (`passedThrough`). */
  readonly status: number
  /** Set when fakelab did not answer an unsimulated request but handed it on (MSW `onUnimplemented: 'passthrough'`). */
  readonly passedThrough?: true
  /** Wall-clock time spent answering, in milliseconds to three decimals (whole microseconds); includes injected latency. */
  readonly durationMs: number
  /**
   * Username the request ran as (the sudo target under sudo). When authentication refused it after
   * accepting its credential (a token without the route's scope, sudo refused, an admin route, a
   * blocked user), the credential's user; for a request under `/api/v4` that no route answered
   * (GitLab's catch-all authenticates nobody), the user its token or session names, unchecked.
   * `null` when anonymous, for an unknown, expired or revoked token (401), and for requests refused
   * before authentication (413, 414, 429, malformed).
   */
  readonly user: string | null
  /** Username of the token's owner when sudo was used. */
  readonly sudoFrom?: string
  /** Set when a fault was injected instead of (or on top of) the simulated answer, e.g. `status 503`. */
  readonly fault?: string
  /** What the route said about the request besides its key: git's service and refs (`git-receive-pack refs/heads/main`). */
  readonly detail?: string
  /**
   * The session that answered (`X-Fakelab-Session: <id>` or `/-/fakelab/sessions/<id>/…`), on the
   * entries a session's requests give its parent simulator's subscribers (the CLI's log). The
   * session's own journal (`sim.session(id).journal`) keeps them without it; the parent keeps none.
   */
  readonly session?: string
}

/**
 * A filter over journal entries; every given field must match.
 * `route` is a route key (`GET /projects/:id/labels`); `path` a string (exact) or a RegExp
 * (tested against the path); `status` a number or a predicate; `user` a username, or `null` for
 * anonymous requests.
 */
export interface JournalQuery {
  route?: string
  method?: string
  path?: string | RegExp
  status?: number | ((status: number) => boolean)
  user?: string | null
  simulated?: boolean
  routeMiss?: 'method' | 'path'
  /** Matches entries whose query string has these params with these values (decoded). */
  query?: Record<string, string>
}

/** A near-miss report for a request that matched no route, from {@link Journal.nearMisses}. */
export interface NearMiss {
  entry: JournalEntry
  /** Route keys that look closest to the request, best first (at most 3). */
  candidates: string[]
}

/** Default number of entries a journal keeps. */
export const DEFAULT_JOURNAL_SIZE = 1000

/** Thrown by {@link Journal.expectCalled} when the journal does not hold what was expected. */
export class JournalAssertionError extends Error {
  override name = 'JournalAssertionError'
}

function describeQuery(query: JournalQuery): string {
  const parts: string[] = []
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue
    const shown = typeof value === 'function' ? '<predicate>' : value instanceof RegExp ? String(value) : JSON.stringify(value)
    parts.push(`${name}=${shown}`)
  }
  return parts.length > 0 ? parts.join(' ') : '(any request)'
}

/**
 * One line for an entry: `GET /api/v4/user?x=1 → 200 (GET /user) as root 0.4ms`, then
 * ` [fault: …]` for an injected fault and ` [session <id>]` for a session's request.
 */
export function formatEntry(entry: JournalEntry): string {
  const target = entry.query ? `${entry.path}?${entry.query}` : entry.path
  const route = entry.route ?? (entry.routeMiss ? `not simulated: ${entry.routeMiss === 'method' ? 'wrong method' : 'unknown path'}` : '-')
  const user = entry.user === null ? 'anonymous' : entry.sudoFrom ? `${entry.user} (sudo by ${entry.sudoFrom})` : entry.user
  const fault = entry.fault ? ` [fault: ${entry.fault}]` : ''
  const session = entry.session !== undefined ? ` [session ${entry.session}]` : ''
  const status = entry.passedThrough ? 'passed through' : String(entry.status)
  const detail = entry.detail !== undefined ? ` [${entry.detail}]` : ''
  return `${entry.method} ${target} → ${status} (${route}) as ${user} ${entry.durationMs.toFixed(1)}ms${detail}${fault}${session}`
}

/** Characters a JSON string must escape (or, lone surrogates, may): a string without any is its own JSON text between quotes. */
const JSON_ESCAPED = /[\u0000-\u001f"\\\ud800-\udfff]/

/** `JSON.stringify(text)`, without the call for the usual string that needs no escape. */
function jsonString(text: string): string {
  return JSON_ESCAPED.test(text) ? JSON.stringify(text) : `"${text}"`
}

/** `JSON.stringify` of a string or `null`. */
function jsonNullable(text: string | null): string {
  return text === null ? 'null' : jsonString(text)
}

/** `JSON.stringify` of a number: `null` for one JSON cannot carry (NaN, infinities), as it writes. */
function jsonNumber(n: number): string {
  return Number.isFinite(n) ? String(n) : 'null'
}

/**
 * An entry as one line of JSON text, byte for byte `JSON.stringify(entry)`, written from its fields:
 * the `json` request log writes one per request (issue 39 item 3). A line alone cost 2.4 µs so
 * against 3.0 µs with `JSON.stringify` of the entry (one process, medians of 15 alternating rounds, on
 * the loaded 2-core machine). Interleaved with first requests as a server makes them, the log's cost
 * was lost in that machine's noise (logged ÷ unlogged in three runs of 12-16 rounds: 0.76, 0.81,
 * 1.06 with `JSON.stringify`; 0.98, 1.25, 0.99 so). The keys come in the order the engine makes them (`journalEntry` in
 * `stages/journal.ts`: the eleven fields, then `routeMiss`, `allowed`, `sudoFrom`, `fault`, `detail`
 * when set, then `session` for a session's request); an entry of another shape (a passed-through
 * one) is stringified as it is. test/unit/journal-json.test.ts holds the two to each other.
 */
export function entryJson(entry: JournalEntry): string {
  if (entry.passedThrough !== undefined) return JSON.stringify(entry)
  let text = `{"seq":${jsonNumber(entry.seq)},"requestId":${jsonString(entry.requestId)},"at":${jsonString(entry.at)},"method":${jsonString(entry.method)},"path":${jsonString(entry.path)},"query":${jsonString(entry.query)},"route":${jsonNullable(entry.route)},"simulated":${entry.simulated},"status":${jsonNumber(entry.status)},"durationMs":${jsonNumber(entry.durationMs)},"user":${jsonNullable(entry.user)}`
  if (entry.routeMiss !== undefined) text += `,"routeMiss":${jsonString(entry.routeMiss)}`
  if (entry.allowed !== undefined) text += `,"allowed":${JSON.stringify(entry.allowed)}`
  if (entry.sudoFrom !== undefined) text += `,"sudoFrom":${jsonString(entry.sudoFrom)}`
  if (entry.fault !== undefined) text += `,"fault":${jsonString(entry.fault)}`
  if (entry.detail !== undefined) text += `,"detail":${jsonString(entry.detail)}`
  if (entry.session !== undefined) text += `,"session":${jsonString(entry.session)}`
  return `${text}}`
}

function queryMatches(text: string, wanted: Record<string, string>): boolean {
  const params = new URLSearchParams(text)
  for (const [name, value] of Object.entries(wanted)) if (!params.getAll(name).includes(value)) return false
  return true
}

/** Whether an entry matches every field of a query. */
function entryMatches(entry: JournalEntry, query: JournalQuery): boolean {
  if (query.route !== undefined && entry.route !== query.route) return false
  if (query.method !== undefined && entry.method !== query.method.toUpperCase()) return false
  if (query.path !== undefined && !(typeof query.path === 'string' ? entry.path === query.path : query.path.test(entry.path))) return false
  if (query.status !== undefined && !(typeof query.status === 'number' ? entry.status === query.status : query.status(entry.status))) return false
  if (query.user !== undefined && entry.user !== query.user) return false
  if (query.simulated !== undefined && entry.simulated !== query.simulated) return false
  if (query.routeMiss !== undefined && entry.routeMiss !== query.routeMiss) return false
  if (query.query !== undefined && !queryMatches(entry.query, query.query)) return false
  return true
}

/** How alike a request path (below `/api/v4`) and a route path are: shared segments, in place. */
function likeness(segments: readonly string[], routePath: string): number {
  const pattern = routePath.split('/').slice(1)
  let score = -Math.abs(pattern.length - segments.length)
  for (let i = 0; i < Math.min(pattern.length, segments.length); i++) {
    const p = pattern[i]!
    if (p === segments[i]) score += 2
    else if (p.startsWith(':')) score += 1
  }
  return score
}

/**
 * The bounded request journal of one simulator. Entries are kept oldest first; once `size` is
 * reached each new entry drops the oldest.
 */
export class Journal {
  #entries: JournalEntry[] = []
  #size: number
  readonly #listeners = new Set<(entry: JournalEntry) => void>()
  #routes: readonly RouteEntry[] | (() => readonly RouteEntry[])

  /**
   * @param size entries kept (at least 0; 0 keeps none but still tells subscribers).
   * @param routes the routes served, for near-miss suggestions, or a function giving them (called
   *   once, on the first suggestion: a start need not list them).
   * @throws RangeError for a negative or non-integer size.
   */
  constructor(size: number, routes: readonly RouteEntry[] | (() => readonly RouteEntry[])) {
    this.#size = checkSize(size)
    this.#routes = routes
  }

  /** Entries kept at most. */
  get size(): number {
    return this.#size
  }

  /**
   * Changes how many entries are kept; the oldest go when it shrinks.
   * @throws RangeError for a negative or non-integer size.
   */
  resize(size: number): void {
    this.#size = checkSize(size)
    if (this.#entries.length > this.#size) this.#entries.splice(0, this.#entries.length - this.#size)
  }

  /**
   * Adds an entry (the engine calls this once per request) and tells subscribers.
   * @param keep `false` tells subscribers only (the engine's control routes).
   */
  record(entry: JournalEntry, keep = true): void {
    if (keep && this.#size > 0) {
      if (this.#entries.length >= this.#size) this.#entries.shift()
      this.#entries.push(entry)
    }
    for (const listener of this.#listeners) listener(entry)
  }

  /** Every entry kept, oldest first (a copy). */
  all(): JournalEntry[] {
    return this.#entries.slice()
  }

  /** Entries matching `query`, oldest first. */
  find(query: JournalQuery = {}): JournalEntry[] {
    return this.#entries.filter((entry) => entryMatches(entry, query))
  }

  /** How many entries match `query`. */
  count(query: JournalQuery = {}): number {
    let n = 0
    for (const entry of this.#entries) if (entryMatches(entry, query)) n += 1
    return n
  }

  /** The newest entry matching `query`, if any. */
  last(query: JournalQuery = {}): JournalEntry | undefined {
    for (let i = this.#entries.length - 1; i >= 0; i--) if (entryMatches(this.#entries[i]!, query)) return this.#entries[i]
    return undefined
  }

  /** Forgets every entry (the request counter and `seq` go on). */
  clear(): void {
    this.#entries = []
  }

  /**
   * Asserts that `query` matches exactly `times` entries (default: at least one).
   * @returns the matching entries.
   * @throws JournalAssertionError naming the query, the count found, and the requests the journal
   *   holds (the last 20), so the failure shows what was called instead.
   * @example sim.journal.expectCalled({ route: 'POST /projects/:id/labels', user: 'max' }, 1)
   */
  expectCalled(query: JournalQuery, times?: number): JournalEntry[] {
    const found = this.find(query)
    const ok = times === undefined ? found.length > 0 : found.length === times
    if (ok) return found
    const wanted = times === undefined ? 'at least once' : `${times} time${times === 1 ? '' : 's'}`
    const recent = this.#entries.slice(-20).map((entry) => `  ${formatEntry(entry)}`)
    const held = recent.length > 0 ? `the journal holds${this.#entries.length > 20 ? ' (last 20)' : ''}:\n${recent.join('\n')}` : 'the journal is empty'
    throw new JournalAssertionError(`expected ${describeQuery(query)} to be called ${wanted}, but it was called ${found.length} time${found.length === 1 ? '' : 's'}; ${held}`)
  }

  /** Asserts that no entry matches `query`. @throws JournalAssertionError as {@link expectCalled}. */
  expectNotCalled(query: JournalQuery): void {
    this.expectCalled(query, 0)
  }

  /**
   * The requests under `/api/v4` that matched no route, each with the route keys that look closest
   * (for a wrong method: the routes at that path; otherwise the most alike paths).
   */
  nearMisses(): NearMiss[] {
    return this.find({ simulated: false }).map((entry) => ({ entry, candidates: this.candidates(entry) }))
  }

  /** Route keys closest to an unmatched request, best first (at most 3). */
  candidates(entry: Pick<JournalEntry, 'method' | 'path'>): string[] {
    const below = entry.path.startsWith('/api/v4/') ? entry.path.slice('/api/v4'.length) : entry.path
    const segments = below.replace(/\/$/, '').split('/').slice(1)
    if (typeof this.#routes === 'function') this.#routes = this.#routes()
    const scored = this.#routes.map((route) => ({
      key: route.key,
      score: likeness(segments, route.path) * 2 + (route.method === entry.method ? 1 : 0),
    }))
    scored.sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    return scored.slice(0, 3).map((s) => s.key)
  }

  /**
   * Calls `listener` with every new entry (also when `size` is 0).
   * @returns a function that stops the calls.
   */
  subscribe(listener: (entry: JournalEntry) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }
}

function checkSize(size: number): number {
  if (!Number.isInteger(size) || size < 0) throw new RangeError(`journal size must be a non-negative integer, got ${size}`)
  return size
}
