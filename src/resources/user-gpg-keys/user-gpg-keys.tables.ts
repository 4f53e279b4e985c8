/**
 * The `gpg_keys` table: users' OpenPGP public keys. gitlab: db/structure.sql (`gpg_keys`), app/models/gpg_key.rb.
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** A user's GPG public key, as GitLab stores it. */
export interface GpgKeyRecord extends Row {
  user_id: number
  /** The ASCII-armoured public key, stripped. */
  key: string
  /** The primary key's fingerprint: 40 upper-case hex digits (v4). */
  fingerprint: string
  /** The primary key's long key id: 16 upper-case hex digits. */
  primary_keyid: string
  created_at: Timestamp
  updated_at: Timestamp
}

declare module '../../db/schema.js' {
  interface Tables {
    gpg_keys: GpgKeyRecord
  }
}

/** The table, by user and by fingerprint. */
export const userGpgKeyTables = {
  gpg_keys: table<GpgKeyRecord>(['user_id', 'fingerprint']),
}
