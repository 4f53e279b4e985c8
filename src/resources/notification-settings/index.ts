/**
 * The notification settings area: global, group and project notification settings of the current
 * user, the `notification_settings` and `emails` tables, and `emails:`/`notification_settings:` of
 * scenario users. gitlab: lib/api/notification_settings.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { notificationSettingFragment } from './notification-settings.scenario.js'
import { notificationSettingTables } from './notification-settings.tables.js'
import type { NotificationSetting as NotificationSettingPresenter, GlobalNotificationSetting as GlobalNotificationSettingPresenter } from './notification-settings.entities.js'

export type { EmailRecord, NotificationSettingRecord } from './notification-settings.tables.js'
export type { NotificationSettingFields } from './notification-settings.scenario.js'

/** GitLab's `NotificationSetting` entity, as fakelab sends it. */
export type NotificationSetting = ReturnType<typeof NotificationSettingPresenter>
/** GitLab's `GlobalNotificationSetting` entity, as fakelab sends it. */
export type GlobalNotificationSetting = ReturnType<typeof GlobalNotificationSettingPresenter>

/** The notification settings area. */
export const notificationSettings: Area = {
  name: 'notification-settings',
  load: async () => {
    const { notificationSettingRoutes } = await import('./notification-settings.routes.js')
    return { api: notificationSettingRoutes }
  },
  tables: notificationSettingTables,
  scenario: notificationSettingFragment,
}
