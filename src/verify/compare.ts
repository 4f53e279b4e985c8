/**
 * Compares one recorded answer with the simulator's answer to the same request: the status, the
 * headers clients read, and the JSON body field by field. Browser-safe. Source: issue 15
 * ("It compares the status; the headers that clients read; and the JSON body field by field").
 * @module
 */
import { apiPath } from '../record/match.js'
import { childPath } from './paths.js'
import {
  hasPlaceholder,
  isDateTime,
  isUrl,
  mapHost,
  pluralKind,
  renameUrl,
  timestampShape,
  type IdMap,
  type Normalisations,
  type Origins,
  type SecretBindings,
} from './normalise.js'

/** What kind of difference. */
export type DifferenceKind = 'status' | 'missing' | 'extra' | 'type' | 'value' | 'key-order' | 'item-order' | 'timestamp-order'

/** One difference between a recorded and a simulated answer. */
export interface VerifyDifference {
  /** `status`, `headers.<name>`, `headers.link.<rel>[.<param>]` or a body path from `$`. */
  path: string
  kind: DifferenceKind
  /** The recorded value (absent for an `extra` field). */
  recorded?: unknown
  /** The simulated value (absent for a `missing` field). */
  simulated?: unknown
}

/** One side of an exchange, as compared. */
export interface AnswerParts {
  status: number
  /** Lower-case header name → value (the first value when repeated). */
  headers: ReadonlyMap<string, string>
  /** The body text; `undefined` when there is none. */
  body: string | undefined
}

/** What the comparison needs besides the two answers. */
export interface CompareContext {
  /** Kind of the body's top-level records (`labels` for `GET /projects/:id/labels`). */
  kind: string | undefined
  ids: IdMap
  secrets: SecretBindings
  origins: Origins
  normalise: Normalisations
}

/** The headers clients read (issue 15), besides `Link`, compared as values. */
const COMPARED_HEADERS = ['content-type', 'x-total', 'x-total-pages', 'x-per-page', 'x-page', 'x-next-page', 'x-prev-page', 'retry-after', 'location'] as const

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value)

function typeOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

/**
 * Every difference between two answers. A different status is the only difference reported for
 * the exchange (the bodies of two statuses are not the same document).
 */
export function compareAnswers(recorded: AnswerParts, simulated: AnswerParts, ctx: CompareContext): VerifyDifference[] {
  if (recorded.status !== simulated.status) return [{ path: 'status', kind: 'status', recorded: recorded.status, simulated: simulated.status }]
  const out: VerifyDifference[] = []
  compareHeaders(recorded.headers, simulated.headers, ctx, out)
  compareBodies(recorded, simulated, ctx, out)
  return out
}

function compareHeaders(recorded: ReadonlyMap<string, string>, simulated: ReadonlyMap<string, string>, ctx: CompareContext, out: VerifyDifference[]): void {
  for (const name of COMPARED_HEADERS) {
    const r = recorded.get(name)
    const s = simulated.get(name)
    const path = `headers.${name}`
    if (r === undefined && s === undefined) continue
    if (r === undefined) out.push({ path, kind: 'extra', simulated: s })
    else if (s === undefined) out.push({ path, kind: 'missing', recorded: r })
    else if (!sameString(r, s, ctx)) out.push({ path, kind: 'value', recorded: r, simulated: s })
  }
  compareLinks(recorded.get('link'), simulated.get('link'), ctx, out)
}

/** A parsed `Link` header: rel → the URL's path and its query parameters. */
interface LinkTarget {
  url: string
  path: string
  params: Map<string, string>
}

