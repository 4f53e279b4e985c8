/**
 * Notification setting entities. Source: api-spec.md "Notification settings"; gitlab-behaviour.md
 * §10; gitlab: lib/api/entities/notification_setting.rb, global_notification_setting.rb.
 * @module
 */
import type { UserRecord } from '../../db/schema.js'
import { emailEvents, eventValue, notificationEmail, type SettingSource } from './notification-settings.service.js'
import type { NotificationEvent, NotificationSettingRecord } from './notification-settings.tables.js'

type Setting = Omit<NotificationSettingRecord, 'id'>

/** `events`: every email event of the source type, in GitLab's order, as the model reads it. */
function events(setting: Setting, source: SettingSource['type']): Partial<Record<NotificationEvent, boolean | null>> {
  const out: Partial<Record<NotificationEvent, boolean | null>> = {}
  for (const event of emailEvents(source)) out[event] = eventValue(setting, event)
  return out
}

/**
 * `{level}`, or `{level: "custom", events: {...}}`: a group or project setting. `events` appears
 * only at level `custom`; a flag never written is null (gitlab-behaviour.md §14 item 21).
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
