/**
 * Project and namespace entities (GitLab 13.x `ProjectIdentity`, `BasicProjectDetails`,
 * `Project`, `NamespaceBasic`). Field order follows lib/api/entities/*.rb.
 * @module
 */
import { AccessLevel, canReadProject, directMember, groupAccessLevel } from '../rules/access.js'
import type { Db } from '../db/db.js'
import { storedAvatarUrl } from '../rules/avatars.js'
import { repositoryStorage } from '../rules/repository.js'
import type { GroupRecord, ProjectRecord, UserRecord } from '../db/schema.js'
import { avatarUrl, UserBasic } from './user.js'
import { groupWebUrl, projectApiUrl, projectWebUrl, userWebUrl, type PresentCtx } from './urls.js'

/**
 * What the project entities show that areas own (stars, forks): each owning area registers its
 * part when it loads (`registerProjectRelations`), as this layer imports no area. Until then a
 * project has no stars, no forks and is no fork.
 */
export interface ProjectRelations {
  /** `star_count`: how many users starred the project. */
  starCount(db: Db, projectId: number): number
  /** The ids of the projects a user starred (`User#starred_projects`; ProjectsFinder's `starred`). */
  starredBy(db: Db, userId: number): Set<number>
  /** `forks_count`: how many projects were forked from it directly. */
  forksCount(db: Db, projectId: number): number
  /** The project it was forked from (`forked_from_project`), or undefined. */
  forkedFrom(db: Db, projectId: number): ProjectRecord | undefined
  /** `import_status`: `none`, or how the project's import went (`finished`, `failed`). */
  importStatus(db: Db, projectId: number): string
}

const relations: ProjectRelations = {
  starCount: () => 0,
  starredBy: () => new Set(),
  forksCount: () => 0,
  forkedFrom: () => undefined,
  importStatus: () => 'none',
}

/**
 * Plugs an area's part of {@link ProjectRelations} in (the stars area its count, the forks area
 * its counts and links). Called once at start from the area's index.ts.
 */
export function registerProjectRelations(part: Partial<ProjectRelations>): void {
  Object.assign(relations, part)
}

/** The ids of the projects `userId` starred, as the stars area tells (none without it). A new set. */
export function starredProjectIds(db: Db, userId: number): Set<number> {
  return relations.starredBy(db, userId)
}

/** `{id, description, name, name_with_namespace, path, path_with_namespace, created_at}`. */
export function ProjectIdentity(project: ProjectRecord, ctx: PresentCtx) {
  return {
    id: project.id,
    description: project.description,
    name: project.name,
    name_with_namespace: ctx.db.projectFullName(project),
    path: project.path,
    path_with_namespace: ctx.db.projectFullPath(project),
    created_at: project.created_at,
  }
}

/** `NamespaceBasic` of a group: `{id, name, path, kind: "group", full_path, parent_id, avatar_url, web_url}`. */
export function GroupNamespaceBasic(group: GroupRecord, ctx: PresentCtx) {
  return {
    id: group.id,
    name: group.name,
    path: group.path,
    kind: 'group',
    full_path: ctx.db.groupFullPath(group),
    parent_id: group.parent_id,
    avatar_url: storedAvatarUrl(ctx, 'group', group.id),
    web_url: groupWebUrl(ctx, group),
  }
}

/**
 * `NamespaceBasic` of a user's personal namespace (numbered by the user's id here), or of a
 * missing owner's (empty strings).
 */
export function UserNamespaceBasic(user: UserRecord | null, id: number, ctx: PresentCtx) {
  return {
    id,
    name: user?.name ?? '',
    path: user?.username ?? '',
    kind: 'user',
    full_path: user?.username ?? '',
    parent_id: null,
    avatar_url: user ? avatarUrl(ctx, user) : null,
    web_url: user ? userWebUrl(ctx, user) : '',
  }
}

/** The `namespace` object of a project: its group or its owner's personal namespace. */
export function NamespaceBasic(project: ProjectRecord, ctx: PresentCtx) {
  const group = ctx.db.projectGroup(project)
  if (group) return GroupNamespaceBasic(group, ctx)
  return UserNamespaceBasic(ctx.db.projectOwner(project), project.namespace_id, ctx)
}

/** `BasicProjectDetails`: lists with `simple=true`, runner details. */
export function BasicProjectDetails(project: ProjectRecord, ctx: PresentCtx) {
  const webUrl = projectWebUrl(ctx, project)
  const host = new URL(ctx.baseUrl).host
  return {
    ...ProjectIdentity(project, ctx),
    default_branch: project.default_branch,
    tag_list: [],
    ssh_url_to_repo: `git@${host.replace(/:\d+$/, '')}:${ctx.db.projectFullPath(project)}.git`,
    http_url_to_repo: `${webUrl}.git`,
    web_url: webUrl,
    readme_url: `${webUrl}/-/blob/${project.default_branch}/README.md`,
    avatar_url: storedAvatarUrl(ctx, 'project', project.id),
    forks_count: relations.forksCount(ctx.db, project.id),
    star_count: relations.starCount(ctx.db, project.id),
    last_activity_at: project.last_activity_at,
    namespace: NamespaceBasic(project, ctx),
  }
}

function accessOf(level: number | undefined) {
  return level === undefined || level === AccessLevel.NO_ACCESS ? null : { access_level: level, notification_level: 3 }
}

