/**
 * Group entities (GitLab 13.x `Group`, `GroupDetail`). Field order follows lib/api/entities/group.rb.
 * @module
 */
import { canReadGroup } from '../rules/access.js'
import { storedAvatarUrl } from '../rules/avatars.js'
import type { GroupGroupLinkRecord, GroupRecord, ProjectRecord } from '../db/schema.js'
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
    avatar_url: storedAvatarUrl(ctx, 'group', group.id),
    request_access_enabled: group.request_access_enabled,
    full_name: ctx.db.groupFullName(group),
    full_path: ctx.db.groupFullPath(group),
    created_at: group.created_at,
    parent_id: group.parent_id,
  }
}

/**
 * `SharedGroupWithGroup`: one share of a group, `{group_id, group_name, group_full_path,
 * group_access_level, expires_at}`, naming the group it is shared with.
 */
function SharedGroupWithGroup(link: GroupGroupLinkRecord, sharedWith: GroupRecord, ctx: PresentCtx) {
  return {
    group_id: link.shared_with_group_id,
    group_name: sharedWith.name,
    group_full_path: ctx.db.groupFullPath(sharedWith),
    group_access_level: link.group_access,
    expires_at: link.expires_at,
  }
}

/**
 * `GroupDetail` (`GET /groups/:id`): Group plus the projects the caller can see and the group's
 * shares with groups the caller can read (`shared_with_group_links_visible_to_user`), by id.
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
 * `SharedGroupWithGroup` of each group the group is shared with and the caller can read
 * (`shared_with_group_links_visible_to_user`), in link order (gitlab:
 * lib/api/entities/shared_group_with_group.rb).
 */
function SharedGroupsWithGroup(group: GroupRecord, ctx: PresentCtx) {
  return ctx.db.tables.group_group_links.where('shared_group_id', group.id).flatMap((link) => {
    const sharedWith = ctx.db.tables.groups.get(link.shared_with_group_id)
    return sharedWith && canReadGroup(ctx.db, ctx.currentUser, sharedWith, ctx.today) ? [SharedGroupWithGroup(link, sharedWith, ctx)] : []
  })
}

/** `{id, web_url, name}`: nested groups (runner details, group storage moves). */
export function BasicGroupDetails(group: GroupRecord, ctx: PresentCtx) {
  return { id: group.id, web_url: groupWebUrl(ctx, group), name: group.name }
}
