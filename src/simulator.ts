/**
 * The composition root: the resource areas, the scenario and the store wired into one engine.
 * `core/` (the engine) knows nothing of areas or scenarios; this file is the only place that joins
 * them: the store is built from core's tables and every area's, and the scenario format from every
 * area's fragment. Browser-safe: nothing here imports `node:*`. Source: STYLE.md §2.
 * @module
 */
import { createEngine, type EngineOptions, type Simulator } from './core/engine.js'
import { frozenClock, systemClock } from './core/clock.js'
import { isStateExport, parseDocument, stateFromExport, type LoadedState, type StateExport } from './core/control.js'
import { Db } from './db/db.js'
import { CORE_TABLES, type TableDefs } from './db/schema.js'
import { allRoutes, allWebRoutes, areas } from './resources/index.js'
import { createScenarioFormat, type ApplyScenarioOptions, type ParseScenarioOptions, type Scenario } from './scenario/index.js'

export type { Simulator, SimulatorSnapshot } from './core/engine.js'
export { API_PREFIX, MAX_QUERY_LENGTH } from './core/engine.js'

/** Reference instant for generated data when a scenario sets no `now:`, so data stays deterministic. */
export const DEFAULT_REFERENCE_DATE = '2021-04-01T12:00:00.000Z'

/**
 * Core's tables and every area's.
 * @throws Error at start-up when two areas (or an area and core) declare the same table.
 */
function composeTables(): TableDefs {
  const tables: Record<string, unknown> = { ...CORE_TABLES }
  for (const area of areas) {
    for (const [name, definition] of Object.entries(area.tables ?? {})) {
      if (Object.hasOwn(tables, name)) throw new Error(`area ${area.name}: table ${name} is declared twice`)
      tables[name] = definition
    }
  }
  return tables as TableDefs
}

const TABLES = composeTables()
const FORMAT = createScenarioFormat(areas.flatMap((area) => (area.scenario ? [area.scenario] : [])))

/** A new, empty store with every table of core and of the areas. */
export function createDb(): Db {
  return new Db(TABLES)
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
  return FORMAT.parse(text, options)
}

/**
 * Validates an already-parsed scenario object (JSON, or YAML parsed by the caller in a browser).
 * Same checks as {@link parseScenario}, but problems carry line 0, col 0 (their message starts with
 * the path, such as `users[2].username:`), and `include:` is refused (there is no reader).
 * @param file name used in problems; default `<scenario>`.
 * @throws ScenarioError listing every problem.
 */
export function validateScenarioObject(value: unknown, file?: string): Scenario {
  return FORMAT.validate(value, file)
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
  FORMAT.apply(db, scenario, options)
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
  return { state: db.dump(), seed: useSeed, now: scenario.now }
}

/** Options for {@link createSimulator}: the engine's options plus a scenario. */
export interface SimulatorOptions extends Omit<EngineOptions, 'db' | 'routes' | 'seed' | 'clock'> {
  /**
   * A parsed scenario, scenario YAML text, or a state export (`sim.exportState()`, as text or as the
   * parsed object: loaded as it is, without the YAML parser or the scenario checks). Default: an empty store.
   */
  scenario?: Scenario | StateExport | string
  /** Overrides the scenario's `now:`; default: frozen at the scenario's `now:`, else the wall clock. */
  clock?: EngineOptions['clock']
  /** Faker seed; default: the scenario's `seed:`, else 1. */
  seed?: number
  /** Routes to serve; default: every implemented GitLab route. */
  routes?: EngineOptions['routes']
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
  const loader = (input: unknown) => loadState(input)
  const stateGiven = typeof given === 'string' ? STATE_EXPORT_LINE.test(given) && isStateExport(safeParse(given)) : isStateExport(given)
  if (stateGiven) {
    const loaded = loadState(given)
    db.load(loaded.state)
    const clock = options.clock ?? frozenClock(loaded.now!)
    return createEngine({ ...rest, db, seed: options.seed ?? loaded.seed, clock, routes: options.routes ?? allRoutes, webRoutes: rest.webRoutes ?? allWebRoutes, loadScenario: loader, createDb })
  }
  const scenario = typeof given === 'string' ? parseScenario(given) : (given as Scenario | undefined)
  const seed = options.seed ?? scenario?.seed ?? 1
  const clock = options.clock ?? (scenario?.now ? frozenClock(scenario.now) : systemClock)
  if (scenario) applyScenario(db, scenario, { seed, referenceDate: new Date(scenario.now ?? DEFAULT_REFERENCE_DATE) })
  return createEngine({ ...rest, db, seed, clock, routes: options.routes ?? allRoutes, webRoutes: rest.webRoutes ?? allWebRoutes, loadScenario: loader, createDb })
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
