/**
 * The application settings area: the instance's one settings row (`GET|PUT /application/settings`)
 * and `applicationSetting(db)` (application-settings.public.ts), which other areas read instead of
 * hard-coding 13.12's defaults. gitlab: lib/api/settings.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { applicationSettingFragment } from './application-settings.scenario.js'
import { applicationSettingTables } from './application-settings.tables.js'
// The throttle settings drive the engine's rate limiter (registered at start).
import './application-settings.throttles.js'

export type { ApplicationSettingValuesRecord } from './application-settings.tables.js'

/** The application settings area. */
export const applicationSettings: Area = {
  name: 'application-settings',
  load: async () => {
    const { applicationSettingRoutes } = await import('./application-settings.routes.js')
    return { api: applicationSettingRoutes }
  },
  tables: applicationSettingTables,
  scenario: applicationSettingFragment,
}
