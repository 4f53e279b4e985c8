/**
 * Request matching for replay: what makes an incoming request "the same" as a recorded one, and,
 * when none is, how close the nearest ones came (the near-miss report). Browser-safe.
 *
 * A request is reduced to a {@link RequestShape}: the method, the path below `/api/v4` (so the
 * host, the scheme and a relative URL root never matter), the query as sorted `[key, value]` pairs
 * without credential parameters, and optionally the body as data. Headers are never compared, so
 * tokens, header order and timestamps cannot break a match. A recorded value holding a redaction
 * placeholder matches any value. Source: issue 11 ("Replay"); STYLE.md §9.
 * @module
 */
import type { Entry } from 'har-format'
import { DEFAULT_REDACTION, PLACEHOLDER } from './redact.js'

/** The API prefix requests are matched below. */
export const API_ROOT = '/api/v4'

/** How requests are compared. */
export interface MatchOptions {
  /** Query keys left out of the comparison (credential keys always are). Case-sensitive, as in GitLab. */
  ignoreQueryKeys?: readonly string[]
  /** Compare request bodies too: JSON and form bodies as data (key order ignored), others as text. Default false. */
  matchBody?: boolean
}

/** A request reduced to what matching looks at. */
export interface RequestShape {
  /** Upper-case method. */
  method: string
  /** Path below `/api/v4` (the whole path when it has no `/api/v4`), percent-escapes upper-cased. */
  path: string
  /** Query pairs, credentials and ignored keys removed, sorted by key then value. */
  query: [string, string][]
  /** The body as data (when `matchBody`): parsed JSON, form pairs as `{key: [values]}`, else the text; undefined when empty. */
  body?: unknown
}

/** One way in which a recorded request differs from an incoming one. */
export interface Difference {
  /** Which part differs. */
  part: 'method' | 'path' | 'query' | 'body'
  /** Human-readable, for example ``query `page`: recorded "2", got "3"``. */
  detail: string
  /** How far apart (for ranking near misses); larger is further. */
  weight: number
}

const CREDENTIAL_KEYS = new Set<string>(DEFAULT_REDACTION.queryParams)

/** The path below the API root, with percent-escapes normalised to upper case. */
export function apiPath(pathname: string): string {
  const at = pathname.indexOf(`${API_ROOT}/`)
  const path = at >= 0 ? pathname.slice(at + API_ROOT.length) : pathname.endsWith(API_ROOT) ? '/' : pathname
  return path.replace(/%[0-9a-f]{2}/gi, (escape) => escape.toUpperCase())
}

function queryPairs(search: URLSearchParams, options: MatchOptions): [string, string][] {
  const ignored = new Set(options.ignoreQueryKeys ?? [])
  return [...search]
    .filter(([key]) => !CREDENTIAL_KEYS.has(key.toLowerCase()) && !ignored.has(key))
    .sort(([ka, va], [kb, vb]) => (ka < kb ? -1 : ka > kb ? 1 : va < vb ? -1 : va > vb ? 1 : 0))
}

/** A body as data: JSON parsed, form bodies as `{key: [values]}`, else the text itself. */
export function bodyData(text: string | undefined, contentType: string): unknown {
  if (text === undefined || text === '') return undefined
  if (/json/i.test(contentType) || /^\s*[[{]/.test(text)) {
    try {
      return JSON.parse(text) as unknown
    } catch {
      // A body that only looks like JSON is compared as text.
    }
  }
  if (/x-www-form-urlencoded/i.test(contentType)) {
    const out: Record<string, string[]> = {}
    for (const [key, value] of new URLSearchParams(text)) (out[key] ??= []).push(value)
    return out
  }
  return text
}

/**
 * The shape of a request given as parts (what both doors and the recorder have at hand).
 * @param url absolute URL.
 * @param body the body text, when `options.matchBody` asks for it.
 */
export function requestShape(method: string, url: string, body: string | undefined, contentType: string, options: MatchOptions = {}): RequestShape {
  const parsed = new URL(url)
  const shape: RequestShape = { method: method.toUpperCase(), path: apiPath(parsed.pathname), query: queryPairs(parsed.searchParams, options) }
  if (options.matchBody) shape.body = bodyData(body, contentType)
  return shape
}

/** The shape of a recorded request. */
export function entryShape(entry: Entry, options: MatchOptions = {}): RequestShape {
  const { request } = entry
  return requestShape(request.method, request.url, request.postData?.text, request.postData?.mimeType ?? '', options)
}

/** True when recorded text `recorded` (which may hold placeholders) stands for `actual`. */
export function textMatches(recorded: string, actual: string): boolean {
  if (recorded === actual) return true
  if (!PLACEHOLDER.test(recorded)) return false
  const parts = recorded.split(new RegExp(PLACEHOLDER.source, 'g')).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  return new RegExp(`^${parts.join('[\\s\\S]+')}$`).test(actual)
}

/** Deep equality of body data, where recorded strings may hold placeholders. */
function dataMatches(recorded: unknown, actual: unknown): boolean {
  if (typeof recorded === 'string' && typeof actual === 'string') return textMatches(recorded, actual)
  if (Array.isArray(recorded)) {
    return Array.isArray(actual) && recorded.length === actual.length && recorded.every((item, i) => dataMatches(item, actual[i]))
  }
  if (recorded !== null && typeof recorded === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false
    const a = actual as Record<string, unknown>
    const r = recorded as Record<string, unknown>
    const keys = new Set([...Object.keys(r), ...Object.keys(a)])
    return [...keys].every((key) => key in r && key in a && dataMatches(r[key], a[key]))
  }
  return Object.is(recorded, actual)
}

function groupQuery(pairs: readonly [string, string][]): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const [key, value] of pairs) out.set(key, [...(out.get(key) ?? []), value])
  return out
}

