/**
 * fakelab's control API under the reserved prefix `/-/fakelab/`: the HTTP face of what the library
 * offers on the simulator (`sim.reset()`, `sim.loadScenario()`, `sim.exportState()`,
 * `sim.setClock()`, `sim.advanceClock()`, `sim.journal`). Not GitLab's: answers are fakelab's own
 * JSON, errors `{"message": ...}` as GitLab words its own. Unauthenticated, as a test double's
 * control plane is. Browser-safe. Source: issue 12 "Control API".
 *
 * | route | answer |
 * |---|---|
 * | `POST /-/fakelab/reset` | 204; state back to the loaded scenario, its clock included |
 * | `PUT /-/fakelab/scenario` (YAML or JSON body: a scenario or a state export) | 204; loaded and made the reset point |
 * | `GET /-/fakelab/state` | 200 `application/yaml`: the state export |
 * | `GET /-/fakelab/clock` | 200 `{"now": ISO}` |
 * | `PUT /-/fakelab/clock` `{"now": ISO}` | 200 `{"now": ISO}` |
 * | `POST /-/fakelab/clock/advance` `{"ms": n}` or `{"seconds": n}` | 200 `{"now": ISO}` |
 * | `GET /-/fakelab/journal?route=&method=&status=&user=&simulated=` | 200 entries, oldest first |
 * | `DELETE /-/fakelab/journal` | 204 |
 * | `GET /-/fakelab/faults` | 200 the live fault rules |
 * | `PUT /-/fakelab/faults` (JSON array of rules) | 200 the rules; replaces them |
 * | `POST /-/fakelab/faults` (JSON rule) | 200 the rules; adds one |
 * | `DELETE /-/fakelab/faults` | 204 |
 * | `GET /-/fakelab/hooks/deliveries` | 200 every logged webhook delivery, oldest first (after those in flight are answered) |
 * | `GET /-/fakelab/hooks/delivery` | 200 `{"paused": bool}` |
 * | `PUT /-/fakelab/hooks/delivery` `{"paused": bool}` | 200 `{"paused": bool}`; resuming sends the held deliveries |
 * | `POST /-/fakelab/jobs/run` `{"job": id, "status", "trace", "artifacts": {path: text}}` | 200 the job's new status; a runner's work done to a job |
 * | `GET /-/fakelab/routes` | 200 GitLab 13.12 CE's routes with fakelab's share (issue 40 item 1) |
 * | `GET /-/fakelab/openapi.json` | 200 this table as an OpenAPI 3.1 document (issue 40 item 3) |
 *
 * One table, {@link controlRoutes}, feeds both the dispatch and the OpenAPI document.
 * @module
 */
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml'
import type { DbState } from '../db/db.js'
import { ApiError, apiMessage } from './errors.js'
import type { JournalEntry, JournalQuery } from './journal.js'
import type { FaultRule } from './faults.js'
import type { CoreRequest } from './transport.js'
import type { JobRunInput, JobRunResult } from './job-control.js'

/** The top-level key that marks a state export (and its format version). */
export const STATE_EXPORT_KEY = 'fakelab_state'

/**
 * A state export: the whole store, the clock and the seed, exactly. Loading it gives the same
 * answers as the simulator it came from (request ids aside).
 */
export interface StateExport {
  /** Format version, 1. */
  fakelab_state: 1
  /** The clock's instant when exported (ISO 8601); loading freezes the clock there. */
  now: string
  /** Faker seed. */
  seed: number
  /** Every table: its rows and the next id. */
  tables: DbState
}

/** What a loaded scenario or state export gives the engine. */
export interface LoadedState {
  state: DbState
  seed: number
  /** The scenario's `now:`, when it sets one; the clock is frozen there. */
  now?: string | undefined
  /** The scenario's `faults:`, when it has the key: they replace the rules in force. */
  faults?: readonly FaultRule[] | undefined
}

