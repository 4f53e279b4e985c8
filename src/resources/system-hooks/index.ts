/**
 * The system hooks area: `/hooks` (administrators) and the `system_hooks` table; deliveries are the
 * collaboration area's, which reads the hooks through `system-hooks.public.ts` and subscribes to
 * `system_hook_test`. gitlab: lib/api/system_hooks.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { systemHookTables } from './system-hooks.tables.js'

export type { SystemHookRecord } from './system-hooks.tables.js'

/** The system hooks area. */
export const systemHooks: Area = {
  name: 'system-hooks',
  load: async () => {
    const { systemHookRoutes } = await import('./system-hooks.routes.js')
    return { api: systemHookRoutes }
  },
  tables: systemHookTables,
  secrets: { bodyFields: ['token'] },
}
