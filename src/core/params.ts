/**
 * Request parameters: reading them (query string, JSON, form and multipart bodies alike, with
 * Rack's `name[]=` arrays and `name[key]=` hashes) and validating declared ones the way Grape does,
 * with Grape's messages (`"title is missing"`, `"... is invalid"`, `"... does not have a valid value"`).
 * Source: api-spec.md "Limits"; gitlab-behaviour.md §1.3; client-wire-facts.md "Requests".
 * @module
 */
import qs from 'qs'
import { emptyMessageBody, grapeError, malformedRequest } from './errors.js'
import { decodeUtf8Strict, malformedQuery } from './malformed.js'
import type { CoreRequest } from './transport.js'
import { blank } from './ruby.js'

/** Raw parameters as they arrived: strings, arrays, nested hashes, JSON values, or uploaded files. */
export type RawParams = Record<string, unknown>

const QS_OPTIONS = { depth: 5, arrayLimit: 1000, parameterLimit: 10_000, allowDots: false } as const

/**
 * Copies the params of `source` into `target`, later sources winning, as `{ ...target, ...source }`
 * would: own enumerable keys only, and a `__proto__` key (JSON can carry one) stays a plain key
 * instead of reaching the prototype setter.
 *
 * Why not spread: objects built by spreading with further keys (`{ ...a, ...b }`, `{ ...a, k: v }`)
 * survive V8's young-generation collections in bulk on Node 20 (measured: megabytes per
 * scavenge with nothing holding them), so they are promoted and the old space, and the process's
 * memory, grows between full collections.
 * @returns `target`.
 */
export function assignParams(target: RawParams, source: RawParams): RawParams {
  for (const key in source) {
    if (!Object.prototype.hasOwnProperty.call(source, key)) continue
    if (key === '__proto__') Object.defineProperty(target, key, { value: source[key], enumerable: true, writable: true, configurable: true })
    else target[key] = source[key]
  }
  return target
}

/** Parses a query string (without `?`) into Rack-style nested params. `+` means a space. */
export function parseQuery(search: string): RawParams {
  const text = search.startsWith('?') ? search.slice(1) : search
  if (!text) return {}
  return parseFlatQuery(text) ?? (qs.parse(text, QS_OPTIONS) as RawParams)
}

/** What makes a query more than flat `key=value` pairs to qs: a bracket, plain or percent-encoded. */
const NESTED_QUERY = /[[\]]|%5[bd]/i
/** Pairs the flat reading takes at most; longer queries go to qs (whose limit is {@link QS_OPTIONS}'). */
const MAX_FLAT_PAIRS = 64
const hasOwn = Object.prototype.hasOwnProperty

/** qs's decoding of one key or value (its `utils.decode`, UTF-8): `+` is a space, a bad escape stays as it is. */
function decodeQs(text: string): string {
  const spaced = text.indexOf('+') === -1 ? text : text.replace(/\+/g, ' ')
  if (spaced.indexOf('%') === -1) return spaced
  try {
    return decodeURIComponent(spaced)
  } catch {
    return spaced
  }
}

/**
 * `qs.parse(text, QS_OPTIONS)` for the queries clients send nearly always: flat `key=value` pairs,
 * each key once, no brackets. Byte for byte what qs gives (compared over generated queries in
 * test/unit/params.test.ts), without qs's option handling, key splitting and merging per request.
 * @returns `undefined` when qs must read it: a bracket (plain or `%5B`/`%5D`), a key given twice,
 *   more than {@link MAX_FLAT_PAIRS} pairs.
 */
function parseFlatQuery(text: string): RawParams | undefined {
  if (NESTED_QUERY.test(text)) return undefined
  const params: RawParams = {}
  let start = 0
  for (let count = 0; start <= text.length; count++) {
    if (count === MAX_FLAT_PAIRS) return undefined
    let end = text.indexOf('&', start)
    if (end === -1) end = text.length
    const eq = text.indexOf('=', start)
    const split = eq !== -1 && eq < end
    const key = decodeQs(text.slice(start, split ? eq : end))
    const value = split ? decodeQs(text.slice(eq + 1, end)) : ''
    start = end + 1
    // qs drops an empty key, and (allowPrototypes off) one that names an Object.prototype member.
    if (key === '' || hasOwn.call(Object.prototype, key)) continue
    if (hasOwn.call(params, key)) return undefined
    params[key] = value
  }
  return params
}

