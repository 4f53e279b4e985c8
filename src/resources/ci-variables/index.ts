/**
 * The CI variables area: the instance's CI variables (`/admin/ci/variables`, 13.0+), projects'
 * (`/projects/:id/variables`, with environment scopes) and groups' (`/groups/:id/variables`), their
 * tables and scenario sections, and the variables a pipeline gets from them
 * (`ci-variables.public.ts`, which the runners area reads while it makes a pipeline).
 * gitlab: lib/api/admin/ci/variables.rb, lib/api/variables.rb, lib/api/group_variables.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { ciVariableFragment } from './ci-variables.scenario.js'
import { ciVariableTables } from './ci-variables.tables.js'

export type { GroupVariableRecord, InstanceVariableRecord, ProjectVariableRecord } from './ci-variables.tables.js'
export type { GroupCiVariableFields, ProjectCiVariableFields } from './ci-variables.scenario.js'

/** The CI variables area. */
export const ciVariables: Area = {
  name: 'ci-variables',
  load: async () => {
    const [{ ciVariableRoutes }, { scopedVariableRoutes }] = await Promise.all([import('./ci-variables.routes.js'), import('./scoped-variables.routes.js')])
    return { api: [...ciVariableRoutes, ...scopedVariableRoutes] }
  },
  tables: ciVariableTables,
  scenario: ciVariableFragment,
}
