/**
 * Notification settings: lookup (with GitLab's defaults for a setting never saved), the event
 * readers, the user's verified emails, and the update with its checks.
 * Source: api-spec.md "Notification settings"; gitlab-behaviour.md §10;
 * gitlab: app/models/notification_setting.rb, app/models/user.rb (`global_notification_setting`,
 * `notification_settings_for`, `owns_notification_email`), lib/api/notification_settings.rb (13.x).
 * @module
 */
import { apiMessage, validationFailed, ValidationMessage } from '../../core/errors.js'
import { NotificationSettingMessage } from './notification-settings.messages.js'
import type { Db } from '../../db/db.js'
import type { UserRecord } from '../../db/schema.js'
import {
  EMAIL_EVENTS,
  GROUP_ONLY_EVENTS,
  NOTIFICATION_LEVELS,
  type NotificationEvent,
  type NotificationLevel,
  type NotificationSettingRecord,
} from './notification-settings.tables.js'

/** What a setting is for: everything (global), a group or a project. */
export type SettingSource = { type: 'global' } | { type: 'group'; id: number } | { type: 'project'; id: number }

/** The stored `source_type` / `source_id` of a source. */
function sourceColumns(source: SettingSource): Pick<NotificationSettingRecord, 'source_type' | 'source_id'> {
  if (source.type === 'global') return { source_type: null, source_id: null }
  return { source_type: source.type === 'group' ? 'Namespace' : 'Project', source_id: source.id }
}

/**
 * The events a setting shows and accepts: `EMAIL_EVENTS`, plus `new_epic` for groups.
 * spec-gap: `new_epic` is a higher-tier event (api-spec.md "top edition only"); fakelab offers it
 * on group settings as GitLab EE with epics does (`EE::NotificationSetting.email_events(source)`).
 */
export function emailEvents(source: SettingSource['type']): readonly NotificationEvent[] {
  return source === 'group' ? [...EMAIL_EVENTS, ...GROUP_ONLY_EVENTS] : EMAIL_EVENTS
}

/**
 * A setting as a new row starts: level `participating` (global, `DEFAULT_NOTIFICATION_LEVEL`) or
 * `global` (group, project); event columns null except the two with a database default
 * (`moved_project` true, `merge_when_pipeline_succeeds` false); `notification_email` unset.
 * The scenario loader builds its rows from this too.
 * @param now `created_at` and `updated_at`.
 */
export function initialSetting(userId: number, source: SettingSource, now: string): Omit<NotificationSettingRecord, 'id'> {
  const events = Object.fromEntries([...EMAIL_EVENTS, ...GROUP_ONLY_EVENTS].map((event) => [event, null])) as Record<NotificationEvent, null>
  return {
    user_id: userId,
    ...sourceColumns(source),
    level: source.type === 'global' ? 'participating' : 'global',
    ...events,
    moved_project: true,
    merge_when_pipeline_succeeds: false,
    notification_email: null,
    created_at: now,
    updated_at: now,
  }
}

/** The user's stored setting for a source, if any. */
function storedSetting(db: Db, user: UserRecord, source: SettingSource): NotificationSettingRecord | undefined {
  const { source_type, source_id } = sourceColumns(source)
  return db.tables.notification_settings
    .where('user_id', user.id)
    .find((s) => s.source_type === source_type && s.source_id === source_id)
}

/**
 * `global_notification_setting` / `notification_settings_for(source)`: the stored setting, or the
 * one a new row would hold (nothing is written: reading changes no state).
 */
export function settingFor(db: Db, user: UserRecord, source: SettingSource, now: string): Omit<NotificationSettingRecord, 'id'> {
  return storedSetting(db, user, source) ?? initialSetting(user.id, source, now)
}

/**
 * An event as the model reads it: the column, except that `failed_pipeline` and `fixed_pipeline`
 * read true while unset (`bool = super; bool.nil? || bool`); other unset events stay null
 * (gitlab-behaviour.md §10), which the entity presents as false (§14 item 21).
 */
