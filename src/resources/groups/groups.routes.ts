/**
 * `GET /groups` and `GET /groups/:id`; `POST /groups` and `DELETE /groups/:id`; the group's
 * subgroups, descendant groups and projects; moving a project into the group and moving the group.
 * Source: GitLab doc/api/groups.md; gitlabhq:lib/api/groups.rb.
 * @module
 */
import { AccessLevel, canReadProject, hasGroupAccess } from '../../rules/access.js'
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { forbidden, notFound } from '../../core/errors.js'
import { findGroup, findProject } from '../../rules/finders.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { acceptedReply, created, noContent, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { GroupRecord, ProjectRecord } from '../../db/schema.js'
import { Group, GroupDetail } from '../../entities/group.js'
import { BasicProjectDetails, Project } from '../../entities/project.js'
import { issueCounts } from '../issues/issues.public.js'
import { listProjects, PROJECT_ORDER_COLUMNS, transferProject } from '../projects/projects.public.js'
import { findGroups, groupListParams } from './groups.finder.js'
import { createGroup, destroyGroup, shareGroup, transferGroup } from './groups.service.js'

/** GroupDetail's `projects`: the group's own projects the caller can read. */
function groupProjects(ctx: Ctx<unknown>, group: GroupRecord): ProjectRecord[] {
  const { db, currentUser: user, today } = ctx
  return db.tables.projects.where('namespace_id', group.id).filter((project) => project.namespace_type === 'group' && canReadProject(db, user, project, today))
}

