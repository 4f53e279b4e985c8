/**
 * The custom attributes area: administrators' key/value attributes on users, groups and projects,
 * and the `custom_attributes[key]=value` filter their lists take (custom-attributes.public.ts).
 * gitlab: lib/api/custom_attributes_endpoints.rb.
 * @module
 */
import type { CascadeRule } from '../../db/cascade.js'
import type { Area } from '../../scenario/area.js'
import { customAttributeTables } from './custom-attributes.tables.js'

export type { CustomAttributeRecord } from './custom-attributes.tables.js'

/** An attribute goes with its user, group or project (GitLab's three tables' `ON DELETE CASCADE`). */
const cascade: CascadeRule[] = [
  { kind: 'cascade', table: 'custom_attributes', column: 'owner_id', parent: 'users', where: { owner_type: 'user' } },
  { kind: 'cascade', table: 'custom_attributes', column: 'owner_id', parent: 'groups', where: { owner_type: 'group' } },
  { kind: 'cascade', table: 'custom_attributes', column: 'owner_id', parent: 'projects', where: { owner_type: 'project' } },
]

/** The custom attributes area. */
export const customAttributes: Area = {
  name: 'custom-attributes',
  load: async () => {
    const { customAttributeRoutes } = await import('./custom-attributes.routes.js')
    return { api: customAttributeRoutes }
  },
  tables: customAttributeTables,
  cascade,
}
