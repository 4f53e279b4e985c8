/**
 * The deploy keys area: `/deploy_keys` (the instance's) and `/projects/:id/deploy_keys`, the
 * `deploy_keys_projects` table; the keys themselves are rows of the user keys area's `keys` table
 * (GitLab's single `Key` table), which this area writes.
 * gitlab: lib/api/deploy_keys.rb, app/models/deploy_key.rb, app/models/deploy_keys_project.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { destroyOrphanedDeployKeys } from './deploy-keys.orphans.js'
import { deployKeyFragment } from './deploy-keys.scenario.js'
import { deployKeyTables } from './deploy-keys.tables.js'
import type { DeployKeysProject as DeployKeysProjectPresenter } from './deploy-keys.entities.js'

export type { DeployKeysProjectRecord } from './deploy-keys.tables.js'
export type { DeployKeyFields } from './deploy-keys.scenario.js'

/** GitLab's `DeployKeysProject` entity, as fakelab sends it. */
export type DeployKeysProject = ReturnType<typeof DeployKeysProjectPresenter>

/** The deploy keys area. */
export const deployKeys: Area = {
  name: 'deploy-keys',
  load: async () => {
    const { deployKeyRoutes } = await import('./deploy-keys.routes.js')
    return { api: deployKeyRoutes }
  },
  tables: deployKeyTables,
  writes: ['keys'],
  scenario: deployKeyFragment,
  beforeRequest: (db) => destroyOrphanedDeployKeys(db),
}
