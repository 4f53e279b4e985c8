/**
 * The runners area's error messages: the 403 reasons `lib/api/ci/runners.rb` passes to
 * `forbidden!`, and `Ci::Runner`'s validation messages (inside `validationFailed` bodies).
 * gitlab: lib/api/ci/runners.rb, app/models/ci/runner.rb.
 * @module
 */

/** 403 reasons of the runner routes (`forbidden!(reason)`). gitlab: lib/api/ci/runners.rb. */
export const RunnerMessage = {
  /** The caller may not read, change, list jobs of or enable the runner. */
  noAccess: 'No access granted',
  /** Enabling a group runner in a project (even an administrator). */
  isGroupRunner: 'Runner is a group runner',
  /** Enabling a locked runner in another project. */
  isLocked: 'Runner is locked',
  /** A non-administrator deleting a runner enabled in several projects. */
  inSeveralProjects: 'Runner associated with more than one project',
  /** Disabling a runner in its only project. */
  onlyProject: 'Only one project associated with the runner. Please remove the runner instead',
} as const

/** `Ci::Runner` validation messages. gitlab: app/models/ci/runner.rb. */
export const RunnerValidationMessage = {
  /** `maximum_timeout` below 600 seconds. */
  timeoutTooShort: 'needs to be at least 10 minutes',
  /** `Ci::Runner#tag_constraints` (under the key `tags_list`). */
  tagsRequired: 'can not be empty when runner is not allowed to pick untagged jobs',
  /** `Ci::Runner#assign_to` for a project the runner is already enabled in (13.x wording). */
  alreadyEnabled: 'Validation failed: Runner has already been taken',
} as const

/**
 * The commit statuses API's messages: `GenericCommitStatus` validations (inside `validationFailed`
 * bodies, `target_url` through `AddressableUrlValidator` and `Gitlab::UrlBlocker`) and the state
 * machine's refusal. gitlab: app/models/generic_commit_status.rb, app/models/commit_status.rb,
 * app/validators/addressable_url_validator.rb, lib/gitlab/url_blocker.rb (13.x), the
 * state_machines gem's `InvalidTransition`.
 */
export const CommitStatusMessage = {
  /** `name` (or `context`) given empty. */
  blank: "can't be blank",
  /** A `target_url` Addressable does not parse (a line break, a bad scheme or port). */
  urlInvalid: 'is blocked: URI is invalid',
  /** A `target_url` whose scheme is not http or https (or that has none). */
  urlScheme: 'is blocked: Only allowed schemes are http, https',
  /** A `target_url` whose host starts with neither a letter nor a digit. */
  urlHostname: 'is blocked: Hostname or IP address invalid',
  /** A `target_url` longer than 255 characters. */
  urlTooLong: 'is too long (maximum is 255 characters)',
  /** `StateMachines::InvalidTransition#message` for an event the status cannot take. */
  invalidTransition: (event: string, from: string) => `Cannot transition status via :${event} from :${from} (Reason(s): Status cannot transition via "${event}")`,
} as const
