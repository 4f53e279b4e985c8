/**
 * The application settings GitLab 13.12 CE keeps in its one `application_settings` row, as
 * `GET /application/settings` exposes them: each attribute's kind (how `PUT` coerces it and how it
 * is presented) and its default (`ApplicationSettingImplementation.defaults`, or the column default).
 * The entity exposes `id`, `performance_bar_allowed_group_id`, then `ApplicationSettingsHelper.
 * visible_attributes` (alphabetical here), then the visibility attributes as strings, then the
 * external authorization attributes, then the legacy aliases.
 * gitlab: lib/api/entities/application_setting.rb, lib/api/settings.rb,
 * app/models/application_setting_implementation.rb, app/helpers/application_settings_helper.rb (13.12).
 * @module
 */
import type { Visibility } from '../../db/schema.js'

/** How a setting is typed: Grape's coercion on `PUT` and the JSON type of its value. */
export type SettingKind = 'boolean' | 'integer' | 'float' | 'string' | 'strings' | 'integers' | 'visibility' | 'visibilities' | 'hash'

/** A setting's value as stored and presented. */
export type SettingValue = boolean | number | string | string[] | number[] | Record<string, number> | null

/** One exposed attribute: its name, kind, 13.12 default and whether `PUT` takes it. */
export interface SettingDef {
  readonly name: string
  readonly kind: SettingKind
  readonly default: SettingValue
  /** False for what the entity computes or only exposes (`id`). Default true. */
  readonly writable?: boolean
}

const d = (name: string, kind: SettingKind, value: SettingValue, writable = true): SettingDef => ({ name, kind, default: value, writable })

/** Import sources enabled out of the box (`Gitlab::ImportSources.values`). */
const IMPORT_SOURCES = ['github', 'bitbucket', 'bitbucket_server', 'gitlab', 'google_code', 'fogbugz', 'git', 'gitlab_project', 'gitea', 'manifest', 'phabricator']

/** The `visible_attributes` part of the entity, alphabetical; their 13.12 defaults. */
const VISIBLE: readonly SettingDef[] = [
  d('admin_mode', 'boolean', false),
  d('after_sign_out_path', 'string', null),
  d('after_sign_up_text', 'string', null),
  d('akismet_api_key', 'string', null),
  d('akismet_enabled', 'boolean', false),
  d('allow_local_requests_from_system_hooks', 'boolean', true),
  d('allow_local_requests_from_web_hooks_and_services', 'boolean', false),
  d('archive_builds_in_human_readable', 'string', null),
  d('asset_proxy_allowlist', 'strings', []),
  d('asset_proxy_enabled', 'boolean', false),
  d('asset_proxy_url', 'string', null),
  d('authorized_keys_enabled', 'boolean', true),
  d('auto_devops_domain', 'string', null),
  d('auto_devops_enabled', 'boolean', true),
  d('commit_email_hostname', 'string', 'users.noreply.gitlab.example.com'),
  d('container_expiration_policies_enable_historic_entries', 'boolean', false),
  d('container_registry_token_expire_delay', 'integer', 5),
  d('default_artifacts_expire_in', 'string', '30 days'),
  d('default_branch_name', 'string', null),
  d('default_branch_protection', 'integer', 2),
  d('default_ci_config_path', 'string', null),
  d('default_project_creation', 'integer', 2),
  d('default_projects_limit', 'integer', 100000),
  d('diff_max_patch_bytes', 'integer', 204800),
  d('disable_feed_token', 'boolean', false),
  d('disabled_oauth_sign_in_sources', 'strings', []),
  d('dns_rebinding_protection_enabled', 'boolean', true),
  d('domain_allowlist', 'strings', []),
  d('domain_denylist', 'strings', []),
  d('domain_denylist_enabled', 'boolean', false),
  d('dsa_key_restriction', 'integer', 0),
  d('ecdsa_key_restriction', 'integer', 0),
  d('ed25519_key_restriction', 'integer', 0),
  d('email_author_in_body', 'boolean', false),
  d('enabled_git_access_protocol', 'string', null),
  d('enforce_terms', 'boolean', false),
  d('first_day_of_week', 'integer', 0),
  d('gitaly_timeout_default', 'integer', 55),
  d('gitaly_timeout_fast', 'integer', 10),
  d('gitaly_timeout_medium', 'integer', 30),
  d('gravatar_enabled', 'boolean', true),
  d('help_page_hide_commercial_content', 'boolean', false),
  d('help_page_support_url', 'string', null),
  d('help_page_text', 'string', null),
  d('hide_third_party_offers', 'boolean', false),
  d('home_page_url', 'string', null),
  d('housekeeping_bitmaps_enabled', 'boolean', true),
  d('housekeeping_enabled', 'boolean', true),
  d('housekeeping_full_repack_period', 'integer', 50),
  d('housekeeping_gc_period', 'integer', 200),
  d('housekeeping_incremental_repack_period', 'integer', 10),
  d('html_emails_enabled', 'boolean', true),
  d('import_sources', 'strings', IMPORT_SOURCES),
  d('issues_create_limit', 'integer', 0),
  d('local_markdown_version', 'integer', 0),
  d('max_artifacts_size', 'integer', 100),
  d('max_attachment_size', 'integer', 10),
  d('max_import_size', 'integer', 0),
  d('max_pages_size', 'integer', 100),
  d('minimum_password_length', 'integer', 8),
  d('mirror_available', 'boolean', true),
  d('notify_on_unknown_sign_in', 'boolean', true),
  d('outbound_local_requests_whitelist', 'strings', []),
  d('password_authentication_enabled_for_git', 'boolean', true),
  d('password_authentication_enabled_for_web', 'boolean', true),
  d('personal_access_token_prefix', 'string', null),
  d('plantuml_enabled', 'boolean', false),
  d('plantuml_url', 'string', null),
  d('polling_interval_multiplier', 'float', 1.0),
  d('project_export_enabled', 'boolean', true),
  d('protected_ci_variables', 'boolean', true),
  d('push_event_activities_limit', 'integer', 3),
  d('push_event_hooks_limit', 'integer', 3),
  d('raw_blob_request_limit', 'integer', 300),
  d('recaptcha_enabled', 'boolean', false),
  d('repository_checks_enabled', 'boolean', true),
  d('repository_storages_weighted', 'hash', { default: 100 }),
  d('require_admin_approval_after_user_signup', 'boolean', false),
  d('require_two_factor_authentication', 'boolean', false),
  d('rsa_key_restriction', 'integer', 0),
  d('send_user_confirmation_email', 'boolean', false),
  d('session_expire_delay', 'integer', 10080),
  d('shared_runners_enabled', 'boolean', true),
  d('shared_runners_text', 'string', null),
  d('sign_in_text', 'string', null),
  d('signup_enabled', 'boolean', true),
  d('snippet_size_limit', 'integer', 52428800),
  d('terminal_max_session_time', 'integer', 0),
  d('terms', 'string', null),
  d('throttle_authenticated_api_enabled', 'boolean', false),
  d('throttle_authenticated_api_period_in_seconds', 'integer', 3600),
  d('throttle_authenticated_api_requests_per_period', 'integer', 7200),
  d('throttle_authenticated_web_enabled', 'boolean', false),
  d('throttle_authenticated_web_period_in_seconds', 'integer', 3600),
  d('throttle_authenticated_web_requests_per_period', 'integer', 7200),
  d('throttle_unauthenticated_enabled', 'boolean', false),
  d('throttle_unauthenticated_period_in_seconds', 'integer', 3600),
  d('throttle_unauthenticated_requests_per_period', 'integer', 3600),
  d('time_tracking_limit_to_hours', 'boolean', false),
  d('two_factor_grace_period', 'integer', 48),
  d('unique_ips_limit_enabled', 'boolean', false),
  d('unique_ips_limit_per_user', 'integer', 10),
  d('unique_ips_limit_time_window', 'integer', 3600),
  d('usage_ping_enabled', 'boolean', true),
  d('user_default_external', 'boolean', false),
  d('user_default_internal_regex', 'string', null),
  d('user_oauth_applications', 'boolean', true),
  d('user_show_add_ssh_key_message', 'boolean', true),
  d('version_check_enabled', 'boolean', true),
  d('wiki_page_max_content_bytes', 'integer', 52428800),
]

