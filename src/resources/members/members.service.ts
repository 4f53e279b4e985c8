/**
 * Membership writes: add one member or several (`user_id=1,2`), update, remove (with
 * `skip_subresources` and `unassign_issuables`), and the group override flag. Every check runs
 * before the first write, so a refused request changes nothing.
 * Source: api-spec.md "### Members", "Member"; gitlab-behaviour.md §11.2;
 * gitlab: lib/api/members.rb, app/services/members/{create,update,destroy}_service.rb,
 * app/models/member.rb, app/models/project_member.rb, ee/app/models/ee/group_member.rb.
 * @module
 */
import { AccessLevel, activeMembership } from '../../rules/access.js'
import { conflict, notFound, validationFailed, ValidationMessage } from '../../core/errors.js'
import { MemberMessage, MemberValidationMessage } from './members.messages.js'
import { ModelErrors } from '../../rules/model-errors.js'
import type { Ctx } from '../../core/route.js'
import { toSentence } from '../../core/ruby.js'
import type { Source } from '../../rules/source.js'
import type { MemberRecord, UserRecord } from '../../db/schema.js'
import { unassignFromProjectIssues } from '../issues/issues.public.js'
import { unassignFromProjectMergeRequests } from '../merge-requests/merge-requests.public.js'
import { directMembers, sourceKey } from './members.finder.js'
import { authorizeDestroyMember, authorizeUpdateMember, canUpdateMember } from './members.policy.js'
import { publishMember } from './members.events.js'

/** ActiveModel messages of a membership, keyed by attribute (`{access_level: [...], expires_at: [...]}`). */
type MemberErrors = Record<string, string[]>

/** The full messages of {@link MemberErrors}: `Access level is not included in the list`. */
/**
 * The access levels a membership of the source may hold: a project 10–40 (`Gitlab::Access.values`),
 * a group 10–50 (`all_values`), and a top-level group also 5 (minimal access, EE, since 13.5).
 * // gitlab: app/models/project_member.rb, app/models/member.rb, ee/app/models/ee/group_member.rb
 */
export function allowedAccessLevels(source: Source): number[] {
  const levels: number[] = [AccessLevel.GUEST, AccessLevel.REPORTER, AccessLevel.DEVELOPER, AccessLevel.MAINTAINER]
  if (source.type === 'project') return levels
  levels.push(AccessLevel.OWNER)
  if (source.group.parent_id === null) levels.unshift(AccessLevel.MINIMAL_ACCESS)
  return levels
}

/**
 * The model validations of a membership, in the model's order: `access_level` in the source's list,
 * then `expires_at` not before today (`FutureDateValidator`; today itself is allowed).
 */
function validateMember(ctx: Ctx<unknown>, source: Source, accessLevel: number, expiresAt: string | null): MemberErrors {
  const errors: MemberErrors = {}
  if (!allowedAccessLevels(source).includes(accessLevel)) errors.access_level = [ValidationMessage.notIncluded]
  if (expiresAt !== null && expiresAt < ctx.today) errors.expires_at = [MemberValidationMessage.expiresInPast]
  return errors
}

function fullMessages(errors: MemberErrors): string {
  return toSentence(ModelErrors.from(errors).fullMessages())
}

/** What a new membership or an update sets. */
export interface MemberAttributes {
  access_level: number
  /** `YYYY-MM-DD`, null = never; undefined on update = unchanged. */
  expires_at?: string | null | undefined
}

/** Any row of the user in the source, in force or expired (an expired one is reused on add). */
function anyRow(ctx: Ctx<unknown>, source: Source, userId: number): MemberRecord | undefined {
  const { type, id } = sourceKey(source)
  return ctx.db.tables.members.where('source_id', id).find((m) => m.source_type === type && m.user_id === userId)
}

/**
 * Writes the membership of `user`: a member in force keeps its row and only changes level and
 * expiry; an expired row (which GitLab's daily worker would have deleted) starts afresh; else a new
 * row. Publishes the `member` fact: `update` for a member in force, else `create`.
 */
