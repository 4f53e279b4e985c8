/**
 * The freeze periods table. gitlab: db/structure.sql (`ci_freeze_periods`).
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** A deploy freeze period of a project: two cron expressions and a time zone. */
export interface FreezePeriodRecord extends Row {
  project_id: number
  freeze_start: string
  freeze_end: string
  cron_timezone: string
  created_at: Timestamp
  updated_at: Timestamp
}

declare module '../../db/schema.js' {
  interface Tables {
    freeze_periods: FreezePeriodRecord
  }
}

/** The table and its index: freeze periods by project. */
export const freezePeriodTables = {
  freeze_periods: table<FreezePeriodRecord>(['project_id']),
}
