/**
 * Request generators for the route fuzz test (`routes.fuzz.test.ts`). A request is built from one
 * route's declaration (`sim.routes`: method, path template, declared params and their kinds) and
 * from the default scenario's records. Most requests are valid except for one part (the path, the
 * query, the body or the auth headers), so the broken part travels past the early checks and into
 * the handlers, where the text transformations and lookups are; a few break everything at once.
 * Nothing here knows a particular route: a new route is fuzzed as soon as it is registered.
 */
import fc from 'fast-check'
import type { Route, Simulator } from '../../src/index.js'

/** A request exactly as it goes on the wire. */
export interface FuzzRequest {
  method: string
  /** The path below `/api/v4`, percent-encoded as sent, malformed escapes included. */
  path: string
  /** The query string without `?`, raw; empty for none. */
  query: string
  headers: [string, string][]
  /** The body; with `latin1` every character is one byte (to send invalid UTF-8). */
  body?: { text: string; latin1?: boolean }
}

/** What the generators take from the scenario. */
export interface Fixtures {
  /**
   * Path segments that name a real record, by the static segment before the parameter
   * (`projects` → `20`, `acme%2Fwebsite`, ...; `labels` → `110`, `needs%20review`, ...).
   */
  segments: Record<string, string[]>
  /** Every segment above, for a parameter after a segment with no table of that name. */
  anySegment: string[]
  /** Every token in the scenario: valid, `read_api`, expired, revoked. */
  tokens: string[]
  /** Usernames, for `Sudo`. */
  usernames: string[]
  /**
   * Deep fuzzing (`deep.ts`): concrete paths by route key whose every `:param` names an existing
   * record (a route without any uses the table-based segments above).
   */
  paths?: Record<string, string[]>
  /** Deep fuzzing: a well-formed value (JSON fragment) for a declared param by its GitLab name, if the name means one. */
  valueFor?: (name: string, spec: Route['params'][string]) => fc.Arbitrary<string> | undefined
}

/** Sizes. CI keeps them moderate; `npm run fuzz` raises them. */
export interface FuzzSizes {
  /** Largest repeat count of an adversarial pattern (`'<script'.repeat(n)`). */
  textMax: number
}

/** Admin with the `sudo` scope, and an owner of group acme (README "Default scenario"). */
const ADMIN_TOKEN = 'glpat-root-fakelab'
const OWNER_TOKEN = 'glpat-olive-fakelab'

/**
 * `encodeURIComponent` that never throws: a lone surrogate (which has no UTF-8 form) becomes U+FFFD,
 * as it does in any UTF-8 body.
 */
export function encode(text: string): string {
  return encodeURIComponent(text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'))
}

/** Property names every plain object inherits, plus `__proto__` itself. */
const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty'] as const

/**
 * One of {@link PROTOTYPE_NAMES} as a whole value, `constructor` and `__proto__` twice as often:
 * they are the two that survive the lower-casing most name lookups do first.
 */
function inheritedName(): fc.Arbitrary<string> {
  return fc.oneof({ weight: 2, arbitrary: fc.constantFrom('constructor', '__proto__') }, { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_NAMES) })
}

/**
 * Reads the fixtures from a simulator loaded with the scenario: record ids and titles from
 * `sim.db.dump()`, full paths of projects and groups from the API itself (as root).
 */
export async function collectFixtures(sim: Simulator, baseUrl: string): Promise<Fixtures> {
  const segments: Record<string, string[]> = {}
  const tokens: string[] = []
  const usernames: string[] = []
  for (const [table, state] of Object.entries(sim.db.dump() as unknown as Record<string, unknown>)) {
    // Any shape of table dump: the first array of records in it.
    const rows = (Object.values(state as object).find(Array.isArray) ?? []) as Record<string, unknown>[]
    const add = (value: unknown): void => {
      if (typeof value === 'number' || typeof value === 'string') (segments[table] ??= []).push(encode(String(value)))
    }
    for (const row of rows) {
      add(row.id)
      add(row.title)
      if (typeof row.token === 'string') tokens.push(row.token)
      if (typeof row.username === 'string') usernames.push(row.username)
    }
  }
  const fullPaths = async (path: string, field: string): Promise<string[]> => {
    const res = await sim.handle(new Request(`${baseUrl}/api/v4${path}`, { headers: { 'PRIVATE-TOKEN': ADMIN_TOKEN } }))
    const body: unknown = await res.json()
    return Array.isArray(body) ? body.map((record) => encode(String((record as Record<string, unknown>)[field]))) : []
  }
  segments.projects = [...(segments.projects ?? []), ...(await fullPaths('/projects?per_page=100', 'path_with_namespace'))]
  segments.groups = [...(segments.groups ?? []), ...(await fullPaths('/groups?per_page=100&all_available=true', 'full_path'))]
  return { segments, anySegment: Object.values(segments).flat(), tokens, usernames }
}