function saveMembership(ctx: Ctx<unknown>, source: Source, user: UserRecord, attrs: MemberAttributes): MemberRecord {
  const { type, id } = sourceKey(source)
  const level = { access_level: attrs.access_level, expires_at: attrs.expires_at ?? null, updated_at: ctx.now }
  const old = anyRow(ctx, source, user.id)
  if (old && activeMembership(old, ctx.today)) {
    const updated = ctx.db.tables.members.update(old.id, level)
    publishMember(ctx, 'update', updated, old)
    return updated
  }
  const fields = { ...level, created_at: ctx.now, created_by_id: ctx.currentUser?.id ?? null, override: false }
  const saved = old ? ctx.db.tables.members.update(old.id, fields) : ctx.db.tables.members.insert({ source_type: type, source_id: id, user_id: user.id, ...fields })
  publishMember(ctx, 'create', saved)
  return saved
}

/**
 * `POST …/members` with one user id: 409 for a member (checked before the user lookup), 404 for an
 * unknown user, 400 for a failed validation; the caller is already authorised.
 * @throws ApiError 409 `{"message":"Member already exists"}`, 404 `{"message":"404 User Not Found"}`,
 * 400 `{"message":{"access_level":["is not included in the list"]}}` and the like.
 */
export function addMember(ctx: Ctx<unknown>, source: Source, userId: number | string, attrs: MemberAttributes): MemberRecord {
  if (typeof userId === 'number' && directMembers(ctx.db, source, ctx.today).some((m) => m.user_id === userId)) {
    throw conflict(MemberMessage.exists)
  }
  const user = typeof userId === 'number' ? ctx.db.tables.users.get(userId) : undefined
  if (!user) throw notFound('User')
  const errors = validateMember(ctx, source, attrs.access_level, attrs.expires_at ?? null)
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
  return saveMembership(ctx, source, user, attrs)
}

/**
 * `source.add_user(user, access_level, current_user:, expires_at:)` for an invitation naming a
 * user's email (`Members::InviteService#add_member`): the membership is validated and saved (a
 * `member` fact), or its full messages are returned.
 * @returns null when saved, else the sentence of the model's full messages
 *   (`Access level is not included in the list`).
 * // gitlab: app/services/members/invite_service.rb, app/models/member.rb (`add_user`)
 */
export function addUserByInvitation(ctx: Ctx<unknown>, source: Source, user: UserRecord, attrs: MemberAttributes): string | null {
  const errors = validateMember(ctx, source, attrs.access_level, attrs.expires_at ?? null)
  if (Object.keys(errors).length > 0) return fullMessages(errors)
  saveMembership(ctx, source, user, attrs)
  return null
}

/** The answer of `Members::CreateService`: `{status: "success"}` or `{message, status: "error"}`. */
export type CreateResult = { status: 'success' } | { message: string; status: 'error' }

/**
 * `POST …/members` with `user_id=1,2`: `Members::CreateService` adds each known user (a member
 * already there is updated to the new level, as `add_users` does, unless the caller may not update
 * it, such as a group's last owner, who is left as is; unknown ids are skipped) and
 * reports invalid memberships as `"<username>: <full messages>"` sentences. The access level and
 * expiry are the same for every user, so either all are valid or none is written.
 * // gitlab: app/services/members/create_service.rb, app/models/member.rb (`add_users`)
 */
export function addMembers(ctx: Ctx<unknown>, source: Source, ids: string, attrs: MemberAttributes): CreateResult {
  const unique = [...new Set(ids.split(',').map((s) => s.trim()).filter((s) => s !== ''))]
  if (unique.length === 0) return { message: 'No users specified.', status: 'error' }
  const users = unique.flatMap((id) => {
    const user = /^\d+$/.test(id) ? ctx.db.tables.users.get(Number(id)) : undefined
    return user ? [user] : []
  })
  const errors = validateMember(ctx, source, attrs.access_level, attrs.expires_at ?? null)
  if (Object.keys(errors).length > 0) {
    const messages = fullMessages(errors)
    return { message: toSentence(users.map((u) => `${u.username}: ${messages}`)), status: 'error' }
  }
  const current = directMembers(ctx.db, source, ctx.today)
  for (const user of users) {
    const member = current.find((m) => m.user_id === user.id)
    if (member && !canUpdateMember(ctx, source, member)) continue
    saveMembership(ctx, source, user, attrs)
  }
  return { status: 'success' }
}

