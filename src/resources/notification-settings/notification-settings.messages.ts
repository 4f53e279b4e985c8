/**
 * The notification settings area's error messages. gitlab: lib/api/notification_settings.rb,
 * app/models/notification_setting.rb, app/models/user.rb (`owns_notification_email`).
 * @module
 */

/** Messages of the notification settings routes and validations. */
export const NotificationSettingMessage = {
  /** User `owns_notification_email` (13.x wording; later "must be an email you have verified"). */
  notAnEmailYouOwn: 'is not an email you own',
  /** 400 for a `level` that is not one of the levels (`NotificationSetting.levels`). */
  invalidLevel: (level: string) => `'${level}' is not a valid level`,
} as const