// ---- values ---------------------------------------------------------------------------------------

/** Text that stresses every text transformation: entities, HTML, Markdown, huge repeats, odd code points. */
function adversarialText(sizes: FuzzSizes): fc.Arbitrary<string> {
  const n = fc.integer({ min: 1, max: sizes.textMax })
  const piece = fc.oneof(
    fc.constantFrom('x', 'needs review', ' ', 'é', '💥', '\u202e', '\u0000', '\u0007', '\ud800', '\ufffe', ',', '%', '\\', '"', "'", '\n', '\t'),
    // Numeric character references, most of them beyond U+10FFFF (twice the weight: they reach the entity decoder).
    { weight: 2, arbitrary: fc.nat(0xffffffff).map((c) => `&#${c};`) },
    { weight: 2, arbitrary: fc.nat(0xffffffff).map((c) => `&#x${c.toString(16)};`) },
    fc.constantFrom(...PROTOTYPE_NAMES).map((name) => `&${name};`),
    fc.constantFrom('&amp;', '&lt;', '&nbsp;', '&;', '&#;', '&#x;', '&#0;', '&#xD800;', '&#65', '&amp'),
    fc.tuple(fc.constantFrom('<script', '[a', '<', '<a ', '<!--', '<![CDATA[', '*', '_', '`', '![', '](', '&#', '\\', '~', '#', '>'), n)
      .map(([pattern, times]) => pattern.repeat(times)),
    n.map((times) => `${'<b>'.repeat(times)}x${'</b>'.repeat(times)}`),
    n.map((times) => `${'['.repeat(times)}x${'](y)'.repeat(times)}`),
    fc.constantFrom('<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '[x](javascript:alert(1))', '**b** _i_ `c`', '<a href="http://x">y</a>', '<svg onload=x>', ':smile:', '${x}'),
  )
  return fc.oneof(
    { weight: 3, arbitrary: fc.array(piece, { minLength: 1, maxLength: 4 }).map((pieces) => pieces.join('')) },
    // One pattern repeated alone: the shape that makes a super-linear regular expression slow.
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('<script', '[a', '<a ', '<!--', '&#', '*', '`', '!['), n).map(([pattern, times]) => pattern.repeat(times)) },
    // Whole values that name inherited properties: lookups in plain objects must not find them.
    { weight: 3, arbitrary: inheritedName() },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  )
}

