/**
 * The runners area: the 13 runner routes, the runner, link, pipeline, job and application-settings
 * tables, and the scenario's `runners_registration_token:`, `runners:` and projects' `pipelines:`.
 * gitlab: lib/api/ci/runners.rb, lib/api/ci/runner.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { runnerRoutes } from './runners.routes.js'
import { runnerFragment } from './runners.scenario.js'
import { runnerTables } from './runners.tables.js'

export type { ApplicationSettingRecord, JobRecord, PipelineRecord, RunnerNamespaceRecord, RunnerProjectRecord, RunnerRecord } from './runners.tables.js'
export type { PipelineFields, ScenarioRunner } from './runners.scenario.js'

/** The runners area. */
export const runners: Area = {
  name: 'runners',
  routes: runnerRoutes,
  tables: runnerTables,
  scenario: runnerFragment,
}
