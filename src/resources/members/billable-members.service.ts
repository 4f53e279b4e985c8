/**
 * Billable members of a top-level group (EE): the users holding a membership in the group, its
 * subgroups or their projects; one user's memberships there; and removing a user from all of them.
 * Permission failures and subgroups answer 400, not 403 (gitlab-behaviour.md §14 item 15).
 * Source: api-spec.md "### Members" (billable rows), "Billable member", "Billable member
 * membership"; gitlab-behaviour.md §11.2; gitlab: ee/lib/ee/api/members.rb,
 * ee/app/finders/billed_users_finder.rb, ee/app/services/billable_members/destroy_service.rb.
 * @module
 */
import { activeMembership } from '../../rules/access.js'
import { badRequest, notFound, recordNotFound } from '../../core/errors.js'
import { MemberMessage } from './members.messages.js'
import type { Ctx } from '../../core/route.js'
import type { GroupRecord, MemberRecord, UserRecord } from '../../db/schema.js'
import type { MembershipType } from './members.entities.js'
import { userSearch } from './members.finder.js'
import { authorizeDestroyMember, canAdminMembers } from './members.policy.js'
import { deleteMembership } from './members.service.js'

/** The `sort` values (`member_sort_options`, 13.x). */
export const BILLABLE_SORTS = [
  'access_level_asc',
  'access_level_desc',
  'last_joined',
  'name_asc',
  'name_desc',
  'oldest_joined',
  'oldest_sign_in',
  'recent_sign_in',
] as const

/** One of {@link BILLABLE_SORTS}. */
export type BillableSort = (typeof BILLABLE_SORTS)[number]

/**
 * `Member.in_hierarchy(group)`: every membership row in the group, its subgroups and their
 * projects, in force today, by id.
 */
export function membershipsInHierarchy(ctx: Ctx<unknown>, group: GroupRecord): MemberRecord[] {
  const groups = [group, ...ctx.db.groupDescendants(group)]
  const rows: MemberRecord[] = []
  for (const g of groups) {
    rows.push(...ctx.db.tables.members.where('source_id', g.id).filter((m) => m.source_type === 'group'))
    for (const p of ctx.db.tables.projects.where('namespace_id', g.id)) {
      if (p.namespace_type !== 'group') continue
      rows.push(...ctx.db.tables.members.where('source_id', p.id).filter((m) => m.source_type === 'project'))
    }
  }
  return rows.filter((m) => activeMembership(m, ctx.today)).sort((a, b) => a.id - b.id)
}

/** A billable user with what the list sorts and presents by. */
export interface BillableUser {
  user: UserRecord
  membershipType: MembershipType
  /** Highest access level among the memberships. */
  accessLevel: number
  /** Earliest membership `created_at`. */
  joinedAt: string
}

/**
 * `BilledUsersFinder`: the active human users with a membership in the hierarchy; a member of a
 * group of the hierarchy is a `group_member`, the others `project_member`.
 * // gitlab: ee/app/models/ee/group.rb (`billed_user_ids`: active users, bots excluded)
 */
export function billableUsers(ctx: Ctx<unknown>, group: GroupRecord): Map<number, BillableUser> {
  const out = new Map<number, BillableUser>()
  for (const m of membershipsInHierarchy(ctx, group)) {
    const user = ctx.db.tables.users.get(m.user_id)
    if (!user || user.user_type === 'project_bot' || user.state !== 'active') continue
    const seen = out.get(user.id)
    const type: MembershipType = m.source_type === 'group' ? 'group_member' : 'project_member'
    if (!seen) {
      out.set(user.id, { user, membershipType: type, accessLevel: m.access_level, joinedAt: m.created_at })
      continue
    }
    if (type === 'group_member') seen.membershipType = type
    seen.accessLevel = Math.max(seen.accessLevel, m.access_level)
    if (m.created_at < seen.joinedAt) seen.joinedAt = m.created_at
  }
  return out
}

/** `null` last, whichever the direction. */
function byTimestamp(a: string | null, b: string | null, descending: boolean): number {
  if (a === b) return 0
  if (a === null) return 1
  if (b === null) return -1
  return descending ? b.localeCompare(a) : a.localeCompare(b)
}

