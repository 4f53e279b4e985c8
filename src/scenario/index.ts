/**
 * Scenarios: versioned YAML fixture files describing GitLab data (users, groups, projects and what
 * they hold), parsed and validated into a {@link Scenario} and loaded into a store. This folder is
 * the generic machinery; each resource area contributes its part of the format (a fragment), and
 * the composition root (`src/simulator.ts`) puts them together with {@link createScenarioFormat}.
 * Browser-safe: nothing here reads files (`include:` goes through a callback).
 *
 * @example
 * const format = createScenarioFormat(areas.flatMap((area) => area.scenario ?? []))
 * const scenario = format.parse(yamlText, { file: 'scenarios/default.yaml' })
 * format.apply(db, scenario, { seed: scenario.seed, referenceDate: new Date(scenario.now ?? Date.now()) })
 * @module
 */
export type { Area } from './area.js'
export { createScenarioFormat, type ApplyScenarioOptions, type ComposedScenarioFormat } from './format.js'
export type { CheckContext, Fields, FieldsInput, FieldsOutput, LoadContext, LoadParent, NestedCollection, ScenarioFragment } from './fragment.js'
export {
  CURRENT_SCENARIO_VERSION,
  SCENARIO_MIGRATIONS,
  migrateScenario,
  type MigrationProblem,
  type MigrationResult,
  type ScenarioDocument,
  type ScenarioMigration,
} from './migrate.js'
export type { ParseScenarioOptions } from './parse.js'
export { ScenarioError, formatScenarioProblem, type ScenarioProblem } from './problems.js'
export type {
  Scenario,
  ScenarioGroup,
  ScenarioGroupInput,
  ScenarioInput,
  ScenarioProject,
  ScenarioProjectInput,
  ScenarioUser,
  ScenarioUserInput,
} from './records.js'
