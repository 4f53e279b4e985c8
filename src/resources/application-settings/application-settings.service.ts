/**
 * Reading and writing the instance's one settings row, with the model's validations.
 * gitlab: app/models/application_setting.rb (validations), app/services/application_settings/update_service.rb.
 * @module
 */
import { validationFailed, ValidationMessage } from '../../core/errors.js'
import type { Db } from '../../db/db.js'
import { defaultSettings, type SettingValue } from './application-settings.model.js'

/** The stored settings, or the defaults when no row exists. Do not change the object. */
export function currentSettings(db: Db): Readonly<Record<string, SettingValue>> {
  const row = db.tables.application_setting_values.get(1)
  return row ? { ...defaultSettings(), ...row.values } : defaultSettings()
}

/** `numericality` checks of `ApplicationSetting`, by attribute: the bound and its message. */
const NUMERIC: readonly [string, (n: number) => boolean, string][] = [
  ['default_projects_limit', (n) => n >= 0, ValidationMessage.greaterThanOrEqualTo(0)],
  ['max_attachment_size', (n) => n > 0, 'must be greater than 0'],
  ['max_artifacts_size', (n) => n > 0, 'must be greater than 0'],
  ['max_import_size', (n) => n >= 0, ValidationMessage.greaterThanOrEqualTo(0)],
  ['session_expire_delay', (n) => n >= 0, ValidationMessage.greaterThanOrEqualTo(0)],
  ['container_registry_token_expire_delay', (n) => n >= 1, ValidationMessage.greaterThanOrEqualTo(1)],
  ['two_factor_grace_period', (n) => n >= 0, ValidationMessage.greaterThanOrEqualTo(0)],
  ['terminal_max_session_time', (n) => n >= 0, ValidationMessage.greaterThanOrEqualTo(0)],
  ['polling_interval_multiplier', (n) => n >= 0, ValidationMessage.greaterThanOrEqualTo(0)],
  ['snippet_size_limit', (n) => n > 0, 'must be greater than 0'],
  ['wiki_page_max_content_bytes', (n) => n >= 1024, ValidationMessage.greaterThanOrEqualTo(1024)],
  ['minimum_password_length', (n) => n >= 8, ValidationMessage.greaterThanOrEqualTo(8)],
  ['minimum_password_length', (n) => n <= 128, 'must be less than or equal to 128'],
  ['max_pages_size', (n) => n >= 0, ValidationMessage.greaterThanOrEqualTo(0)],
  ['max_pages_size', (n) => n <= 1048576, 'must be less than or equal to 1048576'],
  // gitlab: application_setting.rb validates each throttle's numbers `greater_than: 0`.
  ...['unauthenticated', 'authenticated_api', 'authenticated_web'].flatMap((t): [string, (n: number) => boolean, string][] => [
    [`throttle_${t}_requests_per_period`, (n) => n > 0, 'must be greater than 0'],
    [`throttle_${t}_period_in_seconds`, (n) => n > 0, 'must be greater than 0'],
  ]),
]

/**
 * `ApplicationSettings::UpdateService`: merges `patch` into the settings and saves them when valid.
 * Returns the new values.
 * @throws ApiError 400 `{"message":{"<attribute>":[…]}}` (`render_validation_error!`), nothing saved.
 */
export function updateSettings(db: Db, patch: Record<string, SettingValue>): Readonly<Record<string, SettingValue>> {
  const values = { ...currentSettings(db), ...patch }
  const errors: Record<string, string[]> = {}
  for (const [name, ok, message] of NUMERIC) {
    const value = values[name]
    if (typeof value === 'number' && !ok(value)) (errors[name] ??= []).push(message)
  }
  if (values.enforce_terms === true && !values.terms) (errors.terms ??= []).push(ValidationMessage.blank)
  if (values.plantuml_enabled === true && !values.plantuml_url) (errors.plantuml_url ??= []).push(ValidationMessage.blank)
  if (values.domain_denylist_enabled === true && (values.domain_denylist as string[]).length === 0) {
    (errors.domain_denylist ??= []).push('Domain denylist cannot be empty if denylist is enabled.')
  }
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
  const row = db.tables.application_setting_values.get(1)
  if (row) db.tables.application_setting_values.update(1, { values })
  else db.tables.application_setting_values.insert({ id: 1, values })
  return values
}