/** A JSON fragment of the wrong type or size for anything: nulls, huge numbers, nesting. */
function wrongTypeJson(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom('null', 'true', 'false', '0', '-1', '1.5', '-0', '1e308', '1e999', '9007199254740993', '123456789012345678901234567890', '""', '"abc"', '[]', '{}', '[1,[2]]', '{"a":{"b":{}}}', '["x","y"]'),
    fc.integer({ min: 1, max: 200 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
    fc.integer({ min: 1, max: 200 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
    fc.constantFrom(...PROTOTYPE_NAMES).map((name) => JSON.stringify(name)),
  )
}

/**
 * Values that pass validation for params of these names, so that the rest of a request reaches
 * the handler (colours, cron expressions, time zones, dates). Other params get their kind's plain value.
 */
const VALID_BY_NAME: Record<string, readonly unknown[]> = {
  color: ['#428BCA', 'red', '#FFF'],
  freeze_start: ['0 23 * * 5'],
  freeze_end: ['0 7 * * 1'],
  cron_timezone: ['UTC', 'Europe/Berlin'],
  due_date: ['2021-06-30'],
  start_date: ['2021-05-01'],
}

type ParamSpec = Route['params'][string]

/**
 * A plausible valid value for a declared param, as a JSON fragment: one of its `values`, else one
 * the scenario makes valid (`fixtures.valueFor`), else a known-good value for its name, else its kind's.
 */
function validJson(name: string, spec: ParamSpec, fixtures: Fixtures): fc.Arbitrary<string> {
  const values = (spec as { values?: readonly unknown[] }).values
  if (values && values.length > 0) {
    // An array param's `values` list its elements: send a few of them.
    if (spec.kind === 'integer[]' || spec.kind === 'string[]') return fc.subarray([...values], { minLength: 1, maxLength: 2 }).map((v) => JSON.stringify(v))
    return fc.constantFrom(...values).map((v) => JSON.stringify(v))
  }
  const deep = fixtures.valueFor?.(name, spec)
  if (deep) return deep
  const listed = VALID_BY_NAME[name]
  if (listed && listed.length > 0) return fc.constantFrom(...listed).map((v) => JSON.stringify(v))
  switch (spec.kind) {
    case 'integer':
    case 'integerOrString':
      return fc.integer({ min: 1, max: 120 }).map(String)
    case 'float':
      return fc.constantFrom('0', '12.5', '"80.25"')
    case 'boolean':
      return fc.constantFrom('true', 'false', '"true"', '"false"')
    case 'date':
      return fc.constant('"2021-05-01"')
    case 'datetime':
      return fc.constant('"2021-05-01T00:00:00Z"')
    case 'integer[]':
      return fc.constant('[1,2]')
    case 'string[]':
      return fc.constant('["a","b"]')
    case 'hash':
      return fc.constant('{}')
    case 'file':
      // A file: a multipart file part (see `multipart`); sent any other way it stays an object.
      return fc.constantFrom(FILE_PARTS[0], FILE_PARTS[1])
    default:
      // A fresh word: names and titles must not collide with existing records.
      return fc.stringMatching(/^[a-z][a-z0-9-]{0,11}$/).map((word) => JSON.stringify(`fuzz-${word}`))
  }
}

/** A broken value for a declared param: adversarial text for strings, else a wrong type. */
function brokenJson(spec: ParamSpec, sizes: FuzzSizes): fc.Arbitrary<string> {
  if (spec.kind !== 'string') return wrongTypeJson()
  return fc.oneof(
    { weight: 3, arbitrary: adversarialText(sizes).map((s) => JSON.stringify(s)) },
    // An inherited property's name as the whole value: colour, entity and access level names are looked up by value.
    { weight: 2, arbitrary: inheritedName().map((s) => JSON.stringify(s)) },
    { weight: 1, arbitrary: wrongTypeJson() },
  )
}

/** The declared params that are not path params. */
function bodyParams(route: Route): [string, ParamSpec][] {
  const inPath = new Set([...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]))
  return Object.entries(route.params).filter(([name]) => !inPath.has(name))
}

/** How many declared params a request spoils: none, exactly one (the rest stay valid, so it gets far), or about half. */
type Spoil = 'none' | 'one' | 'half'

/** Declared params as `[name, JSON fragment]` pairs: required ones always, others sometimes. */
function params(route: Route, fixtures: Fixtures, sizes: FuzzSizes, spoil: Spoil): fc.Arbitrary<[string, string][]> {
  const declared = bodyParams(route)
  const entries = declared.map(([name, spec]) =>
    fc.record({ present: spec.required ? fc.constant(true) : fc.boolean(), valid: validJson(name, spec, fixtures), broken: brokenJson(spec, sizes), coin: fc.boolean() }),
  )
  const spoiled = spoil === 'one' && declared.length > 0 ? fc.nat(declared.length - 1) : fc.constant(-1)
  return fc.tuple(spoiled, fc.tuple(...entries)).map(([index, values]) =>
    values.flatMap(({ present, valid, broken, coin }, i): [string, string][] => {
      const name = declared[i]![0]
      if (i === index) return [[name, broken]]
      if (!present) return []
      return [[name, spoil === 'half' && coin ? broken : valid]]
    }),
  )
}

// ---- bodies and queries ---------------------------------------------------------------------------

/** `{"k": v, ...}` from fragments: duplicate and `__proto__` keys stay as written. */
function jsonObject(pairs: [string, string][]): string {
  return `{${pairs.map(([key, json]) => `${JSON.stringify(key)}:${json}`).join(',')}}`
}

/** A fragment as a form or query value: the string itself, or the JSON text of anything else. */
function plain(json: string): string {
  try {
    const value: unknown = JSON.parse(json)
    return typeof value === 'string' ? value : json
  } catch {
    return json
  }
}

function formEncoded(pairs: [string, string][]): string {
  return pairs.map(([key, json]) => `${encode(key)}=${encode(plain(json))}`).join('&')
}

const BOUNDARY = 'fakelab-fuzz'

/** A `file` param's value: `{"$file": name}`, sent as a file part of that name (a few bytes of PNG) in multipart bodies. */
const FILE_PARTS = ['{"$file":"chart.png"}', '{"$file":"graph.jpg"}'] as const

/** The file name of a {@link FILE_PARTS} value, if it is one. */
function fileName(json: string): string | undefined {
  return (FILE_PARTS as readonly string[]).includes(json) ? (JSON.parse(json) as { $file: string }).$file : undefined
}

function multipart(pairs: [string, string][]): string {
  const parts = pairs.map(([key, json]) => {
    const file = fileName(json)
    if (file) return `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${key}"; filename="${file}"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n\x1a\n\r\n`
    return `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${plain(json)}\r\n`
  })
  return `${parts.join('')}--${BOUNDARY}--\r\n`
}

/** Where the params go, and the body that results. */
interface Carried {
  query: string
  contentType?: string
  body?: FuzzRequest['body']
}

/** The params carried the ways clients send them: JSON (mostly), form, multipart, or the query string. */
function carry(pairs: [string, string][], hasBody: boolean): fc.Arbitrary<Carried> {
  if (!hasBody) return fc.constant({ query: formEncoded(pairs) })
  // A file goes as a file part: multipart, as clients upload it.
  if (pairs.some(([, json]) => fileName(json))) return fc.constant({ query: '', contentType: `multipart/form-data; boundary=${BOUNDARY}`, body: { text: multipart(pairs), latin1: true } })
  return fc.oneof(
    { weight: 5, arbitrary: fc.constant({ query: '', contentType: 'application/json', body: { text: jsonObject(pairs) } }) },
    { weight: 1, arbitrary: fc.constant({ query: '', contentType: 'application/x-www-form-urlencoded', body: { text: formEncoded(pairs) } }) },
    { weight: 1, arbitrary: fc.constant({ query: '', contentType: `multipart/form-data; boundary=${BOUNDARY}`, body: { text: multipart(pairs) } }) },
    { weight: 1, arbitrary: fc.constant({ query: formEncoded(pairs) }) },
  )
}

/** A JSON value nested `depth` arrays or objects deep (`open` is `[` or `{"a":`), around `1`. */
function nested(depth: number, open: string): string {
  return `${open.repeat(depth)}1${(open === '[' ? ']' : '}').repeat(depth)}`
}

/** Bodies that are not what they claim to be, or claim nothing: the body part of a broken request. */
function brokenBody(pairs: [string, string][]): fc.Arbitrary<Carried> {
  const withType = (contentType: string | undefined, text: string, latin1 = false): Carried => ({ query: '', contentType, body: { text, latin1 } })
  const json = 'application/json'
  return fc.oneof(
    // Junk where multipart is announced (GitLab: 400).
    { weight: 3, arbitrary: fc.constantFrom('junk', '', '--x', '--x\r\n\r\n', '--x\r\nContent-Disposition: form-data\r\n\r\nv\r\n--x--', '--y\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--y--\r\n', '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nunterminated')
      .chain((junk) => fc.constantFrom('multipart/form-data; boundary=x', 'multipart/form-data', 'multipart/form-data; boundary=', 'Multipart/Form-Data; boundary="x"').map((type) => withType(type, junk))) },
    { weight: 2, arbitrary: fc.constantFrom('{', '{"name":', 'nul', '{"a":1,}', "{'a':1}", '\u0000', '{"a":"\\ud800"}', '['.repeat(1000), '{"a":1}{"b":2}', '\ufeff{}').map((text) => withType(json, text)) },
    { weight: 1, arbitrary: fc.constantFrom('[]', '1', '"x"', 'null', 'true', '1e999', '[{"name":"x"}]').map((text) => withType(json, text)) },
    // Prototype property names as keys, beside the declared params.
    { weight: 2, arbitrary: fc.subarray([['__proto__', '{"admin":true}'], ['constructor', '{"prototype":{"admin":true}}'], ['prototype', '{"x":1}'], ['toString', '1'], ['hasOwnProperty', 'null']] as [string, string][], { minLength: 1 })
      .map((extra) => withType(json, jsonObject([...extra, ...pairs]))) },
    { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/xml', 'application/octet-stream', 'application/json; charset=utf-16', 'APPLICATION/JSON', 'application/x-www-form-urlencoded', undefined)
      .map((type) => withType(type, jsonObject(pairs))) },
    // Nesting just within and beyond GitLab's JSON parser (Ruby's `max_nesting` 100), at the top and
    // inside a declared param, up to far beyond any stack: a 400 or the route's answer, never a 5xx.
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom(99, 100, 101, 5_000, 200_000), fc.constantFrom('[', '{"a":'), fc.boolean())
      .map(([depth, open, inParam]) => withType(json, inParam ? jsonObject([[pairs[0]?.[0] ?? 'a', nested(depth - 1, open)], ...pairs.slice(1)]) : nested(depth, open))) },
    // Invalid UTF-8 inside JSON and form bodies.
    { weight: 1, arbitrary: fc.constantFrom('{"name":"\xc3\x28","color":"red","title":"\xff"}', 'name=%C3%28&title=\xc3\x28&color=red')
      .map((text) => withType(text.startsWith('{') ? json : 'application/x-www-form-urlencoded', text, true)) },
  )
}

