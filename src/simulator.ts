/**
 * The composition root: the resource areas, the scenario and the store wired into one engine.
 * `core/` (the engine) knows nothing of areas or scenarios; this file is the only place that joins
 * them: the store is built from core's tables and every area's, and the scenario format from every
 * area's fragment. Browser-safe: nothing here imports `node:*`. Source: STYLE.md §2.
 * @module
 */
import { createEngine, type EngineOptions, type Simulator as EngineSimulator } from './core/engine.js'
import type { ReplyMemoMode } from './core/reply-memo.js'
import { checkFaultRule, type FaultRule } from './core/faults.js'
import { frozenClock, systemClock } from './core/clock.js'
import { routeEntries, type RouteList } from './core/route.js'
import { isStateExport, parseDocument, stateFromExport, type LoadedState, type StateExport } from './core/control.js'
import { Db } from './db/db.js'
import type { Row } from './db/collection.js'
import { CORE_TABLES, type GroupRecord, type ProjectRecord, type TableDefs, type UserRecord } from './db/schema.js'
import { apiRouteSource, areas, loadRegistrations, loadRoute, webRouteSource } from './resources/index.js'
import {
  createScenarioFormat,
  ScenarioError,
  type ApplyScenarioOptions,
  type ComposedScenarioFormat,
  type ParseScenarioOptions,
  type Scenario,
  type ScenarioGroupInput,
  type ScenarioInput,
  type ScenarioProblem,
  type ScenarioProjectInput,
  type ScenarioUserInput,
} from './scenario/index.js'
import type { ScenarioPart } from './scenario/format.js'
import { SCENARIO_TABLE } from './resources/scenario-table.js'

export type { SimulatorSnapshot } from './core/engine.js'
export { API_PREFIX, MAX_QUERY_LENGTH } from './core/engine.js'

/** Reference instant for generated data when a scenario sets no `now:`, so data stays deterministic. */
export const DEFAULT_REFERENCE_DATE = '2021-04-01T12:00:00.000Z'

/**
 * Core's tables and every area's.
 * @throws Error at start-up when two areas (or an area and core) declare the same table.
 */
function composeTables(): TableDefs {
  const tables: Record<string, unknown> = { ...CORE_TABLES }
  // Indexed loops and `for...in`: this runs at every start, once per area and table, and
  // `for...of` and `Object.entries` allocate an iterator result or a pair for each (issue 39).
  for (let a = 0; a < areas.length; a++) {
    const area = areas[a]!
    const definitions = area.tables as Record<string, unknown> | undefined
    for (const name in definitions) {
      if (Object.hasOwn(tables, name)) throw new Error(`area ${area.name}: table ${name} is declared twice`)
      tables[name] = definitions[name]
    }
  }
  return tables as TableDefs
}

const TABLES = composeTables()
/** Every area's delete rules (`Area.cascade`), in area order. */
const CASCADE = areas.flatMap((area) => area.cascade ?? [])

/** Every area's `beforeRequest`, in area order, as one call; undefined when no area has one. */
const BEFORE_REQUEST_HOOKS = areas.flatMap((area) => (area.beforeRequest ? [area.beforeRequest] : []))
const BEFORE_REQUEST: EngineOptions['beforeApiRequest'] =
  BEFORE_REQUEST_HOOKS.length === 0
    ? undefined
    : (db, now) => {
        for (const hook of BEFORE_REQUEST_HOOKS) hook(db, now)
      }
let composedFormat: ComposedScenarioFormat | undefined
/**
 * The scenario format of every area's fragment, composed on first use: a simulator started from a
 * state export (`fakelab serve` on the default scenario) never builds it, and the CLI bundle then
 * never even loads zod or the areas' scenario modules (scripts/build-cli.mjs; issue 27, cold start).
 * A scenario then loads and composes only the fragments it needs (issue 39 item 4): which area owns
 * which field comes from the static scenario table, so the others' areas are never loaded for it.
 * Internal (tests compare it with every fragment: `{ allAreas: true }`); not exported by `fakelab`.
 * @throws Error when the static scenario table is stale (`npm run route-table`): a programming error.
 */
export function scenarioFormat(): ComposedScenarioFormat {
  return (composedFormat ??= createScenarioFormat(scenarioParts()))
}

