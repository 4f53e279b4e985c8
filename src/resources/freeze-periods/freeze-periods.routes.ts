/**
 * Deploy freeze periods of a project: list, get, create, update, delete.
 * Every call needs Maintainer or higher (administrators always pass): a readable project gives
 * 403 `{"message":"403 Forbidden"}` below that, even for a freeze period that does not exist, and an
 * unreadable one 404 `{"message":"404 Project Not Found"}`.
 * Source: api-spec.md "Freeze periods"; gitlab-behaviour.md §7, §13, §14 items 13 and 18;
 * gitlabhq:lib/api/freeze_periods.rb (13.x).
 * @module
 */
import { AccessLevel, hasProjectAccess } from '../../rules/access.js'
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { forbidden } from '../../core/errors.js'
import { findProject } from '../../rules/finders.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { rubyToI } from '../../core/ruby.js'
import { created, noContent, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import { FreezePeriod } from './freeze-periods.entities.js'
import {
  createFreezePeriod,
  findFreezePeriod,
  listFreezePeriods,
  updateFreezePeriod,
} from './freeze-periods.service.js'

/**
 * `user_project` then `authorize! :<action>_freeze_period`: the project (404 when unreadable), then
 * Maintainer+ (`read_`, `create_`, `update_`, `destroy_freeze_period` all sit in the maintainer block
 * of 13.x ProjectPolicy).
 * @throws ApiError 404 `{"message":"404 Project Not Found"}`, 403 `{"message":"403 Forbidden"}`.
 */
function authorizedProject(ctx: Ctx<{ id: string }>): ProjectRecord {
  const project = findProject(ctx, ctx.params.id)
  if (!hasProjectAccess(ctx.db, ctx.currentUser, project, AccessLevel.MAINTAINER, ctx.today)) throw forbidden()
  return project
}

const projectId = { id: p.string({ required: true }) }

/** The freeze period routes (`/projects/:id/freeze_periods[/:freeze_period_id]`). */
export const freezePeriodRoutes: Route[] = [
  route('GET /projects/:id/freeze_periods', {
    params: { ...projectId, ...paginationParams },
    handler(ctx) {
      const project = authorizedProject(ctx)
      return paginated(ctx, listFreezePeriods(ctx.db, project), (period) => FreezePeriod(period, ctx))
    },
  }),

  route('GET /projects/:id/freeze_periods/:freeze_period_id', {
    params: { ...projectId, freeze_period_id: p.integer({ required: true }) },
    handler(ctx) {
      const project = authorizedProject(ctx)
      return ok(FreezePeriod(findFreezePeriod(ctx.db, project, ctx.params.freeze_period_id), ctx))
    },
  }),

  route('POST /projects/:id/freeze_periods', {
    params: {
      ...projectId,
      freeze_start: p.string({ required: true }),
      freeze_end: p.string({ required: true }),
      // spec-gap: api-spec.md and GitLab's docs say cron_timezone defaults to UTC; 13.x code most
      // likely answered 400 "can't be blank" instead (gitlab-behaviour.md §7, §14 item 18).
      cron_timezone: p.string({ default: 'UTC' }),
    },
    handler(ctx) {
      const project = authorizedProject(ctx)
      const { freeze_start, freeze_end, cron_timezone } = ctx.params
      return created(FreezePeriod(createFreezePeriod(ctx.db, project, { freeze_start, freeze_end, cron_timezone }, ctx.now), ctx))
    },
  }),

  route('PUT /projects/:id/freeze_periods/:freeze_period_id', {
    params: {
      ...projectId,
      // gitlab: lib/api/freeze_periods.rb declares no type for freeze_period_id on PUT (unlike GET
      // and DELETE), so `find` reads the raw segment the way ActiveRecord does: `12abc` is 12, `abc` 0.
      freeze_period_id: p.string({ required: true }),
      freeze_start: p.string(),
      freeze_end: p.string(),
      cron_timezone: p.string(),
    },
    handler(ctx) {
      const project = authorizedProject(ctx)
      const period = findFreezePeriod(ctx.db, project, rubyToI(ctx.params.freeze_period_id))
      const { freeze_start, freeze_end, cron_timezone } = ctx.params
      return ok(FreezePeriod(updateFreezePeriod(ctx.db, period, { freeze_start, freeze_end, cron_timezone }, ctx.now), ctx))
    },
  }),

  route('DELETE /projects/:id/freeze_periods/:freeze_period_id', {
    params: { ...projectId, freeze_period_id: p.integer({ required: true }) },
    handler(ctx) {
      const project = authorizedProject(ctx)
      const period = findFreezePeriod(ctx.db, project, ctx.params.freeze_period_id)
      checkUnmodifiedSince(ctx, period.updated_at) // destroy_conditionally!
      ctx.db.tables.freeze_periods.delete(period.id)
      return noContent()
    },
  }),
]