/** Extra query pairs: Rack's array and hash syntax, prototype names, bad escapes, NUL, invalid UTF-8, oversized values. */
function oddQuery(route: Route, sizes: FuzzSizes): fc.Arbitrary<string> {
  const key = fc.constantFrom(
    ...bodyParams(route).map(([name]) => name),
    'a[]', 'a[b]', 'a[][b]', 'a[b][c][d][e][f][g]', '__proto__', '__proto__[admin]', 'constructor[prototype][admin]', 'prototype', 'toString',
    'page', 'per_page', 'sudo', 'private_token', 'access_token', '', '%ZZ', '%00', 'a%5B%5D', 'search',
  )
  const value = fc.oneof(
    fc.constantFrom('', '1', '-1', '0', '99999999999999999999', '1e3', 'true', 'abc', '%00', '%C3%28', '%ZZ', '%', '%E9', '%ED%A0%80', '%FF', '+', '%2B', 'a%26b%3Dc', 'glpat-root-fakelab', 'nora', 'ghost'),
    adversarialText(sizes).map(encode),
    // Oversized: the 414 limit is 10 KiB.
    fc.integer({ min: 1, max: 12 * 1024 }).map((n) => 'x'.repeat(n)),
  )
  return fc.array(fc.tuple(key, value), { minLength: 1, maxLength: 6 }).map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'))
}

