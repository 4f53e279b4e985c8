/**
 * Pipeline schedules: who may do what (`Ci::PipelineSchedulePolicy` as fakelab has it), the
 * model's validations and `next_run_at` (`Schedulable#set_next_run_at` with the scheduler's own
 * cron, `19 * * * *` UTC, `schedules.next-run.ts`), schedule variables, and `play` (a `schedule` pipeline as the caller, made at once).
 * gitlab: app/models/ci/pipeline_schedule.rb, app/models/concerns/schedulable.rb,
 * app/policies/ci/pipeline_schedule_policy.rb, app/services/ci/create_pipeline_schedule_service.rb,
 * app/services/ci/pipeline_schedules/take_ownership_service.rb, app/workers/run_pipeline_schedule_worker.rb,
 * config/initializers/1_settings.rb (`pipeline_schedule_worker`) (13.12).
 * @module
 */
import { ApiError, notFound, validationFailed } from '../../core/errors.js'
import type { Ctx } from '../../core/route.js'
import type { Db } from '../../db/db.js'
import type { ProjectRecord } from '../../db/schema.js'
import type { PresentCtx } from '../../entities/urls.js'
import { AccessLevel, projectAccessLevel } from '../../rules/access.js'
import { isValidCron, isValidCronTimezone } from '../freeze-periods/freeze-periods.public.js'
import { canCreatePipeline, createPipeline, pipelinesOfProject, type PipelineRecord } from '../runners/runners.public.js'
import type { PipelineScheduleRecord, PipelineScheduleVariableRecord } from './ci-triggers.tables.js'
import { nextRunAt } from './schedules.next-run.js'

/** The caller's access level (administrators as owners). */
function level(ctx: PresentCtx, project: ProjectRecord): number {
  const user = ctx.currentUser
  if (!user) return AccessLevel.NO_ACCESS
  return user.admin ? AccessLevel.OWNER : projectAccessLevel(ctx.db, user, project, ctx.today)
}

/** `read_pipeline_schedule`: Reporter+. */
export function canReadSchedules(ctx: PresentCtx, project: ProjectRecord): boolean {
  return level(ctx, project) >= AccessLevel.REPORTER
}

/** `create_pipeline_schedule`: Developer+. */
export function canCreateSchedule(ctx: PresentCtx, project: ProjectRecord): boolean {
  return level(ctx, project) >= AccessLevel.DEVELOPER
}

/** `admin_pipeline_schedule` (delete, take ownership): Maintainer+. */
export function canAdminSchedule(ctx: PresentCtx, project: ProjectRecord): boolean {
  return level(ctx, project) >= AccessLevel.MAINTAINER
}

/** `update_pipeline_schedule`: its owner (Developer+) or a Maintainer+. */
export function canUpdateSchedule(ctx: PresentCtx, project: ProjectRecord, schedule: PipelineScheduleRecord): boolean {
  if (canAdminSchedule(ctx, project)) return true
  return canCreateSchedule(ctx, project) && schedule.owner_id !== null && schedule.owner_id === ctx.currentUser?.id
}

/** `play_pipeline_schedule`: `create_pipeline` (Developer+). */
export function canPlaySchedule(ctx: PresentCtx, project: ProjectRecord): boolean {
  return canCreatePipeline(ctx, project)
}

/** A project's schedules, in id order, `scope` `active`/`inactive` filtering (`PipelineSchedulesFinder`). */
export function schedulesOf(db: Db, project: ProjectRecord, scope: 'active' | 'inactive' | undefined): PipelineScheduleRecord[] {
  const all = db.tables.ci_pipeline_schedules.where('project_id', project.id)
  return scope === undefined ? all : all.filter((s) => s.active === (scope === 'active'))
}

/** The project's schedule of this id. @throws ApiError 404 `{"message":"404 Pipeline Schedule Not Found"}`. */
export function findSchedule(db: Db, project: ProjectRecord, id: number): PipelineScheduleRecord {
  const schedule = db.tables.ci_pipeline_schedules.get(id)
  if (!schedule || schedule.project_id !== project.id) throw notFound('Pipeline Schedule')
  return schedule
}

/** A schedule's variables, in id order. */
export function variablesOf(db: Db, schedule: PipelineScheduleRecord): PipelineScheduleVariableRecord[] {
  return db.tables.ci_pipeline_schedule_variables.where('pipeline_schedule_id', schedule.id)
}

/** The newest pipeline a schedule made (`last_pipeline`), or undefined. */
export function lastPipelineOf(db: Db, schedule: PipelineScheduleRecord): PipelineRecord | undefined {
  const ids = new Set(db.tables.ci_pipeline_schedule_pipelines.where('pipeline_schedule_id', schedule.id).map((l) => l.pipeline_id))
  let newest: PipelineRecord | undefined
  for (const pipeline of pipelinesOfProject(db, schedule.project_id)) if (ids.has(pipeline.id) && (!newest || pipeline.id > newest.id)) newest = pipeline
  return newest
}

/** The fields of a schedule a write sets. */
export interface ScheduleFields {
  description: string
  ref: string
  cron: string
  cron_timezone: string
  active: boolean
}

/**
 * The model's validation errors in Rails' order: cron (" is invalid syntax", then "can't be
 * blank"), cron_timezone (the same), ref and description presence.
 */
