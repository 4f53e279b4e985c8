/**
 * Protected tags: list, get, protect (a name or `*` pattern and `create_access_level`), unprotect.
 * Every route first finds the project (a private project is 404 to a non-member), then needs
 * `admin_project` (`before { authorize_admin_project }`: Maintainer+ or an administrator, else 403
 * `{"message":"403 Forbidden"}`; no `authenticate!` first, so a read is 403 to anonymous too).
 * gitlab: lib/api/protected_tags.rb, lib/api/entities/protected_tag.rb, protected_ref_access.rb,
 * app/services/protected_tags/create_service.rb, destroy_service.rb,
 * app/services/protected_refs/access_level_params.rb, app/models/protected_tag.rb (13.12).
 * @module
 */
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { ApiError, forbidden, recordNotFound } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, noContent, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import { AccessLevel, projectAccessLevel } from '../../rules/access.js'
import { findProject } from '../../rules/finders.js'
import { ProtectedTag } from './protected-tags.entities.js'
import { protectedTagsOf, TAG_CREATE_ACCESS_LEVELS } from './protected-tags.service.js'
import type { ProtectedTagRecord } from './protected-tags.tables.js'

const projectId = { id: p.string({ required: true }) }

/**
 * `user_project` then `authorize_admin_project`.
 * @throws ApiError 404 `Project Not Found`; 403 `{"message":"403 Forbidden"}` below Maintainer.
 */
function adminProject(ctx: Ctx<{ id: string }>): ProjectRecord {
  const project = findProject(ctx, ctx.params.id)
  const user = ctx.currentUser
  if (!user || !(user.admin || projectAccessLevel(ctx.db, user, project, ctx.today) >= AccessLevel.MAINTAINER)) throw forbidden()
  return project
}

/** `user_project.protected_tags.find_by!(name:)`: the exact name, or 404 `{"message":"404 Not found"}`. */
function findProtectedTag(ctx: Ctx<unknown>, project: ProjectRecord, name: string): ProtectedTagRecord {
  const tag = protectedTagsOf(ctx.db, project.id).find((t) => t.name === name)
  if (!tag) throw recordNotFound()
  return tag
}

/** Every protected tag route. */
export const protectedTagRoutes: Route[] = [
  route('GET /projects/:id/protected_tags', {
    auth: 'optional',
    params: { ...projectId, ...paginationParams },
    handler(ctx) {
      const project = adminProject(ctx)
      return paginated(ctx, protectedTagsOf(ctx.db, project.id), ProtectedTag)
    },
  }),

  route('GET /projects/:id/protected_tags/:name', {
    auth: 'optional',
    params: { ...projectId, name: p.string({ required: true }) },
    handler(ctx) {
      const project = adminProject(ctx)
      return ok(ProtectedTag(findProtectedTag(ctx, project, ctx.params.name)))
    },
  }),

  route('POST /projects/:id/protected_tags', {
    params: { ...projectId, name: p.string({ required: true }), create_access_level: p.integer({ values: TAG_CREATE_ACCESS_LEVELS }) },
    handler(ctx) {
      const project = adminProject(ctx)
      const name = ctx.params.name
      // ActiveRecord validations (`ProtectedRef`: name present; `ProtectedTag`: unique per project): 422 with the full messages.
      if (name === '') throw new ApiError(422, { message: ["Name can't be blank"] })
      if (protectedTagsOf(ctx.db, project.id).some((t) => t.name === name)) throw new ApiError(422, { message: ['Name has already been taken'] })
      // `AccessLevelParams`: the given role, Maintainers by default.
      const tag = ctx.db.tables.protected_tags.insert({
        project_id: project.id,
        name,
        create_access_levels: [{ access_level: ctx.params.create_access_level ?? AccessLevel.MAINTAINER }],
        created_at: ctx.now,
        updated_at: ctx.now,
      })
      return created(ProtectedTag(tag))
    },
  }),

  route('DELETE /projects/:id/protected_tags/:name', {
    params: { ...projectId, name: p.string({ required: true }) },
    handler(ctx) {
      const project = adminProject(ctx)
      const tag = findProtectedTag(ctx, project, ctx.params.name)
      checkUnmodifiedSince(ctx, tag.updated_at)
      ctx.db.tables.protected_tags.delete(tag.id)
      return noContent()
    },
  }),
]
