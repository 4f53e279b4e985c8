/**
 * The `pipeline` fact the runners area publishes on the domain-event channel (`rules/events.ts`)
 * each time a pipeline's status changes (a commit status posted, a job canceled, retried or
 * played, a pipeline created, canceled or retried), after the new status is stored and within the
 * same request, so a subscriber's writes join the request's store transaction. The stand-in for
 * what GitLab does after a pipeline's transition (`Ci::Pipeline` `after_transition` →
 * `PipelineHooksWorker`, `PipelineNotificationWorker`, `AutoMergeProcessWorker`...), which GitLab
 * runs in Sidekiq and fakelab runs in the request. Merge when pipeline succeeds and webhooks
 * subscribe. Nothing here imports another area.
 * gitlab: app/models/ci/pipeline.rb (state machine callbacks, 13.x).
 * @module
 */
import type { PresentCtx } from '../../entities/urls.js'
import { publish } from '../../rules/events.js'
import type { PipelineRecord } from './runners.tables.js'

/** What the pipelines rules read of a request: the store, the clock, the caller, the base URL. */
export type RuleCtx = PresentCtx

/** The `pipeline` fact: the pipeline as now stored (its new `status`) and the status it had before. */
export interface PipelineFact {
  readonly pipeline: PipelineRecord
  readonly previousStatus: string
}

declare module '../../rules/events.js' {
  interface DomainEvents {
    /** A pipeline's status changed (see {@link PipelineFact}). */
    pipeline: PipelineFact
  }
}

/**
 * Publishes the `pipeline` fact for `pipeline` (as stored now) having changed from `previous`;
 * nothing when the status is the same. The actor is the request's user.
 */
export function publishPipelineStatus(ctx: RuleCtx, pipeline: PipelineRecord, previous: string): void {
  if (pipeline.status === previous) return
  publish(ctx.db, 'pipeline', { pipeline, previousStatus: previous, actorId: ctx.currentUser?.id ?? null, at: ctx.now, baseUrl: ctx.baseUrl })
}