/** Parses `<url>; rel="next", <url>; rel="first"` into rel → target (the last of a repeated rel wins). */
export function parseLinkHeader(value: string | undefined): Map<string, LinkTarget> {
  const out = new Map<string, LinkTarget>()
  if (!value) return out
  for (const m of value.matchAll(/<([^>]*)>\s*((?:;\s*[^;,]+)*)/g)) {
    const url = m[1]!
    const rel = /;\s*rel="?([^";,]+)"?/.exec(m[2] ?? '')?.[1]
    if (!rel) continue
    const parsed = URL.canParse(url) ? new URL(url) : undefined
    const query = url.includes('?') ? url.slice(url.indexOf('?') + 1).split('#')[0]! : ''
    const params = new Map<string, string>()
    // Raw pairs, not URLSearchParams: a placeholder `[REDACTED-1]` must stay readable.
    for (const pair of query.split('&').filter((p) => p !== '')) {
      const eq = pair.indexOf('=')
      const key = eq < 0 ? pair : pair.slice(0, eq)
      params.set(safeDecode(key), safeDecode(eq < 0 ? '' : pair.slice(eq + 1)))
    }
    for (const r of rel.split(/\s+/)) out.set(r, { url, path: parsed?.pathname ?? url.split('?')[0]!, params })
  }
  return out
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    return text
  }
}

function compareLinks(recordedText: string | undefined, simulatedText: string | undefined, ctx: CompareContext, out: VerifyDifference[]): void {
  if (recordedText === undefined && simulatedText === undefined) return
  const recorded = parseLinkHeader(recordedText)
  const simulated = parseLinkHeader(simulatedText)
  for (const [rel, r] of recorded) {
    const path = `headers.link.${rel}`
    const s = simulated.get(rel)
    if (!s) {
      out.push({ path, kind: 'missing', recorded: r.url })
      continue
    }
    // Paths below /api/v4, so a relative URL root does not count (the host never does).
    const renamed = ctx.normalise.ids ? ctx.ids.renamePath(r.path) : r.path
    const rPath = apiPath(renamed)
    if (rPath !== apiPath(s.path)) out.push({ path: `${path}.(path)`, kind: 'value', recorded: r.path, simulated: s.path })
    // GitLab's Link URLs repeat the route's path params in the query (`milestone_id=223`): an id the
    // path renames is renamed there too.
    const pathIds = renamedSegments(r.path, renamed)
    for (const [key, value] of r.params) {
      const other = s.params.get(key)
      const at = `${path}.${key}`
      const expected = /(?:^|_)i?id$/.test(key) ? (pathIds.get(value) ?? value) : value
      if (other === undefined) out.push({ path: at, kind: 'missing', recorded: value })
      else if (!sameString(expected, other, ctx)) out.push({ path: at, kind: 'value', recorded: value, simulated: other })
    }
    for (const [key, value] of s.params) if (!r.params.has(key)) out.push({ path: `${path}.${key}`, kind: 'extra', simulated: value })
  }
  for (const [rel, s] of simulated) if (!recorded.has(rel)) out.push({ path: `headers.link.${rel}`, kind: 'extra', simulated: s.url })
}

/** The numeric path segments a rename changed: recorded value → renamed value. */
function renamedSegments(recorded: string, renamed: string): Map<string, string> {
  const out = new Map<string, string>()
  const a = recorded.split('/')
  const b = renamed.split('/')
  if (a.length !== b.length) return out
  a.forEach((segment, i) => {
    if (segment !== b[i] && /^\d+$/.test(segment)) out.set(segment, b[i]!)
  })
  return out
}

/** Two strings equal under the normalisations that apply to any string (URL hosts and ids, secrets, timestamps). */
function sameString(recorded: string, simulated: string, ctx: CompareContext): boolean {
  if (recorded === simulated) return true
  let r = recorded
  if (ctx.normalise.urls && isUrl(r)) r = mapHost(r, ctx.origins)
  if (ctx.normalise.ids && isUrl(r)) r = renameUrl(r, ctx.ids)
  if (r === simulated) return true
  if (ctx.normalise.secrets && hasPlaceholder(r)) return ctx.secrets.match(r, simulated)
  if (ctx.normalise.timestamps && isDateTime(r) && isDateTime(simulated)) return timestampShape(r) === timestampShape(simulated)
  return false
}

const parsedBodies = new WeakMap<AnswerParts, { ok: true; value: unknown } | { ok: false }>()

