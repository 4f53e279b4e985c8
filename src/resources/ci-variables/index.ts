/**
 * The CI variables area: the instance's CI variables (`/admin/ci/variables`, 13.0+) and their
 * `ci_instance_variables` table. gitlab: lib/api/admin/ci/variables.rb.
 * spec-gap: project and group variables, and the variables reaching fakelab's pipelines, are not
 * simulated yet (issue 36 item 1).
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { ciVariableTables } from './ci-variables.tables.js'

export type { InstanceVariableRecord } from './ci-variables.tables.js'

/** The CI variables area. */
export const ciVariables: Area = {
  name: 'ci-variables',
  load: async () => {
    const { ciVariableRoutes } = await import('./ci-variables.routes.js')
    return { api: ciVariableRoutes }
  },
  tables: ciVariableTables,
}
