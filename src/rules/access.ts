/**
 * Access levels and the read/role checks GitLab's policies make for projects and groups.
 * Source: api-spec.md "Member" (access levels), gitlab-behaviour.md §1.4 (private = 404).
 * @module
 */
import type { Db } from '../db/db.js'
import type { GroupRecord, MemberRecord, ProjectRecord, UserRecord } from '../db/schema.js'

/** GitLab's `Gitlab::Access` levels. A member's `access_level` is one of these integers. */
export const AccessLevel = {
  NO_ACCESS: 0,
  MINIMAL_ACCESS: 5,
  GUEST: 10,
  REPORTER: 20,
  DEVELOPER: 30,
  MAINTAINER: 40,
  OWNER: 50,
} as const

/** One of the {@link AccessLevel} values. */
export type AccessLevelValue = (typeof AccessLevel)[keyof typeof AccessLevel]

/**
 * Whether a membership is in force on `today` (`YYYY-MM-DD`): it never expires, or expires later.
 * A membership expires at the start of its `expires_at` day (GitLab's daily
 * RemoveExpiredMembersWorker removes it then; gitlab: app/models/member.rb `expired?`).
 */
export function activeMembership(member: MemberRecord, today: string): boolean {
  return member.expires_at === null || member.expires_at > today
}

/** The user's direct membership in a project or group, ignoring expired ones. */
export function directMember(
  db: Db,
  sourceType: 'project' | 'group',
  sourceId: number,
  userId: number,
  today: string,
): MemberRecord | undefined {
  return db.tables.members
    .where('source_id', sourceId)
    .find((m) => m.source_type === sourceType && m.user_id === userId && activeMembership(m, today))
}

/**
 * The access level the user holds in a group as a member: directly or through an ancestor group.
 * Sharing does not chain: this is what a project share hands on.
 */
function membershipLevel(db: Db, user: UserRecord, group: GroupRecord, today: string): number {
  let level: number = AccessLevel.NO_ACCESS
  for (const g of db.groupSelfAndAncestors(group)) {
    const m = directMember(db, 'group', g.id, user.id, today)
    if (m && m.access_level > level) level = m.access_level
  }
  return level
}

/** A sharing link (group or project) is in force until the start of its `expires_at` day, as a membership. */
function activeLink(link: { expires_at: string | null }, today: string): boolean {
  return link.expires_at === null || link.expires_at > today
}

/**
 * What a project share gives the user: its `group_access`, capped by the user's membership of the
 * group or one of its ancestors (gitlab: lib/gitlab/project_authorizations.rb joins the user's
 * groups and their descendants to the links).
 */
function projectLinkLevel(db: Db, user: UserRecord, groupId: number, groupAccess: number, today: string): number {
  const linked = db.tables.groups.get(groupId)
  return linked ? Math.min(groupAccess, membershipLevel(db, user, linked, today)) : AccessLevel.NO_ACCESS
}

/**
 * The highest access level the user holds in a group: as a member of it or an ancestor, or as a
 * direct member of a group it or an ancestor is shared with, capped by the share's `group_access`
 * (gitlab: app/models/group.rb `members_with_parents`, `members_from_self_and_ancestor_group_shares`:
 * the shared-with group's own members only).
 * @param today `YYYY-MM-DD`, to skip expired memberships and shares.
 */
export function groupAccessLevel(db: Db, user: UserRecord | null, group: GroupRecord, today: string): number {
  if (!user) return AccessLevel.NO_ACCESS
  let level = membershipLevel(db, user, group, today)
  if (db.tables.group_group_links.size === 0) return level
  for (const g of db.groupSelfAndAncestors(group)) {
    for (const link of db.tables.group_group_links.where('shared_group_id', g.id)) {
      if (!activeLink(link, today)) continue
      const m = directMember(db, 'group', link.shared_with_group_id, user.id, today)
      if (m) level = Math.max(level, Math.min(link.group_access, m.access_level))
    }
  }
  return level
}

/**
 * The highest access level the user holds in a project: direct membership, membership of the
 * project's group or its ancestors (or of a group those are shared with), membership of a group
 * the project is shared with (capped by the share's `group_access`), or ownership of the personal
 * namespace (OWNER).
 */
export function projectAccessLevel(db: Db, user: UserRecord | null, project: ProjectRecord, today: string): number {
  if (!user) return AccessLevel.NO_ACCESS
  if (project.namespace_type === 'user' && project.namespace_id === user.id) return AccessLevel.OWNER
  let level: number = directMember(db, 'project', project.id, user.id, today)?.access_level ?? AccessLevel.NO_ACCESS
  const group = db.projectGroup(project)
  if (group) level = Math.max(level, groupAccessLevel(db, user, group, today))
  for (const link of db.tables.project_group_links.where('project_id', project.id)) {
    if (activeLink(link, today)) level = Math.max(level, projectLinkLevel(db, user, link.group_id, link.group_access, today))
  }
  return level
}

/** One user's {@link projectAccessLevel} in any project, on one day. */
export type ProjectLevels = (project: ProjectRecord) => number

/**
 * {@link projectAccessLevel} of one user for many projects (a list over thousands of them): the
 * user's memberships are read once (the members' `user_id` index) and each project's level is
 * kept, so a project costs its group chain instead of a scan of every member of it and its groups.
 * For one request: the memberships are not watched for writes. Where groups or projects are
 * shared, each project's level is {@link projectAccessLevel}'s, kept.
 */
