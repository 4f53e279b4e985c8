/**
 * The runners area: the 13 runner routes and `GET /job` (the job of a CI job token), the runner, link, pipeline, job and application-settings
 * tables, and the scenario's `runners_registration_token:`, `runners:` and projects' `pipelines:`.
 * gitlab: lib/api/ci/runners.rb, lib/api/ci/runner.rb, lib/api/jobs.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { jobRoutes } from './jobs.routes.js'
import { runnerRoutes } from './runners.routes.js'
import { runnerFragment } from './runners.scenario.js'
import { runnerTables } from './runners.tables.js'
import type { Runner as RunnerPresenter, RunnerDetails as RunnerDetailsPresenter, RunnerRegistrationDetails as RunnerRegistrationDetailsPresenter, RunnerJob as RunnerJobPresenter } from './runners.entities.js'

export type { ApplicationSettingRecord, JobRecord, PipelineRecord, RunnerNamespaceRecord, RunnerProjectRecord, RunnerRecord } from './runners.tables.js'
export type { PipelineFields, ScenarioRunner } from './runners.scenario.js'

/** GitLab's `Runner` entity, as fakelab sends it. */
export type Runner = ReturnType<typeof RunnerPresenter>
/** GitLab's `RunnerDetails` entity, as fakelab sends it. */
export type RunnerDetails = ReturnType<typeof RunnerDetailsPresenter>
/** GitLab's `RunnerRegistrationDetails` entity, as fakelab sends it. */
export type RunnerRegistrationDetails = ReturnType<typeof RunnerRegistrationDetailsPresenter>
/** GitLab's `RunnerJob` entity, as fakelab sends it. */
export type RunnerJob = ReturnType<typeof RunnerJobPresenter>

/** The runners area. */
export const runners: Area = {
  name: 'runners',
  routes: [...runnerRoutes, ...jobRoutes],
  tables: runnerTables,
  scenario: runnerFragment,
}
