/**
 * Pipeline schedules: list (`scope` active/inactive), get (PipelineScheduleDetails), create,
 * update, `take_ownership`, delete, `play` (201 `{"message":"201 Created"}`; fakelab makes the
 * pipeline at once), and a schedule's variables (create, get, update, delete: 202 with the
 * variable). A project the caller cannot see is 404; one seen without the right 403.
 * gitlab: lib/api/ci/pipeline_schedules.rb (13.12), doc/api/pipeline_schedules.md.
 * @module
 */
import { forbidden } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, noContent, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import { findProject } from '../../rules/finders.js'
import { PipelineSchedule, PipelineScheduleDetails, ScheduleVariable } from './ci-triggers.entities.js'
import type { PipelineScheduleRecord } from './ci-triggers.tables.js'
import {
  canAdminSchedule,
  canCreateSchedule,
  canPlaySchedule,
  canReadSchedules,
  canUpdateSchedule,
  createSchedule,
  createScheduleVariable,
  deleteSchedule,
  findSchedule,
  findScheduleVariable,
  lastPipelineOf,
  playSchedule,
  schedulesOf,
  updateSchedule,
  variablesOf,
  type ScheduleFields,
} from './schedules.service.js'

const VARIABLE_TYPES = ['env_var', 'file'] as const
const idParam = { id: p.string({ required: true }) }
const scheduleParams = { ...idParam, pipeline_schedule_id: p.integer({ required: true }) }
const variableParams = { ...scheduleParams, key: p.string({ required: true }) }

/** The project, readable, and the caller allowed to read its schedules. @throws ApiError 404, 403. */
function readableProject(ctx: Ctx<{ id: string }>): ProjectRecord {
  const project = findProject(ctx, ctx.params.id)
  if (!canReadSchedules(ctx, project)) throw forbidden()
  return project
}

/** The project and its schedule of `:pipeline_schedule_id` (`pipeline_schedule` helper). @throws ApiError 404, 403. */
function readableSchedule(ctx: Ctx<{ id: string; pipeline_schedule_id: number }>): { project: ProjectRecord; schedule: PipelineScheduleRecord } {
  const project = readableProject(ctx)
  return { project, schedule: findSchedule(ctx.db, project, ctx.params.pipeline_schedule_id) }
}

/** The schedule with its details. */
function details(ctx: Ctx<unknown>, schedule: PipelineScheduleRecord) {
  return PipelineScheduleDetails(schedule, lastPipelineOf(ctx.db, schedule), variablesOf(ctx.db, schedule), ctx)
}

/** The schedule the caller may update. @throws ApiError 404, 403. */
function updatableSchedule(ctx: Ctx<{ id: string; pipeline_schedule_id: number }>): { project: ProjectRecord; schedule: PipelineScheduleRecord } {
  const found = readableSchedule(ctx)
  if (!canUpdateSchedule(ctx, found.project, found.schedule)) throw forbidden()
  return found
}