/** Every area's part of the scenario format, in area order, its fragment loaded on first use. */
function scenarioParts(): ScenarioPart[] {
  const parts: ScenarioPart[] = []
  for (const area of areas) {
    const outline = SCENARIO_TABLE[area.name]
    // `in`, not a read: the CLI's area stubs load the area for `scenario`, and only an area with a
    // fragment has the key.
    if (!('scenario' in area)) {
      if (outline) throw new Error(`the static scenario table names area ${area.name}, which has no scenario fragment: run \`npm run route-table\``)
      continue
    }
    if (!outline) {
      if (area.scenario === undefined) continue
      throw new Error(`the static scenario table has no entry for area ${area.name}: run \`npm run route-table\``)
    }
    parts.push({
      area: area.name,
      outline,
      fragment: () => {
        const fragment = area.scenario
        if (!fragment) throw new Error(`the static scenario table names area ${area.name}, which has no scenario fragment: run \`npm run route-table\``)
        return fragment
      },
    })
  }
  return parts
}

/** A new, empty store with every table of core and of the areas, and the areas' delete rules. */
export function createDb(): Db {
  return new Db(TABLES, { cascade: CASCADE })
}

/**
 * Parses and validates a YAML scenario, merging its `include:` files (their users, groups and
 * projects come before the including file's own, depth first; a file included twice is read once).
 * @param text the YAML source.
 * @returns the scenario with defaults applied and includes merged (`include` is absent).
 * @throws ScenarioError listing every YAML, version, schema and reference problem of the file and
 *   its includes, each located at `file:line:col` of the offending node (or its nearest ancestor).
 * @example
 * const scenario = parseScenario(text, { file: 'scenarios/default.yaml', include: (p, from) => read(p, from) })
 */
export function parseScenario(text: string, options?: ParseScenarioOptions): Scenario {
  return validated(scenarioFormat().parse(text, options))
}

/**
 * The scenario format as a JSON Schema (draft 2020-12, generated from the zod schema), for
 * editors: the package ships it as `fakelab/scenario.schema.json`. Browser-safe.
 */
export function scenarioJsonSchema(): Record<string, unknown> {
  return scenarioFormat().jsonSchema()
}

/**
 * Scenarios this module has validated (parsed or checked), so that `createSimulator` validates a
 * scenario object only once: one built in code is checked, one `parseScenario` returned is not again.
 */
const VALIDATED = new WeakSet<Scenario>()

function validated(scenario: Scenario): Scenario {
  VALIDATED.add(scenario)
  return scenario
}

/**
 * Validates an already-parsed scenario object (JSON, or YAML parsed by the caller in a browser).
 * Same checks as {@link parseScenario}, but problems carry line 0, col 0 (their message starts with
 * the path, such as `users[2].username:`), and `include:` is refused (there is no reader).
 * @param file name used in problems; default `<scenario>`.
 * @throws ScenarioError listing every problem.
 */
export function validateScenarioObject(value: unknown, file?: string): Scenario {
  return validated(scenarioFormat().validate(value, file))
}

/**
 * Inserts every record of a scenario into a store made by {@link createDb}, inside one
 * transaction. Ids: explicit ones are kept, the others continue each table's sequence past the
 * highest id in the scenario (and in the table). iids: explicit ones are reserved first, the others
 * allocated in file order per project or group. Values the scenario leaves out come from a seeded
 * faker, reseeded per record from its natural key, so they do not change when other records are
 * added. Meant for an empty store.
 * @throws ScenarioError when the scenario refers to something it does not define (only possible
 *   for a hand-built scenario; parsed ones are checked already).
 * @throws DuplicateKeyError when an explicit id is already taken in `db`; nothing is written.
 */
export function applyScenario(db: Db, scenario: Scenario, options: ApplyScenarioOptions): void {
  // A scenario this module parsed or validated had its references checked then (see VALIDATED).
  scenarioFormat().apply(db, scenario, VALIDATED.has(scenario) ? { ...options, checked: true } : options)
}

/**
 * Turns a scenario (YAML/JSON text or an object) or a state export into store state: what
 * `sim.loadScenario()` and `PUT /-/fakelab/scenario` load.
 * @param seed overrides the scenario's `seed:` (not a state export's).
 * @throws ScenarioError listing every problem of a scenario.
 * @throws ApiError 400 for a state export this version cannot read.
 */
