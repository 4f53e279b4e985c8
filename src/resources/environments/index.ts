/**
 * The environments area: a project's deployment environments (list, get, create, update, stop,
 * delete), the `environments` table and projects' `environments:` in the scenario.
 * gitlab (13.12): lib/api/environments.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { environmentFragment } from './environments.scenario.js'
import { environmentTables } from './environments.tables.js'
import type { Environment as EnvironmentPresenter } from './environments.entities.js'

export type { EnvironmentRecord, EnvironmentState } from './environments.tables.js'
export type { EnvironmentFields } from './environments.scenario.js'

/** GitLab's `Environment` entity, as fakelab sends it. */
export type Environment = ReturnType<typeof EnvironmentPresenter>

/** The environments area. */
export const environments: Area = {
  name: 'environments',
  load: async () => {
    const { environmentRoutes } = await import('./environments.routes.js')
    return { api: environmentRoutes }
  },
  tables: environmentTables,
  scenario: environmentFragment,
}