/** Every stored setting, in the entity's order (without the legacy aliases, which read others). */
export const SETTINGS: readonly SettingDef[] = [
  d('id', 'integer', 1, false),
  d('performance_bar_allowed_group_id', 'integer', null, false),
  ...VISIBLE,
  d('restricted_visibility_levels', 'visibilities', []),
  d('default_project_visibility', 'visibility', 'private'),
  d('default_snippet_visibility', 'visibility', 'private'),
  d('default_group_visibility', 'visibility', 'private'),
  d('external_authorization_service_enabled', 'boolean', false),
  d('external_authorization_service_url', 'string', null),
  d('external_authorization_service_default_label', 'string', null),
  d('external_authorization_service_timeout', 'float', 0.5),
  d('external_auth_client_cert', 'string', null),
  d('external_auth_client_key', 'string', null),
  d('external_auth_client_key_pass', 'string', null),
]

/** The settings by name. */
const SETTING_BY_NAME: ReadonlyMap<string, SettingDef> = new Map(SETTINGS.map((s) => [s.name, s]))

/**
 * `PUT` parameters that write another setting (settings.rb's legacy names):
 * `signin_enabled` and `password_authentication_enabled` → `password_authentication_enabled_for_web`,
 * `allow_local_requests_from_hooks_and_services` → `allow_local_requests_from_web_hooks_and_services`,
 * `asset_proxy_whitelist` → `asset_proxy_allowlist`, `domain_whitelist`/`domain_blacklist`/
 * `domain_blacklist_enabled` → the allowlist/denylist names.
 */
export const LEGACY_ALIASES: Readonly<Record<string, string>> = {
  password_authentication_enabled: 'password_authentication_enabled_for_web',
  signin_enabled: 'password_authentication_enabled_for_web',
  allow_local_requests_from_hooks_and_services: 'allow_local_requests_from_web_hooks_and_services',
  asset_proxy_whitelist: 'asset_proxy_allowlist',
  domain_whitelist: 'domain_allowlist',
  domain_blacklist: 'domain_denylist',
  domain_blacklist_enabled: 'domain_denylist_enabled',
}

/** The settings a fresh 13.12 instance has, by name. A new object. */
export function defaultSettings(): Record<string, SettingValue> {
  const values: Record<string, SettingValue> = {}
  for (const s of SETTINGS) values[s.name] = structuredClone(s.default)
  return values
}

/** The visibility names in GitLab's level order. */
export const VISIBILITIES: readonly Visibility[] = ['private', 'internal', 'public']
