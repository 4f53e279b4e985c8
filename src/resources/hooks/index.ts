/**
 * The hooks area: project hooks (`/projects/:id/hooks` routes, the `project_hooks` table) and the
 * delivery of every hook's events (`web_hook_logs`, `hooks.delivery.ts`), subscribed to the
 * domain-event channel from the start. gitlab: lib/api/project_hooks.rb, app/services/web_hook_service.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { hookFragment } from './hooks.scenario.js'
import { hookTables } from './hooks.tables.js'

export type { ProjectHookRecord, WebHookLogRecord } from './hooks.tables.js'
export type { HookFields } from './hooks.scenario.js'

/** The hooks area. */
export const hooks: Area = {
  name: 'hooks',
  load: async () => {
    const { hookRoutes } = await import('./hooks.routes.js')
    return { api: hookRoutes }
  },
  register: async () => {
    await import('./hooks.subscribers.js')
  },
  tables: hookTables,
  scenario: hookFragment,
  secrets: { bodyFields: ['token'] },
}