/** Rack's test for a multipart boundary (`Rack::Multipart::Parser.parse_boundary`). */
const BOUNDARY = /^multipart\/.*boundary="?([^";,]+)"?/i

/**
 * Reads the request body into params by its content type: JSON, `x-www-form-urlencoded` or
 * `multipart/form-data`. Anything else (or no body) gives `{}`, like Rack ignoring an unknown body.
 * python-gitlab sends `Content-Type: application/json` with an empty body on GET/DELETE: that is `{}`.
 * A `multipart/form-data` body without a boundary is read as a form, as Rack falls back to.
 * @throws ApiError 400 `{error: "..."}` for a malformed JSON body (one nested deeper than
 *   {@link MAX_JSON_NESTING} included), 400 `{error: "Empty message body
 *   supplied with <type> content-type"}` for a multipart body that does not parse, and 400
 *   `text/plain` `Bad Request` for a form body with a bad percent-escape or a body that is not
 *   UTF-8 (`HandleMalformedStrings`, see `malformed.ts`).
 */
export async function parseBody(request: CoreRequest): Promise<RawParams> {
  if (request.method === 'GET' || request.method === 'HEAD') return {}
  const bytes = await request.body()
  if (!bytes) return {}
  const contentType = request.header('content-type') ?? ''
  const type = contentType.toLowerCase()
  if (type.includes('multipart/form-data') && BOUNDARY.test(contentType)) return parseMultipart(bytes, contentType)
  const text = decodeUtf8Strict(bytes)
  if (text === undefined) throw malformedRequest()
  if (text.trim() === '') return {}
  if (type.includes('application/x-www-form-urlencoded') || type.includes('multipart/form-data')) return parseForm(text)
  if (type.includes('json') || type === '') {
    const parsed = parseJson(text)
    if (parsed !== REFUSED) return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as RawParams) : {}
    if (type === '') return parseForm(text)
    // spec-gap: GitLab's Rack JSON parser answers 400 on a malformed body; the wording is ours.
    throw grapeError('The provided request body is not valid JSON')
  }
  return {}
}

/**
 * How deep Ruby's JSON parser lets arrays and objects nest (`JSON.parse`'s `max_nesting` default,
 * the one GitLab's parsers keep): a document nested deeper is refused as malformed (`JSON::NestingError`
 * is a `JSON::ParserError`). The top-level array or object is level 1. Source: ruby/json parser.rl.
 */
export const MAX_JSON_NESTING = 100

/** What {@link parseJson} gives for text Ruby's JSON parser refuses. */
const REFUSED = Symbol('refused')

/**
 * Parses a JSON body as GitLab's parser would: {@link REFUSED} for text that is not JSON or nests
 * deeper than {@link MAX_JSON_NESTING}. The depth is measured first, in one pass, so a body nested
 * far beyond any stack costs time linear in its size and never reaches code that recurses.
 */
function parseJson(text: string): unknown {
  if (jsonNestsDeeperThan(text, MAX_JSON_NESTING)) return REFUSED
  try {
    return JSON.parse(text) as unknown
  } catch {
    return REFUSED
  }
}

/**
 * Whether JSON text nests arrays and objects more than `max` deep, skipping what is inside strings.
 * Exact for valid JSON; for invalid text any answer is fine, as the parser refuses it anyway.
 */
export function jsonNestsDeeperThan(text: string, max: number): boolean {
  // Nesting deeper than `max` takes at least `max + 1` brackets to open and as many to close.
  if (text.length < 2 * (max + 1)) return false
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++ // a backslash escapes the next character
      else if (c === 0x22) inString = false
    } else if (c === 0x22) {
      inString = true
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true
    } else if (c === 0x5d || c === 0x7d) {
      depth--
    }
  }
  return false
}

function parseForm(text: string): RawParams {
  if (malformedQuery(text)) throw malformedRequest()
  return parseQuery(text)
}

/**
 * Multipart through the platform's own parser (Fetch `Response.formData()`, in Node and browsers
 * alike): fields become Rack-style params, files stay `File`s.
 */
