/**
 * `GET /projects` (offset and keyset pagination) and `GET /projects/:id`; creating, changing and
 * deleting projects (`POST /projects`, `POST /projects/user/:user_id`, `PUT /projects/:id`,
 * `DELETE /projects/:id`).
 * Source: GitLab doc/api/projects.md; gitlabhq:lib/api/projects.rb; gitlab-behaviour.md §1.8.
 * @module
 */
import { publishProject } from './projects.events.js'
import { AccessLevel, canReadGroup, hasProjectAccess } from '../../rules/access.js'
import { filterByCustomAttributes } from '../custom-attributes/custom-attributes.public.js'
import { fuzzySearch } from '../../rules/fuzzy-search.js'
import { ErrorMessage, forbidden, grapeError, notFound } from '../../core/errors.js'
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { findProject, findUser } from '../../rules/finders.js'
import { searchUsers } from '../../rules/user-search.js'
import { paginateKeyset, paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { present } from '../../core/ruby.js'
import { acceptedReply, created, ok, paginated } from '../../core/respond.js'
import { route, type Route } from '../../core/route.js'
import type { Db } from '../../db/db.js'
import type { GroupRecord, ProjectRecord, UserRecord } from '../../db/schema.js'
import { Group } from '../../entities/group.js'
import { BasicProjectDetails, Project, starredProjectIds } from '../../entities/project.js'
import { issueCounts } from '../issues/issues.public.js'
import { UserBasic } from '../../entities/user.js'
import { createProject, destroyProject, listProjects, PROJECT_ORDER_COLUMNS, projectTeam, updateProject } from './projects.service.js'
import { canChangeNamespace, findNamespaceForCaller, transferProject } from './projects.transfer.js'
import { MERGE_METHODS } from './projects.tables.js'
import { storeProjectAvatar } from './projects.avatars.js'
import { avatarErrors } from '../../rules/avatars.js'

/** Offset pagination of projects stops here (`page * per_page`); beyond it keyset is required. */
const MAX_PROJECT_OFFSET = 50_000

const VISIBILITY = ['private', 'internal', 'public'] as const

/** The attributes of a new project (`create_params` and the optional project params we keep). */
const createParams = {
  description: p.string(),
  visibility: p.string({ values: VISIBILITY }),
  namespace_id: p.integer(),
  // Accepted and ignored: fakelab keeps no repositories.
  initialize_with_readme: p.boolean(),
  avatar: p.file(),
}

/**
 * The parameters `PUT /projects/:id` needs at least one of (`update_params_at_least_one_of`); the
 * 400 names them all, in this order. gitlab: lib/api/helpers/projects_helpers.rb.
 */
const UPDATE_AT_LEAST_ONE_OF = [
  'allow_merge_on_skipped_pipeline', 'autoclose_referenced_issues', 'auto_devops_enabled', 'auto_devops_deploy_strategy',
  'auto_cancel_pending_pipelines', 'build_coverage_regex', 'build_git_strategy', 'build_timeout', 'builds_access_level',
  'ci_config_path', 'ci_default_git_depth', 'ci_forward_deployment_enabled', 'container_registry_enabled',
  'container_expiration_policy_attributes', 'default_branch', 'description', 'emails_disabled', 'forking_access_level',
  'issues_access_level', 'lfs_enabled', 'merge_pipelines_enabled', 'merge_requests_access_level', 'merge_requests_template',
  'merge_trains_enabled', 'merge_method', 'name', 'only_allow_merge_if_all_discussions_are_resolved',
  'only_allow_merge_if_pipeline_succeeds', 'pages_access_level', 'path', 'printing_merge_request_link_enabled', 'public_builds',
  'remove_source_branch_after_merge', 'repository_access_level', 'request_access_enabled', 'resolve_outdated_diff_discussions',
  'restrict_user_defined_variables', 'squash_option', 'shared_runners_enabled', 'snippets_access_level', 'tag_list',
  'visibility', 'wiki_access_level', 'avatar', 'suggestion_commit_message', 'repository_storage',
  'compliance_framework_setting', 'packages_enabled', 'service_desk_enabled', 'keep_latest_artifact',
  'issues_enabled', 'jobs_enabled', 'merge_requests_enabled', 'wiki_enabled', 'snippets_enabled',
]

/**
 * `collection_params` of a project list besides pagination (lib/api/projects.rb): the order and the
 * filters `ProjectsFinder` reads. `starred` keeps the caller's starred projects (project-actions' stars);
 * `with_issues_enabled` and `with_merge_requests_enabled` keep every project (every feature is on).
 */
const projectCollectionParams = {
  order_by: p.string({ default: 'created_at', values: PROJECT_ORDER_COLUMNS }),
  sort: p.string({ default: 'desc', values: ['asc', 'desc'], caseInsensitive: true }),
  archived: p.boolean(),
  visibility: p.string({ values: VISIBILITY }),
  search: p.string(),
  simple: p.boolean({ default: false }),
  owned: p.boolean({ default: false }),
  starred: p.boolean({ default: false }),
  membership: p.boolean({ default: false }),
  with_issues_enabled: p.boolean({ default: false }),
  with_merge_requests_enabled: p.boolean({ default: false }),
  min_access_level: p.integer({ values: [10, 20, 30, 40, 50] }),
  statistics: p.boolean({ default: false }),
}

/**
 * ProjectsFinder `by_starred`: with `starred` and a signed-in caller, a filter keeping the caller's
 * starred projects; undefined (no filter) otherwise, an anonymous caller's `starred` included.
 */
function starredBy(ctx: { db: Db; currentUser: UserRecord | null }, starred: boolean): ((project: ProjectRecord) => boolean) | undefined {
  if (!starred || !ctx.currentUser) return undefined
  const ids = starredProjectIds(ctx.db, ctx.currentUser.id)
  return (project) => ids.has(project.id)
}

/** Routes of the projects area implemented so far. */
export const projectRoutes: Route[] = [
  route('GET /projects', {
    auth: 'optional',
    params: {
      ...paginationParams,
      order_by: p.string({ default: 'created_at', values: PROJECT_ORDER_COLUMNS }),
      sort: p.string({ default: 'desc', values: ['asc', 'desc'], caseInsensitive: true }),
      archived: p.boolean(),
      visibility: p.string({ values: ['public', 'internal', 'private'] }),
      search: p.string(),
      simple: p.boolean({ default: false }),
      owned: p.boolean({ default: false }),
      membership: p.boolean({ default: false }),
      starred: p.boolean({ default: false }),
      min_access_level: p.integer({ values: [10, 20, 30, 40, 50] }),
      pagination: p.string({ values: ['offset', 'keyset'] }),
      id_after: p.integer(),
      id_before: p.integer(),
      custom_attributes: p.hash(),
    },
    handler(ctx) {
      const { params } = ctx
      const keyset = params.pagination === 'keyset'
      if (keyset && params.order_by !== 'id') {
        throw grapeError(ErrorMessage.keysetUnsupported, 405)
      }
      if (!keyset && params.page * Math.min(Math.max(params.per_page, 0), 100) > MAX_PROJECT_OFFSET) {
        throw grapeError(ErrorMessage.offsetTooLarge(MAX_PROJECT_OFFSET, 'Project'), 405)
      }
      const rows = filterByCustomAttributes(ctx.db, 'project', listProjects(ctx, params, starredBy(ctx, params.starred)), params.custom_attributes, ctx.currentUser?.admin === true)
      const present = (project: ProjectRecord) => (params.simple ? BasicProjectDetails(project, ctx) : Project(project, ctx, issueCounts(ctx.db)))
      if (keyset) {
        const page = paginateKeyset(ctx, rows, params.sort as 'asc' | 'desc')
        return ok(page.rows.map(present), page.headers)
      }
      return paginated(ctx, rows, present)
    },
  }),

  route('GET /projects/:id', {
    auth: 'optional',
    params: { id: p.string({ required: true }) },
    handler(ctx) {
      return ok(Project(findProject(ctx, ctx.params.id), ctx, issueCounts(ctx.db)))
    },
  }),

  // gitlab: lib/api/projects.rb `post` (`Projects::CreateService` for the caller).
  route('POST /projects', {
    params: { name: p.string(), path: p.string(), ...createParams },
    rules: { atLeastOneOf: ['name', 'path'] },
    handler(ctx) {
      const project = createProject(ctx, ctx.currentUser!, ctx.params, { readsLimitReached: true, avatarErrors: avatarErrors(ctx.params.avatar) })
      if (ctx.params.avatar) storeProjectAvatar(ctx, project.id, ctx.params.avatar)
      return created(Project(project, ctx, issueCounts(ctx.db), { withAccess: false }))
    },
  }),

  // gitlab: lib/api/projects.rb `post "user/:user_id"`: administrators create for another user;
  // `authenticated_as_admin!` runs in the endpoint, after the params are validated.
  route('POST /projects/user/:user_id', {
    params: {
      user_id: p.integer({ required: true }),
      name: p.string({ required: true }),
      path: p.string(),
      default_branch: p.string(),
      ...createParams,
    },
    handler(ctx) {
      if (!ctx.currentUser!.admin) throw forbidden()
      const owner = ctx.db.tables.users.get(ctx.params.user_id)
      if (!owner) throw notFound('User')
      const project = createProject(ctx, owner, ctx.params, { readsLimitReached: false, avatarErrors: avatarErrors(ctx.params.avatar) })
      if (ctx.params.avatar) storeProjectAvatar(ctx, project.id, ctx.params.avatar)
      return created(Project(project, ctx, issueCounts(ctx.db), { withAccess: false }))
    },
  }),

  // gitlab: lib/api/projects.rb `put ':id'`: admin_project (Maintainer+), and the owner's
  // rename_project / change_visibility_level for a new name or visibility.
  route('PUT /projects/:id', {
    params: {
      id: p.string({ required: true }),
      name: p.string(),
      path: p.string(),
      description: p.string(),
      visibility: p.string({ values: VISIBILITY }),
      default_branch: p.string(),
      merge_method: p.string({ values: MERGE_METHODS }),
      avatar: p.file(),
    },
    rules: { atLeastOneOf: UPDATE_AT_LEAST_ONE_OF },
    handler(ctx) {
      const { db, currentUser: user, today, params } = ctx
      const project = findProject(ctx, params.id)
      if (!hasProjectAccess(db, user, project, AccessLevel.MAINTAINER, today)) throw forbidden()
      const owner = hasProjectAccess(db, user, project, AccessLevel.OWNER, today)
      if (!owner && (present(params.name) || present(params.visibility))) throw forbidden()
      const updated = updateProject(ctx, project, params, avatarErrors(params.avatar))
      if (params.avatar) storeProjectAvatar(ctx, project.id, params.avatar)
      return ok(Project(updated, ctx, issueCounts(ctx.db), { withAccess: false }))
    },
  }),

  // gitlab: lib/api/projects.rb `delete ":id"`: remove_project (owners, administrators); CE
  // schedules the deletion and answers `accepted!`.
  route('DELETE /projects/:id', {
    params: { id: p.string({ required: true }) },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      if (!hasProjectAccess(ctx.db, ctx.currentUser, project, AccessLevel.OWNER, ctx.today)) throw forbidden()
      // destroy_conditionally!; spec-gap: projects keep no updated_at, last_activity_at stands in.
      checkUnmodifiedSince(ctx, project.last_activity_at)
      destroyProject(ctx.db, project)
      // gitlab: Projects::DestroyService: `project_destroy` system hooks once the project is gone.
      publishProject(ctx, 'destroy', project)
      return acceptedReply()
    },
  }),

  // gitlab: lib/api/projects.rb `get ":user_id/projects"`: the user's personal projects the caller
  // can read (`PersonalProjectsFinder`), with the filters and order of `GET /projects`;
  // ProjectWithAccess for a signed-in caller, BasicProjectDetails for anonymous ones or `simple`.
  route('GET /users/:user_id/projects', {
    auth: 'optional',
    params: { user_id: p.string({ required: true }), ...paginationParams, ...projectCollectionParams },
    handler(ctx) {
      const { params } = ctx
      const owner = findUser(ctx, params.user_id)
      const starred = starredBy(ctx, params.starred)
      const rows = listProjects(ctx, params, (project) => project.namespace_type === 'user' && project.namespace_id === owner.id && (!starred || starred(project)))
      const basic = params.simple || ctx.currentUser === null
      return paginated(ctx, rows, (project) => (basic ? BasicProjectDetails(project, ctx) : Project(project, ctx, issueCounts(ctx.db))))
    },
  }),

  // gitlab: lib/api/projects.rb `get ':id/groups'` (`ProjectGroupsFinder`): the project's group and
  // its ancestors and, with `with_shared`, the groups the project is shared with whose share gives
  // at least `shared_min_access_level` and the caller can read; newest id first; `search` is
  // `Group.search` (own path and name). spec-gap: `skip_groups` is GitLab 14.x's (13.x ignores it).
  route('GET /projects/:id/groups', {
    auth: 'optional',
    params: {
      id: p.string({ required: true }),
      ...paginationParams,
      search: p.string(),
      skip_groups: p.integers(),
      with_shared: p.boolean({ default: false }),
      shared_min_access_level: p.integer({ values: [10, 20, 30, 40, 50] }),
    },
    handler(ctx) {
      const { db, params } = ctx
      const project = findProject(ctx, params.id)
      const group = db.projectGroup(project)
      const skip = new Set(params.skip_groups ?? [])
      const matches = params.search !== undefined ? fuzzySearch(params.search, { useMinimumCharLimit: false }) : () => true
      const own = group ? db.groupSelfAndAncestors(group) : []
      const shared = params.with_shared
        ? db.tables.project_group_links
            .where('project_id', project.id)
            .filter((link) => link.group_access >= (params.shared_min_access_level ?? 0))
            .flatMap((link) => db.tables.groups.get(link.group_id) ?? [])
            .filter((g) => canReadGroup(db, ctx.currentUser, g, ctx.today) && !own.includes(g))
        : []
      const rows: GroupRecord[] = [...own, ...shared]
        .filter((g) => !skip.has(g.id) && matches(g.path, g.name))
        .sort((a, b) => b.id - a.id)
      return paginated(ctx, rows, (g) => Group(g, ctx))
    },
  }),

  // gitlab: lib/api/projects.rb `put ":id/transfer"`: change_namespace (the project's owners), then
  // `find_namespace!` (404 for a namespace the caller cannot read), then the transfer service.
  route('PUT /projects/:id/transfer', {
    params: { id: p.string({ required: true }), namespace: p.string({ required: true }) },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      if (!canChangeNamespace(ctx.db, ctx.currentUser, project, ctx.today)) throw forbidden()
      const target = findNamespaceForCaller(ctx, ctx.params.namespace)
      const moved = transferProject(ctx, project, target)
      return ok(Project(moved, ctx, issueCounts(ctx.db), { withAccess: false }))
    },
  }),

  // gitlab: lib/api/projects.rb `get ':id/users'`: the project's team (direct members and members
  // of its group and the group's ancestors), by id, or `User.search`'s order when searching.
  route('GET /projects/:id/users', {
    auth: 'optional',
    params: { id: p.string({ required: true }), search: p.string(), skip_users: p.integers(), ...paginationParams },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      const skip = new Set(ctx.params.skip_users ?? [])
      const users = projectTeam(ctx.db, project, ctx.today).filter((u) => !skip.has(u.id))
      return paginated(ctx, present(ctx.params.search) ? searchUsers(users, ctx.params.search) : users, (u) => UserBasic(u, ctx))
    },
  }),
]
