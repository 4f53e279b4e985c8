/**
 * The badges area: `/projects/:id/badges` and `/groups/:id/badges` routes, the `badges` table, and
 * `badges:` of scenario groups and projects. gitlab: lib/api/badges.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { badgeFragment } from './badges.scenario.js'
import { badgeTables } from './badges.tables.js'

export type { BadgeRecord } from './badges.tables.js'
export type { BadgeFields } from './badges.scenario.js'
export type { BadgeEntity, BasicBadgeDetailsEntity } from './badges.entities.js'

/** The badges area. */
export const badges: Area = {
  name: 'badges',
  load: async () => {
    const { badgeRouteList } = await import('./badges.routes.js')
    return { api: badgeRouteList }
  },
  tables: badgeTables,
  scenario: badgeFragment,
}
