/**
 * The notification settings and user emails tables. gitlab: db/structure.sql
 * (`notification_settings`, `emails`), app/models/notification_setting.rb (13.x).
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** Notification levels, in GitLab's enum order. gitlab: app/models/notification_setting.rb `enum level:`. */
export const NOTIFICATION_LEVELS = ['disabled', 'participating', 'watch', 'global', 'mention', 'custom'] as const

/** One of {@link NOTIFICATION_LEVELS}. */
export type NotificationLevel = (typeof NOTIFICATION_LEVELS)[number]

/**
 * The email events of 13.x CE, in `NotificationSetting::EMAIL_EVENTS` order: the spec's list plus
 * `new_release` and `change_reviewer_merge_request` (gitlab-behaviour.md §10, §14 item 6).
 */
// spec-gap: the spec's event list omits new_release and change_reviewer_merge_request; GitLab 13.x
// shows and accepts both, so we do (gitlab: app/models/notification_setting.rb EMAIL_EVENTS).
export const EMAIL_EVENTS = [
  'new_release',
  'new_note',
  'new_issue',
  'reopen_issue',
  'close_issue',
  'reassign_issue',
  'issue_due',
  'new_merge_request',
  'push_to_merge_request',
  'reopen_merge_request',
  'close_merge_request',
  'reassign_merge_request',
  'change_reviewer_merge_request',
  'merge_merge_request',
  'failed_pipeline',
  'fixed_pipeline',
  'success_pipeline',
  'moved_project',
  'merge_when_pipeline_succeeds',
] as const

/** The higher-tier event GitLab adds for groups only (`EE::NotificationSetting.email_events(Group)`). */
export const GROUP_ONLY_EVENTS = ['new_epic'] as const

/** An email event name. */
export type NotificationEvent = (typeof EMAIL_EVENTS)[number] | (typeof GROUP_ONLY_EVENTS)[number]

/** Every event column: null = never written (nullable boolean columns without a default). */
export type NotificationEventColumns = { [E in NotificationEvent]: boolean | null }

/**
 * A user's notification setting: global (`source_type` null), for a group (`Namespace`) or for a
 * project. At most one per user and source.
 */
export interface NotificationSettingRecord extends Row, NotificationEventColumns {
  user_id: number
  source_type: 'Project' | 'Namespace' | null
  source_id: number | null
  level: NotificationLevel
  /**
   * Global settings only: the address notifications go to, null for the primary email.
   * (GitLab keeps this column on `users`; it lives here so the users table stays core's.)
   */
  notification_email: string | null
  created_at: Timestamp
  updated_at: Timestamp
}

/** A secondary email address of a user (`emails`); confirmed ones are "verified". */
export interface EmailRecord extends Row {
  user_id: number
  email: string
  confirmed_at: Timestamp | null
  created_at: Timestamp
}

declare module '../../db/schema.js' {
  interface Tables {
    notification_settings: NotificationSettingRecord
    emails: EmailRecord
  }
}

/** The tables and their indexes: both by user (every read is the current user's). */
export const notificationSettingTables = {
  notification_settings: table<NotificationSettingRecord>(['user_id']),
  emails: table<EmailRecord>(['user_id']),
}