// ---- path and auth ---------------------------------------------------------------------------------

/** Segments that are malformed, or valid but absurd: bad escapes, encoded slashes, huge and negative numbers, unicode. */
const MALFORMED_SEGMENTS = [
  '%ZZ', '%', '%E9', '%ED%A0%80', '%C3%28', '%FF', '%C0%AF', '%u0041', '%%', '%00', '%2F', 'a%2Fb', '%2e%2e', '%25',
  '99999999999999999999999', '-1', '0', '1.5', '1e3', '0x1F', '+1', '%201', 'é', '💥', '\u202e', ...PROTOTYPE_NAMES,
]

/** A path parameter: a real record (by the table its preceding segment names), or something malformed. */
function segment(route: Route, name: string, fixtures: Fixtures, broken: boolean): fc.Arbitrary<string> {
  const before = route.path.split('/')
  const table = before[before.indexOf(`:${name}`) - 1] ?? ''
  const real = fc.constantFrom(...(fixtures.segments[table] ?? fixtures.anySegment))
  if (!broken) return real
  // Raw '/', '?' and '#' would change the route rather than the parameter.
  const random = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).map((s) => s.replace(/[/?#]/g, encode))
  return fc.oneof({ weight: 2, arbitrary: real }, { weight: 4, arbitrary: fc.constantFrom(...MALFORMED_SEGMENTS) }, { weight: 1, arbitrary: random })
}

/** The route's path with every `:param` segment filled in. */
function pathOf(route: Route, fixtures: Fixtures, broken: boolean): fc.Arbitrary<string> {
  const parts = route.path.split('/')
  const filled = parts.map((part) => (part.startsWith(':') ? segment(route, part.slice(1), fixtures, broken) : fc.constant(part)))
  const bySegment = fc.tuple(...filled).map((values) => values.join('/'))
  const resolved = fixtures.paths?.[route.key]
  // Mostly a path whose every record exists, so that the request reaches the handler's own checks.
  if (broken || !resolved?.length) return bySegment
  return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...resolved) }, { weight: 1, arbitrary: bySegment })
}

/** Credentials that reach the handlers: the admin, or the owner of acme. */
function goodAuth(): fc.Arbitrary<[string, string][]> {
  // The admin twice as often: it may do everything, so more requests reach the deepest code.
  return fc.constantFrom(ADMIN_TOKEN, ADMIN_TOKEN, OWNER_TOKEN).map((token) => [['PRIVATE-TOKEN', token]])
}