/**
 * Orders billable users by a `sort` value; the default (none) is by user id. Ties go by user id.
 * // spec-gap: GitLab sorts the user relation with `User.sort_by_attribute`, which understands the
 * // name and sign-in values; for `access_level_*` and `*_joined` fakelab orders by the user's
 * // highest access level and earliest membership in the hierarchy, which is what the names say.
 */
export function sortBillable(users: BillableUser[], sort: BillableSort | undefined): BillableUser[] {
  const compare: Record<BillableSort, (a: BillableUser, b: BillableUser) => number> = {
    access_level_asc: (a, b) => a.accessLevel - b.accessLevel,
    access_level_desc: (a, b) => b.accessLevel - a.accessLevel,
    last_joined: (a, b) => b.joinedAt.localeCompare(a.joinedAt),
    oldest_joined: (a, b) => a.joinedAt.localeCompare(b.joinedAt),
    name_asc: (a, b) => a.user.name.localeCompare(b.user.name),
    name_desc: (a, b) => b.user.name.localeCompare(a.user.name),
    oldest_sign_in: (a, b) => byTimestamp(a.user.last_sign_in_at, b.user.last_sign_in_at, false),
    recent_sign_in: (a, b) => byTimestamp(a.user.last_sign_in_at, b.user.last_sign_in_at, true),
  }
  const primary = sort ? compare[sort] : () => 0
  return [...users].sort((a, b) => primary(a, b) || a.user.id - b.user.id)
}

/**
 * The billable users of a top-level group, searched and sorted.
 * @throws ApiError 400 `{"message":"400 Bad request"}` for a subgroup (checked first) or a caller
 * without `admin_group_member`.
 */
export function listBillable(ctx: Ctx<unknown>, group: GroupRecord, search: string | undefined, sort: BillableSort | undefined): BillableUser[] {
  if (group.parent_id !== null) throw badRequest()
  if (!canAdminMembers(ctx, { type: 'group', group })) throw badRequest()
  let users = [...billableUsers(ctx, group).values()]
  if (search !== undefined && search.trim() !== '') {
    const matches = userSearch(search)
    users = users.filter((u) => matches(u.user))
  }
  return sortBillable(users, sort)
}

/**
 * One billable user's direct memberships in the hierarchy.
 * @throws ApiError 400 `{"message":"400 Bad request"}` (no permission, then subgroup),
 * 404 `{"message":"404 Not found"}` (no such user), 404 `{"message":"404 User Not Found"}` (not billable here).
 */
export function billableMemberships(ctx: Ctx<unknown>, group: GroupRecord, userId: number): MemberRecord[] {
  if (!canAdminMembers(ctx, { type: 'group', group })) throw badRequest()
  if (group.parent_id !== null) throw badRequest()
  if (!ctx.db.tables.users.get(userId)) throw recordNotFound()
  if (!billableUsers(ctx, group).has(userId)) throw notFound('User')
  return membershipsInHierarchy(ctx, group).filter((m) => m.user_id === userId)
}

/**
 * `BillableMembers::DestroyService`: removes the user from the group, its subgroups and their
 * projects, whether or not a member of the group itself. Every membership passes the member policy
 * before the first one goes (a last owner stays: 403), so a refusal changes nothing.
 * @throws ApiError 400 `... - Invalid group provided, must be top-level`,
 * `... - User unauthorized to remove member`, `... - No member found for the given user_id`;
 * 403 `{"message":"403 Forbidden"}`.
 */
export function removeBillable(ctx: Ctx<unknown>, group: GroupRecord, userId: number): void {
  if (group.parent_id !== null) throw badRequest(MemberMessage.notTopLevelGroup)
  if (!canAdminMembers(ctx, { type: 'group', group })) throw badRequest(MemberMessage.unauthorizedToRemove)
  const rows = membershipsInHierarchy(ctx, group).filter((m) => m.user_id === userId)
  if (rows.length === 0) throw badRequest(MemberMessage.noMemberFound)
  const withSource = rows.map((m) => {
    const source = m.source_type === 'group'
      ? { type: 'group' as const, group: ctx.db.tables.groups.get(m.source_id)! }
      : { type: 'project' as const, project: ctx.db.tables.projects.get(m.source_id)! }
    return { m, source }
  })
  for (const { m, source } of withSource) authorizeDestroyMember(ctx, source, m)
  for (const { m, source } of withSource) deleteMembership(ctx, source, m, { skip_subresources: true, unassign_issuables: false })
}
