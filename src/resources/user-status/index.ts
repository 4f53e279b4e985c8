/**
 * The user status area: a user's emoji, message and availability (`/user/status`,
 * `/users/:user_id/status`) and the `user_statuses` table. gitlab: lib/api/users.rb (13.12).
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { userStatusTables } from './user-status.tables.js'

export type { UserStatusRecord } from './user-status.tables.js'

/** The user status area. */
export const userStatus: Area = {
  name: 'user-status',
  load: async () => {
    const { userStatusRoutes } = await import('./user-status.routes.js')
    return { api: userStatusRoutes }
  },
  tables: userStatusTables,
}
