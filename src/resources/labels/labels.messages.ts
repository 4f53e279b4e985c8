/**
 * The labels area's error messages. gitlab: lib/api/labels.rb, lib/api/helpers/label_helpers.rb.
 * @module
 */

/** Messages the label endpoints pass to `conflict!` and `render_api_error!`. */
export const LabelMessage = {
  /** 409 on creating a label whose title the parent already has available. */
  exists: 'Label already exists',
  /** 400 when a label cannot be promoted (no group, or not a project label). */
  promoteFailed: 'Failed to promote project label to group label',
} as const
