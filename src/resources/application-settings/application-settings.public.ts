/**
 * What other areas may read of the instance's settings: {@link applicationSetting}, GitLab's
 * `Gitlab::CurrentSettings`. gitlab: lib/gitlab/current_settings.rb.
 * @module
 */
import type { Db } from '../../db/db.js'
import type { Visibility } from '../../db/schema.js'
import { currentSettings } from './application-settings.service.js'

/** The settings other areas act on, typed; the others through {@link ApplicationSettingView.value}. */
export interface ApplicationSettingView {
  /** The initial branch of new repositories; null means git's `master` (13.12). */
  readonly default_branch_name: string | null
  /** The visibility of a project created without one. */
  readonly default_project_visibility: Visibility
  /** The visibility of a group created without one. */
  readonly default_group_visibility: Visibility
  /** The visibility of a snippet created without one. */
  readonly default_snippet_visibility: Visibility
  /** The `projects_limit` of a new user. */
  readonly default_projects_limit: number
  /** Whether the sign-up page is open. */
  readonly signup_enabled: boolean
  /** The largest upload a note or description may attach, in MB (mebibytes). */
  readonly max_attachment_size: number
  /** The largest job artifacts archive, in MB. */
  readonly max_artifacts_size: number
  /** The value of any setting of `GET /application/settings` by name (undefined for an unknown name). */
  value(name: string): unknown
}

/**
 * The instance's current settings (`Gitlab::CurrentSettings`): the stored row, or 13.12's defaults
 * when none has been written. Reading never writes.
 * Source: gitlab: lib/gitlab/current_settings.rb, app/models/application_setting_implementation.rb.
 */
export function applicationSetting(db: Db): ApplicationSettingView {
  const values = currentSettings(db)
  return {
    default_branch_name: values.default_branch_name as string | null,
    default_project_visibility: values.default_project_visibility as Visibility,
    default_group_visibility: values.default_group_visibility as Visibility,
    default_snippet_visibility: values.default_snippet_visibility as Visibility,
    default_projects_limit: values.default_projects_limit as number,
    signup_enabled: values.signup_enabled as boolean,
    max_attachment_size: values.max_attachment_size as number,
    max_artifacts_size: values.max_artifacts_size as number,
    value: (name) => values[name],
  }
}