/**
 * An answer's body as JSON, parsed once per answer: `{ ok: true, value }` (value undefined for no
 * body), `{ ok: false }` when the body is not JSON.
 */
export function answerJson(parts: AnswerParts): { ok: true; value: unknown } | { ok: false } {
  let parsed = parsedBodies.get(parts)
  if (parsed) return parsed
  if (parts.body === undefined || parts.body === '') parsed = { ok: true, value: undefined }
  else {
    try {
      parsed = { ok: true, value: JSON.parse(parts.body) as unknown }
    } catch {
      parsed = { ok: false }
    }
  }
  parsedBodies.set(parts, parsed)
  return parsed
}

function compareBodies(recorded: AnswerParts, simulated: AnswerParts, ctx: CompareContext, out: VerifyDifference[]): void {
  const r = answerJson(recorded)
  const s = answerJson(simulated)
  if (!r.ok || !s.ok) {
    // Not JSON on one side: the text itself is compared.
    if ((recorded.body ?? '') !== (simulated.body ?? '')) out.push({ path: '$', kind: 'value', recorded: recorded.body, simulated: simulated.body })
    return
  }
  if (r.value === undefined && s.value === undefined) return
  if (r.value === undefined) return void out.push({ path: '$', kind: 'extra', simulated: s.value })
  if (s.value === undefined) return void out.push({ path: '$', kind: 'missing', recorded: r.value })
  compareValues(r.value, s.value, '$', undefined, ctx.kind, ctx, out)
}

/**
 * The id kind a field's value belongs to: `id`/`iid` of the records at `kind`, `<name>_id` of
 * `<name>s`, `<name>_ids` items of `<name>s`.
 */
function idKind(key: string | undefined, kind: string | undefined): string | undefined {
  if (key === undefined) return undefined
  if (key === 'id') return kind
  if (key === 'iid') return kind ? `${kind}#iid` : undefined
  const m = /^(.+)_ids?$/.exec(key)
  return m ? pluralKind(m[1]!) : undefined
}

function sameScalar(recorded: unknown, simulated: unknown, key: string | undefined, kind: string | undefined, ctx: CompareContext): boolean {
  if (typeof recorded === 'number' && typeof simulated === 'number' && ctx.normalise.ids) {
    // A renamed id must come out renamed: the recorded number itself would be another record.
    const k = idKind(key, kind)
    if (k !== undefined) return ctx.ids.get(k, recorded) === simulated
  }
  if (recorded === simulated) return true
  if (typeof recorded === 'string' && typeof simulated === 'string') return sameString(recorded, simulated, ctx)
  return false
}

function compareValues(recorded: unknown, simulated: unknown, path: string, key: string | undefined, kind: string | undefined, ctx: CompareContext, out: VerifyDifference[]): void {
  const rt = typeOf(recorded)
  const st = typeOf(simulated)
  if (rt !== st) return void out.push({ path, kind: 'type', recorded, simulated })
  if (rt === 'array') return compareLists(recorded as unknown[], simulated as unknown[], path, key, kind, ctx, out)
  if (rt === 'object') return compareObjects(recorded as Json, simulated as Json, path, kind, ctx, out)
  if (!sameScalar(recorded, simulated, key, kind, ctx)) out.push({ path, kind: 'value', recorded, simulated })
}

function compareObjects(recorded: Json, simulated: Json, path: string, kind: string | undefined, ctx: CompareContext, out: VerifyDifference[]): void {
  const rKeys = Object.keys(recorded)
  const sKeys = Object.keys(simulated)
  for (const key of rKeys) {
    const at = childPath(path, key)
    if (!Object.hasOwn(simulated, key)) {
      out.push({ path: at, kind: 'missing', recorded: recorded[key] })
      continue
    }
    // A nested record's kind comes from its key (`milestone` → milestones); a list under a key too.
    const childKind = isObject(recorded[key]) || Array.isArray(recorded[key]) ? pluralKind(key) : kind
    compareValues(recorded[key], simulated[key], at, key, childKind, ctx, out)
  }
  for (const key of sKeys) if (!Object.hasOwn(recorded, key)) out.push({ path: childPath(path, key), kind: 'extra', simulated: simulated[key] })
  const rShared = rKeys.filter((k) => Object.hasOwn(simulated, k))
  const sShared = sKeys.filter((k) => Object.hasOwn(recorded, k))
  if (rShared.some((k, i) => sShared[i] !== k)) out.push({ path, kind: 'key-order', recorded: rShared, simulated: sShared })
  if (ctx.normalise.timestamps) compareTimestampOrder(recorded, simulated, rShared, path, out)
}

