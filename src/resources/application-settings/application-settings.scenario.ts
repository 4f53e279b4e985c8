/**
 * The application settings part of the scenario format: the top-level `application_settings:`,
 * any attribute of `GET /application/settings` (13.12's defaults for the others), loaded into the
 * one `application_settings` row. An absent or empty section stores no row.
 * gitlab: lib/api/entities/application_setting.rb, app/models/application_setting_implementation.rb.
 * @module
 */
import { z } from 'zod'
import type { FieldsInput, ScenarioFragment } from '../../scenario/fragment.js'
import { SETTINGS, VISIBILITIES, type SettingDef, type SettingValue } from './application-settings.model.js'
import { defaultSettings } from './application-settings.model.js'

/** The zod schema of one setting's value. */
function schemaOf(setting: SettingDef): z.ZodType {
  switch (setting.kind) {
    case 'boolean': return z.boolean()
    case 'integer': return z.number().int().nullable()
    case 'float': return z.number()
    case 'strings': return z.array(z.string())
    case 'integers': return z.array(z.number().int())
    case 'visibility': return z.enum(VISIBILITIES as [string, ...string[]])
    case 'visibilities': return z.array(z.enum(VISIBILITIES as [string, ...string[]]))
    case 'hash': return z.record(z.string(), z.number().int())
    default: return z.string().nullable()
  }
}

const settingsSchema = z.strictObject(Object.fromEntries(
  SETTINGS.filter((s) => s.name !== 'id').map((s) => [s.name, schemaOf(s).optional().describe(`GitLab's \`${s.name}\` (GET /application/settings). Default ${JSON.stringify(s.default)}.`)]),
))

const rootFields = {
  application_settings: settingsSchema.optional().describe('Instance settings (GET /application/settings) that differ from GitLab 13.12\'s defaults, e.g. {default_branch_name: main, default_project_visibility: internal}.'),
}

declare module '../../scenario/records.js' {
  interface ScenarioInput extends Partial<FieldsInput<typeof rootFields>> {}
}

/** The application settings fragment (see the module comment). */
export const applicationSettingFragment: ScenarioFragment = {
  root: rootFields,
  load: {
    root(ctx, scenario) {
      const written = (scenario as { application_settings?: Record<string, SettingValue | undefined> }).application_settings
      if (!written || Object.keys(written).length === 0) return
      const values = defaultSettings()
      for (const [name, value] of Object.entries(written)) if (value !== undefined) values[name] = value
      ctx.db.tables.application_setting_values.insert({ id: 1, values })
    },
  },
}
