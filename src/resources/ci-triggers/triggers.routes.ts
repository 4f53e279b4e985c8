/**
 * Pipeline triggers: a project's trigger tokens (list, get, create, update, delete; Maintainer+,
 * updating only by the trigger's owner) and `POST /projects/:id/(ref/:ref/)trigger/pipeline`
 * (no authentication: the token is the credential; a `trigger` pipeline as the token's owner).
 * gitlab: lib/api/triggers.rb (13.12), doc/api/pipeline_triggers.md, doc/ci/triggers/index.md.
 * @module
 */
import { apiMessage, forbidden, notFound } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, noContent, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import { findProject } from '../../rules/finders.js'
import { Pipeline } from '../runners/runners.public.js'
import { Trigger } from './ci-triggers.entities.js'
import { canAdminBuild, canAdminTrigger, createTrigger, findTrigger, triggerPipeline, triggersOf } from './triggers.service.js'

const idParam = { id: p.string({ required: true }) }
const triggerParams = { ...idParam, trigger_id: p.integer({ required: true }) }

/** The project when the caller has `admin_build` on it. @throws ApiError 404, 403. */
function adminProject(ctx: Ctx<{ id: string }>): ProjectRecord {
  const project = findProject(ctx, ctx.params.id)
  if (!canAdminBuild(ctx, project)) throw forbidden()
  return project
}

/** `find_project(params[:id])`: by id or full path, whoever asks. @throws ApiError 404 `{"message":"404 Not Found"}`. */
function anyProject(ctx: Ctx<unknown>, id: string): ProjectRecord {
  const project = /^\d+$/.test(id) ? ctx.db.tables.projects.get(Number(id)) : ctx.db.findProjectByFullPath(id)
  if (!project) throw notFound()
  return project
}

/** The trigger pipeline route's handler, for both paths. */
function triggerHandler(ctx: Ctx<{ id: string; ref: string; token: string; variables?: Record<string, unknown> | undefined }>) {
  const raw = ctx.params.variables ?? {}
  if (!Object.entries(raw).every(([, value]) => typeof value === 'string')) throw apiMessage(400, 'variables needs to be a map of key-valued strings')
  const project = anyProject(ctx, ctx.params.id)
  const variables = Object.entries(raw).map(([key, value]) => ({ key, value: value as string, variable_type: 'env_var' }))
  const pipeline = triggerPipeline(ctx, project, ctx.params.token, ctx.params.ref, variables)
  if (!pipeline) throw notFound()
  return created(Pipeline(pipeline, ctx))
}

const triggerPipelineParams = { ...idParam, ref: p.string({ required: true }), token: p.string({ required: true }), variables: p.hash() }

/** Every trigger route. */
export const triggerRoutes: Route[] = [
  route('POST /projects/:id/trigger/pipeline', { auth: 'optional', params: triggerPipelineParams, handler: triggerHandler }),
  route('POST /projects/:id/ref/:ref/trigger/pipeline', { auth: 'optional', params: triggerPipelineParams, handler: triggerHandler }),

  route('GET /projects/:id/triggers', {
    params: { ...idParam, ...paginationParams },
    handler(ctx) {
      const project = adminProject(ctx)
      return paginated(ctx, triggersOf(ctx.db, project), (t) => Trigger(t, canAdminTrigger(ctx, project, t), ctx))
    },
  }),

  route('GET /projects/:id/triggers/:trigger_id', {
    params: triggerParams,
    handler(ctx) {
      const project = adminProject(ctx)
      const trigger = findTrigger(ctx.db, project, ctx.params.trigger_id)
      return ok(Trigger(trigger, canAdminTrigger(ctx, project, trigger), ctx))
    },
  }),

  route('POST /projects/:id/triggers', {
    params: { ...idParam, description: p.string({ required: true }) },
    handler(ctx) {
      const project = adminProject(ctx)
      const trigger = createTrigger(ctx, project, ctx.params.description)
      return created(Trigger(trigger, true, ctx))
    },
  }),

  route('PUT /projects/:id/triggers/:trigger_id', {
    params: { ...triggerParams, description: p.string() },
    handler(ctx) {
      const project = adminProject(ctx)
      const trigger = findTrigger(ctx.db, project, ctx.params.trigger_id)
      if (!canAdminTrigger(ctx, project, trigger)) throw forbidden()
      const updated = ctx.params.description === undefined ? trigger : ctx.db.tables.ci_triggers.update(trigger.id, { description: ctx.params.description, updated_at: ctx.now })
      return ok(Trigger(updated, true, ctx))
    },
  }),

  route('DELETE /projects/:id/triggers/:trigger_id', {
    params: triggerParams,
    handler(ctx) {
      const project = adminProject(ctx)
      const trigger = findTrigger(ctx.db, project, ctx.params.trigger_id)
      ctx.db.tables.ci_triggers.delete(trigger.id)
      return noContent()
    },
  }),
]
