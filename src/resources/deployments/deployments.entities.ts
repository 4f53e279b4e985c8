/**
 * The deployment entities, in GitLab 13.12's field order: `Deployment` (lists, and the environment's
 * `last_deployment` without its `environment`) and `DeploymentExtended` (get, create, update: the
 * same fields in CE). gitlab: lib/api/entities/deployment.rb, lib/api/entities/deployment_extended.rb.
 * @module
 */
import { UserBasic } from '../../entities/user.js'
import type { PresentCtx } from '../../entities/urls.js'
import { EnvironmentBasic, environmentById } from '../environments/environments.public.js'
import { JobEntity, jobById } from '../runners/runners.public.js'
import type { DeploymentRecord } from './deployments.tables.js'

/**
 * `Deployment`: `id, iid, ref, sha, created_at, updated_at, user` (`UserBasic`, null when gone),
 * `environment` (`EnvironmentBasic`; left out with `withEnvironment` false, as the environment's
 * `last_deployment` does), `deployable` (`Ci::Job`, null for a deployment made through the API),
 * `status`.
 */
export function Deployment(d: DeploymentRecord, ctx: PresentCtx, withEnvironment = true) {
  const user = d.user_id === null ? undefined : ctx.db.tables.users.get(d.user_id)
  const env = environmentById(ctx.db, d.environment_id)
  const job = d.deployable_id === null ? undefined : jobById(ctx.db, d.deployable_id)
  return {
    id: d.id,
    iid: d.iid,
    ref: d.ref,
    sha: d.sha,
    created_at: d.created_at,
    updated_at: d.updated_at,
    user: user ? UserBasic(user, ctx) : null,
    ...(withEnvironment ? { environment: env ? EnvironmentBasic(env) : null } : {}),
    deployable: job ? JobEntity(job, ctx) : null,
    status: d.status,
  }
}

/** `DeploymentExtended`: {@link Deployment} (CE adds nothing). */
export function DeploymentExtended(d: DeploymentRecord, ctx: PresentCtx) {
  return Deployment(d, ctx)
}