async function parseMultipart(bytes: Uint8Array, contentType: string): Promise<RawParams> {
  let form: FormData
  try {
    // A Node Buffer may sit on a shared ArrayBuffer, which the DOM typings exclude; Response copies it.
    form = await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': contentType } }).formData()
  } catch {
    throw emptyMessageBody(contentType)
  }
  const pairs: string[] = []
  // No prototype: a file field named `__proto__` must stay a field.
  const files: RawParams = Object.create(null) as RawParams
  for (const [key, value] of form.entries()) {
    if (typeof value === 'string') pairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    else files[key] = withBytes(value, new Uint8Array(await value.arrayBuffer()))
  }
  return assignParams(assignParams({}, parseQuery(pairs.join('&'))), files)
}

/** Where {@link parseBody} keeps an uploaded file's bytes, read while the body is read. */
const UPLOADED_BYTES = new WeakMap<Blob, Uint8Array>()

function withBytes(file: Blob, bytes: Uint8Array): Blob {
  UPLOADED_BYTES.set(file, bytes)
  return file
}

/**
 * The bytes of a file uploaded in a multipart body. Handlers run synchronously inside a store
 * transaction, so the bytes are read with the body, before the handler, and handed out here.
 * @returns the bytes, or an empty array for a Blob that did not come from a request body.
 */
export function uploadedBytes(file: Blob): Uint8Array {
  return UPLOADED_BYTES.get(file) ?? new Uint8Array()
}

// ---- declarations ---------------------------------------------------------------------------

/** The Grape types we declare params with. */
export type ParamKind =
  | 'integer'
  | 'string'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'integer[]'
  | 'string[]'
  | 'hash'
  | 'file'
  | 'integerOrString'
  | 'float'

interface KindType {
  integer: number
  string: string
  boolean: boolean
  date: string
  datetime: string
  'integer[]': number[]
  'string[]': string[]
  hash: Record<string, unknown>
  file: Blob
  integerOrString: number | string
  float: number
}

/** Options every declaration accepts. */
export interface ParamOptions<T> {
  /** `requires` in Grape: absent → `"<p> is missing"`. */
  required?: boolean
  /** Used when absent (Grape `default:`). */
  default?: T
  /** Allowed values (Grape `values:`): otherwise `"<p> does not have a valid value"`. Compared after coercion. */
  values?: readonly (T extends readonly (infer E)[] ? E : T)[]
  /** Disallowed values (Grape `except_values:`): `"<p> has a value not allowed"`. */
  exceptValues?: readonly T[]
  /** `allow_blank: false`: an empty string gives `"<p> is empty"`. */
  allowBlank?: boolean
  /** Value matches case-insensitively against `values` and is normalised to the listed spelling. */
  caseInsensitive?: boolean
  /** A JSON `null` reaches the handler as `null` ("remove this value", e.g. label `priority`); otherwise it reads as absent. */
  nullable?: boolean
}

/** One declared parameter. `T` is its coerced type, `D` whether it is always defined. */
export interface ParamSpec<T = unknown, D extends boolean = boolean> extends ParamOptions<T> {
  kind: ParamKind
  /** Phantom: carries `D` for {@link ParamsOf}. */
  readonly defined?: D
}

/** A map of declared params. */
export type ParamSpecs = Record<string, ParamSpec>

/** The coerced params a handler sees for a declaration map: required/defaulted ones are never undefined. */
export type ParamsOf<P extends ParamSpecs> = {
  [K in keyof P]: P[K] extends ParamSpec<infer T, infer D> ? (D extends true ? T : T | undefined) : never
}

type Defined<O> = O extends { required: true } ? true : O extends { default: unknown } ? true : false

/** The coerced type: the `values` union when listed, else the kind's type. */
type Coerced<K extends ParamKind, O> = (O extends { values: readonly (infer V)[] }
  ? K extends 'integer[]' | 'string[]' ? V[] : V
  : KindType[K]) | (O extends { nullable: true } ? null : never)

function builder<K extends ParamKind>(kind: K) {
  return <const O extends ParamOptions<KindType[K]> = Record<never, never>>(options?: O): ParamSpec<Coerced<K, O>, Defined<O>> =>
    ({ ...options, kind }) as ParamSpec<Coerced<K, O>, Defined<O>>
}

/**
 * Param declaration builders, named after Grape types:
 * `p.integer({ required: true })`, `p.string({ values: ['a', 'b'] })`, `p.boolean({ default: false })`.
 * Arrays (`integer[]`, `string[]`) also take comma-separated strings, as GitLab's
 * `CommaSeparatedToArray` does. `integerOrString` is GitLab's `[Integer, String]` (an id or a title);
 * `float` is Grape's `Float` (a number, or a decimal string).
 */