/** Whether a parsed document is a state export (rather than a scenario). */
export function isStateExport(value: unknown): value is StateExport {
  return typeof value === 'object' && value !== null && STATE_EXPORT_KEY in value
}

/**
 * Serialises a state export as YAML, with a comment saying what it is.
 * @param state every table (`db.dump()`).
 */
export function stateToYaml(state: DbState, now: Date, seed: number): string {
  const doc: StateExport = { fakelab_state: 1, now: now.toISOString(), seed, tables: state }
  return `# fakelab state export: load it with PUT /-/fakelab/scenario, sim.loadScenario() or createSimulator({ scenario })\n${stringifyYaml(doc, { aliasDuplicateObjects: false })}`
}

/**
 * Reads a state export back.
 * @throws ApiError 400 when the export's version or shape is not one this fakelab writes.
 */
export function stateFromExport(value: StateExport): LoadedState {
  const ok = value.fakelab_state === 1 && typeof value.now === 'string' && Number.isSafeInteger(value.seed)
    && typeof value.tables === 'object' && value.tables !== null
  if (!ok) throw apiMessage(400, `${STATE_EXPORT_KEY}: expected version 1 with now, seed and tables`)
  return { state: value.tables, seed: value.seed, now: value.now }
}

/** The simulator as the control routes drive it (a subset of `Simulator`). */
export interface ControlTarget {
  reset(): void
  /** @throws what the scenario loader throws (a `ScenarioError` has `problems`). */
  loadScenario(input: string): void
  exportState(): string
  setClock(instant: string): Date
  advanceClock(ms: number): Date
  now(): Date
  /** The route keys the simulator serves under `/api/v4` (`GET /projects/:id/labels`). */
  routeKeys(): readonly string[]
  journal: {
    find(query: JournalQuery): JournalEntry[]
    clear(): void
  }
  /** Webhook delivery (the hooks area's, through `core/hook-control.ts`); undefined without one. */
  hooks?: {
    paused(): boolean
    pause(paused: boolean): void
    deliveries(): Promise<readonly unknown[]>
  }
  /** CI jobs (the runners area's, through `core/job-control.ts`); undefined without one. */
  jobs?: {
    run(input: JobRunInput, origin: string): JobRunResult
  }
  faults: {
    list(): FaultRule[]
    /** @throws RangeError for a bad rule. */
    set(rules: readonly FaultRule[]): void
    /** @throws RangeError for a bad rule. */
    add(rule: FaultRule): void
    clear(): void
  }
}

/** Runs a fault change, turning a bad rule into 400 `{"message": "fault <field>: ..."}`. */
function faultChange(target: ControlTarget, change: () => void): ControlReply {
  try {
    change()
  } catch (error) {
    if (error instanceof RangeError) throw apiMessage(400, error.message)
    throw error
  }
  return { status: 200, body: target.faults.list() }
}

async function anyJson(request: CoreRequest): Promise<unknown> {
  try {
    return JSON.parse(await bodyText(request))
  } catch {
    throw apiMessage(400, 'body must be JSON')
  }
}

/** A control reply before rendering: status, JSON body, or a text body with its type. */
export interface ControlReply {
  status: number
  body?: unknown
  text?: { type: string; value: string }
}

const decoder = new TextDecoder()

async function bodyText(request: CoreRequest): Promise<string> {
  const bytes = await request.body()
  return bytes ? decoder.decode(bytes) : ''
}

