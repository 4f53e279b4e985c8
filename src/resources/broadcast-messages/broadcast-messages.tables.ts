/**
 * The broadcast messages table. gitlab: db/structure.sql (`broadcast_messages`), app/models/broadcast_message.rb.
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** A message shown to every user between two instants, as a banner or a notification. */
export interface BroadcastMessageRecord extends Row {
  message: string
  starts_at: Timestamp
  ends_at: Timestamp
  color: string | null
  font: string | null
  target_path: string | null
  broadcast_type: 'banner' | 'notification'
  dismissable: boolean | null
  created_at: Timestamp
  updated_at: Timestamp
}

declare module '../../db/schema.js' {
  interface Tables {
    broadcast_messages: BroadcastMessageRecord
  }
}

/** The table. */
export const broadcastMessageTables = {
  broadcast_messages: table<BroadcastMessageRecord>(),
}
