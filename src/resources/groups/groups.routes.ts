/**
 * `GET /groups` and `GET /groups/:id`; `POST /groups` and `DELETE /groups/:id`.
 * Source: GitLab doc/api/groups.md; gitlabhq:lib/api/groups.rb.
 * @module
 */
import { AccessLevel, canReadGroup, canReadProject, groupAccessLevel, hasGroupAccess } from '../../rules/access.js'
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { forbidden } from '../../core/errors.js'
import { findGroup } from '../../rules/finders.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { acceptedReply, created, ok, paginated } from '../../core/respond.js'
import { route, type Route } from '../../core/route.js'
import type { GroupRecord } from '../../db/schema.js'
import { Group, GroupDetail } from '../../entities/group.js'
import { issueCounts } from '../issues/issues.public.js'
import { createGroup, destroyGroup } from './groups.service.js'

/** Routes of the groups area implemented so far. */
export const groupRoutes: Route[] = [
  route('GET /groups', {
    auth: 'optional',
    params: {
      ...paginationParams,
      skip_groups: p.integers(),
      all_available: p.boolean(),
      search: p.string(),
      order_by: p.string({ default: 'name', values: ['name', 'path', 'id', 'similarity'] }),
      sort: p.string({ default: 'asc', values: ['asc', 'desc'], caseInsensitive: true }),
      owned: p.boolean({ default: false }),
      min_access_level: p.integer({ values: [10, 20, 30, 40, 50] }),
      top_level_only: p.boolean({ default: false }),
    },
    handler(ctx) {
      const { params, db, currentUser: user, today } = ctx
      // GitLab: all_available defaults to true for anonymous callers and admins, false otherwise.
      const allAvailable = params.all_available ?? (!user || user.admin)
      const search = params.search?.toLowerCase()
      const skip = new Set(params.skip_groups ?? [])
      const minLevel = params.owned ? AccessLevel.OWNER : params.min_access_level
      const rows = db.tables.groups.filter((group) => {
        if (skip.has(group.id)) return false
        if (params.top_level_only && group.parent_id !== null) return false
        if (search && !`${group.name} ${group.path}`.toLowerCase().includes(search)) return false
        if (minLevel !== undefined) return groupAccessLevel(db, user, group, today) >= minLevel
        if (allAvailable) return canReadGroup(db, user, group, today)
        return groupAccessLevel(db, user, group, today) >= AccessLevel.GUEST
      })
      const key = (g: GroupRecord): string | number =>
        params.order_by === 'id' ? g.id : params.order_by === 'path' ? g.path.toLowerCase() : g.name.toLowerCase()
      const direction = params.sort === 'desc' ? -1 : 1
      rows.sort((a, b) => {
        const x = key(a)
        const y = key(b)
        return (x < y ? -1 : x > y ? 1 : 0) * direction || a.id - b.id
      })
      return paginated(ctx, rows, (group) => Group(group, ctx))
    },
  }),

  route('GET /groups/:id', {
    auth: 'optional',
    params: { id: p.string({ required: true }), with_projects: p.boolean({ default: true }) },
    handler(ctx) {
      const { db, currentUser: user, today } = ctx
      const group = findGroup(ctx, ctx.params.id)
      const projects = ctx.params.with_projects
        ? db.tables.projects
            .where('namespace_id', group.id)
            .filter((project) => project.namespace_type === 'group' && canReadProject(db, user, project, today))
        : []
      const admin = hasGroupAccess(db, user, group, AccessLevel.OWNER, today)
      return ok(GroupDetail(group, ctx, projects, admin, issueCounts(ctx.db)))
    },
  }),

  // gitlab: lib/api/groups.rb `post`: a subgroup needs create_subgroup on its parent (Maintainer+:
  // `subgroup_creation_level` is `maintainer`), a top-level group the user's `can_create_group`.
  route('POST /groups', {
    params: {
      name: p.string({ required: true }),
      path: p.string({ required: true }),
      parent_id: p.integer(),
      description: p.string(),
      visibility: p.string({ values: ['private', 'internal', 'public'] }),
      lfs_enabled: p.boolean(),
      request_access_enabled: p.boolean(),
    },
    handler(ctx) {
      const { db, currentUser: user, today, params } = ctx
      const parent = params.parent_id !== undefined ? findGroup(ctx, params.parent_id) : null
      if (parent ? !hasGroupAccess(db, user, parent, AccessLevel.MAINTAINER, today) : !(user!.admin || user!.can_create_group)) {
        throw forbidden()
      }
      const group = createGroup(ctx, params, parent)
      // GroupDetail without `runners_token`: the endpoint passes no `user_can_admin_group`.
      return created(GroupDetail(group, ctx, [], false, issueCounts(ctx.db)))
    },
  }),

  // gitlab: lib/api/groups.rb `delete ":id"`: admin_group (Owner); CE schedules the deletion and
  // answers `accepted!`.
  route('DELETE /groups/:id', {
    params: { id: p.string({ required: true }) },
    handler(ctx) {
      const group = findGroup(ctx, ctx.params.id)
      if (!hasGroupAccess(ctx.db, ctx.currentUser, group, AccessLevel.OWNER, ctx.today)) throw forbidden()
      // destroy_conditionally!; spec-gap: groups keep no updated_at, created_at stands in.
      checkUnmodifiedSince(ctx, group.created_at)
      destroyGroup(ctx.db, group)
      return acceptedReply()
    },
  }),
]
