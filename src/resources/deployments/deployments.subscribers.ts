/**
 * The deployments area's subscriptions to the domain-event channel: a build whose `.gitlab-ci.yml`
 * declares `environment:` gets its environment (created on first use) and, unless it stops or only
 * prepares one, a `created` deployment when it is made (GitLab's pipeline seeds:
 * `Seed::Environment`, `Seed::Deployment`); the deployment then follows the build's status
 * (`Ci::Build`'s `after_transition`s: running → `run`, success → `succeed`, failed → `drop`,
 * canceled → `cancel`, skipped → `skip`); a stop job's success stops its environment
 * (`BuildSuccessWorker#stop_environment`). Imported by the area's `index.ts`.
 * gitlab (13.12): lib/gitlab/ci/pipeline/seed/build.rb, seed/environment.rb, seed/deployment.rb,
 * app/models/ci/build.rb, app/workers/build_success_worker.rb.
 * @module
 */
import { ApiError } from '../../core/errors.js'
import { subscribe } from '../../rules/events.js'
import { environmentByName, findOrCreateEnvironment, stoppedBy } from '../environments/environments.public.js'
import { pipelineById } from '../runners/runners.public.js'
import { deploymentOfJob, insertDeployment, transitionDeployment } from './deployments.service.js'
import type { DeploymentStatus } from './deployments.tables.js'

subscribe('job_created', (db, event) => {
  const job = event.job
  const declared = job.environment
  if (!declared) return
  const project = db.tables.projects.get(job.project_id)
  const pipeline = pipelineById(db, job.pipeline_id)
  if (!project || !pipeline) return
  let env
  try {
    env = findOrCreateEnvironment({ db, now: event.at }, project, declared.name)
  } catch (error) {
    // An environment name GitLab refuses leaves the job without one (no deployment).
    if (error instanceof ApiError) return
    throw error
  }
  if (declared.action !== 'start') return
  insertDeployment(event, db, project, { environmentId: env.id, sha: pipeline.sha, ref: job.ref, tag: job.tag, userId: job.user_id, deployableId: job.id })
})

/** The deployment status a build's status leads to (none for the statuses in between). */
const FOLLOWS: Record<string, Exclude<DeploymentStatus, 'created'>> = { running: 'running', success: 'success', failed: 'failed', canceled: 'canceled', skipped: 'skipped' }

subscribe('job', (db, event) => {
  const job = event.job
  if (!job.environment) return
  const status = FOLLOWS[job.status]
  if (!status) return
  const deployment = deploymentOfJob(db, job.id)
  if (deployment) transitionDeployment(event, db, deployment, status, job.environment.url)
  if (job.environment.action === 'stop' && job.status === 'success') {
    const env = environmentByName(db, job.project_id, job.environment.name)
    if (env) stoppedBy({ db, now: event.at }, env)
  }
})