/** Odd credentials: none, unknown, empty, malformed bearer, every scenario token, sudo to odd users. */
function oddAuth(fixtures: Fixtures): fc.Arbitrary<[string, string][]> {
  const sudoTarget = fc.constantFrom(...fixtures.usernames, 'ghost', '999999', '0', '-1', '', ' ', 'NORA', '__proto__', 'constructor', '%00', 'x'.repeat(300))
  return fc.oneof(
    fc.constant<[string, string][]>([]),
    fc.constantFrom(...fixtures.tokens, 'glpat-unknown', '', ' ', 'x'.repeat(500), `${ADMIN_TOKEN} `, '__proto__').map((t): [string, string][] => [['PRIVATE-TOKEN', t]]),
    fc.constantFrom('Bearer', 'Bearer ', 'Bearer  x', `Bearer ${ADMIN_TOKEN}`, `bearer ${OWNER_TOKEN}`, 'Bearer glpat-unknown', 'Basic Zm9vOmJhcg==', 'Token x', 'Bearer \u00ff')
      .map((value): [string, string][] => [['Authorization', value]]),
    fc.tuple(fc.constantFrom(...fixtures.tokens), sudoTarget).map(([token, target]): [string, string][] => [['PRIVATE-TOKEN', token], ['Sudo', target]]),
    fc.constantFrom('x', '', ADMIN_TOKEN).map((t): [string, string][] => [['JOB-TOKEN', t]]),
  )
}

// ---- requests ----------------------------------------------------------------------------------------

/** What is broken in a request: `values` is one declared param, `transport` the body's encoding. */
type Focus = 'nothing' | 'path' | 'query' | 'values' | 'transport' | 'auth' | 'everything'

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH']

function request(route: Route, fixtures: Fixtures, sizes: FuzzSizes, focus: Focus): fc.Arbitrary<FuzzRequest> {
  const all = focus === 'everything'
  const method = all ? fc.constantFrom(route.method, ...METHODS) : fc.constant(route.method)
  const spoil: Spoil = all ? 'half' : focus === 'values' ? 'one' : 'none'
  return fc.tuple(method, params(route, fixtures, sizes, spoil)).chain(([verb, pairs]) => {
    const hasBody = verb !== 'GET'
    const carried = (focus === 'transport' || all) && hasBody ? fc.oneof(carry(pairs, hasBody), brokenBody(pairs)) : carry(pairs, hasBody)
    return fc.record({
      path: pathOf(route, fixtures, focus === 'path' || all),
      carried,
      extraQuery: focus === 'query' || all ? oddQuery(route, sizes) : fc.constant(''),
      auth: focus === 'auth' || all ? oddAuth(fixtures) : goodAuth(),
    }).map(({ path, carried: c, extraQuery, auth }): FuzzRequest => ({
      method: verb,
      path,
      query: [c.query, extraQuery].filter((q) => q !== '').join('&'),
      headers: c.contentType === undefined ? auth : [...auth, ['Content-Type', c.contentType]],
      body: c.body,
    }))
  })
}

/**
 * Requests for one route: mostly valid with one part broken, sometimes valid, sometimes broken
 * throughout. Routes that take a body get more requests with a broken value or body: that is
 * where the text transformations are.
 * @param sizes how large adversarial texts may grow.
 */
export function fuzzRequests(route: Route, fixtures: Fixtures, sizes: FuzzSizes): fc.Arbitrary<FuzzRequest> {
  const body = route.method !== 'GET'
  const weights: [Focus, number][] = [['nothing', 1], ['path', 2], ['query', 2], ['values', body ? 6 : 3], ['transport', body ? 3 : 0], ['auth', 2], ['everything', 1]]
  return fc.oneof(...weights.filter(([, w]) => w > 0).map(([focus, weight]) => ({ weight, arbitrary: request(route, fixtures, sizes, focus) })))
}

/**
 * Well-formed requests for one route (issue 13, determinism and load scripts): valid as the admin
 * or an owner (3 in 5), with one declared param broken (1 in 5), or with odd credentials (1 in 5).
 * Nothing the HTTP clients could rewrite on the way (no malformed paths, bodies or methods).
 */
export function wellFormedRequests(route: Route, fixtures: Fixtures): fc.Arbitrary<FuzzRequest> {
  const sizes = { textMax: 20 }
  return fc.oneof(
    { weight: 3, arbitrary: request(route, fixtures, sizes, 'nothing') },
    { weight: 1, arbitrary: request(route, fixtures, sizes, 'values') },
    { weight: 1, arbitrary: request(route, fixtures, sizes, 'auth') },
  )
}