export function projectLevels(db: Db, user: UserRecord | null, today: string): ProjectLevels {
  if (!user) return () => AccessLevel.NO_ACCESS
  if (db.tables.group_group_links.size > 0 || db.tables.project_group_links.size > 0) {
    const kept = new Map<number, number>()
    return (project) => {
      let level = kept.get(project.id)
      if (level === undefined) kept.set(project.id, (level = projectAccessLevel(db, user, project, today)))
      return level
    }
  }
  const projects = new Map<number, number>()
  const groups = new Map<number, number>()
  for (const m of db.tables.members.where('user_id', user.id)) {
    if (!activeMembership(m, today)) continue
    // `directMember` takes the first membership of a source: so does this.
    const of = m.source_type === 'project' ? projects : groups
    if (!of.has(m.source_id)) of.set(m.source_id, m.access_level)
  }
  const levels = new Map<number, number>()
  return (project) => {
    let level = levels.get(project.id)
    if (level !== undefined) return level
    if (project.namespace_type === 'user' && project.namespace_id === user.id) level = AccessLevel.OWNER
    else {
      level = projects.get(project.id) ?? AccessLevel.NO_ACCESS
      const group = groups.size > 0 ? db.projectGroup(project) : null
      if (group) for (const g of db.groupSelfAndAncestors(group)) level = Math.max(level, groups.get(g.id) ?? AccessLevel.NO_ACCESS)
    }
    levels.set(project.id, level)
    return level
  }
}

/**
 * Whether the user may see the project at all: public, internal to signed-in users, else a member (guest+).
 * @param levels the user's {@link projectLevels}, when many projects are checked for one user.
 */
export function canReadProject(db: Db, user: UserRecord | null, project: ProjectRecord, today: string, levels?: ProjectLevels): boolean {
  if (project.visibility === 'public') return true
  if (!user) return false
  if (user.admin) return true
  if (project.visibility === 'internal' && user.user_type !== 'project_bot') return true
  return (levels ? levels(project) : projectAccessLevel(db, user, project, today)) >= AccessLevel.GUEST
}

/**
 * Whether the user may see the group: public, internal to signed-in users, a member of it or an
 * ancestor, or a member of something inside it (GitLab lets a subgroup member see the parent).
 */
export function canReadGroup(db: Db, user: UserRecord | null, group: GroupRecord, today: string): boolean {
  if (group.visibility === 'public') return true
  if (!user) return false
  if (user.admin) return true
  if (group.visibility === 'internal' && user.user_type !== 'project_bot') return true
  if (groupAccessLevel(db, user, group, today) >= AccessLevel.GUEST) return true
  const inside = [group, ...db.groupDescendants(group)]
  for (const g of inside) {
    if (g !== group && directMember(db, 'group', g.id, user.id, today)) return true
    for (const project of db.tables.projects.where('namespace_id', g.id)) {
      if (project.namespace_type === 'group' && directMember(db, 'project', project.id, user.id, today)) return true
    }
  }
  return false
}

/** Whether the user holds at least `level` in the project (administrators always do). */
export function hasProjectAccess(db: Db, user: UserRecord | null, project: ProjectRecord, level: number, today: string): boolean {
  if (!user) return false
  return user.admin || projectAccessLevel(db, user, project, today) >= level
}

/** Whether the user holds at least `level` in the group (administrators always do). */
export function hasGroupAccess(db: Db, user: UserRecord | null, group: GroupRecord, level: number, today: string): boolean {
  if (!user) return false
  return user.admin || groupAccessLevel(db, user, group, today) >= level
}

/** What the confidentiality check reads of an issue (the issues table itself belongs to an area). */
export interface ConfidentialIssueFacts {
  confidential: boolean
  author_id: number
  assignee_ids: readonly number[]
}

/**
 * Whether the user sees every confidential issue of the project, whoever wrote it: administrators
 * and Reporter+ of the project (group access included). A list over a big store uses it to skip the
 * per-issue check of {@link issueVisibleTo}.
 * gitlab: app/policies/issue_policy.rb (`read_confidential_issues`).
 * @param levels the user's {@link projectLevels}, when many projects are checked for one user.
 */
export function seesAllConfidentialIssues(db: Db, user: UserRecord | null, project: ProjectRecord, today: string, levels?: ProjectLevels): boolean {
  return user !== null && (user.admin || (levels ? levels(project) : projectAccessLevel(db, user, project, today)) >= AccessLevel.REPORTER)
}

/**
 * Who may see a project's confidential issues: administrators, the issue's author and assignees,
 * and Reporter+ of the project (group access included); anyone who can read the project sees the
 * other issues. The project's access level is worked out once, so a list is filtered in one pass.
 * The caller has already checked that the user can read the project.
 * gitlab: app/finders/issues_finder.rb (`with_confidentiality_access_check`),
 * app/policies/issue_policy.rb (`read_confidential_issues` for reporters).
 * @param levels the user's {@link projectLevels}, when many projects are checked for one user.
 * @returns a predicate over the project's issues.
 */
export function issueVisibleTo(
  db: Db,
  user: UserRecord | null,
  project: ProjectRecord,
  today: string,
  levels?: ProjectLevels,
): (issue: ConfidentialIssueFacts) => boolean {
  const seesAll = seesAllConfidentialIssues(db, user, project, today, levels)
  return (issue) =>
    !issue.confidential || seesAll || (user !== null && (issue.author_id === user.id || issue.assignee_ids.includes(user.id)))
}
