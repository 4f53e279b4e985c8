/**
 * The freeze periods area: `/projects/:id/freeze_periods` routes, the `freeze_periods` table, and
 * `freeze_periods:` of scenario projects. gitlab: lib/api/freeze_periods.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { freezePeriodImporter } from './freeze-periods.import.js'
import { freezePeriodFragment } from './freeze-periods.scenario.js'
import { freezePeriodTables } from './freeze-periods.tables.js'
import type { FreezePeriod as FreezePeriodPresenter } from './freeze-periods.entities.js'

export type { FreezePeriodRecord } from './freeze-periods.tables.js'
export type { FreezePeriodFields } from './freeze-periods.scenario.js'

/** GitLab's `FreezePeriod` entity, as fakelab sends it. */
export type FreezePeriod = ReturnType<typeof FreezePeriodPresenter>

/** The freeze periods area. */
export const freezePeriods: Area = {
  name: 'freeze-periods',
  load: async () => {
    const { freezePeriodRoutes } = await import('./freeze-periods.routes.js')
    return { api: freezePeriodRoutes }
  },
  tables: freezePeriodTables,
  scenario: freezePeriodFragment,
  importer: freezePeriodImporter,
}
