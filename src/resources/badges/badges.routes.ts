/**
 * Project and group badges, twin routes over both source types: list (`?name=`), get, render (a
 * preview, not stored), add, edit, delete. Reads need a readable source (anonymous callers may read
 * a public one: `authenticate_non_get!`); render and writes need `admin_project` (Maintainer+) or
 * `admin_group` (Owner). A project's badges include its groups' (`kind: group`).
 * gitlab: lib/api/badges.rb, lib/api/helpers/badges_helpers.rb, lib/api/helpers/members_helpers.rb
 * (`find_source`, `authorize_admin_source!`) (13.12).
 * @module
 */
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { forbidden } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, noContent, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import { AccessLevel } from '../../rules/access.js'
import { hasSourceAccess, SOURCES, type Source, type SourceType } from '../../rules/source.js'
import { Badge, BasicBadgeDetails } from './badges.entities.js'
import { badgesOf, buildBadge, createBadge, findBadge, renderProject, updateBadge, validateBadge } from './badges.service.js'

/**
 * `find_source_if_admin`: the readable source, then `authorize! :admin_<source_type>`.
 * @throws ApiError 404 when the source is not readable, 403 `{"message":"403 Forbidden"}` below
 *   Maintainer (project) or Owner (group).
 */
function adminSource(ctx: Ctx<unknown>, type: SourceType, id: string): Source {
  const source = SOURCES[type].find(ctx, id)
  if (!hasSourceAccess(ctx, source, type === 'project' ? AccessLevel.MAINTAINER : AccessLevel.OWNER)) throw forbidden()
  return source
}

function badgeRoutes(type: SourceType): Route[] {
  const { prefix } = SOURCES[type]
  const idParam = { id: p.string({ required: true }) }
  return [
    route(`GET ${prefix}/badges`, {
      auth: 'optional',
      params: { ...idParam, name: p.string(), ...paginationParams },
      handler(ctx) {
        const source = SOURCES[type].find(ctx, ctx.params.id)
        const name = ctx.params.name
        const badges = badgesOf(ctx.db, source).filter((b) => name === undefined || b.name === name)
        const project = renderProject(ctx, source)
        return paginated(ctx, badges, (badge) => Badge(badge, project, ctx))
      },
    }),

    route(`GET ${prefix}/badges/render`, {
      params: { ...idParam, link_url: p.string({ required: true }), image_url: p.string({ required: true }) },
      handler(ctx) {
        const source = adminSource(ctx, type, ctx.params.id)
        const badge = buildBadge(source, { link_url: ctx.params.link_url, image_url: ctx.params.image_url })
        validateBadge(badge)
        return ok(BasicBadgeDetails(badge, renderProject(ctx, source), ctx))
      },
    }),

    route(`GET ${prefix}/badges/:badge_id`, {
      auth: 'optional',
      params: { ...idParam, badge_id: p.integer({ required: true }) },
      handler(ctx) {
        const source = SOURCES[type].find(ctx, ctx.params.id)
        return ok(Badge(findBadge(ctx.db, source, ctx.params.badge_id), renderProject(ctx, source), ctx))
      },
    }),

    route(`POST ${prefix}/badges`, {
      params: { ...idParam, link_url: p.string({ required: true }), image_url: p.string({ required: true }), name: p.string() },
      handler(ctx) {
        const source = adminSource(ctx, type, ctx.params.id)
        const { link_url, image_url, name } = ctx.params
        const badge = createBadge(ctx.db, source, { link_url, image_url, name }, ctx.now)
        return created(Badge(badge, renderProject(ctx, source), ctx))
      },
    }),

    route(`PUT ${prefix}/badges/:badge_id`, {
      params: { ...idParam, badge_id: p.integer({ required: true }), link_url: p.string(), image_url: p.string(), name: p.string() },
      handler(ctx) {
        const source = adminSource(ctx, type, ctx.params.id)
        const badge = findBadge(ctx.db, source, ctx.params.badge_id)
        const { link_url, image_url, name } = ctx.params
        return ok(Badge(updateBadge(ctx.db, badge, { link_url, image_url, name }, ctx.now), renderProject(ctx, source), ctx))
      },
    }),

    route(`DELETE ${prefix}/badges/:badge_id`, {
      params: { ...idParam, badge_id: p.integer({ required: true }) },
      handler(ctx) {
        const source = adminSource(ctx, type, ctx.params.id)
        const badge = findBadge(ctx.db, source, ctx.params.badge_id)
        checkUnmodifiedSince(ctx, badge.updated_at) // destroy_conditionally!
        ctx.db.tables.badges.delete(badge.id)
        return noContent()
      },
    }),
  ]
}

/** The badge routes: GitLab declares the group's first (`%w[group project].each`), then the project's. */
export const badgeRouteList: Route[] = [...badgeRoutes('group'), ...badgeRoutes('project')]
