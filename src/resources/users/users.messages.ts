/**
 * The users area's error messages: what `lib/api/users.rb` passes to `forbidden!` and `conflict!`.
 * gitlab: lib/api/users.rb.
 * @module
 */

/** Messages of the user routes. */
export const UserMessage = {
  /** 403 on `GET /users` without a token when the `username` filter is not given (restricted public level). */
  listNotAuthorized: 'Not authorized to access /api/v4/users',
  /** 409 on deleting the only Owner of a group (`User#solo_owned_groups`). */
  soleOwner: 'User cannot be removed while is the sole-owner of a group',
  /** 403 on blocking an LDAP-blocked user. */
  ldapBlockedNotModifiable: 'LDAP blocked users cannot be modified by the API',
  /** 403 on unblocking an LDAP-blocked user. */
  ldapBlockedNotUnblockable: 'LDAP blocked users cannot be unblocked by the API',
  /** 403 on unblocking a deactivated user. */
  deactivatedNotUnblockable: 'Deactivated users cannot be unblocked by the API',
  /** 403 on activating a blocked (also LDAP-blocked or pending approval) user. */
  blockedNotActivatable: 'A blocked user must be unblocked to be activated',
  /** 403 on deactivating a blocked user. */
  blockedNotDeactivatable: 'A blocked user cannot be deactivated by the API',
  /** 403 on deactivating an internal user (the ghost user). */
  internalNotDeactivatable: 'An internal user cannot be deactivated by the API',
  /** 403 on deactivating a user active in the last `User::MINIMUM_INACTIVE_DAYS` (90) days. */
  recentlyActive: (days: number) => `The user you are trying to deactivate has been active in the past ${days} days and cannot be deactivated`,
  /** 403 on approving a user as a non-administrator (Users::ApproveService). */
  approveNotAllowed: 'You are not allowed to approve a user',
  /** 409 on approving a user who is not pending approval (Users::ApproveService, 13.x wording). */
  notPendingApproval: 'The user you are trying to approve is not pending an approval',
  /** 409 on creating or updating a user with an email another user has. */
  emailTaken: 'Email has already been taken',
  /** 409 on creating or updating a user with a username another user has. */
  usernameTaken: 'Username has already been taken',
} as const
