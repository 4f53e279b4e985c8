/**
 * `fakelab/default-scenario` (also re-exported by `fakelab`): the embedded default scenario as data,
 * for places that cannot read `scenarios/default.yaml` from disk (a browser, a bundled worker).
 * Browser-safe: imports nothing from Node. The text is generated from `scenarios/default.yaml` at
 * build time (scripts/embed-default-scenario.mjs), so the file stays the one source. Source: issue 12.
 * @example
 * import { createSimulator, defaultScenario } from 'fakelab'
 * const sim = createSimulator({ scenario: defaultScenario() })
 * @module
 */
import { DEFAULT_SCENARIO_YAML } from './generated/default-scenario.js'
import type { Scenario } from './scenario/index.js'
import { parseScenario } from './simulator.js'

export { DEFAULT_SCENARIO_YAML }

let parsed: Scenario | undefined

/**
 * The embedded default scenario (users at every access level, groups, projects, labels, ...),
 * parsed and validated once and then shared: treat it as read-only. Gives the same simulator as
 * `loadDefaultScenario()` from `fakelab/node`, which reads the same file from disk.
 * @throws ScenarioError only if the embedded text is broken (a build bug: the tests load it).
 */
export function defaultScenario(): Scenario {
  return (parsed ??= parseScenario(DEFAULT_SCENARIO_YAML, { file: 'scenarios/default.yaml' }))
}
