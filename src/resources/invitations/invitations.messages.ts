/**
 * The invitations area's messages. gitlab: app/services/members/invite_service.rb,
 * lib/api/validations/validators/email_or_email_list.rb, app/models/member.rb (13.12).
 * @module
 */

/** Messages of `POST …/invitations`. */
export const InvitationMessage = {
  /** Grape's `email_or_email_list` validator (400 `{"error": …}`). */
  invalidEmail: 'email contains an invalid email address',
  /** `BlankEmailsError`: no address given. */
  blank: 'Email cannot be blank',
  /** `TooManyEmailsError` past `Members::CreateService::DEFAULT_LIMIT`. */
  tooMany: (limit: number) => `Too many users specified (limit is ${limit})`,
  /** An address of a user who is a direct member already. */
  alreadyMember: (source: string) => `Already a member of ${source}`,
  /** An address with a pending invitation already. */
  alreadyInvited: (source: string) => `Member already invited to ${source}`,
} as const
