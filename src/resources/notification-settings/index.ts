/**
 * The notification settings area: global, group and project notification settings of the current
 * user, the `notification_settings` and `emails` tables, and `emails:`/`notification_settings:` of
 * scenario users. gitlab: lib/api/notification_settings.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { notificationSettingRoutes } from './notification-settings.routes.js'
import { notificationSettingFragment } from './notification-settings.scenario.js'
import { notificationSettingTables } from './notification-settings.tables.js'

export type { EmailRecord, NotificationSettingRecord } from './notification-settings.tables.js'
export type { NotificationSettingFields } from './notification-settings.scenario.js'

/** The notification settings area. */
export const notificationSettings: Area = {
  name: 'notification-settings',
  routes: notificationSettingRoutes,
  tables: notificationSettingTables,
  scenario: notificationSettingFragment,
}