function show(values: readonly string[]): string {
  return values.map((v) => JSON.stringify(v)).join(', ')
}

function queryDifferences(recorded: RequestShape['query'], actual: RequestShape['query']): Difference[] {
  const r = groupQuery(recorded)
  const a = groupQuery(actual)
  const out: Difference[] = []
  for (const key of [...new Set([...r.keys(), ...a.keys()])].sort()) {
    const rv = r.get(key)
    const av = a.get(key)
    if (!av) out.push({ part: 'query', detail: `query \`${key}\`: recorded ${show(rv!)}, missing here`, weight: 1 })
    else if (!rv) out.push({ part: 'query', detail: `query \`${key}\`: ${show(av)} here, not in the recording`, weight: 1 })
    else if (rv.length !== av.length || !rv.every((v, i) => textMatches(v, av[i]!))) {
      out.push({ part: 'query', detail: `query \`${key}\`: recorded ${show(rv)}, got ${show(av)}`, weight: 1 })
    }
  }
  return out
}

function bodyDifferences(recorded: unknown, actual: unknown): Difference[] {
  if (dataMatches(recorded, actual)) return []
  const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)
  if (isObject(recorded) && isObject(actual)) {
    const keys = [...new Set([...Object.keys(recorded), ...Object.keys(actual)])].sort()
    return keys
      .filter((key) => !(key in recorded && key in actual && dataMatches(recorded[key], actual[key])))
      .map((key) => ({
        part: 'body' as const,
        detail: !(key in actual)
          ? `body field \`${key}\`: recorded ${JSON.stringify(recorded[key])}, missing here`
          : !(key in recorded)
            ? `body field \`${key}\`: ${JSON.stringify(actual[key])} here, not in the recording`
            : `body field \`${key}\`: recorded ${JSON.stringify(recorded[key])}, got ${JSON.stringify(actual[key])}`,
        weight: 1,
      }))
  }
  const brief = (v: unknown): string => (v === undefined ? 'no body' : JSON.stringify(v).slice(0, 80))
  return [{ part: 'body', detail: `body: recorded ${brief(recorded)}, got ${brief(actual)}`, weight: 1 }]
}

/**
 * How `recorded` differs from `actual`; empty when they match. Bodies are compared only when both
 * shapes carry one (`matchBody`).
 */
export function differences(recorded: RequestShape, actual: RequestShape): Difference[] {
  const out: Difference[] = []
  if (recorded.method !== actual.method) out.push({ part: 'method', detail: `method: recorded ${recorded.method}, got ${actual.method}`, weight: 3 })
  if (recorded.path !== actual.path && !textMatches(recorded.path, actual.path)) {
    const rs = recorded.path.split('/')
    const as = actual.path.split('/')
    const changed = Math.max(rs.length, as.length) - rs.filter((segment, i) => segment === as[i]).length
    out.push({ part: 'path', detail: `path: recorded ${recorded.path}, got ${actual.path}`, weight: 2 * changed + (rs.length === as.length ? 0 : 2) })
  }
  out.push(...queryDifferences(recorded.query, actual.query))
  if ('body' in recorded || 'body' in actual) out.push(...bodyDifferences(recorded.body, actual.body))
  return out
}

/** A shape as one line: `GET /projects/20/labels?page=2`. */
export function describeShape(shape: RequestShape): string {
  const query = shape.query.map(([k, v]) => `${k}=${v}`).join('&')
  return `${shape.method} ${shape.path}${query ? `?${query}` : ''}`
}

/** Path segments that are words, not ids, where an id could stand. */
const STATIC_SEGMENTS = new Set(['all', 'promote', 'verify', 'reset_registration_token', 'subscribe', 'unsubscribe', 'mark_as_done', 'schedule'])

/** `/projects/20/hooks/7` → `/projects/:id/hooks/:id`: a route shape for grouping notes. */
export function routeTemplate(path: string): string {
  const segments = path.split('/').slice(1)
  return `/${segments.map((s, i) => (i % 2 === 1 && !STATIC_SEGMENTS.has(s) ? ':id' : s)).join('/')}`
}
