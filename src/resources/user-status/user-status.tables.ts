/**
 * The `user_statuses` table: one status per user at most (`UserStatus`, keyed by its user's id).
 * gitlab: db/structure.sql (`user_statuses`), app/models/user_status.rb (13.12).
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table } from '../../db/schema.js'

/** A user's status: an emoji, a message and an availability. The row's `id` is the user's id. */
export interface UserStatusRecord extends Row {
  /** An emoji name GitLab knows (`speech_balloon` when set without one). */
  emoji: string
  /** At most 100 characters; null for none. */
  message: string | null
  availability: 'not_set' | 'busy'
}

declare module '../../db/schema.js' {
  interface Tables {
    user_statuses: UserStatusRecord
  }
}

/** The table. */
export const userStatusTables = {
  user_statuses: table<UserStatusRecord>(),
}