async function jsonBody(request: CoreRequest): Promise<Record<string, unknown>> {
  const text = await bodyText(request)
  let value: unknown
  try {
    value = text === '' ? {} : JSON.parse(text)
  } catch {
    throw apiMessage(400, 'body must be JSON')
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw apiMessage(400, 'body must be a JSON object')
  return value as Record<string, unknown>
}

function clockReply(now: Date): ControlReply {
  return { status: 200, body: { now: now.toISOString() } }
}

/** The journal filter from query params (`status` numeric, `simulated` `true`/`false`). */
function journalQuery(query: string): JournalQuery {
  const params = new URLSearchParams(query)
  const out: JournalQuery = {}
  const route = params.get('route')
  const method = params.get('method')
  const status = params.get('status')
  const user = params.get('user')
  const simulated = params.get('simulated')
  if (route !== null) out.route = route
  if (method !== null) out.method = method
  if (status !== null) {
    if (!/^\d{3}$/.test(status)) throw apiMessage(400, 'status must be a three-digit number')
    out.status = Number(status)
  }
  if (user !== null) out.user = user === '' ? null : user
  if (simulated !== null) out.simulated = simulated === 'true'
  return out
}

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it), kept as plain data. */
export type JsonSchema = Record<string, unknown>

/** One answer a control route may give, as its OpenAPI response object says. */
export interface ControlResponseDef {
  description: string
  /** Media type of the body; absent for a bodiless answer (204). */
  type?: 'application/json' | 'application/yaml'
  /** The body's schema (a `$ref` into {@link CONTROL_SCHEMAS} or inline). */
  schema?: JsonSchema
}

/**
 * One control route: what `control()` dispatches on and what `controlOpenApi()` describes, so the
 * document cannot drift from the routes. `path` is below `/-/fakelab`.
 */
