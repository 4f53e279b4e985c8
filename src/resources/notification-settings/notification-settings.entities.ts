/**
 * Notification setting entities. Source: api-spec.md "Notification settings"; gitlab-behaviour.md
 * §10; gitlab: lib/api/entities/notification_setting.rb, global_notification_setting.rb.
 * @module
 */
import type { UserRecord } from '../../db/schema.js'
import { emailEvents, eventValue, notificationEmail, type SettingSource } from './notification-settings.service.js'
import type { NotificationEvent, NotificationSettingRecord } from './notification-settings.tables.js'

type Setting = Omit<NotificationSettingRecord, 'id'>

/**
 * `events`: every email event of the source type, in GitLab's order, as the model reads it, except
 * that a never-written flag (null in GitLab 13.x) is `false`: the spec states `{<event>: boolean}`
 * and wins there (gitlab-behaviour.md §14 item 21). `failed_pipeline`, `fixed_pipeline` and
 * `moved_project` still read true while unset, as the model and the column default make them.
 */
function events(setting: Setting, source: SettingSource['type']): Partial<Record<NotificationEvent, boolean>> {
  const out: Partial<Record<NotificationEvent, boolean>> = {}
  for (const event of emailEvents(source)) out[event] = eventValue(setting, event) ?? false
  return out
}

/**
 * `{level}`, or `{level: "custom", events: {...}}`: a group or project setting. `events` appears
 * only at level `custom`; a flag never written is false (gitlab-behaviour.md §14 item 21).
 */
export function NotificationSetting(setting: Setting, source: 'group' | 'project') {
  return {
    level: setting.level,
    ...(setting.level === 'custom' ? { events: events(setting, source) } : {}),
  }
}

/** `{level, [events], notification_email}`: the global setting; the address comes after the events. */
export function GlobalNotificationSetting(setting: Setting, user: UserRecord) {
  return {
    level: setting.level,
    ...(setting.level === 'custom' ? { events: events(setting, 'global') } : {}),
    notification_email: notificationEmail(user, setting),
  }
}
