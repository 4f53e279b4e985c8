/**
 * Inviting by email (`Members::InviteService`, 13.12): each address of the comma-separated list is
 * checked in GitLab's order (already a direct member by their email, already invited, then added),
 * an existing user's address makes that user a member at once (through the members area, which
 * publishes the `member` fact), any other address becomes a pending invitation; every address is
 * handled on its own, so one failing leaves the others done, and the answer is
 * `{"status":"success"}` or `{"message":{"<email>":"<error>"},"status":"error"}`. Updating and
 * deleting a pending invitation (`Members::UpdateService`, `Members::DestroyService` on the invite).
 * gitlab: app/services/members/invite_service.rb, app/services/members/update_service.rb,
 * app/models/member.rb (`add_user`, validations), lib/api/invitations.rb (13.12).
 * @module
 */
import { ValidationMessage, validationFailed } from '../../core/errors.js'
import type { Ctx } from '../../core/route.js'
import { toSentence } from '../../core/ruby.js'
import { ModelErrors } from '../../rules/model-errors.js'
import type { Source } from '../../rules/source.js'
import { addUserByInvitation, allowedAccessLevels, directMembers, MemberValidationMessage } from '../members/members.public.js'
import { InvitationMessage } from './invitations.messages.js'
import type { MemberInvitationRecord } from './invitations.tables.js'

/** `Members::CreateService::DEFAULT_LIMIT`: the most addresses one request may invite. */
const INVITE_LIMIT = 100

/** The answer of `Members::InviteService#execute`. */
export type InviteResult = { status: 'success' } | { message: string | Record<string, string>; status: 'error' }

/** What an invitation grants. */
export interface InviteAttributes {
  access_level: number
  /** `YYYY-MM-DD`, or null for none. */
  expires_at: string | null
}

/** `source.name`: the project's or group's name, as the messages quote it. */
function sourceName(source: Source): string {
  return source.type === 'project' ? source.project.name : source.group.name
}

function sourceId(source: Source): number {
  return source.type === 'project' ? source.project.id : source.group.id
}

/** The source's pending invitations, in id order. */
export function invitationsOf(ctx: Ctx<unknown>, source: Source): MemberInvitationRecord[] {
  const id = sourceId(source)
  return ctx.db.tables.member_invitations.where('source_id', id).filter((i) => i.source_type === source.type).sort((a, b) => a.id - b.id)
}

/** The model validations of an invitation, as `{attribute: [messages]}`, in the model's order. */
function validate(ctx: Ctx<unknown>, source: Source, attrs: InviteAttributes): Record<string, string[]> {
  const errors: Record<string, string[]> = {}
  if (!allowedAccessLevels(source).includes(attrs.access_level)) errors.access_level = [ValidationMessage.notIncluded]
  if (attrs.expires_at !== null && attrs.expires_at < ctx.today) errors.expires_at = [MemberValidationMessage.expiresInPast]
  return errors
}

/** `errors.full_messages.to_sentence` of {@link validate}'s errors. */
function fullMessages(errors: Record<string, string[]>): string {
  return toSentence(ModelErrors.from(errors).fullMessages())
}

/**
 * `Members::InviteService#execute` for `email` (comma-separated) on a source the caller may
 * administer.
 */
export function invite(ctx: Ctx<unknown>, source: Source, email: string, attrs: InviteAttributes): InviteResult {
  const emails = [...new Set(email.split(','))].filter((e) => e !== '')
  if (emails.length === 0) return { message: InvitationMessage.blank, status: 'error' }
  if (emails.length > INVITE_LIMIT) return { message: InvitationMessage.tooMany(INVITE_LIMIT), status: 'error' }
  const errors: Record<string, string> = {}
  const users = ctx.db.tables.users.all()
  for (const address of emails) {
    const members = directMembers(ctx.db, source, ctx.today)
    // `source.members.with_user_by_email(email)`: a direct member whose (primary) email it is.
    if (members.some((m) => ctx.db.tables.users.get(m.user_id)?.email === address)) {
      errors[address] = InvitationMessage.alreadyMember(sourceName(source))
      continue
    }
    // `search_invite_email`: `invite_email ILIKE ?`.
    if (invitationsOf(ctx, source).some((i) => i.invite_email.toLowerCase() === address.toLowerCase())) {
      errors[address] = InvitationMessage.alreadyInvited(sourceName(source))
      continue
    }
    // `Member.add_user`: `User.find_by(email:)` makes the user a member; otherwise an invite.
    const user = users.find((u) => u.email === address)
    if (user) {
      const problem = addUserByInvitation(ctx, source, user, attrs)
      if (problem !== null) errors[address] = problem
      continue
    }
    const invalid = validate(ctx, source, attrs)
    if (Object.keys(invalid).length > 0) {
      errors[address] = fullMessages(invalid)
      continue
    }
    ctx.db.tables.member_invitations.insert({
      source_type: source.type,
      source_id: sourceId(source),
      invite_email: address,
      invite_token: ctx.faker.string.hexadecimal({ length: 64, casing: 'lower', prefix: '' }),
      access_level: attrs.access_level,
      expires_at: attrs.expires_at,
      created_by_id: ctx.currentUser?.id ?? null,
      created_at: ctx.now,
      updated_at: ctx.now,
    })
  }
  return Object.keys(errors).length > 0 ? { message: errors, status: 'error' } : { status: 'success' }
}

/**
 * `Members::UpdateService` on an invitation: the attributes given, then the model validations.
 * @param attrs `expires_at` undefined leaves it, null clears it.
 * @throws ApiError 400 `{"message":{"access_level":["is not included in the list"]}}` and the like.
 */
export function updateInvitation(ctx: Ctx<unknown>, source: Source, invitation: MemberInvitationRecord, attrs: { access_level?: number | undefined; expires_at?: string | null | undefined }): MemberInvitationRecord {
  const next: InviteAttributes = {
    access_level: attrs.access_level ?? invitation.access_level,
    expires_at: attrs.expires_at === undefined ? invitation.expires_at : attrs.expires_at,
  }
  const errors = validate(ctx, source, next)
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
  return ctx.db.tables.member_invitations.update(invitation.id, { ...next, updated_at: ctx.now })
}