export const p = {
  integer: builder('integer'),
  string: builder('string'),
  boolean: builder('boolean'),
  date: builder('date'),
  datetime: builder('datetime'),
  integers: builder('integer[]'),
  strings: builder('string[]'),
  hash: builder('hash'),
  file: builder('file'),
  integerOrString: builder('integerOrString'),
  float: builder('float'),
}

/** Route-level rules, checked after the individual params (Grape `mutually_exclusive` & co.). */
export interface ParamRules {
  /** Grape `at_least_one_of`: none given → `"a, b are missing, at least one parameter must be provided"`. */
  atLeastOneOf?: string[]
  /** Grape `mutually_exclusive` (each group): two given → `"a, b are mutually exclusive"`. */
  mutuallyExclusive?: string[][]
  /** Grape `exactly_one_of`. */
  exactlyOneOf?: string[]
  /**
   * Grape `given :a do requires :b end`, per `a`: when `a` is given and not blank, each `b` not
   * given → `"b is missing"` (after the params' own errors, as the block follows them).
   */
  given?: Record<string, string[]>
}

const INVALID = Symbol('invalid')

/** What Ruby's `Float()` accepts of a decimal string (underscores between digits included). */
const FLOAT = /^\s*[-+]?(?:\d+(?:_\d+)*(?:\.\d+(?:_\d+)*)?|\.\d+)(?:[eE][-+]?\d+)?\s*$/

const TRUE = new Set(['true', 't', '1', 'yes', 'y', 'on'])
const FALSE = new Set(['false', 'f', '0', 'no', 'n', 'off'])

function coerceScalar(kind: ParamKind, value: unknown): unknown {
  switch (kind) {
    case 'string':
      if (typeof value === 'string') return value
      if (typeof value === 'number' || typeof value === 'boolean') return String(value)
      return INVALID
    case 'integer':
      if (typeof value === 'number') return Number.isInteger(value) ? value : INVALID
      if (typeof value === 'string' && /^\s*[-+]?\d+\s*$/.test(value)) return Number.parseInt(value, 10)
      return INVALID
    case 'float':
      // Grape's Float: a JSON number, or a string Ruby's `Float()` reads (sign, digits, fraction, exponent).
      if (typeof value === 'number') return Number.isFinite(value) ? value : INVALID
      if (typeof value === 'string' && FLOAT.test(value)) return Number.parseFloat(value.replace(/_/g, ''))
      return INVALID
    case 'integerOrString':
      if (typeof value === 'number' && Number.isInteger(value)) return value
      if (typeof value === 'string') return /^\d+$/.test(value) ? Number.parseInt(value, 10) : value
      return INVALID
    case 'boolean': {
      if (typeof value === 'boolean') return value
      if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : INVALID
      if (typeof value !== 'string') return INVALID
      const lower = value.trim().toLowerCase()
      return TRUE.has(lower) ? true : FALSE.has(lower) ? false : INVALID
    }
    case 'date': {
      if (typeof value !== 'string') return INVALID
      const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value.trim())
      if (!match) return INVALID
      const date = new Date(`${match[1]}-${match[2]}-${match[3]}T00:00:00Z`)
      if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== match[0]) return INVALID
      return match[0]
    }
    case 'datetime': {
      if (typeof value !== 'string' || value.trim() === '') return INVALID
      const date = new Date(value.trim())
      return Number.isNaN(date.getTime()) ? INVALID : date.toISOString()
    }
    case 'hash':
      return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : INVALID
    case 'file':
      return typeof Blob !== 'undefined' && value instanceof Blob ? value : INVALID
    default:
      return INVALID
  }
}

function coerce(kind: ParamKind, value: unknown): unknown {
  if (kind === 'integer[]' || kind === 'string[]') {
    const scalar = kind === 'integer[]' ? 'integer' : 'string'
    let items: unknown[]
    if (Array.isArray(value)) items = value.flatMap((v) => (typeof v === 'string' ? v.split(',') : [v]))
    else if (typeof value === 'string') items = value === '' ? [] : value.split(',')
    else if (typeof value === 'number') items = [value]
    else if (value !== null && typeof value === 'object') items = Object.values(value) // a[0]=x&a[1]=y
    else return INVALID
    const out: unknown[] = []
    for (const item of items) {
      const trimmed = typeof item === 'string' ? item.trim() : item
      if (trimmed === '') continue
      const coerced = coerceScalar(scalar, trimmed)
      if (coerced === INVALID) return INVALID
      out.push(coerced)
    }
    return out
  }
  return coerceScalar(kind, value)
}

