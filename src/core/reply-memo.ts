/**
 * Reused read answers: a `GET` or `HEAD` under `/api/v4` that asks again exactly what an earlier
 * one asked, while nothing that answer was made from has changed, gets that answer again (with its
 * own `X-Request-Id` and journal entry) instead of running the route, its entities and
 * `JSON.stringify` once more. Clients that poll, and UI code that refetches the same list, ask so
 * all the time; GitLab answers them from its own caches too (`present_cached`, ETag caching).
 *
 * What an answer was made from, and so what must be unchanged for it to be reused:
 * - the request's method, origin (the base URL of `web_url` and `Link`), path and query;
 * - the value of every request header the route read (the token, `Sudo`, ...);
 * - the store: any write to any table, by a request or through `sim.db`, since the answer was made;
 * - the clock, to the millisecond.
 * An answer is kept when its request line is asked a second time at the same store and clock (the
 * third and later requests reuse it), and never when making it wrote to the store, moved the clock,
 * drew from the faker, read the request body, or failed (only answers a route returned are kept).
 * Source: issue 5 (MSW door), STYLE.md §3.
 * Browser-safe: nothing here imports `node:*`.
 * @module
 */
import type { CoreReply, CoreRequest, HeaderList } from './transport.js'

/**
 * How a simulator reuses read answers: `'on'` (the default) reuses them; `'off'` always runs the
 * route; `'verify'` runs the route on every reuse too and fails that request with a 500 (and
 * `onError`) when the fresh answer differs from the kept one. The test suite runs in `'verify'`.
 */
export type ReplyMemoMode = 'on' | 'off' | 'verify'

/** The journal facts of a kept answer, given back on reuse. */
export interface KeptTrace {
  /** The route key, e.g. `GET /projects/:id/labels`. */
  readonly route: string
  /** The username the request acted as, `null` for anonymous. */
  readonly user: string | null
  /** The token owner when the request used `sudo`. */
  readonly sudoFrom: string | undefined
}

/** A kept answer: the reply as rendered, and what it was made from. */
export interface KeptReply {
  /** Header names and the values read, in pairs: `[name, value, name, value, ...]`. */
  readonly reads: readonly (string | undefined)[]
  readonly reply: CoreReply
  /** Where `x-request-id` sits in `reply.headers`. */
  readonly idAt: number
  readonly trace: KeptTrace
}

/** Answers kept per request line: one per caller, a few callers at most. */
const VARIANTS = 4
/** Request lines kept at once. */
const MAX_LINES = 256
/** Request lines noted as asked once, at most. */
const MAX_ASKED = 1024
/** Body characters kept at once; a larger answer is not kept at all. */
const MAX_CHARS = 8 * 1024 * 1024

/**
 * A {@link CoreRequest} that notes each header read and its value, and whether the body was read:
 * what an answer depended on beyond its request line.
 */
export class ReadTracker implements CoreRequest {
  readonly method: string
  readonly path: string
  readonly query: string
  readonly origin: string
  /** Header names and the values read, in pairs. */
  readonly reads: (string | undefined)[] = []
  /** Set when the route asked for the body. */
  bodyRead = false
  readonly #inner: CoreRequest

  constructor(inner: CoreRequest) {
    this.method = inner.method
    this.path = inner.path
    this.query = inner.query
    this.origin = inner.origin
    this.#inner = inner
  }

  header(name: string): string | undefined {
    const value = this.#inner.header(name)
    this.reads.push(name, value)
    return value
  }

  body(): Promise<Uint8Array | undefined> {
    this.bodyRead = true
    return this.#inner.body()
  }
}

/**
 * The kept answers of one simulator (a session has its own). Everything kept belongs to one store
 * write count and one clock reading; a change of either drops it all, so nothing stale can be found.
 */
export class ReplyMemo {
  readonly #lines = new Map<string, KeptReply[]>()
  /** Request lines asked once at this state: an answer is kept when its line is asked again. */
  readonly #asked = new Set<string>()
  #writes = -1
  #clockMs = Number.NaN
  #chars = 0

