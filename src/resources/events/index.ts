/**
 * The events area: contribution events (`Event`) written from the domain-event channel's facts
 * (events.subscribers.ts, imported here so it subscribes at start) and the events API that lists
 * them. gitlab: lib/api/events.rb, app/services/event_create_service.rb (13.12).
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { eventTables } from './events.tables.js'

export type { EventRecord } from './events.tables.js'

/** The events area. */
export const events: Area = {
  name: 'events',
  load: async () => {
    const { eventRoutes } = await import('./events.routes.js')
    return { api: eventRoutes }
  },
  register: async () => {
    await import('./events.subscribers.js')
  },
  tables: eventTables,
}