export function loadState(input: unknown, seed?: number): LoadedState {
  if (typeof input === 'string') {
    // A state export is plain YAML data; a scenario goes through parseScenario for file:line:col problems.
    const doc = safeParse(input)
    if (isStateExport(doc)) return stateFromExport(doc)
  } else if (isStateExport(input)) {
    return stateFromExport(input)
  }
  const scenario = typeof input === 'string' ? parseScenario(input) : validateScenarioObject(input)
  const db = createDb()
  const useSeed = seed ?? scenario.seed ?? 1
  applyScenario(db, scenario, { seed: useSeed, referenceDate: new Date(scenario.now ?? DEFAULT_REFERENCE_DATE) })
  return { state: db.dump(), seed: useSeed, now: scenario.now, faults: scenario.faults }
}

/** Options for {@link createSimulator}: the engine's options plus a scenario. */
export interface SimulatorOptions extends Omit<EngineOptions, 'db' | 'routes' | 'seed' | 'clock' | 'beforeApiRequest' | 'prepare'> {
  /**
   * A scenario object written in code ({@link ScenarioInput}, validated exactly as YAML), a parsed
   * scenario (`parseScenario`, `loadScenarioFile`), scenario YAML text, or a state export
   * (`sim.exportState()`, as text or as the parsed object: loaded as it is, without the YAML parser
   * or the scenario checks). Default: an empty store.
   */
  scenario?: ScenarioInput | Scenario | StateExport | string
  /** Overrides the scenario's `now:`; default: frozen at the scenario's `now:`, else the wall clock. */
  clock?: EngineOptions['clock']
  /** Faker seed; default: the scenario's `seed:`, else 1. */
  seed?: number
  /** Routes to serve; default: every implemented GitLab route. */
  routes?: EngineOptions['routes']
}

/** State exports handed over to the next simulator made from them ({@link handOverState}). */
const HANDED_OVER = new WeakSet<object>()

/**
 * Hands a state export its caller parsed for one simulator, and will neither keep nor change, to
 * the next `createSimulator` given it, which then keeps its records instead of copying them: the
 * CLI's default state (issue 27, cold start: a millisecond of `fakelab serve`'s start). Internal:
 * `fakelab` does not export it, since a caller changing a record afterwards would change the store.
 * @returns the same object.
 */
export function handOverState(state: StateExport): StateExport {
  HANDED_OVER.add(state)
  return state
}

/**
 * Creates a simulator: parses the scenario (when given as YAML), loads it into a fresh store, and
 * starts an engine on every implemented route.
 * @throws ScenarioError when `options.scenario` is YAML text with problems.
 * @example
 * const sim = createSimulator({ scenario: defaultScenarioYaml })
 * const res = await sim.handle(new Request('http://gitlab.test/api/v4/projects/20/labels', {
 *   headers: { 'PRIVATE-TOKEN': 'glpat-root-fakelab' },
 * }))
 */
export function createSimulator(options: SimulatorOptions = {}): Simulator {
  const { scenario: given, ...rest } = options
  const db = createDb()
  // What both ways of starting below give the engine.
  const wiring = {
    ...rest,
    replyMemo: rest.replyMemo ?? replyMemoFromEnv(),
    // The static table's routes as a source: their entries are made as requests need them.
    routes: options.routes ?? apiRouteSource,
    webRoutes: rest.webRoutes ?? webRouteSource,
    // The areas' routes are registered from the static table and load on their first request.
    loadRoute: rest.loadRoute ?? loadRoute,
    // Its fault rules are checked against the routes here, before the engine changes the store.
    loadScenario: (input: unknown) => {
      const loaded = loadState(input)
      checkScenarioFaults(loaded.faults, options.routes ?? apiRouteSource)
      return loaded
    },
    createDb,
    beforeApiRequest: BEFORE_REQUEST,
    // The areas' subscribers and registries load before the first request, not at start.
    prepare: loadRegistrations,
  }
  const stateGiven = typeof given === 'string' ? STATE_EXPORT_LINE.test(given) && isStateExport(safeParse(given)) : isStateExport(given)
  if (stateGiven) {
    const loaded = loadState(given)
    db.load(loaded.state, typeof given === 'object' && given !== null && HANDED_OVER.delete(given))
    const clock = options.clock ?? frozenClock(loaded.now!)
    const seed = options.seed ?? loaded.seed
    return withArrange(createEngine({ ...wiring, db, seed, clock }), seed)
  }
  const scenario = given === undefined ? undefined : toScenario(given as ScenarioInput | Scenario | string)
  const seed = options.seed ?? scenario?.seed ?? 1
  const clock = options.clock ?? (scenario?.now ? frozenClock(scenario.now) : systemClock)
  checkScenarioFaults(scenario?.faults, options.routes ?? apiRouteSource)
  if (scenario) applyScenario(db, scenario, { seed, referenceDate: new Date(scenario.now ?? DEFAULT_REFERENCE_DATE) })
  // The scenario's fault rules first, then the caller's (the CLI's --delay/--fault).
  const faults = [...(scenario?.faults ?? []), ...(options.faults ?? [])]
  const engine = createEngine({ ...wiring, db, seed, clock, faults })
  return withArrange(engine, seed)
}

