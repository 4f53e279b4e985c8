/**
 * `fakelab`: the browser-safe core. Create a simulator from a scenario and hand it Fetch requests,
 * or mount it with `fakelab/msw` (MSW handlers) or `fakelab/node` (an HTTP server).
 * @example
 * import { createSimulator } from 'fakelab'
 * const sim = createSimulator({ scenario: yamlText })
 * const res = await sim.handle(new Request('http://gitlab.test/api/v4/user', {
 *   headers: { 'PRIVATE-TOKEN': 'glpat-root-fakelab' },
 * }))
 * @module
 */
export {
  createSimulator,
  createDb,
  parseScenario,
  validateScenarioObject,
  scenarioJsonSchema,
  applyScenario,
  loadState,
  API_PREFIX,
  MAX_QUERY_LENGTH,
} from './simulator.js'
export type { Arranged, Arrangement, Simulator, SimulatorOptions, SimulatorSnapshot } from './simulator.js'
export type { CoreReply, CoreRequest, HeaderList } from './core/transport.js'
export { frozenClock, systemClock } from './core/clock.js'
export type { Clock, ManualClock } from './core/clock.js'
export type { ReplyMemoMode } from './core/reply-memo.js'
export { AccessLevel } from './rules/access.js'
export { ApiError } from './core/errors.js'
export { DEFAULT_JOURNAL_SIZE, Journal, JournalAssertionError, formatEntry } from './core/journal.js'
export type { JournalEntry, JournalQuery, NearMiss } from './core/journal.js'
export { Faults, checkFaultRule } from './core/faults.js'
export type { FaultRule, FaultStatus, FaultDecision } from './core/faults.js'
export { STATE_EXPORT_KEY } from './core/control.js'
export type { LoadedState, StateExport } from './core/control.js'
export { route } from './core/route.js'
export type { Route, Ctx, Reply, AuthPolicy } from './core/route.js'
export { Db } from './db/db.js'
export type * from './db/schema.js'
export type * from './resources/index.js'
export { ScenarioError } from './scenario/index.js'
export type * from './entity-types.js'
export type {
  Area,
  Scenario,
  ScenarioGroupInput,
  ScenarioInput,
  ScenarioProblem,
  ScenarioProjectInput,
  ScenarioUserInput,
} from './scenario/index.js'
export { DEFAULT_SCENARIO_YAML, defaultScenario } from './default-scenario.js'
