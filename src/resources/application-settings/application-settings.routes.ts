/**
 * `GET|PUT /application/settings`: administrators read and change the instance's settings.
 * gitlab: lib/api/settings.rb (`before { authenticated_as_admin! }`), lib/api/entities/application_setting.rb (13.12).
 * @module
 */
import { p, type ParamSpec } from '../../core/params.js'
import { ok } from '../../core/respond.js'
import { route, type Route } from '../../core/route.js'
import { ApplicationSetting } from './application-settings.entities.js'
import { LEGACY_ALIASES, SETTINGS, VISIBILITIES, type SettingDef, type SettingValue } from './application-settings.model.js'
import { currentSettings, updateSettings } from './application-settings.service.js'

/** The Grape parameter of a setting. */
function paramOf(setting: SettingDef): ParamSpec {
  switch (setting.kind) {
    case 'boolean': return p.boolean()
    case 'integer': return p.integer()
    case 'float': return p.float()
    case 'strings': case 'visibilities': return p.strings()
    case 'integers': return p.integers()
    case 'hash': return p.hash()
    case 'visibility': return p.string({ values: VISIBILITIES })
    default: return p.string()
  }
}

const writable = SETTINGS.filter((s) => s.writable !== false)
const aliasParams: Record<string, ParamSpec> = {
  password_authentication_enabled: p.boolean(),
  signin_enabled: p.boolean(),
  allow_local_requests_from_hooks_and_services: p.boolean(),
  asset_proxy_whitelist: p.strings(),
  domain_whitelist: p.strings(),
  domain_blacklist: p.strings(),
  domain_blacklist_enabled: p.boolean(),
}
const settingParams: Record<string, ParamSpec> = {
  ...Object.fromEntries(writable.map((s) => [s.name, paramOf(s)])),
  ...aliasParams,
}

/** `Gitlab::VisibilityLevel.level_value(name)`: an unknown name falls back to `private`. */
function visibilityLevels(names: readonly string[]): string[] {
  return names.map((n) => ((VISIBILITIES as readonly string[]).includes(n) ? n : 'private'))
}

/** The routes. */
export const applicationSettingRoutes: Route[] = [
  route('GET /application/settings', {
    auth: 'admin',
    handler(ctx) {
      return ok(ApplicationSetting(currentSettings(ctx.db)))
    },
  }),

  // gitlab: settings.rb `put`: declared params only; the legacy names write their new attributes;
  // `at_least_one_of` every parameter.
  route('PUT /application/settings', {
    auth: 'admin',
    params: settingParams,
    rules: {
      atLeastOneOf: Object.keys(settingParams),
      given: {
        akismet_enabled: ['akismet_api_key'],
        recaptcha_enabled: ['recaptcha_site_key', 'recaptcha_private_key'],
        plantuml_enabled: ['plantuml_url'],
        require_two_factor_authentication: ['two_factor_grace_period'],
        housekeeping_enabled: ['housekeeping_bitmaps_enabled', 'housekeeping_incremental_repack_period', 'housekeeping_full_repack_period', 'housekeeping_gc_period'],
        domain_denylist_enabled: ['domain_denylist'],
        asset_proxy_enabled: ['asset_proxy_url'],
        enforce_terms: ['terms'],
      },
    },
    handler(ctx) {
      const patch: Record<string, SettingValue> = {}
      for (const [name, value] of Object.entries(ctx.params as Record<string, unknown>)) {
        if (value === undefined) continue
        const target = LEGACY_ALIASES[name] ?? name
        patch[target] = target === 'restricted_visibility_levels' ? visibilityLevels(value as string[]) : (value as SettingValue)
      }
      return ok(ApplicationSetting(updateSettings(ctx.db, patch)))
    },
  }),
]