/**
 * Checks a scenario's `faults:` against the routes served (the format checks the rest, but does not
 * know the routes): a rule naming no route would never match.
 * @throws RangeError `the scenario's faults[i]: fault route: no route "…" (did you mean "…"?); …`.
 */
function checkScenarioFaults(faults: readonly FaultRule[] | undefined, routes: RouteList): void {
  if (!faults?.length) return
  const keys = routeEntries(routes).map((route) => route.key)
  faults.forEach((rule, i) => {
    try {
      checkFaultRule(rule, keys)
    } catch (error) {
      throw new RangeError(`the scenario's faults[${i}]: ${(error as Error).message}`)
    }
  })
}

/**
 * The reply memo mode `FAKELAB_REPLY_MEMO` asks for (`on`, `off` or `verify`), where there is a
 * process environment: how the test suite runs every simulator, the CLI's included, in `'verify'`.
 */
function replyMemoFromEnv(): ReplyMemoMode | undefined {
  const value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.FAKELAB_REPLY_MEMO
  return value === 'on' || value === 'off' || value === 'verify' ? value : undefined
}

/** A scenario from YAML text or an object; objects not validated here before are validated as YAML is. */
function toScenario(given: ScenarioInput | Scenario | string): Scenario {
  if (typeof given === 'string') return parseScenario(given)
  return VALIDATED.has(given as Scenario) ? (given as Scenario) : validateScenarioObject(given)
}

/**
 * New records for {@link Simulator.arrange}: users, groups and projects with everything they hold,
 * written as in a scenario (the same fields and defaults; see {@link ScenarioInput}).
 */
export interface Arrangement {
  users?: ScenarioUserInput[]
  groups?: ScenarioGroupInput[]
  projects?: ScenarioProjectInput[]
}

/** The store rows {@link Simulator.arrange} created, in the arrangement's order. */
export interface Arranged {
  users: UserRecord[]
  groups: GroupRecord[]
  projects: ProjectRecord[]
}

/** A simulator made by {@link createSimulator}: the engine plus typed arranging. */
export interface Simulator extends EngineSimulator {
  /**
   * Adds new users, groups and projects, with what they hold (tokens, labels, issues, members…), to
   * the current state, through the scenario's own loaders: what the arrangement leaves out is filled
   * as a scenario fills it (seeded faker, keyed by each record's natural key), ids continue past each
   * table's highest. The arrangement is validated as a scenario is; its references may name its
   * own records and the users and groups already in the store (a project in `acme`, a member `max`,
   * an author `devon`); labels and milestones it refers to must be its own. Records already in the
   * store change through `sim.db.tables`. `reset()` drops what was arranged.
   * @returns the created users, groups and projects.
   * @throws ScenarioError listing every problem (also a username, group or project path the store
   *   already has); nothing is written then.
   * @example
   * const { users: [zoe] } = sim.arrange({ users: [{ username: 'zoe', tokens: [{ token: 'glpat-zoe', scopes: ['api'] }] }] })
   */
  arrange(records: Arrangement): Arranged
}

/**
 * Adds {@link Simulator.arrange} to an engine. Generated values use `seed` and lead up to the
 * simulator's clock (the scenario's `now:` while it is frozen there).
 */
