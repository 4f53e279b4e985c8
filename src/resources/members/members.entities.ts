/**
 * Member entities: `Member`, and the EE `BillableMember` and `BillableMembership`. Fields are
 * written out in GitLab's order. Source: api-spec.md "Member", "Billable member", "Billable member
 * membership"; gitlab-behaviour.md §11.1, §11.2; gitlab: lib/api/entities/member.rb,
 * ee/lib/ee/api/entities/billable_member.rb, billable_membership.rb.
 * @module
 */
import { AccessLevel } from '../../rules/access.js'
import type { MemberRecord, UserRecord } from '../../db/schema.js'
import { UserBasic } from '../../entities/user.js'
import { groupWebUrl, projectWebUrl, type PresentCtx } from '../../entities/urls.js'

/** Options of {@link Member}. */
export interface MemberOptions {
  /** Expose `override` (the override routes' answers). */
  withOverride?: boolean
}

/**
 * `Member`: UserBasic merged flat, then `access_level`, `created_at`, `expires_at`.
 * // spec-gap: the spec names `created_at` for the single get; GitLab's entity exposes it in every
 * // response (gitlab-behaviour.md §14 item 8), and so does fakelab.
 * // spec-gap: `email` (managed accounts) and `group_saml_identity` (SAML groups) are only for
 * // owners of groups with those features; fakelab has neither, so both keys are always absent.
 * // spec-gap: `override` is in the answers of the override calls (the spec: "after override
 * // calls"); real GitLab shows it for LDAP-synced members only, and fakelab has no LDAP.
 */
export function Member(member: MemberRecord, user: UserRecord, ctx: PresentCtx, options: MemberOptions = {}) {
  return {
    ...UserBasic(user, ctx),
    access_level: member.access_level,
    created_at: member.created_at,
    expires_at: member.expires_at,
    ...(options.withOverride ? { override: member.override } : {}),
  }
}

/**
 * Presents memberships with their users, read once for the page.
 * Memberships whose user is gone are left out (GitLab's `where.not(user_id: nil)`).
 */
export function presentMembers(members: readonly MemberRecord[], ctx: PresentCtx, options: MemberOptions = {}) {
  return members.flatMap((m) => {
    const user = ctx.db.tables.users.get(m.user_id)
    return user ? [Member(m, user, ctx, options)] : []
  })
}

/** `membership_type` values of a billable member. */
export type MembershipType = 'group_member' | 'project_member'

/**
 * `BillableMember` (13.10–13.12): UserBasic, then the user's public `email` (key always present),
 * `last_activity_on`, `membership_type`, `removable` (true: fakelab has no invites).
 */
export function BillableMember(user: UserRecord, membershipType: MembershipType, ctx: PresentCtx) {
  return {
    ...UserBasic(user, ctx),
    email: user.public_email,
    last_activity_on: user.last_activity_on,
    membership_type: membershipType,
    removable: true,
  }
}

/** `Gitlab::Access.options_with_owner` plus minimal access: the human name of a level. */
const HUMAN_ACCESS: Readonly<Record<number, string>> = {
  [AccessLevel.MINIMAL_ACCESS]: 'Minimal Access',
  [AccessLevel.GUEST]: 'Guest',
  [AccessLevel.REPORTER]: 'Reporter',
  [AccessLevel.DEVELOPER]: 'Developer',
  [AccessLevel.MAINTAINER]: 'Maintainer',
  [AccessLevel.OWNER]: 'Owner',
}

/**
 * `BillableMembership`: `id, source_id, source_full_name, source_members_url, created_at,
 * expires_at, access_level {string_value, integer_value}`. `source_members_url` is the members page
 * of the group (`/groups/<path>/-/group_members`) or project (`/<path>/-/project_members`).
 */
export function BillableMembership(member: MemberRecord, ctx: PresentCtx) {
  const group = member.source_type === 'group' ? ctx.db.tables.groups.get(member.source_id) : undefined
  const project = member.source_type === 'project' ? ctx.db.tables.projects.get(member.source_id) : undefined
  const fullName = group ? ctx.db.groupFullName(group) : project ? ctx.db.projectFullName(project) : ''
  const membersUrl = group ? `${groupWebUrl(ctx, group)}/-/group_members` : project ? `${projectWebUrl(ctx, project)}/-/project_members` : ''
  return {
    id: member.id,
    source_id: member.source_id,
    source_full_name: fullName,
    source_members_url: membersUrl,
    created_at: member.created_at,
    expires_at: member.expires_at,
    access_level: { string_value: HUMAN_ACCESS[member.access_level] ?? 'No access', integer_value: member.access_level },
  }
}

/**
 * `Membership` (`GET /users/:user_id/memberships`): `{source_id, source_name, source_type,
 * access_level}`, `source_type` as GitLab's polymorphic column spells it (`Project`, `Namespace`).
 * gitlab: lib/api/entities/membership.rb (13.x).
 */
export function Membership(member: MemberRecord, ctx: PresentCtx) {
  const source = member.source_type === 'group' ? ctx.db.tables.groups.get(member.source_id) : ctx.db.tables.projects.get(member.source_id)
  return {
    source_id: member.source_id,
    source_name: source?.name ?? null,
    source_type: member.source_type === 'group' ? 'Namespace' : 'Project',
    access_level: member.access_level,
  }
}