/** Grape's `allow_blank: false` check: Ruby's `blank?`, except that `false` is a value. */
function isBlank(value: unknown): boolean {
  return value !== false && blank(value)
}

function given(raw: RawParams, name: string): boolean {
  return Object.prototype.hasOwnProperty.call(raw, name) && raw[name] !== undefined
}

/**
 * Validates and coerces the declared params, Grape-style: each param in declaration order, then the
 * route rules; every failure is collected and reported at once, joined with `", "`.
 * An empty string for a non-string type counts as "not given" (Rack/Grape coerce it to nil).
 * @returns the declared params, coerced, with defaults filled in.
 * @throws ApiError 400 `{error: "<p> is missing, <q> is invalid"}`.
 */
export function validateParams<P extends ParamSpecs>(specs: P, raw: RawParams, rules: ParamRules = {}): ParamsOf<P> {
  const out: Record<string, unknown> = {}
  const errors: string[] = []
  for (const name in specs) {
    const spec = specs[name]!
    let value = raw[name]
    const present = given(raw, name)
    const emptyNonString = typeof value === 'string' && value === '' && spec.kind !== 'string' && spec.kind !== 'string[]'
    if (!present || value === null || (emptyNonString && !spec.required)) {
      if (spec.required) errors.push(`${name} is missing`)
      else if (present && value === null && spec.nullable) out[name] = null
      // Only an object default can be changed by a handler; primitives are shared as they are.
      else if (spec.default !== undefined) out[name] = typeof spec.default === 'object' ? structuredClone(spec.default) : spec.default
      continue
    }
    if (spec.allowBlank === false && isBlank(value)) {
      errors.push(`${name} is empty`)
      continue
    }
    let coerced = coerce(spec.kind, value)
    if (coerced === INVALID) {
      errors.push(`${name} is invalid`)
      continue
    }
    if (spec.values) {
      const allowed = spec.values as readonly unknown[]
      const list = Array.isArray(coerced) ? coerced : [coerced]
      const normalised: unknown[] = []
      let ok = true
      for (const item of list) {
        const hit = spec.caseInsensitive && typeof item === 'string'
          ? allowed.find((a) => typeof a === 'string' && a.toLowerCase() === item.toLowerCase())
          : allowed.find((a) => a === item)
        if (hit === undefined) ok = false
        else normalised.push(hit)
      }
      if (!ok) {
        errors.push(`${name} does not have a valid value`)
        continue
      }
      coerced = Array.isArray(coerced) ? normalised : normalised[0]
    }
    if (spec.exceptValues && (spec.exceptValues as readonly unknown[]).includes(coerced)) {
      errors.push(`${name} has a value not allowed`)
      continue
    }
    value = coerced
    out[name] = value
  }
  const has = (name: string) => given(raw, name)
  if (rules.mutuallyExclusive) {
    for (const group of rules.mutuallyExclusive) {
      if (group.filter(has).length > 1) errors.push(`${group.join(', ')} are mutually exclusive`)
    }
  }
  if (rules.exactlyOneOf) {
    const count = rules.exactlyOneOf.filter(has).length
    if (count === 0) errors.push(`${rules.exactlyOneOf.join(', ')} are missing, exactly one parameter must be provided`)
    if (count > 1) errors.push(`${rules.exactlyOneOf.join(', ')} are mutually exclusive`)
  }
  for (const [dependency, required] of Object.entries(rules.given ?? {})) {
    if (has(dependency) && !isBlank(raw[dependency])) for (const name of required) if (!has(name)) errors.push(`${name} is missing`)
  }
  if (rules.atLeastOneOf && !rules.atLeastOneOf.some(has)) {
    errors.push(`${rules.atLeastOneOf.join(', ')} are missing, at least one parameter must be provided`)
  }
  if (errors.length > 0) throw grapeError([...new Set(errors)].join(', '))
  return out as ParamsOf<P>
}

/** @deprecated moved to `core/ruby.ts`; import it from there. */
export { rubyToI } from './ruby.js'
