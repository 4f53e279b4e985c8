/**
 * Who may manage members: `admin_project_member` / `admin_group_member` on the source, and the
 * member policies that protect a group's last owner, a personal project's owner and members above
 * the caller. Source: api-spec.md "Member" (access levels); gitlab-behaviour.md §11.2;
 * gitlab: app/policies/group_member_policy.rb, app/policies/project_member_policy.rb,
 * app/policies/project_policy.rb (`admin_project_member`: maintainer), app/policies/group_policy.rb
 * (`admin_group_member`: owner), app/models/group.rb (`last_owner?`).
 * @module
 */
import { AccessLevel, activeMembership, groupAccessLevel, projectAccessLevel } from '../../rules/access.js'
import { forbidden } from '../../core/errors.js'
import type { Ctx } from '../../core/route.js'
import { hasSourceAccess, type Source } from '../../rules/source.js'
import type { GroupRecord, MemberRecord } from '../../db/schema.js'

/**
 * `admin_project_member` (Maintainer+) or `admin_group_member` (Owner) on the source;
 * administrators always.
 */
export function canAdminMembers(ctx: Ctx<unknown>, source: Source): boolean {
  return hasSourceAccess(ctx, source, source.type === 'project' ? AccessLevel.MAINTAINER : AccessLevel.OWNER)
}

/**
 * `authorize_admin_source!`.
 * @throws ApiError 403 `{"message":"403 Forbidden"}`.
 */
export function authorizeAdminMembers(ctx: Ctx<unknown>, source: Source): void {
  if (!canAdminMembers(ctx, source)) throw forbidden()
}

/**
 * `Group#ldap_synced?` (EE): the group has LDAP group links (a scenario's `ldap_group_links:`).
 * Only the group's own links count, as in GitLab.
 */
function ldapSynced(ctx: Ctx<unknown>, group: GroupRecord): boolean {
  return ctx.db.tables.ldap_group_links.where('group_id', group.id).length > 0
}

/**
 * `override_group_member` on the group (EE `GroupPolicy`): the group is LDAP-synced and the caller
 * is an administrator or an Owner of it (`can_owners_manage_ldap`: the application setting
 * `allow_group_owners_to_manage_ldap`, on by default). No one may override a member of a group
 * that is not LDAP-synced, administrators included. Source: issue 23 item 3; gitlab-behaviour.md §11.2.
 */
export function canOverrideMembers(ctx: Ctx<unknown>, group: GroupRecord): boolean {
  return ldapSynced(ctx, group) && hasSourceAccess(ctx, { type: 'group', group }, AccessLevel.OWNER)
}

/**
 * `Group#last_owner?(user)`: the user is an owner of the group (directly or through an ancestor)
 * and the group and its ancestors have exactly one owner between them.
 */
export function isLastOwner(ctx: Ctx<unknown>, group: GroupRecord, userId: number): boolean {
  const owners = new Set<number>()
  for (const g of ctx.db.groupSelfAndAncestors(group)) {
    for (const m of ctx.db.tables.members.where('source_id', g.id)) {
      if (m.source_type === 'group' && m.access_level === AccessLevel.OWNER && activeMembership(m, ctx.today)) owners.add(m.user_id)
    }
  }
  return owners.size === 1 && owners.has(userId)
}

/** The caller's own access level in the source (administrators count as owners). */
function callerLevel(ctx: Ctx<unknown>, source: Source): number {
  const user = ctx.currentUser
  if (!user) return AccessLevel.NO_ACCESS
  if (user.admin) return AccessLevel.OWNER
  return source.type === 'project'
    ? projectAccessLevel(ctx.db, user, source.project, ctx.today)
    : groupAccessLevel(ctx.db, user, source.group, ctx.today)
}

/**
 * What no member policy lets anyone do to `member`: change or remove a group's last owner, or a
 * personal project's owner; and what a member may not do to a member above them.
 * // spec-gap: GitLab 13.x has no explicit "higher level" rule because only Owners manage group
 * // members and project members stop at Maintainer; fakelab states it (a caller below the
 * // member's level is refused) so a scenario-made hierarchy cannot be escalated around.
 */
function protectedMember(ctx: Ctx<unknown>, source: Source, member: MemberRecord): boolean {
  if (source.type === 'group' && isLastOwner(ctx, source.group, member.user_id)) return true
  if (source.type === 'project' && source.project.namespace_type === 'user' && source.project.namespace_id === member.user_id) return true
  return callerLevel(ctx, source) < member.access_level
}

/**
 * `update_project_member` / `update_group_member`: manage members, and the member is not protected
 * (a project's bot member is never updated, only removed).
 * @throws ApiError 403 `{"message":"403 Forbidden"}` (`Gitlab::Access::AccessDeniedError`).
 */
export function authorizeUpdateMember(ctx: Ctx<unknown>, source: Source, member: MemberRecord): void {
  if (!canUpdateMember(ctx, source, member)) throw forbidden()
}

/** Whether {@link authorizeUpdateMember} passes (GitLab's `can_update_member?`). */
export function canUpdateMember(ctx: Ctx<unknown>, source: Source, member: MemberRecord): boolean {
  const bot = source.type === 'project' && ctx.db.tables.users.get(member.user_id)?.user_type === 'project_bot'
  return !bot && canAdminMembers(ctx, source) && !protectedMember(ctx, source, member)
}

/**
 * `destroy_project_member` / `destroy_group_member`: manage members, or leave (the member is the
 * caller), unless the member is a group's last owner or a personal project's owner.
 * @throws ApiError 403 `{"message":"403 Forbidden"}`.
 */
export function authorizeDestroyMember(ctx: Ctx<unknown>, source: Source, member: MemberRecord): void {
  const self = ctx.currentUser !== null && ctx.currentUser.id === member.user_id
  if (self) {
    if (source.type === 'group' && isLastOwner(ctx, source.group, member.user_id)) throw forbidden()
    if (source.type === 'project' && source.project.namespace_type === 'user' && source.project.namespace_id === member.user_id) throw forbidden()
    return
  }
  if (!canAdminMembers(ctx, source) || protectedMember(ctx, source, member)) throw forbidden()
}
