/**
 * What `POST /-/fakelab/jobs/run` does to a job: what a runner's `PUT /jobs/:id` and artifact
 * upload do (the runner-jobs area's runner API), without a runner: the same `moveBuild`: the job takes its new status and times, its log
 * and its artifacts archive, and its pipeline is processed (the next stage's jobs become pending,
 * the pipeline's status follows, the `pipeline` fact is published). Registered with core at start.
 * Source: issue 36 item 5; gitlab (13.12): lib/api/ci/runner.rb (`PUT /jobs/:id`,
 * `POST /jobs/:id/artifacts`), app/services/ci/update_build_state_service.rb.
 * @module
 */
import { apiMessage } from '../../core/errors.js'
import { registerJobControl, type JobRunInput } from '../../core/job-control.js'
import { isoDate, timestamp } from '../../core/clock.js'
import { storeJobArtifacts } from './jobs.artifacts.js'
import { moveBuild } from './jobs.runner.js'
import { isBuild } from './pipelines.service.js'

/** The statuses a runner reports. */
const STATUSES = new Set(['running', 'success', 'failed', 'canceled'])

function check(input: JobRunInput): void {
  if (!Number.isSafeInteger(input.job)) throw apiMessage(400, 'job must be a job id')
  if (input.status !== undefined && !STATUSES.has(input.status)) throw apiMessage(400, 'status must be running, success, failed or canceled')
  if (input.trace !== undefined && typeof input.trace !== 'string') throw apiMessage(400, 'trace must be a string')
  if (input.artifacts !== undefined && (typeof input.artifacts !== 'object' || input.artifacts === null || Array.isArray(input.artifacts) || Object.values(input.artifacts).some((v) => typeof v !== 'string'))) {
    throw apiMessage(400, 'artifacts must map file paths to text')
  }
  const expire = input.artifacts_expire_at
  if (expire !== undefined && expire !== null && (typeof expire !== 'string' || Number.isNaN(Date.parse(expire)))) throw apiMessage(400, 'artifacts_expire_at must be an ISO 8601 instant or null')
}

registerJobControl({
  run(db, input, baseUrl, at) {
    check(input)
    const now = timestamp(at)
    return db.transaction(() => {
      const job = db.tables.jobs.get(input.job)
      if (!job || !isBuild(job)) throw apiMessage(404, `job ${input.job} not found`)
      const status = input.status ?? 'success'
      const ctx = { db, baseUrl, now, today: isoDate(at), currentUser: null }
      let artifacts = db.tables.job_artifacts.where('job_id', job.id)[0]
      // The runner's `PUT /jobs/:id` moves the build through its state machine (the `job` fact), as the runner API does.
      const stored = moveBuild(ctx, job, status, now, input.trace !== undefined ? { trace: input.trace } : {}, (moved) => {
        if (input.artifacts !== undefined) artifacts = storeJobArtifacts(db, moved, input.artifacts, input.artifacts_expire_at ? new Date(input.artifacts_expire_at).toISOString() : null, now)
      })
      const pipeline = db.tables.pipelines.get(stored.pipeline_id)!
      return { id: job.id, status, pipeline_id: pipeline.id, pipeline_status: pipeline.status, artifacts: artifacts ? artifacts.files.map((f) => f.path) : [] }
    })
  },
})
