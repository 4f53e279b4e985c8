/**
 * The remote mirrors table: a project's push mirrors, kept as a store (fakelab pushes nowhere).
 * gitlab: db/structure.sql `remote_mirrors` (13.12), app/models/remote_mirror.rb.
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** `RemoteMirror`'s `update_status` state machine's states (initial `none`). */
export const UPDATE_STATUSES = ['none', 'scheduled', 'started', 'finished', 'failed', 'to_retry'] as const

/** One of {@link UPDATE_STATUSES}. */
export type UpdateStatus = (typeof UPDATE_STATUSES)[number]

/** A push mirror of a project. */
export interface RemoteMirrorRecord extends Row {
  project_id: number
  /** The URL as given, credentials included (the entity masks them). */
  url: string
  enabled: boolean
  only_protected_branches: boolean
  keep_divergent_refs: boolean
  update_status: UpdateStatus
  last_update_at: Timestamp | null
  last_update_started_at: Timestamp | null
  last_successful_update_at: Timestamp | null
  last_error: string | null
  created_at: Timestamp
  updated_at: Timestamp
}

declare module '../../db/schema.js' {
  interface Tables {
    remote_mirrors: RemoteMirrorRecord
  }
}

/** The table, indexed by project. */
export const remoteMirrorTables = {
  remote_mirrors: table<RemoteMirrorRecord>(['project_id']),
}
