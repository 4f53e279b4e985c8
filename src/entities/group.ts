/**
 * Group entities (GitLab 13.x `Group`, `GroupDetail`). Field order follows lib/api/entities/group.rb.
 * @module
 */
import type { GroupRecord, ProjectRecord } from '../db/schema.js'
import { Project, type ProjectCounts } from './project.js'
import { groupWebUrl, type PresentCtx } from './urls.js'

/** `Group`: list items of `GET /groups`. */
export function Group(group: GroupRecord, ctx: PresentCtx) {
  return {
    id: group.id,
    web_url: groupWebUrl(ctx, group),
    name: group.name,
    path: group.path,
    description: group.description,
    visibility: group.visibility,
    share_with_group_lock: false,
    require_two_factor_authentication: false,
    two_factor_grace_period: 48,
    project_creation_level: 'developer',
    auto_devops_enabled: null,
    subgroup_creation_level: 'maintainer',
    emails_disabled: null,
    mentions_disabled: null,
    lfs_enabled: group.lfs_enabled,
    default_branch_protection: 2,
    avatar_url: null,
    request_access_enabled: group.request_access_enabled,
    full_name: ctx.db.groupFullName(group),
    full_path: ctx.db.groupFullPath(group),
    created_at: group.created_at,
    parent_id: group.parent_id,
  }
}

/**
 * `GroupDetail` (`GET /groups/:id`): Group plus the projects the caller can see.
 * @param projects the group's projects already filtered for the caller.
 * @param runnersToken included only when the caller administers the group.
 * @param counts what the projects show that areas own (see `ProjectCounts`).
 */
export function GroupDetail(group: GroupRecord, ctx: PresentCtx, projects: ProjectRecord[], runnersToken: boolean, counts: ProjectCounts) {
  return {
    ...Group(group, ctx),
    ...(runnersToken ? { runners_token: group.runners_token } : {}),
    projects: projects.map((project) => Project(project, ctx, counts)),
    shared_projects: [],
    shared_with_groups: SharedGroupsWithGroup(group, ctx),
  }
}

/**
 * `SharedGroupWithGroup` of each group the group is shared with, in link order:
 * `{group_id, group_name, group_full_path, group_access_level, expires_at}`
 * (gitlab: lib/api/entities/shared_group_with_group.rb, 13.x).
 */
function SharedGroupsWithGroup(group: GroupRecord, ctx: PresentCtx) {
  return ctx.db.tables.group_group_links.where('shared_group_id', group.id).flatMap((link) => {
    const with_ = ctx.db.tables.groups.get(link.shared_with_group_id)
    return with_
      ? [{ group_id: with_.id, group_name: with_.name, group_full_path: ctx.db.groupFullPath(with_), group_access_level: link.group_access, expires_at: link.expires_at }]
      : []
  })
}

/** `{id, web_url, name}`: nested groups (runner details, group storage moves). */
export function BasicGroupDetails(group: GroupRecord, ctx: PresentCtx) {
  return { id: group.id, web_url: groupWebUrl(ctx, group), name: group.name }
}
