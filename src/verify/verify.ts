/**
 * Replaying a recorded session against a simulator, exchange by exchange: the session replayer
 * (each recorded request sent in order, as recorded, with the same headers, so the same user, sudo
 * included, through `sim.dispatch`, the transport-neutral core both doors use; created records
 * renamed in later requests and answers), the comparison of each answer, and the report.
 * `verifyCassette` (verify-cassette.ts), live mode (live.ts) and `fakelab import`'s own check use it.
 * Browser-safe. Source: issue 15.
 * @module
 */
import type { Entry } from 'har-format'
import { substituteCredentials } from '../record/credentials.js'
import { API_ROOT, apiPath, routeTemplate } from '../record/match.js'
import { allRoutes } from '../resources/index.js'
import type { Scenario } from '../scenario/index.js'
import type { Simulator } from '../simulator.js'
import type { CoreReply, CoreRequest } from '../core/transport.js'
import { answerJson, compareAnswers, type AnswerParts, type VerifyDifference } from './compare.js'
import { IdMap, SecretBindings, type Normalisations } from './normalise.js'
import type { IgnoreRule } from './paths.js'

/** Options of `verifyCassette` (verify-cassette.ts). */
export interface VerifyOptions {
  /**
   * The state to replay against: a parsed scenario or scenario YAML (no `include:`). Default: the
   * state imported from the cassette itself, as `fakelab import` makes it.
   */
  scenario?: Scenario | string
  /** Ignore rules (see `paths.ts`): `$[*].created_at`, `**.web_url`, `GET /user $.bio`. */
  ignore?: readonly string[]
  /** Turn single normalisations off (all on by default); for seeing what they hide. */
  normalise?: Partial<Normalisations>
  /** The cassette's name in the report. Default `<cassette>`. */
  source?: string
  /** How many differences each route keeps in its summary. Default 5. */
  firstDifferences?: number
}

/** One replayed exchange. */
export interface ExchangeResult {
  /** 0-based position in the cassette. */
  index: number
  method: string
  /** The recorded path and query below the host (`/api/v4/projects?page=2`). */
  url: string
  /** The route key that answered (`GET /projects/:id/labels`), or the path's shape when none did. */
  route: string
  /** The area the route belongs to (`labels`), `(not simulated)` when no route answered. */
  area: string
  recordedStatus: number
  simulatedStatus: number
  /** Differences left after normalisation and the ignore rules; empty when identical. */
  differences: VerifyDifference[]
  /** How many differences the ignore rules removed. */
  ignored: number
}

/** The differences of one route. */
export interface RouteSummary {
  route: string
  area: string
  exchanges: number
  identical: number
  /** The first differences (see {@link VerifyOptions.firstDifferences}), each with its exchange's index. */
  firstDifferences: (VerifyDifference & { exchange: number })[]
  /** Every difference of the route, counted. */
  differenceCount: number
}

/** Exchanges and identical ones, per area. */
export interface AreaSummary {
  area: string
  exchanges: number
  identical: number
}

/** The outcome of `verifyCassette` (verify-cassette.ts). */
export interface VerifyReport {
  /** The cassette's name. */
  source: string
  /** `cassette` (imported like `fakelab import`) or `scenario` (given). */
  seededFrom: 'cassette' | 'scenario'
  exchanges: number
  identical: number
  /** True when no exchange differs beyond the ignore rules. */
  clean: boolean
  /** Routes sorted by key. */
  routes: RouteSummary[]
  /** Areas sorted by name. */
  areas: AreaSummary[]
  /** Every exchange, in cassette order. */
  results: ExchangeResult[]
  /** The ignore rules applied, as written. */
  ignoreRules: string[]
  /** The normalisations applied. */
  normalisations: Normalisations
  /** The id map: records the session created, recorded id → the simulator's (`kind` `labels`, `issues#iid`, …). */
  renamedIds: { kind: string; recorded: number; simulated: number }[]
  /** Differences the ignore rules removed, in all. */
  ignored: number
}

/** The host the simulator answers as, so recorded URLs visibly need the host mapping. */
export const SIMULATOR_ORIGIN = 'http://fakelab.verify'

/** Headers of a recorded request that describe the recording's connection, not the request. */
const NOT_FORWARDED = new Set(['host', 'content-length', 'connection', 'accept-encoding', 'transfer-encoding', 'keep-alive'])

const ROUTE_AREA: ReadonlyMap<string, string> = new Map(allRoutes().map((r) => [r.key, r.area] as const))

/** A HAR request, as the engine reads requests (the same shape the node:http door fills). */
class HarRequestView implements CoreRequest {
  readonly method: string
  readonly path: string
  readonly query: string
  readonly origin = SIMULATOR_ORIGIN
  readonly #headers = new Map<string, string>()
  readonly #body: Uint8Array | undefined

