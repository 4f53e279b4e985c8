/**
 * What other areas may use of the runners area: the pipelines finder and presenters (a merge
 * request's pipelines are the source project's pipelines for its commits), and the merge request
 * pipeline a new merge request gets (`createMergeRequestPipeline`, which the merge requests area
 * calls after a create: this area knows no merge request). Its public module:
 * besides `index.ts`, the only file of this folder another area imports. Nothing here imports
 * another area. And the runner API's needs (the runner-jobs area): a runner by its token and its
 * heartbeat, the builds it may pick and their picking, a build's state, log and artifacts as its
 * runner reports them, a build's dependencies, and what its variables and payload read.
 * gitlab: app/models/ci/pipeline.rb, lib/api/entities/ci/pipeline*.rb, lib/api/ci/runner.rb (13.12).
 * @module
 */
import type { Db } from '../../db/db.js'
import type { Ctx } from '../../core/route.js'
import type { PresentCtx } from '../../entities/urls.js'
import { Job } from './runners.entities.js'
import type { JobRecord, PipelineRecord, PipelineVariableRecord, RunnerRecord } from './runners.tables.js'

export { Pipeline, PipelineBasic } from './pipelines.entities.js'
export type { PipelineRecord } from './runners.tables.js'
// Triggers and schedules make pipelines of their own sources (the ci-triggers area).
export { createPipeline } from './pipelines.service.js'
export type { NewVariable } from './pipelines.service.js'
export { createMergeRequestPipeline, requestMergeRequestPipeline } from './pipelines.service.js'
// CI lint reads content with the pipelines' own `.gitlab-ci.yml` reader (the ci-lint area).
export { lintCiYaml } from './pipelines.ci-lint.js'
export type { CiLintResult } from './pipelines.ci-lint.js'
export { CI_CONFIG_PATH } from './pipelines.ci-config.js'
/** `create_pipeline` on the project (Developer+), as `POST /projects/:id/ci/lint` authorizes. */
export { canDevelop as canCreatePipeline } from './pipelines.service.js'

/** A project's pipelines, in id order (`project.all_pipelines`). */
export function pipelinesOfProject(db: Db, projectId: number): PipelineRecord[] {
  return db.tables.pipelines.where('project_id', projectId)
}

/** A pipeline's jobs (builds and commit statuses, retried ones included), in id order (`pipeline.statuses`). */
export function jobsOfPipeline(db: Db, pipelineId: number): JobRecord[] {
  return db.tables.jobs.where('pipeline_id', pipelineId)
}

/** A job (build or commit status) by id, or undefined. */
export function jobById(db: Db, id: number): JobRecord | undefined {
  return db.tables.jobs.get(id)
}

/** The pipeline of a job, or undefined. */
export function pipelineById(db: Db, id: number): PipelineRecord | undefined {
  return db.tables.pipelines.get(id)
}

/** `Entities::Ci::Job` of a build, for another area's entity (a deployment's `deployable`). gitlab: lib/api/entities/ci/job.rb. */
export function JobEntity(job: JobRecord, ctx: PresentCtx) {
  return Job(job, ctx as Ctx<unknown>)
}

// ---- the runner API (runner-jobs area) ----------------------------------------------------

export { runnerByToken, heartbeat } from './runners.service.js'
export { appendTrace, buildById, buildDependencies, hasArchive, pickBuild, pipelineOfBuild, PROJECT_BUILD_TIMEOUT, runnerQueueValue, updateBuildState } from './jobs.runner.js'
export { artifactsOf, storeJobArtifacts } from './jobs.artifacts.js'
export { artifactsZip } from './jobs.artifacts.zip.js'
export { ARCHIVE_FILENAME } from './runners.entities.js'

/** A runner by id, or undefined. */
export function runnerById(db: Db, id: number): RunnerRecord | undefined {
  return db.tables.runners.get(id)
}
export { protectedRefForVariables } from './pipelines.variables.js'
export type { JobImage, JobRecord, RunnerRecord } from './runners.tables.js'

/** The variables the pipeline was made with (API, trigger, push options), in id order (`pipeline.variables`). */
export function variablesOfPipeline(db: Db, pipelineId: number): PipelineVariableRecord[] {
  return db.tables.pipeline_variables.where('pipeline_id', pipelineId)
}

/**
 * The pipeline's `iid` (`CI_PIPELINE_IID`): its place among its project's pipelines.
 * spec-gap: GitLab counts with `internal_ids` (never reused after a delete); fakelab's pipelines
 * keep no iid, so a deleted pipeline's later ones count one less.
 */
export function pipelineIid(db: Db, pipeline: PipelineRecord): number {
  return db.tables.pipelines.where('project_id', pipeline.project_id).filter((p) => p.id <= pipeline.id).length
}
