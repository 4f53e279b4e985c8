/**
 * The runners area, GitLab's CI: the 13 runner routes, the pipelines API (a project's pipelines
 * read, created from its CI definition and driven), the jobs API (a project's jobs read and driven,
 * `GET /job` for a CI job token), the commit statuses API (a commit's statuses, and statuses
 * outside systems post, generic `ci_builds` rows of an `external` pipeline); the runner, link, pipeline, job, pipeline-variable, CI-definition,
 * CI-setting and application-settings tables; and the scenario's `runners_registration_token:`,
 * `runners:` and projects' `pipelines:`, `ci_config:` and `public_builds:`. One model: a runner's
 * jobs and a pipeline's jobs are the same rows.
 * gitlab: lib/api/ci/runners.rb, lib/api/ci/runner.rb, lib/api/ci/pipelines.rb, lib/api/jobs.rb,
 * lib/api/commit_statuses.rb.
 * @module
 */
import { RUNNERS_TOKEN_PREFIX } from '../../rules/runners-token.js'
import type { Area } from '../../scenario/area.js'
import { runnerTokenLines } from './runners.startup.js'
import { runnerFragment } from './runners.scenario.js'
import { runnerTables } from './runners.tables.js'
import { jobArtifactTables } from './jobs.artifacts.tables.js'
import type { Runner as RunnerPresenter, RunnerDetails as RunnerDetailsPresenter, RunnerRegistrationDetails as RunnerRegistrationDetailsPresenter, RunnerJob as RunnerJobPresenter } from './runners.entities.js'

export type { ApplicationSettingRecord, CiConfigJob, JobRecord, JobType, JobWhen, PipelineRecord, PipelineVariableRecord, ProjectCiConfigRecord, ProjectCiSettingRecord, RunnerNamespaceRecord, RunnerProjectRecord, RunnerRecord } from './runners.tables.js'
export type { PipelineFields, ScenarioRunner } from './runners.scenario.js'
export type { PipelineFact } from './pipelines.events.js'
export type { ArtifactEntry, JobArtifactRecord } from './jobs.artifacts.tables.js'

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
  load: async () => {
    const [{ runnerRoutes }, { pipelineRoutes }, { jobRoutes }, { commitStatusRoutes }, { jobArtifactRoutes }] = await Promise.all([import('./runners.routes.js'), import('./pipelines.routes.js'), import('./jobs.routes.js'), import('./commit-statuses.routes.js'), import('./jobs.artifacts.routes.js')])
    return { api: [...runnerRoutes, ...pipelineRoutes, ...jobRoutes, ...commitStatusRoutes, ...jobArtifactRoutes] }
  },
  register: async () => {
    // A pushed branch or tag with a `.gitlab-ci.yml` gets its pipeline (the `push` fact's subscriber).
    await import('./pipelines.on-push.js')
    await import('./pipelines.refs.subscribers.js')
    await import('./jobs.control.js')
    await import('./runners.registrations.js')
  },
  tables: { ...runnerTables, ...jobArtifactTables },
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
