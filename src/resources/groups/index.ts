/**
 * The groups area: `/groups` discovery routes, subgroups and group projects, group writes, moves
 * and shares, and the groups of a scenario (the `groups` and `group_group_links` tables are core's:
 * access checks need them). gitlab: lib/api/groups.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { groupAvatarTables } from './groups.avatars.js'
import { groupFragment } from './groups.scenario.js'

export type { GroupFields } from './groups.scenario.js'
export type { GroupFact, GroupMovedFact } from './groups.events.js'

/** The groups area. */
export const groups: Area = {
  name: 'groups',
  load: async () => {
    const [{ groupRoutes }, { groupAvatarWebRoutes }] = await Promise.all([import('./groups.routes.js'), import('./groups.avatars.js')])
    return { api: groupRoutes, web: groupAvatarWebRoutes }
  },
  // Uploaded avatars for `avatar_url`.
  register: async () => {
    await import('./groups.avatar-finder.js')
  },
  scenario: groupFragment,
  tables: groupAvatarTables,
  // Subgroups go with their parent; a group is also a `Namespace` in polymorphic columns.
  cascade: [
    { kind: 'cascade', table: 'groups', column: 'parent_id', parent: 'groups' },
    // An uploaded avatar goes with its group.
    { kind: 'cascade', table: 'group_avatars', column: 'group_id', parent: 'groups' },
    { kind: 'typeName', parent: 'groups', name: 'Namespace' },
    // A share goes with either of its groups.
    { kind: 'cascade', table: 'group_group_links', column: 'shared_group_id', parent: 'groups' },
    { kind: 'cascade', table: 'group_group_links', column: 'shared_with_group_id', parent: 'groups' },
  ],
  // A recorded group answer's fields that its scenario fields take as they are.
  importer: { groupFields: ['name', 'visibility', 'description', 'created_at', 'request_access_enabled', 'lfs_enabled', 'runners_token'] },
}
