/**
 * The broadcast messages area: `/broadcast_messages` and the `broadcast_messages` table.
 * gitlab: lib/api/broadcast_messages.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { broadcastMessageTables } from './broadcast-messages.tables.js'

export type { BroadcastMessageRecord } from './broadcast-messages.tables.js'

/** The broadcast messages area. */
export const broadcastMessages: Area = {
  name: 'broadcast-messages',
  load: async () => {
    const { broadcastMessageRoutes } = await import('./broadcast-messages.routes.js')
    return { api: broadcastMessageRoutes }
  },
  tables: broadcastMessageTables,
}
