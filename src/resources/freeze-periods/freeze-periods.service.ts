/**
 * Deploy freeze periods: lookup, the model's validations and the writes, as GitLab 13.x's
 * `Ci::FreezePeriod` does them. Source: gitlab-behaviour.md §7; gitlabhq:app/models/ci/freeze_period.rb,
 * app/validators/cron_validator.rb, app/validators/cron_freeze_period_timezone_validator.rb.
 * @module
 */
import { isValidCron } from './cron.js'
import { isValidCronTimezone } from './cron-timezone.js'
import { recordNotFound, ValidationMessage, validationFailed } from '../../core/errors.js'
import { FreezePeriodValidationMessage } from './freeze-periods.messages.js'
import { blank, rubyStrip } from '../../core/ruby.js'
import type { Db } from '../../db/db.js'
import type { ProjectRecord } from '../../db/schema.js'
import type { FreezePeriodRecord } from './freeze-periods.tables.js'

/** The attributes a client sets: both crons and the time zone. */
export interface FreezePeriodAttributes {
  freeze_start: string
  freeze_end: string
  cron_timezone: string
}

/**
 * The project's freeze periods, oldest first: the model's default scope `ORDER BY created_at ASC`
 * (gitlabhq:app/models/ci/freeze_period.rb), with the id breaking ties so pages are stable.
 */
export function listFreezePeriods(db: Db, project: ProjectRecord): FreezePeriodRecord[] {
  return db.tables.freeze_periods
    .where('project_id', project.id)
    .sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id - b.id))
}

/**
 * `user_project.freeze_periods.find(id)`: a freeze period of this project only.
 * @throws ApiError 404 `{"message":"404 Not found"}` (ActiveRecord::RecordNotFound) when missing or
 *   belonging to another project.
 */
export function findFreezePeriod(db: Db, project: ProjectRecord, id: number): FreezePeriodRecord {
  const period = Number.isSafeInteger(id) ? db.tables.freeze_periods.get(id) : undefined
  if (!period || period.project_id !== project.id) throw recordNotFound()
  return period
}

/**
 * Runs the model's validations in their declared order and returns the errors by attribute
 * (freeze_start, freeze_end, cron_timezone), each attribute's messages in validator order
 * (the cron/time-zone validator, then presence). Empty when valid.
 * Messages are 13.x's: `" is invalid syntax"` (with its leading space), `"syntax is invalid"`,
 * `"can't be blank"`. A blank cron gets both of its messages, as GitLab's validators both run.
 */
export function freezePeriodErrors(attrs: FreezePeriodAttributes): Record<string, string[]> {
  const errors: Record<string, string[]> = {}
  const add = (attribute: string, message: string) => (errors[attribute] ??= []).push(message)
  for (const attribute of ['freeze_start', 'freeze_end'] as const) {
    // gitlab: app/validators/cron_validator.rb (13.x message), then `presence: true`.
    if (!isValidCron(attrs[attribute])) add(attribute, FreezePeriodValidationMessage.invalidCron)
    if (blank(attrs[attribute])) add(attribute, ValidationMessage.blank)
  }
  // gitlab: app/validators/cron_freeze_period_timezone_validator.rb, then `presence: true`.
  if (!isValidCronTimezone(attrs.cron_timezone)) add('cron_timezone', FreezePeriodValidationMessage.invalidCronTimezone)
  if (blank(attrs.cron_timezone)) add('cron_timezone', ValidationMessage.blank)
  return errors
}

/** The attributes as the model holds them before validating: both crons stripped (`strip_attributes`). */
function normalize(attrs: FreezePeriodAttributes): FreezePeriodAttributes {
  return {
    freeze_start: rubyStrip(attrs.freeze_start),
    freeze_end: rubyStrip(attrs.freeze_end),
    cron_timezone: attrs.cron_timezone,
  }
}

function validate(attrs: FreezePeriodAttributes): void {
  const errors = freezePeriodErrors(attrs)
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
}

/**
 * `project.freeze_periods.create(attrs)`: strips, validates, stores with both timestamps `now`.
 * @throws ApiError 400 `{"message":{"freeze_end":[" is invalid syntax"]}}` and the like.
 */
export function createFreezePeriod(db: Db, project: ProjectRecord, attrs: FreezePeriodAttributes, now: string): FreezePeriodRecord {
  const values = normalize(attrs)
  validate(values)
  return db.tables.freeze_periods.insert({ project_id: project.id, ...values, created_at: now, updated_at: now })
}

/**
 * `freeze_period.update(changes)`: validates the merged result; on failure nothing changes.
 * `updated_at` moves only when a stored value actually changes (Rails skips a no-op save).
 * @throws ApiError 400 `{"message":{...}}` when the merged result is invalid.
 */
export function updateFreezePeriod(
  db: Db,
  period: FreezePeriodRecord,
  changes: Partial<FreezePeriodAttributes>,
  now: string,
): FreezePeriodRecord {
  const values = normalize({
    freeze_start: changes.freeze_start ?? period.freeze_start,
    freeze_end: changes.freeze_end ?? period.freeze_end,
    cron_timezone: changes.cron_timezone ?? period.cron_timezone,
  })
  validate(values)
  const changed = (Object.keys(values) as (keyof FreezePeriodAttributes)[]).some((key) => values[key] !== period[key])
  return changed ? db.tables.freeze_periods.update(period.id, { ...values, updated_at: now }) : period
}

