/**
 * GitLab's `ApplicationSetting` entity. gitlab: lib/api/entities/application_setting.rb (13.12).
 * @module
 */
import { SETTINGS, type SettingValue } from './application-settings.model.js'

/**
 * `ApplicationSetting`: every setting in the entity's order (application-settings.model.ts), then
 * the legacy aliases 13.12 still exposes: `password_authentication_enabled`, `signin_enabled`
 * (both `password_authentication_enabled_for_web`), `allow_local_requests_from_hooks_and_services`
 * and `asset_proxy_whitelist`, and the deprecated `domain_whitelist`, `domain_blacklist_enabled`,
 * `domain_blacklist`.
 */
export function ApplicationSetting(values: Readonly<Record<string, SettingValue>>): Record<string, SettingValue> {
  const out: Record<string, SettingValue> = {}
  for (const setting of SETTINGS) out[setting.name] = values[setting.name] ?? null
  out.password_authentication_enabled = values.password_authentication_enabled_for_web ?? null
  out.signin_enabled = values.password_authentication_enabled_for_web ?? null
  out.allow_local_requests_from_hooks_and_services = values.allow_local_requests_from_web_hooks_and_services ?? null
  out.asset_proxy_whitelist = values.asset_proxy_allowlist ?? null
  out.domain_whitelist = values.domain_allowlist ?? null
  out.domain_blacklist_enabled = values.domain_denylist_enabled ?? null
  out.domain_blacklist = values.domain_denylist ?? null
  return out
}
