/**
 * The `job` fact the runners area publishes on the domain-event channel (`rules/events.ts`) each
 * time a build's status changes (processed from `created`, canceled, played, retried, skipped jobs
 * reset), after the new status is stored and within the same request. The stand-in for `Ci::Build`'s
 * `after_transition any => any` (`BuildHooksWorker` → `build.execute_hooks`); generic commit
 * statuses send none (only `Ci::Build` has hooks). Webhooks subscribe. Nothing here imports another area.
 * gitlab: app/models/ci/build.rb (state machine callbacks), app/workers/build_hooks_worker.rb (13.12).
 * @module
 */
import { publish } from '../../rules/events.js'
import type { RuleCtx } from './pipelines.events.js'
import type { JobRecord } from './runners.tables.js'

/** The `job` fact: the build as now stored (its new `status`) and the status it had before. */
interface JobFact {
  readonly job: JobRecord
  readonly previousStatus: string
}

/** The `job_created` fact: a build was made (by a pipeline's creation or a retry), `created`, not yet processed. */
interface JobCreatedFact {
  readonly job: JobRecord
}

declare module '../../rules/events.js' {
  interface DomainEvents {
    /** A build's status changed (see {@link JobFact}). */
    job: JobFact
    /** A build was made (see {@link JobCreatedFact}): what GitLab's pipeline seeds do with it (its environment and deployment) hangs off this. */
    job_created: JobCreatedFact
  }
}

/**
 * Publishes the `job_created` fact for a new build (`Ci::CreatePipelineService`'s seeds,
 * `Ci::RetryBuildService`'s copy), before it is processed; nothing for a generic commit status.
 */
export function publishJobCreated(ctx: RuleCtx, job: JobRecord): void {
  if (job.type !== 'Ci::Build') return
  publish(ctx.db, 'job_created', { job, actorId: ctx.currentUser?.id ?? null, at: ctx.now, baseUrl: ctx.baseUrl })
}

/**
 * Publishes the `job` fact for `job` (as stored now) having changed from `previous`; nothing when
 * the status is the same or the job is not a build (`Ci::Bridge`, `GenericCommitStatus`). The actor
 * is the request's user.
 */
export function publishJobStatus(ctx: RuleCtx, job: JobRecord, previous: string): void {
  if (job.status === previous || job.type !== 'Ci::Build') return
  publish(ctx.db, 'job', { job, previousStatus: previous, actorId: ctx.currentUser?.id ?? null, at: ctx.now, baseUrl: ctx.baseUrl })
}
