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
