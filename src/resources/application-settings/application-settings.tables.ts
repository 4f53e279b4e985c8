/**
 * The `application_setting_values` table: at most one row (id 1), the columns of GitLab's
 * `ApplicationSetting.current` that `GET /application/settings` shows. (The runners area keeps the
 * instance runner registration token, another column of GitLab's row, in its `application_settings`
 * table.) Absent until the first `PUT /application/settings` or a scenario's `application_settings:`;
 * readers take 13.12's defaults until then. gitlab: db/structure.sql (`application_settings`).
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table } from '../../db/schema.js'
import type { SettingValue } from './application-settings.model.js'

/**
 * The instance's settings: every attribute of `SETTINGS` (application-settings.model.ts) by name.
 * Visibility settings hold the level's name (`private`), `restricted_visibility_levels` a list of names.
 */
export interface ApplicationSettingValuesRecord extends Row {
  /** The setting values by attribute name. */
  values: Record<string, SettingValue>
}

declare module '../../db/schema.js' {
  interface Tables {
    application_setting_values: ApplicationSettingValuesRecord
  }
}

/** The table. */
export const applicationSettingTables = {
  application_setting_values: table<ApplicationSettingValuesRecord>(),
}
