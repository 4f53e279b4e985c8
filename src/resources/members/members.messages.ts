/**
 * The members area's error messages. gitlab: lib/api/members.rb, ee/lib/ee/api/members.rb
 * (billable members), app/models/member.rb, app/validators/future_date_validator.rb.
 * @module
 */

/** Messages of the member routes. */
export const MemberMessage = {
  /** 409 on adding a user who is already a direct member. */
  exists: 'Member already exists',
  /** 400 reason: billable members of a subgroup. */
  notTopLevelGroup: 'Invalid group provided, must be top-level',
  /** 400 reason: removing a billable member without the right to administer members. */
  unauthorizedToRemove: 'User unauthorized to remove member',
  /** 400 reason: removing a billable member who holds no membership in the hierarchy. */
  noMemberFound: 'No member found for the given user_id',
} as const

/** `Member` validation messages. */
export const MemberValidationMessage = {
  /** `FutureDateValidator` on `expires_at`. */
  expiresInPast: 'cannot be a date in the past',
} as const
