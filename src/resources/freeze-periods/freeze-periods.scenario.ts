/**
 * The freeze periods part of the scenario format: `freeze_periods:` of projects (two cron
 * expressions and a time zone, checked as the API checks them), loaded into `freeze_periods`.
 * Source: STYLE.md §10; gitlab-behaviour.md §7.
 * @module
 */
import { z } from 'zod'
import type { FieldsInput, FieldsOutput, ScenarioFragment } from '../../scenario/fragment.js'
import { idSchema, timestampSchema } from '../../scenario/scalars.js'
import { isValidCron } from './cron.js'
import { isValidCronTimezone } from './cron-timezone.js'
import type { FreezePeriodRecord } from './freeze-periods.tables.js'

/** A cron expression exactly as the freeze period API accepts it (`isValidCron`, Fugit's grammar). */
const cronSchema = z.string().refine(isValidCron, {
  error: (issue) => `must be a cron expression with 5 fields such as "0 23 * * 5"; got ${JSON.stringify(issue.input)}`,
})

/** A time zone the freeze period API accepts (`isValidCronTimezone`: IANA or Rails names). */
const timeZoneSchema = z.string().refine(isValidCronTimezone, {
  error: (issue) => `must be an IANA time zone such as "UTC" or "Europe/Berlin"; got ${JSON.stringify(issue.input)}`,
})

/** A deploy freeze period: two cron expressions and a time zone (default `UTC`). */
const freezePeriodSchema = z.strictObject({
  id: idSchema.optional().describe('Record id; the next free one when absent.'),
  freeze_start: cronSchema.describe('When the freeze starts: a cron expression with 5 fields ("0 23 * * 5").'),
  freeze_end: cronSchema.describe('When the freeze ends: a cron expression with 5 fields ("0 7 * * 1").'),
  cron_timezone: timeZoneSchema.default('UTC').describe('The IANA time zone of both cron expressions ("Europe/Berlin"). Default UTC.'),
  created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
  updated_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); created_at when absent.'),
})

const fields = { freeze_periods: z.array(freezePeriodSchema).default([]).describe('Deploy freeze periods of the project (GET /projects/:id/freeze_periods).') }

/** The `freeze_periods` field of projects, as parsed. */
export type FreezePeriodFields = FieldsOutput<typeof fields>

declare module '../../scenario/records.js' {
  interface ScenarioProject extends FreezePeriodFields {}
  interface ScenarioProjectInput extends FieldsInput<typeof fields> {}
}

/** The freeze periods fragment (see the module comment). */
export const freezePeriodFragment: ScenarioFragment = {
  fields: { project: fields },
  collections: [{ table: 'freeze_periods', field: 'freeze_periods', on: ['project'] }],
  load: {
    project(ctx, project, parent) {
      project.freeze_periods.forEach((period, i) => {
        const f = ctx.fake(`freeze_period:${parent.key}:${i}`)
        const record: FreezePeriodRecord = {
          id: ctx.idOf(period),
          project_id: parent.id,
          freeze_start: period.freeze_start,
          freeze_end: period.freeze_end,
          cron_timezone: period.cron_timezone,
          ...ctx.timestamps(f, period, parent.createdAt),
        }
        ctx.stage('freeze_periods', record)
      })
    },
  },
}
