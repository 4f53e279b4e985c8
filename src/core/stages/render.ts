/**
 * Stage 7 of the engine, render: a route's {@link Outcome} (or a thrown error) becomes the
 * {@link CoreReply} the doors write: GitLab's standard headers, the JSON body serialised once, no
 * body where HTTP has none; then, after the journal, the CORS fields and the `Date` of the
 * simulator's clock. Source: STYLE.md §3.10, §5; client-wire-facts.md.
 * Browser-safe.
 * @module
 */
import type { Clock } from '../clock.js'
import { ApiError, internalError } from '../errors.js'
import type { Reply } from '../route.js'
import type { CoreReply, CoreRequest, HeaderList } from '../transport.js'

/** One header field, name lower-case. */
export type Field = readonly [name: string, value: string]

/** What the engine answers before its headers and body are written out. */
export interface Outcome extends Reply {
  /** A non-JSON body with its content type (the control API's YAML export). */
  textBody?: { type: string; value: string }
  routeMiss?: CoreReply['routeMiss']
  /** Methods the path accepts, for a `'method'` miss (journal only). */
  allowed?: readonly string[]
}

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
const [CACHE_CONTROL, VARY, NOSNIFF, FRAME_OPTIONS] = STANDARD_HEADERS as [Field, Field, Field, Field]
/** The standard headers and the request id, as a fresh list (an array literal: cheaper than a spread). */
const baseFields = (requestId: string): Field[] => [CACHE_CONTROL, VARY, NOSNIFF, FRAME_OPTIONS, ['x-request-id', requestId]]
const JSON_TYPE: Field = ['content-type', 'application/json']
const TEXT_TYPE: Field = ['content-type', 'text/plain']

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

/**
 * Sorts a header list by name in place, stably (what `Array.prototype.sort` by name gives), by insertion, which
 * for the dozen fields of an answer costs a fraction of the generic sort's set-up and comparator calls.
 */
function sortByName(list: Field[]): Field[] {
  for (let i = 1; i < list.length; i++) {
    const field = list[i]!
    const name = field[0]
    let j = i - 1
    for (; j >= 0 && list[j]![0] > name; j--) list[j + 1] = list[j]!
    list[j + 1] = field
  }
  return list
}

/**
 * The header list of an answer, sorted by name (the order Fetch `Headers` iterate in, kept on both
 * doors): `list`, then `extra` (names lower-cased; they replace fields of the same name), then
 * `last`, which replaces any earlier field of its name. `list` is taken over, not copied.
 */
function headerList(list: Field[], extra: Record<string, string> | undefined, last: Field | undefined): HeaderList {
  if (extra) for (const name in extra) setField(list, [name.toLowerCase(), extra[name]!])
  if (last) setField(list, last)
  return sortByName(list)
}

/**
 * Serialises an answer: the standard headers, the reply's own (which win), `content-type` exactly
 * `application/json` whenever there is a body (python-gitlab only parses that spelling,
 * client-wire-facts.md), and no body for HEAD, 204 and 304.
 * @param requestId the `x-request-id` value.
 * @param head whether the request was `HEAD` (headers as for `GET`, no body).
 */
export function render(outcome: Outcome, requestId: string, head: boolean): CoreReply {
  const { status, body } = outcome
  if (outcome.bytes) {
    // Bytes as they are (an upload); the reply's own headers name their type.
    return { status, headers: headerList(baseFields(requestId), outcome.headers, undefined), body: head ? undefined : outcome.bytes }
  }
  if (outcome.textBody) {
    return {
      status,
      headers: headerList(baseFields(requestId), undefined, ['content-type', outcome.textBody.type]),
      body: head ? undefined : outcome.textBody.value,
    }
  }
  const hasBody = body !== undefined && status !== 204 && status !== 304
  const reply: CoreReply = {
    status,
    headers: headerList(baseFields(requestId), outcome.headers, hasBody ? JSON_TYPE : undefined),
    body: hasBody && !head ? JSON.stringify(body) : undefined,
  }
  if (outcome.routeMiss) reply.routeMiss = outcome.routeMiss
  if (outcome.allowed) reply.allowed = outcome.allowed
  return reply
}

/** A plain-text answer from in front of the API (Rack middleware, nginx): only its type and the request id. */
function renderText(error: ApiError & { text: string }, requestId: string, head: boolean): CoreReply {
  return {
    status: error.status,
    // text/plain unless the error names its type (nginx's 413 page is text/html).
    headers: headerList([['x-request-id', requestId]], error.headers, error.headers['content-type'] ? undefined : TEXT_TYPE),
    body: head ? undefined : error.text,
  }
}

/**
 * Renders a thrown error: an {@link ApiError} as GitLab answers it (JSON, or plain text for one from
 * in front of the API), anything else as 500 `{"message":"500 Internal Server Error"}`, told to `onError` first.
 */
export function renderError(error: unknown, requestId: string, head: boolean, onError: (error: unknown) => void): CoreReply {
  if (!(error instanceof ApiError)) {
    onError(error)
    return render(internalError(), requestId, head)
  }
  return error.text !== undefined ? renderText(error as ApiError & { text: string }, requestId, head) : render(error, requestId, head)
}

