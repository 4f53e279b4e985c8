/**
 * The deployments area: a project's deployments (list, get, create, update, the merge requests
 * each shipped), the ones CI jobs that declare `environment:` make and drive, the `deployments`
 * and `deployment_merge_requests` tables, the `deployment` domain fact, and projects'
 * `deployments:` in the scenario. gitlab (13.12): lib/api/deployments.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { deploymentFragment } from './deployments.scenario.js'
import { deploymentTables } from './deployments.tables.js'
import type { Deployment as DeploymentPresenter } from './deployments.entities.js'

export type { DeploymentMergeRequestRecord, DeploymentRecord, DeploymentStatus } from './deployments.tables.js'
export type { DeploymentFields } from './deployments.scenario.js'
export type { DeploymentFact } from './deployments.events.js'

/** GitLab's `Deployment` entity, as fakelab sends it. */
export type Deployment = ReturnType<typeof DeploymentPresenter>

/** The deployments area. */
export const deployments: Area = {
  name: 'deployments',
  load: async () => {
    const { deploymentRoutes } = await import('./deployments.routes.js')
    return { api: deploymentRoutes }
  },
  register: async () => {
    // Jobs with `environment:` get their deployments (the `job_created` and `job` facts' subscribers).
    await import('./deployments.subscribers.js')
    // An environment's `last_deployment` comes from here: the environments area asks through its hook.
    await import('./deployments.registrations.js')
  },
  tables: deploymentTables,
  scenario: deploymentFragment,
  // A deployment outlives its job and its user (no foreign key; `ON DELETE SET NULL`); an environment takes its deployments with it.
  cascade: [
    { kind: 'nullify', table: 'deployments', column: 'deployable_id', parent: 'jobs' },
    { kind: 'nullify', table: 'deployments', column: 'user_id', parent: 'users' },
  ],
}