/**
 * What the `Project` entity shows that an area owns: the caller passes the issues area's count
 * (this layer imports no area).
 */
export interface ProjectCounts {
  /** `open_issues_count`: how many of the project's issues are open. */
  openIssues(projectId: number): number
}

/**
 * `Project` (`GET /projects/:id`, `GET /projects`): the full project as a signed-in user sees it.
 * @param options.withAccess false for GitLab's plain `Entities::Project` (the answers of
 *   `POST /projects` and `PUT /projects/:id`), which has no `permissions`; default true
 *   (`ProjectWithAccess`, the reads).
 */
export function Project(project: ProjectRecord, ctx: PresentCtx, counts: ProjectCounts, options: { withAccess?: boolean } = {}) {
  const apiUrl = projectApiUrl(ctx, project)
  const owner = ctx.db.projectOwner(project)
  const group = ctx.db.projectGroup(project)
  const user = ctx.currentUser
  const openIssues = counts.openIssues(project.id)
  return {
    ...BasicProjectDetails(project, ctx),
    _links: {
      self: apiUrl,
      issues: `${apiUrl}/issues`,
      merge_requests: `${apiUrl}/merge_requests`,
      repo_branches: `${apiUrl}/repository/branches`,
      labels: `${apiUrl}/labels`,
      events: `${apiUrl}/events`,
      members: `${apiUrl}/members`,
    },
    packages_enabled: true,
    empty_repo: false,
    archived: project.archived,
    visibility: project.visibility,
    ...(owner ? { owner: UserBasic(owner, ctx) } : {}),
    resolve_outdated_diff_discussions: false,
    container_registry_enabled: true,
    issues_enabled: true,
    merge_requests_enabled: true,
    wiki_enabled: true,
    jobs_enabled: true,
    snippets_enabled: true,
    service_desk_enabled: false,
    service_desk_address: null,
    can_create_merge_request_in: user !== null,
    issues_access_level: 'enabled',
    repository_access_level: 'enabled',
    merge_requests_access_level: 'enabled',
    forking_access_level: 'enabled',
    wiki_access_level: 'enabled',
    builds_access_level: 'enabled',
    snippets_access_level: 'enabled',
    pages_access_level: 'enabled',
    operations_access_level: 'enabled',
    analytics_access_level: 'enabled',
    emails_disabled: null,
    shared_runners_enabled: true,
    lfs_enabled: true,
    creator_id: project.creator_id,
    ...forkedFromProject(project, ctx),
    import_status: relations.importStatus(ctx.db, project.id),
    open_issues_count: openIssues,
    ci_default_git_depth: 50,
    ci_forward_deployment_enabled: true,
    public_jobs: true,
    build_timeout: 3600,
    auto_cancel_pending_pipelines: 'enabled',
    build_coverage_regex: null,
    ci_config_path: null,
    shared_with_groups: SharedGroupsWithProject(project, ctx),
    only_allow_merge_if_pipeline_succeeds: false,
    allow_merge_on_skipped_pipeline: null,
    restrict_user_defined_variables: false,
    request_access_enabled: true,
    only_allow_merge_if_all_discussions_are_resolved: false,
    remove_source_branch_after_merge: true,
    printing_merge_request_link_enabled: true,
    merge_method: project.merge_method ?? 'merge',
    suggestion_commit_message: null,
    auto_devops_enabled: false,
    auto_devops_deploy_strategy: 'continuous',
    autoclose_referenced_issues: true,
    // gitlab: lib/api/entities/project.rb (13.x) `expose :repository_storage, if: ->(_, options)
    // { Ability.allowed?(options[:current_user], :change_repository_storage, project) }`: administrators only.
    // It is where the project is now: a finished storage move left it on its destination.
    ...(user?.admin ? { repository_storage: repositoryStorage(ctx.db, 'project', project.id, project.repository_storage, ctx.now) } : {}),
    ...(user && options.withAccess !== false
      ? {
          permissions: {
            project_access: accessOf(directMember(ctx.db, 'project', project.id, user.id, ctx.today)?.access_level),
            group_access: group ? accessOf(groupAccessLevel(ctx.db, user, group, ctx.today)) : null,
          },
        }
      : {}),
  }
}

/**
 * `forked_from_project` (`BasicProjectDetails`), when the project is a fork and the caller may read
 * its source. gitlab: lib/api/entities/project.rb (13.12).
 */
function forkedFromProject(project: ProjectRecord, ctx: PresentCtx): { forked_from_project?: ReturnType<typeof BasicProjectDetails> } {
  const source = relations.forkedFrom(ctx.db, project.id)
  if (!source || !canReadProject(ctx.db, ctx.currentUser, source, ctx.today)) return {}
  return { forked_from_project: BasicProjectDetails(source, ctx) }
}

/**
 * `SharedGroupWithProject` of each group the project is shared with, in link order:
 * `{group_id, group_name, group_full_path, group_access_level, expires_at}`
 * (gitlab: lib/api/entities/shared_group_with_project.rb, 13.x).
 */
function SharedGroupsWithProject(project: ProjectRecord, ctx: PresentCtx) {
  return ctx.db.tables.project_group_links.where('project_id', project.id).flatMap((link) => {
    const group = ctx.db.tables.groups.get(link.group_id)
    return group
      ? [{ group_id: group.id, group_name: group.name, group_full_path: ctx.db.groupFullPath(group), group_access_level: link.group_access, expires_at: link.expires_at }]
      : []
  })
}