export interface ControlRouteDef {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  path: string
  /** OpenAPI operationId. */
  operationId: string
  summary: string
  /** Query parameters (all optional strings). */
  query?: readonly { name: string; description: string; schema: JsonSchema }[]
  /** The request body, by media type. */
  body?: { description: string; required: boolean; types: Readonly<Record<string, JsonSchema>> }
  /** Answers by status. */
  responses: Readonly<Record<number, ControlResponseDef>>
  handle(target: ControlTarget, request: CoreRequest): Promise<ControlReply>
}

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` })
const badRequest: ControlResponseDef = { description: 'a bad body or parameter', type: 'application/json', schema: ref('Message') }
const noContent: ControlResponseDef = { description: 'done; no body' }
const clockAnswer: ControlResponseDef = { description: 'the clock now', type: 'application/json', schema: ref('Clock') }
const hookDeliverySchema: JsonSchema = { type: 'object', properties: { paused: { type: 'boolean' } }, required: ['paused'] }
const hookDeliveryAnswer: ControlResponseDef = { description: 'whether delivery is paused', type: 'application/json', schema: hookDeliverySchema }
const jobRunSchema: JsonSchema = {
  type: 'object',
  properties: {
    job: { type: 'integer', description: 'the job id' },
    status: { type: 'string', enum: ['running', 'success', 'failed', 'canceled'], description: 'its new status; default success' },
    trace: { type: 'string', description: 'its log, replacing any it had' },
    artifacts: { type: 'object', additionalProperties: { type: 'string' }, description: 'its artifacts archive: file path to text content, replacing any it had' },
    artifacts_expire_at: { type: ['string', 'null'], description: 'when the artifacts expire (ISO 8601); null (default) for never' },
  },
  required: ['job'],
}
const jobRunAnswerSchema: JsonSchema = {
  type: 'object',
  properties: { id: { type: 'integer' }, status: { type: 'string' }, pipeline_id: { type: 'integer' }, pipeline_status: { type: 'string' }, artifacts: { type: 'array', items: { type: 'string' } } },
}
const notSimulated: ControlResponseDef = { description: 'no hooks area is composed in', type: 'application/json', schema: ref('Message') }

/**
 * The target's webhook delivery.
 * @throws ApiError 404 when no hooks area registered one.
 */
function hooksOf(target: ControlTarget): NonNullable<ControlTarget['hooks']> {
  if (!target.hooks) throw apiMessage(404, 'webhook delivery is not part of this simulator')
  return target.hooks
}
const faultsAnswer: ControlResponseDef = { description: 'the fault rules in force, in order', type: 'application/json', schema: { type: 'array', items: ref('FaultRule') } }
const scenarioBody = {
  description: 'a scenario (YAML or JSON) or a state export',
  required: true,
  types: { 'application/yaml': { type: 'string' }, 'application/json': { type: 'object' }, 'text/plain': { type: 'string' } },
}

/**
 * The schemas the control routes' bodies share (OpenAPI `components.schemas`). Source: the types
 * {@link JournalEntry}, {@link FaultRule} and the replies below.
 */
const CONTROL_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  Message: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
  ScenarioProblems: {
    type: 'object',
    required: ['message', 'problems'],
    properties: {
      message: { type: 'string' },
      problems: {
        type: 'array',
        items: {
          type: 'object',
          required: ['message'],
          properties: { file: { type: 'string' }, line: { type: 'integer' }, col: { type: 'integer' }, message: { type: 'string' } },
        },
      },
    },
  },
  Clock: { type: 'object', required: ['now'], properties: { now: { type: 'string', format: 'date-time' } } },
  ClockAdvance: {
    type: 'object',
    description: 'ms or seconds (negative goes back)',
    properties: { ms: { type: 'number' }, seconds: { type: 'number' } },
  },
  FaultRule: {
    type: 'object',
    additionalProperties: false,
    properties: {
      route: { type: 'string', description: 'a route key, e.g. GET /projects/:id/labels' },
      method: { type: 'string' },
      path: { type: 'string', description: 'a regular expression tested against the request path' },
      delay: {
        oneOf: [
          { type: 'number', minimum: 0 },
          { type: 'object', required: ['min', 'max'], properties: { min: { type: 'number' }, max: { type: 'number' } } },
        ],
      },
      status: { type: 'integer', enum: [429, 500, 502, 503] },
      retryAfter: { type: 'integer', minimum: 0 },
      reset: { type: 'boolean' },
      malformed: { type: 'boolean' },
      probability: { type: 'number', minimum: 0, maximum: 1 },
      times: { type: 'integer', minimum: 1 },
    },
  },
  JournalEntry: {
    type: 'object',
    required: ['seq', 'requestId', 'at', 'method', 'path', 'query', 'route', 'simulated', 'status', 'durationMs', 'user'],
    properties: {
      seq: { type: 'integer' },
      requestId: { type: 'string' },
      at: { type: 'string', format: 'date-time' },
      method: { type: 'string' },
      path: { type: 'string' },
      query: { type: 'string' },
      route: { type: ['string', 'null'] },
      routeMiss: { type: 'string', enum: ['method', 'path'] },
      simulated: { type: 'boolean' },
      allowed: { type: 'array', items: { type: 'string' } },
      status: { type: 'integer' },
      passedThrough: { const: true },
      durationMs: { type: 'number' },
      user: { type: ['string', 'null'] },
      sudoFrom: { type: 'string' },
      fault: { type: 'string' },
      session: { type: 'string' },
    },
  },
  RouteTable: {
    type: 'object',
    description: "GitLab 13.12 CE's REST routes with fakelab's share: see docs/coverage.md",
    required: ['gitlab', 'areas', 'totals'],
    properties: {
      gitlab: { type: 'object', properties: { version: { type: 'string' }, source: { type: 'string' } } },
      totals: {
        type: 'object',
        required: ['gitlab', 'simulated'],
        properties: { gitlab: { type: 'integer' }, simulated: { type: 'integer' }, fakelabOnly: { type: 'integer' } },
      },
      areas: {
        type: 'array',
        items: {
          type: 'object',
          required: ['area', 'routes'],
          properties: {
            area: { type: 'string' },
            gitlab: { type: 'integer' },
            simulated: { type: 'integer' },
            routes: {
              type: 'array',
              items: {
                type: 'object',
                required: ['method', 'path', 'simulated'],
                properties: {
                  method: { type: 'string' },
                  path: { type: 'string' },
                  file: { type: 'string' },
                  tier: { type: 'string', enum: ['free', 'paid'] },
                  simulated: { type: 'boolean' },
                  inGitlab: { type: 'boolean' },
                },
              },
            },
          },
        },
      },
    },
  },
}

/**
 * Every control route, in the order of docs/control-api.md. `control()` answers from this table and
 * `controlOpenApi()` describes it.
 */
export const controlRoutes: readonly ControlRouteDef[] = [
  {
    method: 'POST', path: '/reset', operationId: 'reset',
    summary: 'Puts the state back to the loaded scenario (clock, journal and faults stay)',
    responses: { 204: noContent },
    async handle(target) {
      target.reset()
      return { status: 204 }
    },
  },
  ...(['PUT', 'POST'] as const).map((method): ControlRouteDef => ({
    method, path: '/scenario', operationId: method === 'PUT' ? 'loadScenario' : 'loadScenarioPost',
    summary: 'Loads a scenario or a state export and makes it the reset point',
    body: scenarioBody,
    responses: {
      204: noContent,
      400: badRequest,
      422: { description: 'the scenario has problems; the state is unchanged', type: 'application/json', schema: ref('ScenarioProblems') },
    },
    async handle(target, request) {
      const text = await bodyText(request)
      if (text.trim() === '') throw apiMessage(400, 'body must be a scenario (YAML or JSON) or a state export')
      try {
        target.loadScenario(text)
      } catch (error) {
        if (error instanceof ApiError) throw error
        const problems = (error as { problems?: unknown }).problems
        if (Array.isArray(problems)) throw new ApiError(422, { message: 'the scenario has problems; the state is unchanged', problems })
        throw apiMessage(400, error instanceof Error ? error.message : String(error))
      }
      return { status: 204 }
    },
  })),
  {
    method: 'GET', path: '/state', operationId: 'exportState',
    summary: 'The state export: every table, the clock and the seed',
    responses: { 200: { description: 'the state export, YAML', type: 'application/yaml', schema: { type: 'string' } } },
    async handle(target) {
      return { status: 200, text: { type: 'application/yaml', value: target.exportState() } }
    },
  },
  {
    method: 'GET', path: '/clock', operationId: 'now', summary: "The simulator's clock",
    responses: { 200: clockAnswer },
    async handle(target) {
      return clockReply(target.now())
    },
  },
  {
    method: 'PUT', path: '/clock', operationId: 'setClock', summary: 'Freezes the clock at an instant',
    body: { description: 'the instant', required: true, types: { 'application/json': ref('Clock') } },
    responses: { 200: clockAnswer, 400: badRequest },
    async handle(target, request) {
      const { now } = await jsonBody(request)
      if (typeof now !== 'string' || Number.isNaN(new Date(now).getTime())) throw apiMessage(400, 'now must be an ISO 8601 instant')
      return clockReply(target.setClock(now))
    },
  },
  {
    method: 'POST', path: '/clock/advance', operationId: 'advanceClock', summary: 'Moves the clock by ms or seconds',
    body: { description: 'how far', required: true, types: { 'application/json': ref('ClockAdvance') } },
    responses: { 200: clockAnswer, 400: badRequest },
    async handle(target, request) {
      const body = await jsonBody(request)
      const ms = typeof body.ms === 'number' ? body.ms : typeof body.seconds === 'number' ? body.seconds * 1000 : Number.NaN
      if (!Number.isFinite(ms)) throw apiMessage(400, 'give ms or seconds as a number')
      return clockReply(target.advanceClock(ms))
    },
  },
  {
    method: 'GET', path: '/journal', operationId: 'journal', summary: 'The journal entries that match every given filter, oldest first',
    query: [
      { name: 'route', description: 'a route key, e.g. GET /projects/:id/labels', schema: { type: 'string' } },
      { name: 'method', description: 'an upper-case method', schema: { type: 'string' } },
      { name: 'status', description: 'three digits', schema: { type: 'string', pattern: '^[0-9]{3}$' } },
      { name: 'user', description: 'a username; empty for anonymous requests', schema: { type: 'string' } },
      { name: 'simulated', description: 'false finds requests under /api/v4 that no route answered', schema: { type: 'string', enum: ['true', 'false'] } },
    ],
    responses: { 200: { description: 'the entries', type: 'application/json', schema: { type: 'array', items: ref('JournalEntry') } }, 400: badRequest },
    async handle(target, request) {
      return { status: 200, body: target.journal.find(journalQuery(request.query)) }
    },
  },
  {
    method: 'DELETE', path: '/journal', operationId: 'clearJournal', summary: 'Empties the journal',
    responses: { 204: noContent },
    async handle(target) {
      target.journal.clear()
      return { status: 204 }
    },
  },
  {
    method: 'GET', path: '/faults', operationId: 'faults', summary: 'The live fault rules',
    responses: { 200: faultsAnswer },
    async handle(target) {
      return { status: 200, body: target.faults.list() }
    },
  },
  {
    method: 'PUT', path: '/faults', operationId: 'setFaults', summary: 'Replaces every fault rule',
    body: { description: 'the rules', required: true, types: { 'application/json': { type: 'array', items: ref('FaultRule') } } },
    responses: { 200: faultsAnswer, 400: badRequest },
    async handle(target, request) {
      const rules = await anyJson(request)
      if (!Array.isArray(rules)) throw apiMessage(400, 'body must be a JSON array of fault rules')
      return faultChange(target, () => target.faults.set(rules as FaultRule[]))
    },
  },
  {
    method: 'POST', path: '/faults', operationId: 'addFault', summary: 'Adds one fault rule after the others',
    body: { description: 'the rule', required: true, types: { 'application/json': ref('FaultRule') } },
    responses: { 200: faultsAnswer, 400: badRequest },
    async handle(target, request) {
      const rule = await anyJson(request)
      return faultChange(target, () => target.faults.add(rule as FaultRule))
    },
  },
  {
    method: 'DELETE', path: '/faults', operationId: 'clearFaults', summary: 'Removes every fault rule',
    responses: { 204: noContent },
    async handle(target) {
      target.faults.clear()
      return { status: 204 }
    },
  },
  {
    method: 'GET', path: '/hooks/deliveries', operationId: 'hookDeliveries',
    summary: 'Every logged webhook delivery, oldest first, once those in flight are answered (the hooks area\'s web_hook_logs)',
    responses: { 200: { description: 'the deliveries', type: 'application/json', schema: { type: 'array', items: { type: 'object' } } }, 404: notSimulated },
    async handle(target) {
      return { status: 200, body: await hooksOf(target).deliveries() }
    },
  },
  {
    method: 'GET', path: '/hooks/delivery', operationId: 'hookDelivery', summary: 'Whether webhook delivery is paused',
    responses: { 200: hookDeliveryAnswer, 404: notSimulated },
    async handle(target) {
      return { status: 200, body: { paused: hooksOf(target).paused() } }
    },
  },
  {
    method: 'PUT', path: '/hooks/delivery', operationId: 'setHookDelivery',
    summary: 'Pauses webhook delivery (deliveries are logged, not sent) or resumes it (the held ones are sent in order)',
    body: { description: '{"paused": true} or {"paused": false}', required: true, types: { 'application/json': hookDeliverySchema } },
    responses: { 200: hookDeliveryAnswer, 400: badRequest, 404: notSimulated },
    async handle(target, request) {
      const { paused } = await jsonBody(request)
      if (typeof paused !== 'boolean') throw apiMessage(400, 'paused must be true or false')
      hooksOf(target).pause(paused)
      return { status: 200, body: { paused } }
    },
  },
  {
    method: 'POST', path: '/jobs/run', operationId: 'runJob',
    summary: 'Does to a CI job what a runner would: sets its status (success by default), its log and its artifacts archive, then processes its pipeline',
    body: { description: 'the job and what it did', required: true, types: { 'application/json': jobRunSchema } },
    responses: { 200: { description: 'the job\'s new status, its pipeline\'s, and the archive\'s paths', type: 'application/json', schema: jobRunAnswerSchema }, 400: badRequest, 404: { description: 'no such job, or no runners area', type: 'application/json', schema: ref('Message') } },
    async handle(target, request) {
      if (!target.jobs) throw apiMessage(404, 'CI jobs are not part of this simulator')
      const input = await jsonBody(request)
      return { status: 200, body: target.jobs.run(input as unknown as JobRunInput, request.origin) }
    },
  },
  {
    method: 'GET', path: '/routes', operationId: 'routes',
    summary: "GitLab 13.12 CE's REST routes with fakelab's share per area (what docs/coverage.md and `fakelab routes` show)",
    responses: { 200: { description: 'the route table', type: 'application/json', schema: ref('RouteTable') } },
    async handle(target) {
      const { routeTable } = await import('../reference/coverage.js')
      return { status: 200, body: routeTable(target.routeKeys()) }
    },
  },
  {
    method: 'GET', path: '/openapi.json', operationId: 'openapi', summary: 'This OpenAPI 3.1 document',
    responses: { 200: { description: 'the OpenAPI document', type: 'application/json', schema: { type: 'object' } } },
    async handle() {
      return { status: 200, body: controlOpenApi() }
    },
  },
]

const byKey = new Map(controlRoutes.map((r) => [`${r.method} ${r.path}`, r]))

/**
 * Answers one control request. `path` is below `/-/fakelab` (e.g. `/clock`).
 * @returns `null` for an unknown control route (the engine answers its catch-all 404).
 * @throws ApiError: 400 for a bad
 *   body, 422 `{"message", "problems"}` for a scenario with problems.
 */
export async function control(target: ControlTarget, request: CoreRequest, path: string): Promise<ControlReply | null> {
  const route = byKey.get(`${request.method} ${path}`)
  return route ? route.handle(target, request) : null
}

/**
 * The control API's OpenAPI 3.1 document, built from {@link controlRoutes} and
 * {@link CONTROL_SCHEMAS}: one operation per route, its query, body and answers. Served at
 * `GET /-/fakelab/openapi.json` and written to docs/control-api.openapi.json. Source: issue 40 item 3.
 */
export function controlOpenApi(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const route of controlRoutes) {
    const responses: Record<string, unknown> = {}
    for (const [status, answer] of Object.entries(route.responses)) {
      responses[status] = answer.type
        ? { description: answer.description, content: { [answer.type]: { schema: answer.schema ?? {} } } }
        : { description: answer.description }
    }
    const operation: Record<string, unknown> = { operationId: route.operationId, summary: route.summary }
    if (route.query) operation.parameters = route.query.map((q) => ({ name: q.name, in: 'query', required: false, description: q.description, schema: q.schema }))
    if (route.body) {
      operation.requestBody = {
        description: route.body.description,
        required: route.body.required,
        content: Object.fromEntries(Object.entries(route.body.types).map(([type, schema]) => [type, { schema }])),
      }
    }
    operation.responses = responses
    ;(paths[`/-/fakelab${route.path}`] ??= {})[route.method.toLowerCase()] = operation
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'fakelab control API',
      version: '1',
      description: "fakelab's own API under /-/fakelab/ (not GitLab's): reset, scenarios, state, clock, journal, faults, the route table. "
        + 'Unauthenticated. With `X-Fakelab-Session: <id>`, or under /-/fakelab/sessions/<id>/-/fakelab/..., a request acts on that session. See docs/control-api.md.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/' }],
    paths,
    components: { schemas: CONTROL_SCHEMAS },
  }
}

/** Parses scenario-or-export text (YAML is a superset of JSON) for the loader. */
export function parseDocument(text: string): unknown {
  return parseYaml(text)
}