function withArrange(engine: EngineSimulator, seed: number): Simulator {
  const sim = engine as Simulator
  sim.arrange = (records) => {
    const file = '<arrange>'
    const db = sim.db
    refuseTaken(db, records, file)
    // The store's users and groups join the arrangement as identity-only records after its own (so
    // problems keep the arrangement's indexes): references to them check and load, nothing is rebuilt.
    const users = db.tables.users.all()
    const groups = db.tables.groups.all()
    const stubUsers = users.map((u) => ({ id: u.id, username: u.username }))
    const stubGroups = groups.map((g) => {
      const parent = g.parent_id === null ? undefined : db.tables.groups.get(g.parent_id)
      return { id: g.id, path: g.path, ...(parent ? { parent: db.groupFullPath(parent) } : {}) }
    })
    const withStubs = (own: unknown, stubs: object[]) => (own === undefined ? stubs : Array.isArray(own) ? [...own, ...stubs] : own)
    const scenario = validateScenarioObject({ version: 1, ...records, users: withStubs(records.users, stubUsers), groups: withStubs(records.groups, stubGroups) }, file)
    const ownUsers = scenario.users.length - users.length
    const ownGroups = scenario.groups.length - groups.length
    const existing = new Map<object, Row>([
      ...users.map((row, i) => [scenario.users[ownUsers + i]!, row] as const),
      ...groups.map((row, i) => [scenario.groups[ownGroups + i]!, row] as const),
    ])
    applyScenario(db, scenario, { seed, referenceDate: engine.clock.now(), recordsOnly: true, existing })
    return {
      users: scenario.users.slice(0, ownUsers).map((u) => db.tables.users.find((row) => row.username.toLowerCase() === u.username.toLowerCase())!),
      groups: scenario.groups.slice(0, ownGroups).map((g) => {
        const full = (g.parent ? `${g.parent}/${g.path}` : g.path).toLowerCase()
        return db.tables.groups.find((row) => db.groupFullPath(row).toLowerCase() === full)!
      }),
      projects: scenario.projects.map((p) => {
        const full = `${p.namespace}/${p.path}`.toLowerCase()
        return db.tables.projects.find((row) => db.projectFullPath(row).toLowerCase() === full)!
      }),
    }
  }
  return sim
}

/**
 * Refuses an arrangement naming a user, group or project the store already has (read from the raw
 * records: ill-typed ones are left to validation).
 * @throws ScenarioError listing each.
 */
function refuseTaken(db: Db, records: Arrangement, file: string): void {
  const problems: ScenarioProblem[] = []
  const taken = (path: string, what: string) => problems.push({ file, line: 0, col: 0, message: `${path}: ${what} is already in the store` })
  const usernames = new Set(db.tables.users.all().map((u) => u.username.toLowerCase()))
  const groupPaths = new Set(db.tables.groups.all().map((g) => db.groupFullPath(g).toLowerCase()))
  const projectPaths = new Set(db.tables.projects.all().map((p) => db.projectFullPath(p).toLowerCase()))
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined)
  const each = (list: unknown, fn: (item: Record<string, unknown>, i: number) => void) => {
    if (Array.isArray(list)) list.forEach((item: unknown, i) => typeof item === 'object' && item !== null && fn(item as Record<string, unknown>, i))
  }
  each(records.users, (u, i) => {
    const name = text(u.username)
    if (name && usernames.has(name.toLowerCase())) taken(`users[${i}].username`, `user "${name}"`)
  })
  each(records.groups, (g, i) => {
    const path = text(g.path)
    const full = path && (text(g.parent) ? `${text(g.parent)}/${path}` : path)
    if (full && groupPaths.has(full.toLowerCase())) taken(`groups[${i}].path`, `group "${full}"`)
  })
  each(records.projects, (p, i) => {
    const full = text(p.path) && text(p.namespace) ? `${text(p.namespace)}/${text(p.path)}` : undefined
    if (full && projectPaths.has(full.toLowerCase())) taken(`projects[${i}].path`, `project "${full}"`)
  })
  if (problems.length > 0) throw new ScenarioError(problems)
}

/** A state export's marker line; checked before parsing a scenario's YAML twice. */
const STATE_EXPORT_LINE = /^fakelab_state:/m

/** Parses YAML text, `undefined` when it does not parse (the scenario parser reports that then). */
function safeParse(text: string): unknown {
  try {
    return parseDocument(text)
  } catch {
    return undefined
  }
}