function scheduleErrors(f: ScheduleFields): Record<string, string[]> {
  const errors: Record<string, string[]> = {}
  const add = (attr: string, message: string) => (errors[attr] ??= []).push(message)
  const blank = (v: string) => v.trim() === ''
  if (!isValidCron(f.cron.trim())) add('cron', ' is invalid syntax')
  if (blank(f.cron)) add('cron', "can't be blank")
  if (!isValidCronTimezone(f.cron_timezone)) add('cron_timezone', ' is invalid syntax')
  if (blank(f.cron_timezone)) add('cron_timezone', "can't be blank")
  if (blank(f.ref)) add('ref', "can't be blank")
  if (blank(f.description)) add('description', "can't be blank")
  return errors
}

/**
 * Creates a schedule owned by the caller. @throws ApiError 400 `{"message":{<attr>:[...]}}`.
 */
export function createSchedule(ctx: Ctx<unknown>, project: ProjectRecord, f: ScheduleFields): PipelineScheduleRecord {
  const errors = scheduleErrors(f)
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
  return ctx.db.tables.ci_pipeline_schedules.insert({
    project_id: project.id,
    owner_id: ctx.currentUser!.id,
    description: f.description,
    ref: f.ref,
    cron: f.cron.trim(),
    cron_timezone: f.cron_timezone,
    next_run_at: nextRunAt(f.cron, f.cron_timezone, ctx.now),
    active: f.active,
    created_at: ctx.now,
    updated_at: ctx.now,
  })
}

/** Updates a schedule (and its `next_run_at`). @throws ApiError 400 on a validation failure. */
export function updateSchedule(ctx: Ctx<unknown>, schedule: PipelineScheduleRecord, patch: Partial<ScheduleFields>): PipelineScheduleRecord {
  const next: ScheduleFields = {
    description: patch.description ?? schedule.description,
    ref: patch.ref ?? schedule.ref,
    cron: patch.cron ?? schedule.cron,
    cron_timezone: patch.cron_timezone ?? schedule.cron_timezone,
    active: patch.active ?? schedule.active,
  }
  const errors = scheduleErrors(next)
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
  return ctx.db.tables.ci_pipeline_schedules.update(schedule.id, { ...next, cron: next.cron.trim(), next_run_at: nextRunAt(next.cron, next.cron_timezone, ctx.now), updated_at: ctx.now })
}

/** Deletes a schedule with its variables and pipeline links (the pipelines stay). */
export function deleteSchedule(db: Db, schedule: PipelineScheduleRecord): void {
  for (const v of variablesOf(db, schedule)) db.tables.ci_pipeline_schedule_variables.delete(v.id)
  for (const l of db.tables.ci_pipeline_schedule_pipelines.where('pipeline_schedule_id', schedule.id)) db.tables.ci_pipeline_schedule_pipelines.delete(l.id)
  db.tables.ci_pipeline_schedules.delete(schedule.id)
}

/** The validation errors of a schedule variable (`Ci::HasVariable`, key unique in its schedule). */
function variableErrors(db: Db, schedule: PipelineScheduleRecord, v: { key: string }, id: number | null): Record<string, string[]> {
  const errors: Record<string, string[]> = {}
  const add = (message: string) => (errors.key ??= []).push(message)
  if (v.key === '') add("can't be blank")
  if (v.key.length > 255) add('is too long (maximum is 255 characters)')
  if (!/^[a-zA-Z0-9_]+$/.test(v.key)) add("can contain only letters, digits and '_'.")
  if (variablesOf(db, schedule).some((o) => o.key === v.key && o.id !== id)) add('has already been taken')
  return errors
}

/** Adds a variable to a schedule. @throws ApiError 400 `{"message":{"key":[...]}}`. */
export function createScheduleVariable(db: Db, schedule: PipelineScheduleRecord, v: Omit<PipelineScheduleVariableRecord, 'id' | 'pipeline_schedule_id'>): PipelineScheduleVariableRecord {
  const errors = variableErrors(db, schedule, v, null)
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
  return db.tables.ci_pipeline_schedule_variables.insert({ pipeline_schedule_id: schedule.id, ...v })
}

/** A schedule's variable by key. @throws ApiError 404 `{"message":"404 Pipeline Schedule Variable Not Found"}`. */
export function findScheduleVariable(db: Db, schedule: PipelineScheduleRecord, key: string): PipelineScheduleVariableRecord {
  const found = variablesOf(db, schedule).find((v) => v.key === key)
  if (!found) throw notFound('Pipeline Schedule Variable')
  return found
}

/**
 * `play`: a `schedule` pipeline for the schedule's ref as the caller, with the schedule's
 * variables, made at once (GitLab queues RunPipelineScheduleWorker; a refused pipeline is only
 * logged there, so a refusal here makes no pipeline and no error).
 * @returns the pipeline, or undefined when it was refused.
 */
export function playSchedule(ctx: Ctx<unknown>, project: ProjectRecord, schedule: PipelineScheduleRecord): PipelineRecord | undefined {
  const variables = variablesOf(ctx.db, schedule).map((v) => ({ key: v.key, value: v.value, variable_type: v.variable_type }))
  try {
    const pipeline = createPipeline(ctx, project, ctx.currentUser!, schedule.ref, [], ctx.now, { source: 'schedule', scheduleVariables: variables })
    ctx.db.tables.ci_pipeline_schedule_pipelines.insert({ pipeline_schedule_id: schedule.id, pipeline_id: pipeline.id })
    return pipeline
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) return undefined
    throw error
  }
}
