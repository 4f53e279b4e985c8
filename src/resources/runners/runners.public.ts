/**
 * What other areas may use of the runners area: the pipelines finder and presenters (a merge
 * request's pipelines are the source project's pipelines for its commits), and the merge request
 * pipeline a new merge request gets (`createMergeRequestPipeline`, which the merge requests area
 * calls after a create: this area knows no merge request). Its public module:
 * besides `index.ts`, the only file of this folder another area imports. Nothing here imports
 * another area. gitlab: app/models/ci/pipeline.rb, lib/api/entities/ci/pipeline*.rb.
 * @module
 */
import type { Db } from '../../db/db.js'
import type { Ctx } from '../../core/route.js'
import type { PresentCtx } from '../../entities/urls.js'
import { Job } from './runners.entities.js'
import type { JobRecord, PipelineRecord } from './runners.tables.js'

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
