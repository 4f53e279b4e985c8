/**
 * What other areas may use of the runners area: the pipelines finder and presenters (a merge
 * request's pipelines are the source project's pipelines for its commits), and the pipeline status
 * hook (`onPipelineStatusChanged`: merge when pipeline succeeds listens). Its public module:
 * besides `index.ts`, the only file of this folder another area imports. Nothing here imports
 * another area. gitlab: app/models/ci/pipeline.rb, lib/api/entities/ci/pipeline*.rb.
 * @module
 */
import type { Db } from '../../db/db.js'
import type { PresentCtx as RuleCtx } from '../../entities/urls.js'
import type { PipelineRecord } from './runners.tables.js'

export { Pipeline, PipelineBasic } from './pipelines.entities.js'
export type { PipelineRecord } from './runners.tables.js'
export { onPipelineStatusChanged } from './pipelines.hooks.js'
export type { PipelineStatusListener } from './pipelines.hooks.js'

/** A project's pipelines, in id order (`project.all_pipelines`). */
export function pipelinesOfProject(db: Db, projectId: number): PipelineRecord[] {
  return db.tables.pipelines.where('project_id', projectId)
}

/**
 * Told that `pipeline`'s status changed from `previous` to `pipeline.status`, inside the request
 * (or load) that changed it; what it writes goes into the same store transaction.
 */
export type PipelineStatusListener = (ctx: RuleCtx, pipeline: PipelineRecord, previous: string) => void

/** The listeners of {@link onPipelineStatusChanged}, in registration order. */
const pipelineStatusListeners: PipelineStatusListener[] = []

/**
 * Registers `listener` for every change of a pipeline's status (another area calls this once, as
 * it loads: the merge requests area merges on success). gitlab: app/models/ci/pipeline.rb
 * (`after_transition` hooks).
 */
export function onPipelineStatusChanged(listener: PipelineStatusListener): void {
  pipelineStatusListeners.push(listener)
}
