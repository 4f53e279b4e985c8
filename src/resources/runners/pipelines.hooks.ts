/**
 * The pipeline status hook: other areas register a listener as they load, and the runners area
 * calls every listener, in registration order, each time a pipeline's status changes (a commit
 * status posted, a job canceled, retried or played, a pipeline created, canceled or retried), after
 * the new status is stored and within the same request, so a listener's writes join the request's
 * store transaction. The stand-in for what GitLab does after a pipeline's transition
 * (`Ci::Pipeline` `after_transition` → `PipelineNotificationWorker`, `AutoMergeProcessWorker`...),
 * which GitLab runs in Sidekiq and fakelab runs in the request. Nothing here imports another area.
 * gitlab: app/models/ci/pipeline.rb (state machine callbacks, 13.x).
 * @module
 */
import type { PresentCtx } from '../../entities/urls.js'
import type { PipelineRecord } from './runners.tables.js'

/** What the pipelines rules read of a request: the store, the clock, the caller, the base URL. */
export type RuleCtx = PresentCtx

/**
 * Told of one pipeline status change: the request's context, the pipeline as now stored (its new
 * `status`), and the status it had before. A listener may write to the store; what it throws
 * propagates and fails the request (its store transaction is rolled back), so a listener that acts
 * on a pipeline's success checks first what GitLab's worker would check, and does not throw for a
 * refusal.
 */
export type PipelineStatusListener = (ctx: RuleCtx, pipeline: PipelineRecord, previous: string) => void

/** The registered listeners, in registration order. */
const listeners: PipelineStatusListener[] = []

/**
 * Registers a listener for every pipeline status change (an area calls this once, as it loads;
 * several listeners are called in registration order). The same function registered twice is
 * called once.
 */
export function onPipelineStatusChanged(listener: PipelineStatusListener): void {
  if (!listeners.includes(listener)) listeners.push(listener)
}

/**
 * Removes a listener registered with {@link onPipelineStatusChanged} (for tests).
 * @returns whether it was registered.
 */
export function offPipelineStatusChanged(listener: PipelineStatusListener): boolean {
  const i = listeners.indexOf(listener)
  if (i === -1) return false
  listeners.splice(i, 1)
  return true
}

/** Tells every listener that `pipeline` (as stored now) changed from `previous`; nothing when the status is the same. */
export function pipelineStatusChanged(ctx: RuleCtx, pipeline: PipelineRecord, previous: string): void {
  if (pipeline.status === previous) return
  // A copy: a listener registering another one does not change this round.
  for (const listener of [...listeners]) listener(ctx, pipeline, previous)
}
