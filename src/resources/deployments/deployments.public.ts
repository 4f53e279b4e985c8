/**
 * What other areas may use of the deployments area: an environment's last deployment as its
 * `last_deployment` shows it. Nothing here imports another area's internals.
 * gitlab (13.12): app/models/environment.rb (`has_one :last_deployment, -> { success.distinct_on_environment }`).
 * @module
 */
import type { Db } from '../../db/db.js'
import type { PresentCtx } from '../../entities/urls.js'
import { Deployment } from './deployments.entities.js'
import type { DeploymentRecord } from './deployments.tables.js'


/** `Environment#last_deployment`: its newest successful deployment (highest id), or undefined. */
function lastDeployment(db: Db, environmentId: number): DeploymentRecord | undefined {
  let last: DeploymentRecord | undefined
  for (const d of db.tables.deployments.where('environment_id', environmentId)) if (d.status === 'success' && (!last || d.id > last.id)) last = d
  return last
}

/** The environment's `last_deployment` entity: `Deployment` without `environment`, or null for none. */
export function lastDeploymentEntity(ctx: PresentCtx, environmentId: number) {
  const d = lastDeployment(ctx.db, environmentId)
  return d ? Deployment(d, ctx, false) : null
}
