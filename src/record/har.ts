/**
 * Cassettes: HAR 1.2 files (`*.har.json`) holding recorded exchanges with a GitLab. This module
 * types them (`@types/har-format`), validates them on load with every problem located as
 * `file:line:col message`, and writes them in one stable, pretty-printed form so that a
 * re-recorded cassette diffs readably in review. Browser-safe: no `node:*` imports; reading and
 * writing files lives in `recorder.ts`.
 *
 * Source: issue 11 ("Cassettes"); HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/);
 * STYLE.md §9.
 * @module
 */
import type { Content, Entry, Har, Header, PostData, QueryString, Request as HarRequest, Response as HarResponse } from 'har-format'
import { LineCounter, isNode, isPair, parseDocument } from 'yaml'
import { z } from 'zod'

/** The HAR 1.2 types (`@types/har-format`); `HarRequest`/`HarResponse` avoid the clash with Fetch's `Request`/`Response`. */
export type { Content, Entry, Har, Header, PostData, QueryString, HarRequest, HarResponse }

/** One problem of a cassette file, located like a compiler message. */
export interface CassetteProblem {
  /** The file name given to {@link parseCassette} (default `<cassette>`). */
  file: string
  /** 1-based line of the offending JSON value (or of its nearest existing parent). */
  line: number
  /** 1-based column. */
  col: number
  /** `<path>: <what is wrong>`, for example `log.entries[3].response.status: expected number`. */
  message: string
}

/** Formats a problem as `file:line:col message`, the form editors and terminals link to. */
export function formatCassetteProblem(problem: CassetteProblem): string {
  return `${problem.file}:${problem.line}:${problem.col} ${problem.message}`
}

/**
 * Thrown by {@link parseCassette} when a cassette is not valid JSON or not a usable HAR 1.2 log.
 * `problems` lists every problem found; `message` is that list, one `file:line:col message` a line.
 */
export class CassetteError extends Error {
  /** Every problem found; never empty. */
  readonly problems: CassetteProblem[]

  /** @param problems every problem found (at least one). */
  constructor(problems: CassetteProblem[]) {
    super(problems.map(formatCassetteProblem).join('\n'))
    this.name = 'CassetteError'
    this.problems = problems
  }
}

// HAR allows custom fields (names starting with `_`) and other tools add fields of their own, so
// objects are loose: only what replay relies on is checked.
const nameValue = z.looseObject({ name: z.string(), value: z.string() })
const isoInstant = z.string().refine((s) => !Number.isNaN(Date.parse(s)), { error: 'must be an ISO 8601 date-time' })

const harRequestSchema = z.looseObject({
  method: z.string().regex(/^[A-Za-z]+$/, { error: 'must be an HTTP method such as GET' }),
  url: z.string().refine((s) => URL.canParse(s), { error: 'must be an absolute URL' }),
  httpVersion: z.string(),
  cookies: z.array(nameValue),
  headers: z.array(nameValue),
  queryString: z.array(nameValue),
  postData: z
    .looseObject({
      mimeType: z.string(),
      text: z.string().optional(),
      params: z.array(z.looseObject({ name: z.string(), value: z.string().optional() })).optional(),
    })
    .optional(),
  headersSize: z.number(),
  bodySize: z.number(),
})

const harResponseSchema = z.looseObject({
  status: z.int().min(0).max(999),
  statusText: z.string(),
  httpVersion: z.string(),
  cookies: z.array(nameValue),
  headers: z.array(nameValue),
  content: z.looseObject({
    size: z.number(),
    mimeType: z.string(),
    text: z.string().optional(),
    encoding: z.string().optional(),
  }),
  redirectURL: z.string(),
  headersSize: z.number(),
  bodySize: z.number(),
})

const harEntrySchema = z.looseObject({
  startedDateTime: isoInstant,
  time: z.number(),
  request: harRequestSchema,
  response: harResponseSchema,
  cache: z.looseObject({}),
  timings: z.looseObject({ send: z.number(), wait: z.number(), receive: z.number() }),
})

const credentialSchema = z.looseObject({
  placeholder: z.string().regex(/^\[REDACTED-\d+\]$/, { error: 'must be a redaction placeholder such as [REDACTED-1]' }),
  sent_as: z.string(),
  status: z.int(),
  source: z.enum(['answer', 'probe']),
  user: z.looseObject({ id: z.int(), username: z.string() }).nullable(),
})

/**
 * fakelab's HAR extension (`log._fakelab`; HAR 1.2 allows custom fields whose names start with
 * `_`): what the recorder knew beside the exchanges.
 */
const metaSchema = z.looseObject({ credentials: z.array(credentialSchema).optional() })