  /** @param tokens placeholder → the token the simulator knows for it (see `credentials.ts`). */
  constructor(entry: Entry, path: string, tokens: ReadonlyMap<string, string> = new Map(), ids?: IdMap) {
    const sent = substituteCredentials(entry.request.headers, entry.request.url, tokens)
    const url = new URL(sent.url)
    this.method = entry.request.method.toUpperCase()
    this.path = path
    this.query = url.search.slice(1)
    for (const h of sent.headers) {
      const name = h.name.toLowerCase()
      if (NOT_FORWARDED.has(name) || name.startsWith(':')) continue
      const before = this.#headers.get(name)
      this.#headers.set(name, before === undefined ? h.value : `${before}, ${h.value}`)
    }
    const recorded = ['GET', 'HEAD'].includes(this.method) ? undefined : entry.request.postData?.text
    // A record the session created has another id here: the body names it by the new one too.
    const text = recorded && ids ? ids.renameBody(recorded, apiPath(path), this.#headers.get('content-type') ?? entry.request.postData?.mimeType) : recorded
    this.#body = text ? new TextEncoder().encode(text) : undefined
  }

  header(name: string): string | undefined {
    return this.#headers.get(name)
  }

  body(): Promise<Uint8Array | undefined> {
    return Promise.resolve(this.#body)
  }
}

function recordedParts(entry: Entry): AnswerParts {
  const headers = new Map<string, string>()
  for (const h of entry.response.headers) {
    const name = h.name.toLowerCase()
    if (!headers.has(name)) headers.set(name, h.value)
  }
  const content = entry.response.content
  const body = content.encoding === 'base64' ? atob(content.text ?? '') : content.text
  return { status: entry.response.status, headers, body: body === '' ? undefined : body }
}

function simulatedParts(reply: CoreReply): AnswerParts {
  const headers = new Map<string, string>()
  for (const [name, value] of reply.headers) if (!headers.has(name)) headers.set(name, value)
  const body = reply.body instanceof Uint8Array ? binaryString(reply.body) : reply.body
  return { status: reply.status, headers, body: body === '' ? undefined : body }
}

/** Bytes as a binary string, one char per byte: what `atob` gives for a base64 HAR body. */
function binaryString(bytes: Uint8Array): string {
  let out = ''
  for (let i = 0; i < bytes.length; i += 0x8000) out += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return out
}

/** The path before `/api/v4` (`/gitlab` for a GitLab under a relative URL root), `''` for none. */
function relativeRoot(pathname: string): string {
  const at = pathname.indexOf(`${API_ROOT}/`)
  return at > 0 ? pathname.slice(0, at) : ''
}

/** The collection a route's records belong to: the last word of its template (`labels`). */
function kindOfRoute(route: string): string | undefined {
  const words = route.split(' ')[1]?.split('/').filter((s) => s !== '' && !s.startsWith(':')) ?? []
  const last = words.at(-1)
  if (last === undefined) return undefined
  return last === 'user' ? 'users' : last
}

/**
 * Gives a simulator seeded from a given scenario the token placeholders of an imported cassette
 * scenario, each to the user of the same username (tokens it already knows are left alone). The
 * rows are added after the scenario is loaded, so the scenario's own records keep their ids.
 */
export function addImportedTokens(sim: Simulator, imported: Record<string, unknown>): void {
  const importedUsers = (imported.users as { username?: string; tokens?: { token: string; scopes: string[] }[] }[] | undefined) ?? []
  const tokens = sim.db.tables.personal_access_tokens
  const users = sim.db.tables.users.all()
  const createdAt = sim.clock.now().toISOString()
  for (const user of importedUsers) {
    const target = users.find((u) => u.username === user.username)
    if (!target) continue
    for (const token of user.tokens ?? []) {
      if (tokens.all().some((t) => t.token === token.token)) continue
      tokens.insert({ user_id: target.id, name: 'verify', token: token.token, scopes: [...token.scopes], revoked: false, expires_at: null, impersonation: false, created_at: createdAt, last_used_at: null })
    }
  }
}

/** Replays recorded exchanges one by one against one simulator, keeping the id map and secret bindings. */
export interface SessionReplayer {
  /** Sends the entry's request to the simulator and compares its answer with the recorded one. */
  replay(entry: Entry, index: number): Promise<ExchangeResult>
  /** The id map so far. */
  renamedIds(): VerifyReport['renamedIds']
}

/**
 * A replayer over `sim` (live mode uses it exchange by exchange; `verifyCassette` over a whole cassette).
 * @param rules parsed ignore rules.
 * @param tokens placeholder → the token `sim` knows for it: recorded requests send that instead
 *   (`ImportResult.tokens` through `tokenMap`); default none, the placeholders are sent as they are.
 */
export function createSessionReplayer(sim: Simulator, normalise: Normalisations, rules: readonly IgnoreRule[], tokens: ReadonlyMap<string, string> = new Map()): SessionReplayer {
  const ids = new IdMap()
  const secrets = new SecretBindings()
  let lastRoute: string | null = null
  sim.journal.subscribe((entry) => {
    lastRoute = entry.route
  })
  return {
    renamedIds: () => ids.entries(),
    async replay(entry, index) {
      const url = new URL(entry.request.url)
      // A GitLab under a relative URL root (`https://host/gitlab/api/v4/…`) is the simulator at `/api/v4`.
      const root = relativeRoot(url.pathname)
      const below = `${API_ROOT}${apiPath(url.pathname)}`
      const path = normalise.ids ? ids.renamePath(below) : below
      lastRoute = null
      const reply = await sim.dispatch(new HarRequestView(entry, path, tokens, normalise.ids ? ids : undefined))
      const method = entry.request.method.toUpperCase()
      const route = lastRoute ?? `${method} ${routeTemplate(apiPath(url.pathname))}`
      const recorded = recordedParts(entry)
      const simulated = simulatedParts(reply)
      noteCreated(ids, route, url.pathname, recorded, simulated)
      const all = compareAnswers(recorded, simulated, {
        kind: actionTarget(url.pathname, recorded) ?? kindOfRoute(route),
        ids,
        secrets,
        origins: { recorded: `${url.origin}${root}`, simulated: SIMULATOR_ORIGIN },
        normalise,
      })
      const differences = all.filter((d) => !rules.some((rule) => rule.matches(d.path, route)))
      return {
        index,
        method,
        url: `${url.pathname}${url.search}`,
        route,
        area: ROUTE_AREA.get(route) ?? '(not simulated)',
        recordedStatus: recorded.status,
        simulatedStatus: simulated.status,
        differences,
        ignored: all.length - differences.length,
      }
    },
  }
}

/**
 * The kind of the record an action answers with: `POST /projects/20/labels/150/subscribe` answers
 * label 150, named in its own path before the action's word. Undefined for any other answer.
 */
function actionTarget(path: string, recorded: AnswerParts): string | undefined {
  const body = parseBody(recorded)
  if (!isRecord(body) || typeof body.id !== 'number') return undefined
  const segments = path.split('/')
  const at = segments.lastIndexOf(String(body.id))
  return at > 1 && at < segments.length - 1 && !/^\d+$/.test(segments[at - 1]!) ? segments[at - 1] : undefined
}

function parseBody(parts: AnswerParts): unknown {
  const parsed = answerJson(parts)
  return parsed.ok ? parsed.value : undefined
}

/**
 * A POST that created a record: its recorded id (and iid) now names the simulator's record. An
 * action on an existing record (`POST …/labels/150/subscribe` answers label 150) names the record
 * in its path, so an answer whose id is a segment of the request path created nothing.
 */
function noteCreated(ids: IdMap, route: string, path: string, recorded: AnswerParts, simulated: AnswerParts): void {
  if (!route.startsWith('POST ') || recorded.status !== 201 || simulated.status !== 201) return
  const kind = kindOfRoute(route)
  if (!kind) return
  const r = parseBody(recorded)
  const s = parseBody(simulated)
  if (!isRecord(r) || !isRecord(s)) return
  if (path.split('/').includes(String(r.id))) return
  if (typeof r.id === 'number' && typeof s.id === 'number') ids.set(kind, r.id, s.id)
  if (typeof r.iid === 'number' && typeof s.iid === 'number') ids.set(`${kind}#iid`, r.iid, s.iid)
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)

interface SummaryOptions {
  renamedIds: VerifyReport['renamedIds']
  source: string
  seededFrom: VerifyReport['seededFrom']
  rules: readonly IgnoreRule[]
  normalise: Normalisations
  firstDifferences: number
}

/** Groups exchange results into the report (routes and areas sorted by name). */
export function summarise(results: ExchangeResult[], options: SummaryOptions): VerifyReport {
  const routes = new Map<string, RouteSummary>()
  const areaMap = new Map<string, AreaSummary>()
  for (const result of results) {
    const route = routes.get(result.route) ?? { route: result.route, area: result.area, exchanges: 0, identical: 0, firstDifferences: [], differenceCount: 0 }
    route.exchanges++
    if (result.differences.length === 0) route.identical++
    route.differenceCount += result.differences.length
    for (const d of result.differences) if (route.firstDifferences.length < options.firstDifferences) route.firstDifferences.push({ ...d, exchange: result.index })
    routes.set(result.route, route)
    const area = areaMap.get(result.area) ?? { area: result.area, exchanges: 0, identical: 0 }
    area.exchanges++
    if (result.differences.length === 0) area.identical++
    areaMap.set(result.area, area)
  }
  const identical = results.filter((r) => r.differences.length === 0).length
  const byName = <T>(key: (x: T) => string) => (a: T, b: T) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)
  return {
    source: options.source,
    seededFrom: options.seededFrom,
    exchanges: results.length,
    identical,
    clean: identical === results.length,
    routes: [...routes.values()].sort(byName((r) => r.route)),
    areas: [...areaMap.values()].sort(byName((a) => a.area)),
    results,
    ignoreRules: options.rules.map((r) => r.source),
    normalisations: options.normalise,
    renamedIds: options.renamedIds,
    ignored: results.reduce((n, r) => n + r.ignored, 0),
  }
}