/** Routes of the groups area implemented so far. */
export const groupRoutes: Route[] = [
  route('GET /groups', {
    auth: 'optional',
    params: { ...groupListParams, top_level_only: p.boolean({ default: false }) },
    handler(ctx) {
      return paginated(ctx, findGroups(ctx, ctx.params), (group) => Group(group, ctx))
    },
  }),

  // gitlab: lib/api/groups.rb `get ":id/subgroups"`: `find_groups` with the group as `parent`.
  route('GET /groups/:id/subgroups', {
    auth: 'optional',
    params: { id: p.string({ required: true }), ...groupListParams },
    handler(ctx) {
      const parent = findGroup(ctx, ctx.params.id)
      return paginated(ctx, findGroups(ctx, ctx.params, { kind: 'children', parent }), (group) => Group(group, ctx))
    },
  }),

  // gitlab: lib/api/groups.rb `get ":id/descendant_groups"`: `include_parent_descendants: true`.
  route('GET /groups/:id/descendant_groups', {
    auth: 'optional',
    params: { id: p.string({ required: true }), ...groupListParams },
    handler(ctx) {
      const parent = findGroup(ctx, ctx.params.id)
      return paginated(ctx, findGroups(ctx, ctx.params, { kind: 'descendants', parent }), (group) => Group(group, ctx))
    },
  }),

  // gitlab: lib/api/groups.rb `get ":id/projects"` (`GroupProjectsFinder`): the group's projects
  // (its subgroups' too with `include_subgroups`) that the caller can read, with the filters and
  // order of `GET /projects`; `Entities::Project` (no `permissions`), or BasicProjectDetails with
  // `simple`. Projects are shared with no group here, so `with_shared` adds nothing; `starred`
  // finds nothing (no stars are kept); every project has issues and merge requests enabled.
  route('GET /groups/:id/projects', {
    auth: 'optional',
    params: {
      id: p.string({ required: true }),
      ...paginationParams,
      archived: p.boolean(),
      visibility: p.string({ values: ['private', 'internal', 'public'] }),
      search: p.string(),
      order_by: p.string({ default: 'created_at', values: PROJECT_ORDER_COLUMNS }),
      sort: p.string({ default: 'desc', values: ['asc', 'desc'], caseInsensitive: true }),
      simple: p.boolean({ default: false }),
      owned: p.boolean({ default: false }),
      starred: p.boolean({ default: false }),
      with_issues_enabled: p.boolean({ default: false }),
      with_merge_requests_enabled: p.boolean({ default: false }),
      with_shared: p.boolean({ default: true }),
      include_subgroups: p.boolean({ default: false }),
      min_access_level: p.integer({ values: [10, 20, 30, 40, 50] }),
    },
    handler(ctx) {
      const { db, params } = ctx
      const group = findGroup(ctx, params.id)
      const groupIds = new Set([group.id, ...(params.include_subgroups ? db.groupDescendants(group).map((g) => g.id) : [])])
      const rows = params.starred
        ? []
        : listProjects(ctx, { ...params, membership: false }, (project) => project.namespace_type === 'group' && groupIds.has(project.namespace_id))
      const counts = issueCounts(db)
      return paginated(ctx, rows, (project) => (params.simple ? BasicProjectDetails(project, ctx) : Project(project, ctx, counts, { withAccess: false })))
    },
  }),

  route('GET /groups/:id', {
    auth: 'optional',
    params: { id: p.string({ required: true }), with_projects: p.boolean({ default: true }) },
    handler(ctx) {
      const { db, currentUser: user, today } = ctx
      const group = findGroup(ctx, ctx.params.id)
      const projects = ctx.params.with_projects ? groupProjects(ctx, group) : []
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

  // gitlab: lib/api/groups.rb `post ":id/projects/:project_id"`: administrators only
  // (`authenticated_as_admin!` before anything is looked up), then `Projects::TransferService`.
  route('POST /groups/:id/projects/:project_id', {
    auth: 'admin',
    params: { id: p.string({ required: true }), project_id: p.string({ required: true }) },
    handler(ctx) {
      const group = findGroup(ctx, ctx.params.id)
      const project = findProject(ctx, ctx.params.project_id)
      transferProject(ctx, project, { kind: 'group', group })
      return created(GroupDetail(group, ctx, groupProjects(ctx, group), false, issueCounts(ctx.db)))
    },
  }),

  // gitlab (14.6+): lib/api/groups.rb `post ':id/transfer'`: admin_group (Owner), the new parent
  // by `group_id` (none: make it top-level), then `Groups::TransferService`.
  route('POST /groups/:id/transfer', {
    params: { id: p.string({ required: true }), group_id: p.integer() },
    handler(ctx) {
      const group = findGroup(ctx, ctx.params.id)
      if (!hasGroupAccess(ctx.db, ctx.currentUser, group, AccessLevel.OWNER, ctx.today)) throw forbidden()
      const parent = ctx.params.group_id !== undefined ? findGroup(ctx, ctx.params.group_id) : null
      const moved = transferGroup(ctx, group, parent)
      return created(GroupDetail(moved, ctx, groupProjects(ctx, moved), false, issueCounts(ctx.db)))
    },
  }),

  // gitlab: lib/api/groups.rb `post ":id/share"`: both groups by `find_group!`, then
  // `Groups::GroupLinks::CreateService` (admin_group on the shared group, else 404 "Not Found").
  route('POST /groups/:id/share', {
    params: {
      id: p.string({ required: true }),
      group_id: p.integer({ required: true }),
      group_access: p.integer({ required: true, values: [10, 20, 30, 40, 50] }),
      expires_at: p.date(),
    },
    handler(ctx) {
      const group = findGroup(ctx, ctx.params.id)
      const sharedWith = findGroup(ctx, ctx.params.group_id)
      shareGroup(ctx, group, sharedWith, ctx.params.group_access, ctx.params.expires_at ?? null)
      // GroupDetail without `runners_token`: the endpoint passes no `user_can_admin_group`.
      return created(GroupDetail(group, ctx, groupProjects(ctx, group), false, issueCounts(ctx.db)))
    },
  }),

  // gitlab: lib/api/groups.rb `delete ":id/share/:group_id"`: the API answers 204 whatever
  // `Groups::GroupLinks::DestroyService` says, and the service deletes only for admin_group_member
  // (Owner) of the shared group.
  route('DELETE /groups/:id/share/:group_id', {
    params: { id: p.string({ required: true }), group_id: p.integer({ required: true }) },
    handler(ctx) {
      const { db } = ctx
      const group = findGroup(ctx, ctx.params.id)
      const link = db.tables.group_group_links.where('shared_group_id', group.id).find((l) => l.shared_with_group_id === ctx.params.group_id)
      if (!link) throw notFound('Group Link')
      if (hasGroupAccess(db, ctx.currentUser, group, AccessLevel.OWNER, ctx.today)) db.tables.group_group_links.delete(link.id)
      return noContent()
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
