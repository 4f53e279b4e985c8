/**
 * Scenarios: versioned YAML fixture files describing GitLab data (users, groups, projects and what
 * they hold), parsed and validated into a {@link Scenario} and applied to a store.
 * Browser-safe: nothing here reads files (`include:` goes through a callback).
 *
 * @example
 * const scenario = parseScenario(yamlText, { file: 'scenarios/default.yaml' })
 * const db = new Db()
 * applyScenario(db, scenario, { seed: scenario.seed, referenceDate: new Date(scenario.now ?? Date.now()) })
 * @module
 */
export { applyScenario, type ApplyScenarioOptions } from './apply.js'
export {
  CURRENT_SCENARIO_VERSION,
  SCENARIO_MIGRATIONS,
  migrateScenario,
  type MigrationProblem,
  type MigrationResult,
  type ScenarioDocument,
  type ScenarioMigration,
} from './migrate.js'
export {
  ScenarioError,
  formatScenarioProblem,
  parseScenario,
  validateScenarioObject,
  type ParseScenarioOptions,
  type ScenarioProblem,
} from './parse.js'
export {
  ACCESS_LEVEL_NAMES,
  TOKEN_SCOPES,
  fixtureSchema,
  scenarioSchema,
  type Scenario,
  type ScenarioFreezePeriod,
  type ScenarioGroup,
  type ScenarioInput,
  type ScenarioIssue,
  type ScenarioLabel,
  type ScenarioMember,
  type ScenarioMergeRequest,
  type ScenarioMilestone,
  type ScenarioOauthToken,
  type ScenarioPersonalAccessToken,
  type ScenarioProject,
  type ScenarioUser,
} from './schema.js'
