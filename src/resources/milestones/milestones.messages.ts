/**
 * The milestones' validation messages (inside `Failed to … milestone` messages).
 * gitlab: app/models/concerns/timebox.rb, app/models/milestone.rb.
 * @module
 */

/** Milestone (Timebox) validation messages. */
export const MilestoneValidationMessage = {
  /** Timebox: due date not after start date. */
  dueDateBeforeStartDate: 'must be greater than start date',
  /** Timebox: a year past 9999. */
  dateAfterMaximum: 'date must not be after 9999-12-31',
  /** Milestone title uniqueness across the group and its projects. */
  titleTaken: 'already being used for another group or project milestone.',
} as const