  /**
   * The request line an answer to an API request (one under `/api/v4/`, as the engine classified
   * it) is kept under, or `undefined` for one whose answer is never kept (anything but `GET`/`HEAD`).
   */
  static line(request: CoreRequest): string | undefined {
    const method = request.method
    if (method !== 'GET' && method !== 'HEAD') return undefined
    return `${method} ${request.origin}${request.path}?${request.query}`
  }

  /**
   * The answer kept for `line` that `request` may reuse: made at this store write count and clock
   * reading, from the same values of every header it read. Drops everything kept when the store or
   * the clock has moved since.
   */
  find(line: string, request: CoreRequest, writes: number, clockMs: number): KeptReply | undefined {
    if (writes !== this.#writes || clockMs !== this.#clockMs) {
      this.#lines.clear()
      this.#asked.clear()
      this.#chars = 0
      this.#writes = writes
      this.#clockMs = clockMs
      return undefined
    }
    const entries = this.#lines.get(line)
    if (!entries) return undefined
    next: for (const entry of entries) {
      const reads = entry.reads
      for (let i = 0; i < reads.length; i += 2) {
        if (request.header(reads[i]!) !== reads[i + 1]) continue next
      }
      return entry
    }
    return undefined
  }

  /**
   * Whether an answer to `line` is worth keeping: true when the line was asked before at this state
   * (after {@link find}), else it is noted. Most reads between two writes are asked once; keeping
   * their answers would only hold memory (long enough for V8 to move it to the old generation).
   */
  askedBefore(line: string): boolean {
    if (this.#asked.has(line)) return true
    if (this.#asked.size < MAX_ASKED) this.#asked.add(line)
    return false
  }

  /**
   * Keeps `reply` (as rendered for the request that made it) under `line`, made at `writes` and `clockMs`
   * from the header values in `reads`. Ignored when the store or clock has moved on meanwhile, when
   * the body is bytes or too large, or when the memo is full.
   */
  keep(line: string, reads: readonly (string | undefined)[], reply: CoreReply, trace: KeptTrace, writes: number, clockMs: number): void {
    if (writes !== this.#writes || clockMs !== this.#clockMs) return
    const body = reply.body
    if (body !== undefined && typeof body !== 'string') return
    const chars = body?.length ?? 0
    if (this.#chars + chars > MAX_CHARS) return
    const idAt = reply.headers.findIndex((field) => field[0] === 'x-request-id')
    if (idAt < 0) return
    let entries = this.#lines.get(line)
    if (!entries) {
      if (this.#lines.size >= MAX_LINES) return
      entries = []
      this.#lines.set(line, entries)
    }
    if (entries.length >= VARIANTS) return
    this.#chars += chars
    entries.push({ reads, reply: { status: reply.status, headers: reply.headers, body }, idAt, trace })
  }
}

/** The kept answer for a new request: its own `x-request-id`, the rest as kept (lists are shared, never changed). */
export function reuse(entry: KeptReply, requestId: string): CoreReply {
  const headers = entry.reply.headers.slice() as [string, string][]
  headers[entry.idAt] = ['x-request-id', requestId]
  return { status: entry.reply.status, headers, body: entry.reply.body }
}

/**
 * Whether a fresh answer is the kept one, but for `x-request-id`: what `'verify'` checks.
 * @returns `undefined` when they agree, else what differs (for the error).
 */
export function difference(entry: KeptReply, fresh: CoreReply): string | undefined {
  const kept = entry.reply
  if (kept.status !== fresh.status) return `status ${kept.status} kept, ${fresh.status} now`
  if (kept.body !== fresh.body) return 'body'
  const a: HeaderList = kept.headers
  const b: HeaderList = fresh.headers
  if (a.length !== b.length) return 'header count'
  for (let i = 0; i < a.length; i++) {
    if (i === entry.idAt) continue
    if (a[i]![0] !== b[i]![0] || a[i]![1] !== b[i]![1]) return `header ${a[i]![0]}`
  }
  return undefined
}
