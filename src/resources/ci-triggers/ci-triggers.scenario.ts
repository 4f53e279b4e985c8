/**
 * The CI triggers part of the scenario format: `triggers:` of projects (pipeline trigger tokens
 * with their owner) and `pipeline_schedules:` (cron schedules with their owner and variables),
 * loaded into `ci_triggers`, `ci_pipeline_schedules` and `ci_pipeline_schedule_variables`.
 * Crons and time zones are checked as the API checks them; `next_run_at` follows from the cron.
 * Source: issue 36 item 2; gitlab: app/models/ci/trigger.rb, app/models/ci/pipeline_schedule.rb.
 * @module
 */
import { z } from 'zod'
import type { FieldsInput, FieldsOutput, ScenarioFragment } from '../../scenario/fragment.js'
import { at } from '../../scenario/problems.js'
import { items } from '../../scenario/entries.js'
import { idSchema, timestampSchema } from '../../scenario/scalars.js'
import { isValidCron, isValidCronTimezone } from '../freeze-periods/freeze-periods.public.js'
import { nextRunAt } from './schedules.next-run.js'

const triggerSchema = z.strictObject({
  id: idSchema.optional().describe('Record id; the next free one when absent.'),
  token: z.string().regex(/^[0-9a-f]{40}$/, { error: 'must be 40 lowercase hexadecimal characters' }).optional().describe('The trigger token (40 hex characters); faker when absent.'),
  description: z.string().default('').describe('What the trigger is for.'),
  owner: z.string().optional().describe('Username of its owner (pipelines run as this user); the project\'s creator when absent.'),
  last_used: timestampSchema.optional().describe('When a pipeline was last triggered with it (ISO 8601); never when absent.'),
  created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
})

const scheduleVariableSchema = z.strictObject({
  key: z.string().regex(/^[a-zA-Z0-9_]{1,255}$/, { error: "must be letters, digits and '_'" }).describe('The variable name.'),
  value: z.string().describe('Its value.'),
  variable_type: z.enum(['env_var', 'file']).default('env_var').describe('env_var or file. Default env_var.'),
})

const scheduleSchema = z.strictObject({
  id: idSchema.optional().describe('Record id; the next free one when absent.'),
  description: z.string().min(1).describe('What the schedule is for.'),
  ref: z.string().min(1).describe('The branch or tag its pipelines run for.'),
  cron: z.string().refine(isValidCron, { error: 'must be a cron expression such as "0 1 * * *"' }).describe('When it runs: a cron expression ("0 1 * * *").'),
  cron_timezone: z.string().refine(isValidCronTimezone, { error: 'must be a time zone such as "UTC" or "Europe/Berlin"' }).default('UTC').describe('The cron\'s time zone. Default UTC.'),
  active: z.boolean().default(true).describe('Whether the scheduler runs it. Default true.'),
  owner: z.string().optional().describe('Username of its owner; the project\'s creator when absent.'),
  variables: z.array(scheduleVariableSchema).default([]).describe('Variables its pipelines get.'),
  created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
  updated_at: timestampSchema.optional().describe('An ISO 8601 instant; created_at when absent. next_run_at follows from it.'),
})

const fields = {
  triggers: z.array(triggerSchema).default([]).describe('Pipeline trigger tokens of the project (GET /projects/:id/triggers; POST /projects/:id/trigger/pipeline).'),
  pipeline_schedules: z.array(scheduleSchema).default([]).describe('Pipeline schedules of the project (GET /projects/:id/pipeline_schedules).'),
}

/** The `triggers` and `pipeline_schedules` fields of projects, as parsed. */
export type CiTriggerFields = FieldsOutput<typeof fields>

declare module '../../scenario/records.js' {
  interface ScenarioProject extends CiTriggerFields {}
  interface ScenarioProjectInput extends FieldsInput<typeof fields> {}
}

/** The CI triggers fragment (see the module comment). */
export const ciTriggerFragment: ScenarioFragment = {
  fields: { project: fields },
  collections: [
    { table: 'ci_triggers', field: 'triggers', on: ['project'] },
    { table: 'ci_pipeline_schedules', field: 'pipeline_schedules', on: ['project'] },
  ],
  check(ctx) {
    for (const project of ctx.model.project) {
      for (const t of items(project, 'triggers')) ctx.checkUser(at(t, 'owner'), t.value.owner)
      for (const s of items(project, 'pipeline_schedules')) ctx.checkUser(at(s, 'owner'), s.value.owner)
    }
  },
  load: {
    project(ctx, project, parent) {
      project.triggers.forEach((t, i) => {
        const f = ctx.fake(`ci_trigger:${parent.key}:${i}`)
        const { created_at } = ctx.timestamps(f, t, parent.createdAt)
        const owner_id = t.owner !== undefined ? ctx.userId(t.owner) : ctx.row('project', parent.entry).creator_id
        ctx.stage('ci_triggers', { id: ctx.idOf(t), project_id: parent.id, owner_id, token: t.token ?? f.string.hexadecimal({ length: 40, casing: 'lower', prefix: '' }), description: t.description, created_at, updated_at: created_at, last_used: t.last_used ?? null })
      })
      project.pipeline_schedules.forEach((s, i) => {
        const f = ctx.fake(`ci_pipeline_schedule:${parent.key}:${i}`)
        const { created_at, updated_at } = ctx.timestamps(f, s, parent.createdAt)
        const id = ctx.idOf(s)
        const owner_id = s.owner !== undefined ? ctx.userId(s.owner) : ctx.row('project', parent.entry).creator_id
        ctx.stage('ci_pipeline_schedules', { id, project_id: parent.id, owner_id, description: s.description, ref: s.ref, cron: s.cron, cron_timezone: s.cron_timezone, next_run_at: nextRunAt(s.cron, s.cron_timezone, updated_at), active: s.active, created_at, updated_at })
        for (const v of s.variables) ctx.db.tables.ci_pipeline_schedule_variables.insert({ pipeline_schedule_id: id, key: v.key, value: v.value, variable_type: v.variable_type })
      })
    },
  },
}