/** The zod schema a cassette must satisfy: a HAR 1.2 `log` with the fields replay reads. */
export const cassetteSchema = z.looseObject({
  log: z.looseObject({
    version: z.string(),
    creator: z.looseObject({ name: z.string(), version: z.string() }),
    entries: z.array(harEntrySchema),
    _fakelab: metaSchema.optional(),
  }),
})

/**
 * One credential a recorded session sent, and the user it authenticates as
 * (`log._fakelab.credentials[]`). The recorder notes it the first time the credential is seen, so
 * that replay, `fakelab verify` and `fakelab import` can act as the same user even when the
 * session never called `GET /user` itself. Source: issue 23 item 20.
 */
export interface CassetteCredential {
  /** The redaction placeholder standing for the credential in the entries (`[REDACTED-1]`). */
  placeholder: string
  /**
   * How the session sent it: `PRIVATE-TOKEN`, `Authorization: Bearer`, `JOB-TOKEN` (headers) or
   * `private_token=`, `access_token=`, `job_token=` (query parameters).
   */
  sent_as: string
  /** The status of the `GET /user` that was asked with the credential alone (no `sudo`). */
  status: number
  /** `answer`: a `GET /user` of the session itself showed the user; `probe`: the recorder asked. */
  source: 'answer' | 'probe'
  /** That `GET /user` answer (redacted like the entries), or null when it was not a 200. */
  user: ({ id: number; username: string } & Record<string, unknown>) | null
}

/** fakelab's extension of a cassette (`log._fakelab`). */
export interface CassetteMeta {
  /** The credentials the session sent, by placeholder number. */
  credentials?: CassetteCredential[]
}

/**
 * The fakelab extension of a cassette (`log._fakelab`), or `{}` when it has none (cassettes of
 * other tools and of fakelab before issue 23). Items that do not have the documented shape are
 * left out (a parsed cassette has been checked already).
 */
export function cassetteMeta(har: Har): CassetteMeta {
  const raw = (har.log as { _fakelab?: unknown })._fakelab
  const parsed = metaSchema.safeParse(raw)
  if (!parsed.success || raw === undefined) return {}
  return parsed.data as CassetteMeta
}

/** 1-based line and column of a character offset in `text`. */
function positionOf(text: string, offset: number): { line: number; col: number } {
  const before = text.slice(0, Math.max(0, offset))
  const line = before.split('\n').length
  return { line, col: offset - before.lastIndexOf('\n') }
}

/** The offset V8's `JSON.parse` error points at, when its message names one. */
function jsonErrorOffset(error: unknown, text: string): number {
  const message = error instanceof Error ? error.message : ''
  const at = /position (\d+)/.exec(message)
  if (at) return Number(at[1])
  // Node 20 names no position for an early end ("Unexpected end of JSON input").
  return /end of JSON/.test(message) ? text.length : 0
}

/**
 * Parses and validates a cassette.
 * @param text the file's JSON text.
 * @param file name used in problems (default `<cassette>`).
 * @returns the HAR log, unchanged (entries in file order).
 * @throws CassetteError with every problem: a JSON syntax error at its position, or each schema
 *   violation at the line and column of the offending value. JSON is YAML, so the `yaml` parser's
 *   `LineCounter` maps zod's issue paths back to positions in the text.
 * @example
 * const har = parseCassette(readFileSync('fixtures/cassettes/session.har.json', 'utf8'), 'session.har.json')
 */
export function parseCassette(text: string, file = '<cassette>'): Har {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    const { line, col } = positionOf(text, jsonErrorOffset(error, text))
    const reason = error instanceof Error ? error.message : String(error)
    throw new CassetteError([{ file, line, col, message: `invalid JSON: ${reason}` }])
  }
  const result = cassetteSchema.safeParse(value)
  if (result.success) return value as Har
  const lineCounter = new LineCounter()
  const doc = parseDocument(text, { lineCounter, uniqueKeys: false })
  const problems = result.error.issues.map((issue): CassetteProblem => {
    const path = issue.path.map((p) => (typeof p === 'number' ? p : String(p)))
    let offset = 0
    for (let n = path.length; n >= 0; n--) {
      const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true)
      if (!isNode(node) || !node.range) continue
      offset = node.range[0]
      // A missing key is reported at its parent; point at the parent's first key, not at `{`.
      if (n < path.length && 'items' in node && Array.isArray(node.items) && isPair(node.items[0])) {
        const key = node.items[0].key
        if (isNode(key) && key.range) offset = key.range[0]
      }
      break
    }
    const { line, col } = lineCounter.linePos(offset)
    return { file, line, col, message: `${formatPath(path)}: ${issue.message}` }
  })
  throw new CassetteError(problems)
}

