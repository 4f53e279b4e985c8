/**
 * Project hooks: list, get, create, update, delete (`/projects/:id/hooks[/:hook_id]`). Every call
 * authenticates (401) and needs `admin_project`, Maintainer or higher (administrators always): a
 * readable project gives 403 below that, an unreadable one 404 `Project Not Found`.
 * gitlab: lib/api/project_hooks.rb (13.12).
 * @module
 */
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { forbidden } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, noContent, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import { AccessLevel, hasProjectAccess } from '../../rules/access.js'
import { findProject } from '../../rules/finders.js'
import { ProjectHook } from './hooks.entities.js'
import { createProjectHook, deleteProjectHook, findProjectHook, listProjectHooks, updateProjectHook, type ProjectHookAttributes } from './hooks.service.js'

/** `user_project`, then `authorize_admin_project` (Maintainer+). */
function adminProject(ctx: Ctx<{ id: string }>): ProjectRecord {
  const project = findProject(ctx, ctx.params.id)
  if (!hasProjectAccess(ctx.db, ctx.currentUser, project, AccessLevel.MAINTAINER, ctx.today)) throw forbidden()
  return project
}

const projectId = { id: p.string({ required: true }) }

/** `project_hook_properties` (13.12), `url` optional for PUT as declared there it is required. */
const properties = {
  push_events: p.boolean(),
  issues_events: p.boolean(),
  confidential_issues_events: p.boolean(),
  merge_requests_events: p.boolean(),
  tag_push_events: p.boolean(),
  note_events: p.boolean(),
  confidential_note_events: p.boolean(),
  job_events: p.boolean(),
  pipeline_events: p.boolean(),
  wiki_page_events: p.boolean(),
  deployment_events: p.boolean(),
  enable_ssl_verification: p.boolean(),
  token: p.string(),
  push_events_branch_filter: p.string(),
}

function attributes(params: Record<string, unknown>): ProjectHookAttributes {
  const out: Record<string, unknown> = {}
  for (const key of [...Object.keys(properties), 'url']) if (params[key] !== undefined) out[key] = params[key]
  return out as ProjectHookAttributes
}

/** The project hook routes. */
export const hookRoutes: Route[] = [
  route('GET /projects/:id/hooks', {
    params: { ...projectId, ...paginationParams },
    handler(ctx) {
      const project = adminProject(ctx)
      return paginated(ctx, listProjectHooks(ctx.db, project), (hook) => ProjectHook(hook, ctx))
    },
  }),

  route('GET /projects/:id/hooks/:hook_id', {
    params: { ...projectId, hook_id: p.integer({ required: true }) },
    handler(ctx) {
      const project = adminProject(ctx)
      return ok(ProjectHook(findProjectHook(ctx.db, project, ctx.params.hook_id), ctx))
    },
  }),

  route('POST /projects/:id/hooks', {
    params: { ...projectId, url: p.string({ required: true }), ...properties },
    handler(ctx) {
      const project = adminProject(ctx)
      return created(ProjectHook(createProjectHook(ctx.db, project, { ...attributes(ctx.params), url: ctx.params.url }, ctx.now), ctx))
    },
  }),

  route('PUT /projects/:id/hooks/:hook_id', {
    // gitlab: the PUT uses `project_hook_properties` too, so `url` is required there as well.
    params: { ...projectId, hook_id: p.integer({ required: true }), url: p.string({ required: true }), ...properties },
    handler(ctx) {
      const project = adminProject(ctx)
      const hook = findProjectHook(ctx.db, project, ctx.params.hook_id)
      return ok(ProjectHook(updateProjectHook(ctx.db, hook, attributes(ctx.params), ctx.now), ctx))
    },
  }),

  route('DELETE /projects/:id/hooks/:hook_id', {
    params: { ...projectId, hook_id: p.integer({ required: true }) },
    handler(ctx) {
      const project = adminProject(ctx)
      const hook = findProjectHook(ctx.db, project, ctx.params.hook_id)
      checkUnmodifiedSince(ctx, hook.updated_at) // destroy_conditionally!
      deleteProjectHook(ctx.db, hook)
      return noContent()
    },
  }),
]
