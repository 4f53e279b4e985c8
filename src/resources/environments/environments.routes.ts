/**
 * The environments API: a project's environments listed (by name, search, state), read, created,
 * updated, stopped and deleted (stopped ones only). Every route needs a signed-in user
 * (`before { authenticate! }`); then the project (404 `{"message":"404 Project Not Found"}`), then
 * `read_environment` (Reporter+) and the write's own ability (Developer+): 403 `{"message":"403 Forbidden"}`.
 * gitlab (13.12): lib/api/environments.rb.
 * @module
 */
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { forbidden } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, noContent, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import { findProject } from '../../rules/finders.js'
import { Environment, EnvironmentDetail } from './environments.entities.js'
import { canEnvironments, createEnvironment, findEnvironment, findEnvironments, stopEnvironment, updateEnvironment } from './environments.service.js'

const projectId = { id: p.string({ required: true }) }
const envId = { ...projectId, environment_id: p.integer({ required: true }) }

/** The project, then `read_environment`. @throws ApiError 404, then 403. */
function readable(ctx: Ctx<{ id: string }>): ProjectRecord {
  const project = findProject(ctx, ctx.params.id)
  if (!canEnvironments(ctx, project, 'read')) throw forbidden()
  return project
}

/** The project, then the Developer+ ability of a write. @throws ApiError 404, then 403. */
function writable(ctx: Ctx<{ id: string }>): ProjectRecord {
  const project = findProject(ctx, ctx.params.id)
  if (!canEnvironments(ctx, project, 'write')) throw forbidden()
  return project
}

/** The environments routes. */
export const environmentRoutes: Route[] = [
  route('GET /projects/:id/environments', {
    params: { ...projectId, ...paginationParams, name: p.string(), search: p.string(), states: p.string({ values: ['available', 'stopped'] }) },
    rules: { mutuallyExclusive: [['name', 'search']] },
    handler(ctx) {
      const project = readable(ctx)
      const { name, search, states } = ctx.params
      return paginated(ctx, findEnvironments(ctx.db, project, { name, search, states }), (env) => Environment(env, project, ctx))
    },
  }),

  route('GET /projects/:id/environments/:environment_id', {
    params: envId,
    handler(ctx) {
      const project = readable(ctx)
      return ok(EnvironmentDetail(findEnvironment(ctx.db, project, ctx.params.environment_id), ctx))
    },
  }),

  route('POST /projects/:id/environments', {
    params: { ...projectId, name: p.string({ required: true }), external_url: p.string() },
    handler(ctx) {
      const project = writable(ctx)
      return created(Environment(createEnvironment(ctx, project, ctx.params.name, ctx.params.external_url ?? null), project, ctx))
    },
  }),

  route('PUT /projects/:id/environments/:environment_id', {
    params: { ...envId, name: p.string(), external_url: p.string() },
    handler(ctx) {
      const project = writable(ctx)
      const env = findEnvironment(ctx.db, project, ctx.params.environment_id)
      return ok(Environment(updateEnvironment(ctx, project, env, { name: ctx.params.name, external_url: ctx.params.external_url }), project, ctx))
    },
  }),

  route('DELETE /projects/:id/environments/:environment_id', {
    params: envId,
    handler(ctx) {
      const project = readable(ctx)
      const env = findEnvironment(ctx.db, project, ctx.params.environment_id)
      // `destroy_environment`: Developer+, and only a stopped environment.
      if (!canEnvironments(ctx, project, 'write') || env.state !== 'stopped') throw forbidden()
      checkUnmodifiedSince(ctx, env.updated_at)
      ctx.db.tables.environments.delete(env.id)
      return noContent()
    },
  }),

  route('POST /projects/:id/environments/:environment_id/stop', {
    params: envId,
    handler(ctx) {
      const project = readable(ctx)
      const env = findEnvironment(ctx.db, project, ctx.params.environment_id)
      // `stop_environment`: Developer+.
      if (!canEnvironments(ctx, project, 'write')) throw forbidden()
      return ok(Environment(stopEnvironment(ctx, env), project, ctx))
    },
  }),
]
