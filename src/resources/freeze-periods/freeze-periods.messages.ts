/**
 * The freeze periods area's validation messages (inside `validationFailed` bodies).
 * gitlab: app/validators/cron_validator.rb, app/validators/cron_freeze_period_timezone_validator.rb.
 * @module
 */

/** `Ci::FreezePeriod` validation messages as GitLab 13.x words them. */
export const FreezePeriodValidationMessage = {
  /** 13.x `CronValidator` (the leading space is GitLab's). */
  invalidCron: ' is invalid syntax',
  /** `CronFreezePeriodTimezoneValidator`. */
  invalidCronTimezone: 'syntax is invalid',
} as const
