/**
 * What a commit shows of its pipelines (`CommitDetail`'s `status` and `last_pipeline`). Pipelines
 * are another area (runners), which imports this one; so that the repository area needs no import
 * of it (no cycle), the runners area registers its lookup here when it loads
 * (`registerCommitPipelineLookup`), and a commit shows `status: null, last_pipeline: null` without one.
 * gitlab: lib/api/entities/commit_detail.rb, app/models/commit.rb (`status`, `last_pipeline`) (13.x).
 * @module
 */
import type { ProjectRecord } from '../../db/schema.js'
import type { PresentCtx } from '../../entities/urls.js'

/** A commit's pipeline facts as `CommitDetail` shows them. */
export interface CommitPipeline {
  /** The status of the commit's newest pipeline (`Commit#status`), or null. */
  status: string | null
  /** That pipeline as `PipelineBasic`, or null (none, or the caller may not read it). */
  last_pipeline: unknown
}

/** Finds a project's commit's pipeline facts. Must only read the store. */
export type CommitPipelineLookup = (ctx: PresentCtx, project: ProjectRecord, sha: string) => CommitPipeline

let lookup: CommitPipelineLookup | null = null

/** Sets where commits find their pipelines (the runners area calls this once, as it loads). */
export function registerCommitPipelineLookup(next: CommitPipelineLookup): void {
  lookup = next
}

/** The commit's pipeline facts: both null without pipelines, or without a runners area loaded. */
export function commitPipeline(ctx: PresentCtx, project: ProjectRecord, sha: string): CommitPipeline {
  return lookup ? lookup(ctx, project, sha) : { status: null, last_pipeline: null }
}
