/**
 * `Entities::Invitation` (13.12): `{access_level, requested_at, expires_at, invite_email,
 * invite_token, user_id}`, and `Entities::Member` of an invitation (no user to merge:
 * `{access_level, created_at, expires_at}`), key by key.
 * gitlab: lib/api/entities/invitation.rb, lib/api/entities/member.rb.
 * @module
 */
import type { MemberInvitationRecord } from './invitations.tables.js'

/** `Entities::Invitation`: a pending invitation; `requested_at` and `user_id` are always null (nobody accepted it yet). */
export function Invitation(invitation: MemberInvitationRecord) {
  return {
    access_level: invitation.access_level,
    requested_at: null,
    expires_at: invitation.expires_at,
    invite_email: invitation.invite_email,
    invite_token: invitation.invite_token,
    user_id: null,
  }
}

/** `Entities::Member` of an invitation (`PUT …/invitations/:email`): the user part is absent, there is none. */
export function InvitedMember(invitation: MemberInvitationRecord) {
  return {
    access_level: invitation.access_level,
    created_at: invitation.created_at,
    expires_at: invitation.expires_at,
  }
}
