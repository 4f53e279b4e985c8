/**
 * What the runner API (the `runner-jobs` area) may use of the runners area: a runner by its
 * token and its heartbeat, the builds it may pick and their picking, a build's state, log and
 * artifacts as its runner reports them, a build's dependencies, and what its variables and
 * payload read (its pipeline and that pipeline's variables, the pipeline's iid). Kept apart from
 * `runners.public.ts` because the artifacts' zip loads fflate: only the runner API's routes
 * (loaded on first use) import this. gitlab (13.12): lib/api/ci/runner.rb and the services it calls.
 * @module
 */
import type { Db } from '../../db/db.js'
import type { PipelineRecord, PipelineVariableRecord } from './runners.tables.js'

export { runnerByToken, heartbeat } from './runners.service.js'
export type { RunnerInfo } from './runners.service.js'
export { appendTrace, buildById, buildDependencies, hasArchive, pickBuild, pipelineOfBuild, PROJECT_BUILD_TIMEOUT, runnerQueueValue, traceSize, updateBuildState } from './jobs.runner.js'
export type { BuildStateReport } from './jobs.runner.js'
export { artifactsOf, storeJobArtifacts } from './jobs.artifacts.js'
export { artifactsZip } from './jobs.artifacts.zip.js'
export { ARCHIVE_FILENAME } from './runners.entities.js'
export { protectedRefForVariables } from './pipelines.variables.js'
export type { JobArtifactRecord } from './jobs.artifacts.tables.js'
export type { JobCacheOption, JobImage, JobOptions, JobRecord, PipelineRecord, RunnerRecord } from './runners.tables.js'

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
