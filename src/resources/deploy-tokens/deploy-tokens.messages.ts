/**
 * The deploy tokens area's messages. gitlab: app/models/deploy_token.rb (13.12).
 * @module
 */

/** Validation messages of `DeployToken` (full messages, as `errors.full_messages` gives them). */
export const DeployTokenMessage = {
  /** `ensure_at_least_one_scope`: a token with no scope (`errors.add(:base, …)`). */
  scopesBlank: "Scopes can't be blank",
  /** `username` format: letters, digits and `_-+.` only. */
  usernameFormat: "Username can contain only letters, digits, '_', '-', '+', and '.'",
  /** `username` length over 255. */
  usernameTooLong: 'Username is too long (maximum is 255 characters)',
  /** `name` length over 255. */
  nameTooLong: 'Name is too long (maximum is 255 characters)',
} as const