/**
 * `PUT …/members/:user_id` after `authorize_admin_source!`: the member policy (403), then the
 * validations (400).
 * @throws ApiError 403 `{"message":"403 Forbidden"}`, 400 validation bodies.
 */
export function updateMember(ctx: Ctx<unknown>, source: Source, member: MemberRecord, attrs: MemberAttributes): MemberRecord {
  authorizeUpdateMember(ctx, source, member)
  const expiresAt = attrs.expires_at === undefined ? member.expires_at : attrs.expires_at
  const errors = validateMember(ctx, source, attrs.access_level, attrs.expires_at === undefined ? null : expiresAt)
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
  const updated = ctx.db.tables.members.update(member.id, { access_level: attrs.access_level, expires_at: expiresAt, updated_at: ctx.now })
  publishMember(ctx, 'update', updated, member)
  return updated
}

/** Options of `DELETE …/members/:user_id`. */
export interface RemoveOptions {
  skip_subresources: boolean
  unassign_issuables: boolean
}

/** The ids of the projects whose issuables a removal from `source` unassigns: the project, or the group's and its subgroups'. */
function projectIdsUnder(ctx: Ctx<unknown>, source: Source): Set<number> {
  if (source.type === 'project') return new Set([source.project.id])
  const ids = new Set<number>()
  for (const g of [source.group, ...ctx.db.groupDescendants(source.group)]) {
    for (const p of ctx.db.tables.projects.where('namespace_id', g.id)) if (p.namespace_type === 'group') ids.add(p.id)
  }
  return ids
}

/**
 * `Members::DestroyService#execute`: the member policy (403), then the membership goes; unless
 * `skip_subresources`, a group membership takes the user's memberships of its subgroups and of
 * their projects with it; with `unassign_issuables` the user is unassigned from the issues and
 * merge requests of the source's projects.
 * // gitlab: app/services/members/destroy_service.rb (`delete_subresources`,
 * // `enqueue_unassign_issuables`), app/workers/members_destroyer/unassign_issuables_worker.rb
 * @throws ApiError 403 `{"message":"403 Forbidden"}`.
 */
export function removeMember(ctx: Ctx<unknown>, source: Source, member: MemberRecord, options: RemoveOptions): void {
  authorizeDestroyMember(ctx, source, member)
  deleteMembership(ctx, source, member, options)
}

/** The removal itself, without the policy (billable-member removal checks for itself). */
export function deleteMembership(ctx: Ctx<unknown>, source: Source, member: MemberRecord, options: RemoveOptions): void {
  const { db } = ctx
  db.tables.members.delete(member.id)
  publishMember(ctx, 'destroy', member)
  if (!options.skip_subresources && source.type === 'group') {
    const groups = new Set(db.groupDescendants(source.group).map((g) => g.id))
    const projects = projectIdsUnder(ctx, source)
    for (const m of db.tables.members.where('user_id', member.user_id)) {
      if ((m.source_type === 'group' && groups.has(m.source_id)) || (m.source_type === 'project' && projects.has(m.source_id))) {
        db.tables.members.delete(m.id)
        // `destroy_all` runs each member's callbacks: each removal is a fact of its own.
        publishMember(ctx, 'destroy', m)
      }
    }
  }
  if (options.unassign_issuables) {
    const projects = projectIdsUnder(ctx, source)
    for (const projectId of projects) {
      unassignFromProjectIssues(db, projectId, member.user_id)
      unassignFromProjectMergeRequests(db, projectId, member.user_id)
    }
  }
}
