/**
 * `GET /groups` and `GET /groups/:id`; `POST /groups`, `PUT /groups/:id` and `DELETE /groups/:id`; the group's
 * subgroups, descendant groups and projects; moving a project into the group and moving the group.
 * Source: GitLab doc/api/groups.md; gitlabhq:lib/api/groups.rb.
 * @module
 */
import { AccessLevel, hasGroupAccess } from '../../rules/access.js'
import { filterByCustomAttributes } from '../custom-attributes/custom-attributes.public.js'
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { forbidden } from '../../core/errors.js'
import { findGroup, findProject } from '../../rules/finders.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { acceptedReply, created, ok, paginated } from '../../core/respond.js'
import { route, type Route } from '../../core/route.js'
import { Group } from '../../entities/group.js'
import { BasicProjectDetails, Project } from '../../entities/project.js'
import { issueCounts } from '../issues/issues.public.js'
import { listProjects, PROJECT_ORDER_COLUMNS, transferProject } from '../projects/projects.public.js'
import { findGroups, groupListParams } from './groups.finder.js'
import { createGroup, destroyGroup, transferGroup, updateGroup } from './groups.service.js'
import { groupDetail } from './groups.present.js'
import { storeGroupAvatar } from './groups.avatars.js'
import { avatarErrors } from '../../rules/avatars.js'

/** Routes of the groups area implemented so far. */
export const groupRoutes: Route[] = [
  route('GET /groups', {
    auth: 'optional',
    params: { ...groupListParams, top_level_only: p.boolean({ default: false }), custom_attributes: p.hash() },
    handler(ctx) {
      const groups = filterByCustomAttributes(ctx.db, 'group', findGroups(ctx, ctx.params), ctx.params.custom_attributes, ctx.currentUser?.admin === true)
      return paginated(ctx, groups, (group) => Group(group, ctx))
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
  // `simple`. `with_shared` (default) adds the projects shared with the group itself
  // (`group.shared_projects`); `starred` finds nothing (no stars are kept); every project has
  // issues and merge requests enabled.
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
      const shared = new Set(params.with_shared ? db.tables.project_group_links.where('group_id', group.id).map((link) => link.project_id) : [])
      const rows = params.starred
        ? []
        : listProjects(ctx, { ...params, membership: false }, (project) => (project.namespace_type === 'group' && groupIds.has(project.namespace_id)) || shared.has(project.id))
      const counts = issueCounts(db)
      return paginated(ctx, rows, (project) => (params.simple ? BasicProjectDetails(project, ctx) : Project(project, ctx, counts, { withAccess: false })))
    },
  }),

  route('GET /groups/:id', {
    auth: 'optional',
    params: { id: p.string({ required: true }), with_projects: p.boolean({ default: true }) },
    handler(ctx) {
      const group = findGroup(ctx, ctx.params.id)
      return ok(groupDetail(ctx, group, { withProjects: ctx.params.with_projects, runnersToken: true }))
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
      avatar: p.file(),
    },
    handler(ctx) {
      const { db, currentUser: user, today, params } = ctx
      const parent = params.parent_id !== undefined ? findGroup(ctx, params.parent_id) : null
      if (parent ? !hasGroupAccess(db, user, parent, AccessLevel.MAINTAINER, today) : !(user!.admin || user!.can_create_group)) {
        throw forbidden()
      }
      const { avatar, ...attrs } = params
      const group = createGroup(ctx, attrs, parent, avatarErrors(avatar))
      if (avatar) storeGroupAvatar(ctx, group.id, avatar)
      // GroupDetail without `runners_token`: the endpoint passes no `user_can_admin_group`.
      return created(groupDetail(ctx, group, { withProjects: false }))
    },
  }),

  // gitlab: lib/api/groups.rb `put ':id'`: admin_group (Owner), then Groups::UpdateService; the
  // answer is GroupDetail with the runners token (the caller administers the group).
  route('PUT /groups/:id', {
    params: {
      id: p.string({ required: true }),
      name: p.string(),
      path: p.string(),
      description: p.string(),
      visibility: p.string({ values: ['private', 'internal', 'public'] }),
      lfs_enabled: p.boolean(),
      request_access_enabled: p.boolean(),
      avatar: p.file(),
    },
    handler(ctx) {
      const { id, avatar, ...attrs } = ctx.params
      const group = findGroup(ctx, id)
      if (!hasGroupAccess(ctx.db, ctx.currentUser, group, AccessLevel.OWNER, ctx.today)) throw forbidden()
      const updated = updateGroup(ctx, group, attrs, avatarErrors(avatar))
      if (avatar) storeGroupAvatar(ctx, group.id, avatar)
      return ok(groupDetail(ctx, updated, { runnersToken: true }))
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
      return created(groupDetail(ctx, group))
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
      return created(groupDetail(ctx, moved))
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
      destroyGroup(ctx, group)
      return acceptedReply()
    },
  }),
]