/** Two timestamps of one object that swapped order (`updated_at` before `created_at`). */
function compareTimestampOrder(recorded: Json, simulated: Json, keys: readonly string[], path: string, out: VerifyDifference[]): void {
  const stamps = keys.filter((k) => typeof recorded[k] === 'string' && typeof simulated[k] === 'string' && isDateTime(recorded[k] as string) && isDateTime(simulated[k] as string))
  for (let i = 0; i < stamps.length; i++) {
    for (let j = i + 1; j < stamps.length; j++) {
      const a = stamps[i]!
      const b = stamps[j]!
      const r = Math.sign(Date.parse(recorded[a] as string) - Date.parse(recorded[b] as string))
      const s = Math.sign(Date.parse(simulated[a] as string) - Date.parse(simulated[b] as string))
      if (r !== 0 && s !== 0 && r !== s) {
        out.push({ path, kind: 'timestamp-order', recorded: `${a} ${r < 0 ? '<' : '>'} ${b}`, simulated: `${a} ${s < 0 ? '<' : '>'} ${b}` })
      }
    }
  }
}

/** The identity of a list item, to pair items across a reordering: its mapped id, else its JSON. */
function identity(item: unknown, kind: string | undefined, ctx: CompareContext, recorded: boolean): string {
  if (isObject(item) && typeof item.id === 'number') {
    const id = recorded && ctx.normalise.ids && kind ? ctx.ids.get(kind, item.id) : item.id
    return `id:${id}`
  }
  if (isObject(item) || Array.isArray(item)) return `json:${JSON.stringify(item)}`
  return `value:${typeof item}:${String(item)}`
}

function compareLists(recorded: unknown[], simulated: unknown[], path: string, key: string | undefined, kind: string | undefined, ctx: CompareContext, out: VerifyDifference[]): void {
  const itemKind = kind
  if (recorded.length === simulated.length && recorded.length > 1) {
    const rIds = recorded.map((item) => identity(item, itemKind, ctx, true))
    const sIds = simulated.map((item) => identity(item, itemKind, ctx, false))
    const unique = new Set(rIds).size === rIds.length
    const sameSet = unique && [...rIds].sort().join('\u0000') === [...sIds].sort().join('\u0000')
    if (sameSet && rIds.some((id, i) => sIds[i] !== id)) {
      out.push({ path, kind: 'item-order', recorded: rIds.map(readableIdentity), simulated: sIds.map(readableIdentity) })
      // Pair items by identity, so one reordering is one difference, not one per field.
      const at = new Map(sIds.map((id, i) => [id, i]))
      recorded.forEach((item, i) => compareValues(item, simulated[at.get(rIds[i]!)!], childPath(path, i), key, itemKind, ctx, out))
      return
    }
  }
  const shared = Math.min(recorded.length, simulated.length)
  for (let i = 0; i < shared; i++) compareValues(recorded[i], simulated[i], childPath(path, i), key, itemKind, ctx, out)
  for (let i = shared; i < recorded.length; i++) out.push({ path: childPath(path, i), kind: 'missing', recorded: recorded[i] })
  for (let i = shared; i < simulated.length; i++) out.push({ path: childPath(path, i), kind: 'extra', simulated: simulated[i] })
}

function readableIdentity(identity: string): unknown {
  if (identity.startsWith('id:')) return Number(identity.slice(3))
  if (identity.startsWith('value:string:')) return identity.slice('value:string:'.length)
  if (identity.startsWith('value:')) return identity.slice(identity.indexOf(':', 6) + 1)
  return identity.slice(5)
}