function formatPath(path: readonly (string | number)[]): string {
  if (path.length === 0) return '(root)'
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('')
}

/** Who wrote a cassette (`log.creator`). */
export interface CassetteCreator {
  name: string
  version: string
}

/**
 * Builds a HAR 1.2 log from entries, sorted by `startedDateTime` (stable for equal instants, so
 * concurrent exchanges keep the order in which they were recorded).
 * @param creator defaults to `{ name: 'fakelab', version: '0' }`.
 * @param meta fakelab's extension, written as `log._fakelab` when it holds anything.
 */
export function createCassette(entries: readonly Entry[], creator: CassetteCreator = { name: 'fakelab', version: '0' }, meta: CassetteMeta = {}): Har {
  const sorted = entries
    .map((entry, index) => ({ entry, index, at: Date.parse(entry.startedDateTime) }))
    .sort((a, b) => a.at - b.at || a.index - b.index)
    .map((x) => x.entry)
  const extension = (meta.credentials?.length ?? 0) > 0 ? { _fakelab: meta } : {}
  return { log: { version: '1.2', creator: { ...creator }, entries: sorted, ...extension } as Har['log'] }
}

// Key order of each HAR object as the HAR 1.2 spec lists its fields; unknown keys (other tools'
// fields, `_custom` ones) follow in their own order. This is what makes two recordings of the
// same session diff line by line.
const KEY_ORDER: Record<string, readonly string[]> = {
  root: ['log'],
  log: ['version', 'creator', 'browser', 'pages', 'entries', 'comment', '_fakelab'],
  meta: ['credentials'],
  credential: ['placeholder', 'sent_as', 'status', 'source', 'user'],
  entry: ['pageref', 'startedDateTime', 'time', 'request', 'response', 'cache', 'timings', 'serverIPAddress', 'connection', 'comment'],
  request: ['method', 'url', 'httpVersion', 'cookies', 'headers', 'queryString', 'postData', 'headersSize', 'bodySize', 'comment'],
  response: ['status', 'statusText', 'httpVersion', 'cookies', 'headers', 'content', 'redirectURL', 'headersSize', 'bodySize', 'comment'],
  content: ['size', 'compression', 'mimeType', 'text', 'encoding', 'comment'],
  postData: ['mimeType', 'params', 'text', 'comment'],
  timings: ['blocked', 'dns', 'connect', 'send', 'wait', 'receive', 'ssl', 'comment'],
  nameValue: ['name', 'value', 'comment'],
}

/** Which kind (in {@link KEY_ORDER}) the value under a key of each kind is; arrays hold that kind. */
const CHILD_KIND: Record<string, Record<string, string>> = {
  root: { log: 'log' },
  log: { entries: 'entry', _fakelab: 'meta' },
  meta: { credentials: 'credential' },
  entry: { request: 'request', response: 'response', timings: 'timings' },
  request: { headers: 'nameValue', queryString: 'nameValue', cookies: 'nameValue', postData: 'postData' },
  response: { headers: 'nameValue', cookies: 'nameValue', content: 'content' },
  postData: { params: 'nameValue' },
}

function ordered(value: unknown, kind: string): unknown {
  if (Array.isArray(value)) return value.map((item) => ordered(item, kind))
  if (value === null || typeof value !== 'object') return value
  const object = value as Record<string, unknown>
  const order = KEY_ORDER[kind] ?? []
  const keys = [...order.filter((k) => k in object), ...Object.keys(object).filter((k) => !order.includes(k))]
  const out: Record<string, unknown> = {}
  for (const key of keys) {
    if (object[key] === undefined) continue
    out[key] = ordered(object[key], CHILD_KIND[kind]?.[key] ?? '')
  }
  return out
}

/**
 * The cassette as text: keys in HAR spec order, two-space indentation, a final newline. Entries
 * keep their order (use {@link createCassette} to sort them).
 */
export function serializeCassette(har: Har): string {
  return `${JSON.stringify(ordered(har, 'root'), null, 2)}\n`
}

/** The first value of header `name` (case-insensitive) in a HAR header list. */
export function harHeader(headers: readonly Header[], name: string): string | undefined {
  const lower = name.toLowerCase()
  return headers.find((h) => h.name.toLowerCase() === lower)?.value
}

/**
 * The bytes of a recorded response body: `content.text` decoded from base64 when
 * `content.encoding` says so, else as UTF-8. Empty when the cassette kept no text.
 */
export function contentBytes(content: Content): Uint8Array<ArrayBuffer> {
  const text = content.text ?? ''
  if (content.encoding === 'base64') return Uint8Array.from(atob(text), (c) => c.charCodeAt(0))
  return new TextEncoder().encode(text)
}
