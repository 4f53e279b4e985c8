/**
 * Project services (integrations): `GET /projects/:id/services` (the active ones),
 * `PUT /projects/:id/services/<slug>` for each service of {@link SERVICES} with its own params,
 * `GET` and `DELETE /projects/:id/services/:slug`; and the same routes under
 * `/projects/:id/integrations` (GitLab 14.0's name, which python-gitlab 3.12 sends). Every route
 * authenticates (401) and needs `admin_project` (Maintainer+, administrators always) before its
 * params are validated: a readable project gives 403 below that, an unreadable one 404.
 * gitlab: lib/api/services.rb (13.12); lib/api/integrations.rb (14.0) for the second prefix.
 * @module
 */
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { forbidden, notFound } from '../../core/errors.js'
import { p, type ParamSpecs } from '../../core/params.js'
import { noContent, ok } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import { AccessLevel, hasProjectAccess } from '../../rules/access.js'
import { findProject } from '../../rules/finders.js'
import { SERVICE_BY_SLUG, SERVICE_SLUGS, SERVICES, type ServiceDefinition, type ServiceField } from './services.definitions.js'
import { ProjectService, ProjectServiceBasic } from './services.entities.js'
import { activeServices, clearService, findService, setService } from './services.service.js'

/** `before { authenticate! }; before { authorize_admin_project }`: `user_project`, then Maintainer+. */
function adminProject(ctx: Ctx<unknown>): ProjectRecord {
  const project = findProject(ctx, String((ctx.params as { id: unknown }).id))
  if (!hasProjectAccess(ctx.db, ctx.currentUser, project, AccessLevel.MAINTAINER, ctx.today)) throw forbidden()
  return project
}

const id = p.string({ required: true })

function fieldParam(field: ServiceField) {
  const options = { required: field.required }
  return field.type === 'boolean' ? p.boolean(options) : field.type === 'integer' ? p.integer(options) : p.string(options)
}

/** A service's PUT params: its fields (`requires`/`optional` with their types), then its event names (optional String). */
function putParams(definition: ServiceDefinition): ParamSpecs {
  const params: ParamSpecs = { id }
  for (const field of definition.fields) params[field.name] = fieldParam(field)
  for (const name of definition.events) if (!(name in params)) params[name] = p.string()
  return params
}

/** The routes under one prefix (`services` or `integrations`). */
function routesUnder(prefix: 'services' | 'integrations'): Route[] {
  return [
    route(`GET /projects/:id/${prefix}`, {
      params: { id },
      before: adminProject,
      handler(ctx) {
        return ok(activeServices(ctx.db, adminProject(ctx)).map(ProjectServiceBasic))
      },
    }),
    ...SERVICES.map((definition) =>
      route(`PUT /projects/:id/${prefix}/${definition.slug}`, {
        params: putParams(definition),
        before: adminProject,
        handler(ctx) {
          const project = adminProject(ctx)
          return ok(ProjectService(setService(ctx.db, project, definition, ctx.params, ctx.now)))
        },
      }),
    ),
    route(`DELETE /projects/:id/${prefix}/:slug`, {
      params: { id, slug: p.string({ required: true, values: SERVICE_SLUGS }) },
      before: adminProject,
      handler(ctx) {
        const project = adminProject(ctx)
        const existing = findService(ctx.db, project, ctx.params.slug)
        if (existing) checkUnmodifiedSince(ctx, existing.updated_at) // destroy_conditionally!
        clearService(ctx.db, project, SERVICE_BY_SLUG.get(ctx.params.slug)!, ctx.now)
        return noContent()
      },
    }),
    route(`GET /projects/:id/${prefix}/:slug`, {
      params: { id, slug: p.string({ required: true, values: SERVICE_SLUGS }) },
      before: adminProject,
      handler(ctx) {
        const service = findService(ctx.db, adminProject(ctx), ctx.params.slug)
        if (!service) throw notFound('Service')
        return ok(ProjectService(service))
      },
    }),
  ]
}

/** The service routes: 13.12's `/services` and 14.0's `/integrations`. */
export const serviceRoutes: Route[] = [...routesUnder('services'), ...routesUnder('integrations')]
