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
 * @module
 */
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml'
import type { DbState } from '../db/db.js'
import { ApiError, apiMessage } from './errors.js'
import type { JournalEntry, JournalQuery } from './journal.js'
import type { FaultRule } from './faults.js'
import type { CoreRequest } from './transport.js'

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
  journal: {
    find(query: JournalQuery): JournalEntry[]
    clear(): void
  }
  /** Webhook delivery (the hooks area's, through `rules/webhook-transport.ts`); undefined without one. */
  hooks?: {
    paused(): boolean
    pause(paused: boolean): void
    deliveries(): Promise<readonly unknown[]>
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

/**
 * Answers one control request. `path` is below `/-/fakelab` (e.g. `/clock`).
 * @returns `null` for an unknown control route (the engine answers its catch-all 404).
 * @throws ApiError: 400 for a bad
 *   body, 422 `{"message", "problems"}` for a scenario with problems.
 */
export async function control(target: ControlTarget, request: CoreRequest, path: string): Promise<ControlReply | null> {
  const key = `${request.method} ${path}`
  switch (key) {
    case 'POST /reset':
      target.reset()
      return { status: 204 }
    case 'PUT /scenario':
    case 'POST /scenario': {
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
    }
    case 'GET /state':
      return { status: 200, text: { type: 'application/yaml', value: target.exportState() } }
    case 'GET /clock':
      return clockReply(target.now())
    case 'PUT /clock': {
      const { now } = await jsonBody(request)
      if (typeof now !== 'string' || Number.isNaN(new Date(now).getTime())) throw apiMessage(400, 'now must be an ISO 8601 instant')
      return clockReply(target.setClock(now))
    }
    case 'POST /clock/advance': {
      const body = await jsonBody(request)
      const ms = typeof body.ms === 'number' ? body.ms : typeof body.seconds === 'number' ? body.seconds * 1000 : Number.NaN
      if (!Number.isFinite(ms)) throw apiMessage(400, 'give ms or seconds as a number')
      return clockReply(target.advanceClock(ms))
    }
    case 'GET /journal':
      return { status: 200, body: target.journal.find(journalQuery(request.query)) }
    case 'DELETE /journal':
      target.journal.clear()
      return { status: 204 }
    case 'GET /faults':
      return { status: 200, body: target.faults.list() }
    case 'PUT /faults': {
      const rules = await anyJson(request)
      if (!Array.isArray(rules)) throw apiMessage(400, 'body must be a JSON array of fault rules')
      return faultChange(target, () => target.faults.set(rules as FaultRule[]))
    }
    case 'POST /faults': {
      const rule = await anyJson(request)
      return faultChange(target, () => target.faults.add(rule as FaultRule))
    }
    case 'DELETE /faults':
      target.faults.clear()
      return { status: 204 }
    case 'GET /hooks/deliveries':
      if (!target.hooks) return null
      return { status: 200, body: await target.hooks.deliveries() }
    case 'GET /hooks/delivery':
      if (!target.hooks) return null
      return { status: 200, body: { paused: target.hooks.paused() } }
    case 'PUT /hooks/delivery': {
      if (!target.hooks) return null
      const { paused } = await jsonBody(request)
      if (typeof paused !== 'boolean') throw apiMessage(400, 'paused must be true or false')
      target.hooks.pause(paused)
      return { status: 200, body: { paused } }
    }
    default:
      return null
  }
}

/** Parses scenario-or-export text (YAML is a superset of JSON) for the loader. */
export function parseDocument(text: string): unknown {
  return parseYaml(text)
}