/** Every pipeline schedule route. */
export const scheduleRoutes: Route[] = [
  route('GET /projects/:id/pipeline_schedules', {
    auth: 'optional',
    params: { ...idParam, scope: p.string({ values: ['active', 'inactive'] }), ...paginationParams },
    handler(ctx) {
      const project = readableProject(ctx)
      return paginated(ctx, schedulesOf(ctx.db, project, ctx.params.scope as 'active' | 'inactive' | undefined), (s) => PipelineSchedule(s, ctx))
    },
  }),

  route('GET /projects/:id/pipeline_schedules/:pipeline_schedule_id', {
    auth: 'optional',
    params: scheduleParams,
    handler(ctx) {
      const { schedule } = readableSchedule(ctx)
      return ok(details(ctx, schedule))
    },
  }),

  route('POST /projects/:id/pipeline_schedules', {
    params: { ...idParam, description: p.string({ required: true }), ref: p.string({ required: true }), cron: p.string({ required: true }), cron_timezone: p.string({ default: 'UTC' }), active: p.boolean({ default: true }) },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      if (!canCreateSchedule(ctx, project)) throw forbidden()
      const { description, ref, cron, cron_timezone, active } = ctx.params
      return created(details(ctx, createSchedule(ctx, project, { description, ref, cron, cron_timezone: cron_timezone ?? 'UTC', active: active ?? true })))
    },
  }),

  route('PUT /projects/:id/pipeline_schedules/:pipeline_schedule_id', {
    params: { ...scheduleParams, description: p.string(), ref: p.string(), cron: p.string(), cron_timezone: p.string(), active: p.boolean() },
    handler(ctx) {
      const { schedule } = updatableSchedule(ctx)
      const patch: Partial<ScheduleFields> = {}
      if (ctx.params.description !== undefined) patch.description = ctx.params.description
      if (ctx.params.ref !== undefined) patch.ref = ctx.params.ref
      if (ctx.params.cron !== undefined) patch.cron = ctx.params.cron
      if (ctx.params.cron_timezone !== undefined) patch.cron_timezone = ctx.params.cron_timezone
      if (ctx.params.active !== undefined) patch.active = ctx.params.active
      return ok(details(ctx, updateSchedule(ctx, schedule, patch)))
    },
  }),

  route('POST /projects/:id/pipeline_schedules/:pipeline_schedule_id/take_ownership', {
    params: scheduleParams,
    handler(ctx) {
      const { project, schedule } = readableSchedule(ctx)
      if (!canAdminSchedule(ctx, project)) throw forbidden()
      const owned = ctx.db.tables.ci_pipeline_schedules.update(schedule.id, { owner_id: ctx.currentUser!.id, updated_at: ctx.now })
      return created(details(ctx, owned))
    },
  }),

  route('DELETE /projects/:id/pipeline_schedules/:pipeline_schedule_id', {
    params: scheduleParams,
    handler(ctx) {
      const { project, schedule } = readableSchedule(ctx)
      if (!canAdminSchedule(ctx, project)) throw forbidden()
      deleteSchedule(ctx.db, schedule)
      return noContent()
    },
  }),

  route('POST /projects/:id/pipeline_schedules/:pipeline_schedule_id/play', {
    params: scheduleParams,
    handler(ctx) {
      const { project, schedule } = readableSchedule(ctx)
      if (!canPlaySchedule(ctx, project)) throw forbidden()
      playSchedule(ctx, project, schedule)
      // `created!` (GitLab answers before its worker runs; the pipeline is made either way).
      return { status: 201, body: { message: '201 Created' } }
    },
  }),

  route('POST /projects/:id/pipeline_schedules/:pipeline_schedule_id/variables', {
    params: { ...scheduleParams, key: p.string({ required: true }), value: p.string({ required: true }), variable_type: p.string({ values: VARIABLE_TYPES }) },
    handler(ctx) {
      const { schedule } = updatableSchedule(ctx)
      const variable = createScheduleVariable(ctx.db, schedule, { key: ctx.params.key, value: ctx.params.value, variable_type: (ctx.params.variable_type ?? 'env_var') as 'env_var' | 'file' })
      return created(ScheduleVariable(variable))
    },
  }),

  route('GET /projects/:id/pipeline_schedules/:pipeline_schedule_id/variables/:key', {
    auth: 'optional',
    params: variableParams,
    handler(ctx) {
      const { schedule } = readableSchedule(ctx)
      return ok(ScheduleVariable(findScheduleVariable(ctx.db, schedule, ctx.params.key)))
    },
  }),

  route('PUT /projects/:id/pipeline_schedules/:pipeline_schedule_id/variables/:key', {
    params: { ...variableParams, value: p.string(), variable_type: p.string({ values: VARIABLE_TYPES }) },
    handler(ctx) {
      const { schedule } = updatableSchedule(ctx)
      const variable = findScheduleVariable(ctx.db, schedule, ctx.params.key)
      const patch: { value?: string; variable_type?: 'env_var' | 'file' } = {}
      if (ctx.params.value !== undefined) patch.value = ctx.params.value
      if (ctx.params.variable_type !== undefined) patch.variable_type = ctx.params.variable_type as 'env_var' | 'file'
      return ok(ScheduleVariable(ctx.db.tables.ci_pipeline_schedule_variables.update(variable.id, patch)))
    },
  }),

  route('DELETE /projects/:id/pipeline_schedules/:pipeline_schedule_id/variables/:key', {
    params: variableParams,
    handler(ctx) {
      const { schedule } = updatableSchedule(ctx)
      const variable = findScheduleVariable(ctx.db, schedule, ctx.params.key)
      ctx.db.tables.ci_pipeline_schedule_variables.delete(variable.id)
      // `status :accepted; present variable`.
      return { status: 202, body: ScheduleVariable(variable) }
    },
  }),
]
