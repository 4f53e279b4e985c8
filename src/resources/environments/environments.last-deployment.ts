/**
 * Where an environment's `last_deployment` comes from: the deployments area registers its lookup
 * at start (as tags ask the releases area for their release), so this area imports none of it and
 * no module cycle runs between the two. Without one, null. gitlab (13.12): app/models/environment.rb.
 * @module
 */
import type { PresentCtx } from '../../entities/urls.js'

/** Presents an environment's last successful deployment (`Deployment` without `environment`), or null. */
export type LastDeploymentLookup = (ctx: PresentCtx, environmentId: number) => unknown

let lookup: LastDeploymentLookup = () => null

/** Registers the deployments area's lookup (called once, from its `index.ts`). */
export function registerLastDeploymentLookup(fn: LastDeploymentLookup): void {
  lookup = fn
}

/** The environment's `last_deployment` entity, or null. */
export function lastDeploymentOf(ctx: PresentCtx, environmentId: number): unknown {
  return lookup(ctx, environmentId)
}
