/**
 * The runners area: the 13 runner routes and `GET /job` (the job of a CI job token), the runner, link, pipeline, job and application-settings
 * tables, and the scenario's `runners_registration_token:`, `runners:` and projects' `pipelines:`.
 * gitlab: lib/api/ci/runners.rb, lib/api/ci/runner.rb, lib/api/jobs.rb.
 * @module
 */
import { RUNNERS_TOKEN_PREFIX } from '../../rules/runners-token.js'
import type { Area } from '../../scenario/area.js'
import { jobRoutes } from './jobs.routes.js'
import { runnerRoutes } from './runners.routes.js'
import { runnerTokenLines } from './runners.startup.js'
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
  // A group's runner links go with it; pipelines and jobs outlive their user (ON DELETE SET NULL).
  cascade: [
    { kind: 'cascade', table: 'runner_namespaces', column: 'namespace_id', parent: 'groups' },
    { kind: 'nullify', table: 'pipelines', column: 'user_id', parent: 'users' },
    { kind: 'nullify', table: 'jobs', column: 'user_id', parent: 'users' },
  ],
  // Registration tokens: projects' and groups' `runners_token`, the instance's, the registration param.
  secrets: {
    bodyFields: ['runners_token', 'runners_registration_token', 'registration_token'],
    patterns: [new RegExp(`\\b${RUNNERS_TOKEN_PREFIX}[A-Za-z0-9_-]+`, 'g')],
  },
  startup: runnerTokenLines,
}