/**
 * GitLab's CORS on `/api/*` (config/application.rb: two Rack::Cors `allow` blocks, `headers: :any`,
 * `methods: :any`): the instance's own origin gets credentials, any other origin gets `*` without.
 * rack-cors sends Allow-Methods, Expose-Headers and Max-Age (its default 7200 s) on every CORS answer.
 * gitlab: config/application.rb; rack-cors 1.0 lib/rack/cors/resource.rb (methods :any, max_age).
 */
const CORS_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS'
const CORS_EXPOSE = 'Link, X-Total, X-Total-Pages, X-Per-Page, X-Page, X-Next-Page, X-Prev-Page'
/** GitLab's list, and fakelab's own marker, on the answers that carry it (so a browser can read it). */
const CORS_EXPOSE_UNSIMULATED = `${CORS_EXPOSE}, X-Fakelab-Unsimulated`
const CORS_MAX_AGE = '7200'

/**
 * fakelab's own header on GitLab's catch-all 404 for a request under `/api/v4` that no route
 * answered (issue 25 item 8): `x-fakelab-unsimulated: true`, so a client can tell "fakelab does not
 * simulate this (yet)" from a route's own 404 (a missing project), which never carries it. The body
 * stays GitLab's `{"error":"404 Not Found"}`. Not a GitLab header.
 */
export const UNSIMULATED_HEADER = 'x-fakelab-unsimulated'

/** The CORS fields for a request from `origin` to an instance at `self`; `unsimulated` exposes {@link UNSIMULATED_HEADER} too. */
function corsFields(origin: string, self: string, unsimulated = false): Field[] {
  const fields: Field[] = [
    ['access-control-allow-methods', CORS_METHODS],
    ['access-control-allow-origin', origin === self ? origin : '*'],
    ['access-control-expose-headers', unsimulated ? CORS_EXPOSE_UNSIMULATED : CORS_EXPOSE],
    ['access-control-max-age', CORS_MAX_AGE],
  ]
  if (origin === self) fields.push(['access-control-allow-credentials', 'true'])
  return fields
}

/**
 * The `Date` field of the simulator's clock (node would stamp the wall clock's), worked out again
 * only when the clock has moved. One per engine.
 */
export class DateStamp {
  #ms = Number.NaN
  #field: Field = ['date', '']

  /** `fields` with `date` from `clock` added, sorted by name; `fields` is taken over. */
  stamp(fields: Field[], clock: Clock): HeaderList {
    fields.push(this.field(clock))
    return sortByName(fields)
  }

  /**
   * A copy of `sorted` (sorted by name, without `date`) with `date` from `clock` in its place: what
   * {@link stamp} of a copy gives, without sorting again.
   */
  insert(sorted: HeaderList, clock: Clock): HeaderList {
    const date = this.field(clock)
    const out: Field[] = new Array(sorted.length + 1)
    let i = 0
    for (; i < sorted.length && sorted[i]![0] <= 'date'; i++) out[i] = sorted[i]!
    out[i] = date
    for (; i < sorted.length; i++) out[i + 1] = sorted[i]!
    return out
  }

  /** The `date` field of the clock's now, made again only when the clock has moved. */
  field(clock: Clock): Field {
    const now = clock.now()
    if (now.getTime() !== this.#ms) {
      this.#ms = now.getTime()
      this.#field = ['date', now.toUTCString()]
    }
    return this.#field
  }
}

/**
 * rack-cors' own answer to a preflight ({@link isPreflight}): 200, no body, the CORS fields for
 * `origin` (the headers asked for allowed as they are), `Vary: Origin` and the date.
 * @param self the instance's base URL (its own origin gets credentials).
 */
export function preflightReply(request: CoreRequest, origin: string, self: string, dates: DateStamp, clock: Clock): CoreReply {
  const fields = corsFields(origin, self)
  const asked = request.header('access-control-request-headers')
  if (asked !== undefined) fields.push(['access-control-allow-headers', asked])
  fields.push(['vary', 'Origin'])
  return { status: 200, headers: dates.stamp(fields, clock), body: undefined }
}

/**
 * The last touch to every reply, after the journal: the CORS fields when the request came with an
 * `Origin` under `/api/`, and the date. Changes `reply.headers` in place (a fresh list).
 */
export function finishHeaders(reply: CoreReply, origin: string | undefined, self: string, dates: DateStamp, clock: Clock): CoreReply {
  // Without CORS fields the list is already sorted (render sorts it): the date goes into its place.
  if (origin === undefined && !hasDate(reply.headers)) reply.headers = dates.insert(reply.headers, clock)
  else {
    const fields = origin !== undefined ? [...reply.headers, ...corsFields(origin, self, reply.headers.some((field) => field[0] === UNSIMULATED_HEADER))] : [...reply.headers]
    reply.headers = dates.stamp(fields, clock)
  }
  return reply
}

/** Whether a route set a `date` field itself (none does; {@link DateStamp.stamp} then keeps both, as before). */
function hasDate(headers: HeaderList): boolean {
  for (let i = 0; i < headers.length; i++) if (headers[i]![0] === 'date') return true
  return false
}
