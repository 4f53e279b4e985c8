/**
 * The composition root: the resource areas, the scenario and the store wired into one engine.
 * `core/` (the engine) knows nothing of areas or scenarios; this file is the only place that joins
 * them. Browser-safe: nothing here imports `node:*`. Source: STYLE.md §2.
 * @module
 */
import { createEngine, type EngineOptions, type Simulator } from './core/engine.js'
import { frozenClock, systemClock } from './core/clock.js'
import { Db } from './db/db.js'
import { allRoutes } from './resources/index.js'
import { applyScenario, parseScenario, type Scenario } from './scenario/index.js'

export type { Simulator, SimulatorSnapshot } from './core/engine.js'
export { API_PREFIX, MAX_QUERY_LENGTH } from './core/engine.js'

/** Reference instant for generated data when a scenario sets no `now:`, so data stays deterministic. */
export const DEFAULT_REFERENCE_DATE = '2021-04-01T12:00:00.000Z'

/** Options for {@link createSimulator}: the engine's options plus a scenario. */
export interface SimulatorOptions extends Omit<EngineOptions, 'db' | 'routes' | 'seed' | 'clock'> {
  /** A parsed scenario, or scenario YAML text. Default: an empty store. */
  scenario?: Scenario | string
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
  const scenario = typeof given === 'string' ? parseScenario(given) : given
  const seed = options.seed ?? scenario?.seed ?? 1
  const clock = options.clock ?? (scenario?.now ? frozenClock(scenario.now) : systemClock)
  const db = new Db()
  if (scenario) applyScenario(db, scenario, { seed, referenceDate: new Date(scenario.now ?? DEFAULT_REFERENCE_DATE) })
  return createEngine({ ...rest, db, seed, clock, routes: options.routes ?? allRoutes })
}
