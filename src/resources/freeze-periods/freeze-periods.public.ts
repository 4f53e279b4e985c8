/**
 * What other areas may use of the freeze periods area: GitLab's cron checks and reading (13.x
 * `CronValidator`, `CronTimezoneValidator`, `Gitlab::Ci::CronParser`), which pipeline schedules
 * share with deploy freeze periods. gitlab: lib/gitlab/ci/cron_parser.rb.
 * @module
 */
export { isValidCron, nextCronTime } from './cron.js'
export { cronZoneName, isValidCronTimezone } from './cron-timezone.js'