export function eventValue(setting: Omit<NotificationSettingRecord, 'id'>, event: NotificationEvent): boolean | null {
  // GitLab's model reads a never-written flag as null (nullable columns without a default); the
  // entity shows it as the spec's `false` (gitlab-behaviour.md §14 item 21).
  const value = setting[event]
  if (event === 'failed_pipeline' || event === 'fixed_pipeline') return value ?? true
  return value
}

/** The user's verified addresses: the primary email and every confirmed secondary one. */
function verifiedEmails(db: Db, user: UserRecord): string[] {
  const secondary = db.tables.emails.where('user_id', user.id).filter((e) => e.confirmed_at !== null)
  return [user.email, ...secondary.map((e) => e.email)]
}

/** The address global notifications go to: the stored one, else the primary email. */
export function notificationEmail(user: UserRecord, setting: Omit<NotificationSettingRecord, 'id'>): string {
  return setting.notification_email ?? user.email
}

/** What a PUT may change. */
export interface SettingChanges {
  level?: string
  /** Global only. */
  notification_email?: string
  events: Partial<Record<NotificationEvent, boolean>>
}

/** Devise's `email_regexp`, which `devise_email` validation uses. */
const EMAIL = /^[^@\s]+@[^@\s]+$/

/**
 * Updates (or first saves) the user's setting for `source`. Checks run before any write, in
 * GitLab's order: the level enum (`ArgumentError` → 400 `{"message":"'foo' is not a valid level"}`),
 * then the user's `notification_email` (`{"message":{"notification_email":[...]}}`), then the
 * setting's own validation (a blank level: `{"message":{"level":["can't be blank"]}}`).
 * spec-gap: GitLab 13.x saved the level before reporting a bad email (two separate saves); here a
 * failed request changes nothing.
 * @throws ApiError 400 as above.
 */
export function updateSetting(db: Db, user: UserRecord, source: SettingSource, changes: SettingChanges, now: string): NotificationSettingRecord {
  const level = changes.level
  // gitlab: Rails enum assignment raises ArgumentError for an unknown non-blank value (case-sensitive).
  if (level !== undefined && level.trim() !== '' && !(NOTIFICATION_LEVELS as readonly string[]).includes(level)) {
    throw apiMessage(400, NotificationSettingMessage.invalidLevel(level))
  }
  let email: string | null | undefined
  if (changes.notification_email !== undefined) {
    const wanted = changes.notification_email
    if (wanted === '') {
      email = null // gitlab: a blank notification_email falls back to the primary email (`set_notification_email`)
    } else {
      const errors: string[] = []
      if (!EMAIL.test(wanted)) errors.push(ValidationMessage.invalid)
      if (!verifiedEmails(db, user).includes(wanted)) errors.push(NotificationSettingMessage.notAnEmailYouOwn)
      if (errors.length > 0) throw validationFailed({ notification_email: errors })
      email = wanted === user.email ? null : wanted
    }
  }
  if (level !== undefined && level.trim() === '') throw validationFailed({ level: [ValidationMessage.blank] })

  const stored = storedSetting(db, user, source)
  const current = stored ?? initialSetting(user.id, source, now)
  const patch: Partial<NotificationSettingRecord> = {}
  if (level !== undefined && level !== current.level) patch.level = level as NotificationLevel
  if (email !== undefined && email !== current.notification_email) patch.notification_email = email
  for (const [event, value] of Object.entries(changes.events) as [NotificationEvent, boolean | undefined][]) {
    if (value !== undefined && value !== current[event]) patch[event] = value
  }
  if (!stored) return db.tables.notification_settings.insert({ ...current, ...patch })
  // Rails skips a save that changes nothing, so `updated_at` only moves with a real change.
  return Object.keys(patch).length === 0 ? stored : db.tables.notification_settings.update(stored.id, { ...patch, updated_at: now })
}
