/**
 * The issues area's error messages. gitlab: lib/api/issues.rb, lib/api/notes.rb,
 * lib/api/helpers/notes_helpers.rb, app/services/issues/move_service.rb,
 * app/services/issuable/metric_images/upload_service.rb.
 * @module
 */

/** Messages of the issue, note and metric image routes. */
export const IssueMessage = {
  /** 409: `iid` given on create and already used in the project (`ActiveRecord::RecordNotUnique`). */
  duplicated: 'Duplicated issue',
  /** 400: `MoveService::MoveError` when the caller may not move the issue. */
  moveNotAllowed: 'Cannot move issue due to insufficient permissions!',
  /** 400: `MoveService::MoveError` when the target is the issue's own project. */
  moveSameProject: 'Cannot move issue to project it originates from!',
  /** 403: a metric image upload on an issue that is not an incident, or by a caller who may not update it. */
  metricImageNotAllowed: 'Not allowed!',
  /** 400 reason: a metric image over the size limit. */
  metricImageTooLarge: 'File is too large',
  /** 404: no metric image with this id on the issue. */
  metricImageNotFound: 'Metric image not found',
} as const

/** `Issue` (and `Timelog`) validation messages that are not Rails' defaults. gitlab: app/models/concerns/time_trackable.rb. */
export const IssueValidationMessage = {
  /** `time_spent`: a negative duration larger than the time spent so far. */
  subtractExceedsTotal: 'Time to subtract exceeds the total time spent',
} as const
