/**
 * The `keys` table: SSH keys of users and deploy keys alike (GitLab's single-table `Key`, with
 * `type` `DeployKey` for deploy keys), so a fingerprint is unique across both and `GET /keys/:id`
 * finds either. The deploy keys area writes its rows here (`Area.writes`).
 * gitlab: db/structure.sql (`keys`), app/models/key.rb, app/models/deploy_key.rb.
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** An SSH public key: a user's (`type` null) or a deploy key (`DeployKey`). */
export interface KeyRecord extends Row {
  /** The owner of a user key; the creator of a deploy key (null when unknown). */
  user_id: number | null
  /** `DeployKey` for a deploy key, null for a user's SSH key. */
  type: 'DeployKey' | null
  title: string
  /** The key line as stored (`Gitlab::SSHPublicKey.sanitize`: algorithm, blob, first comment word). */
  key: string
  /** MD5 fingerprint, colon-separated hex. */
  fingerprint: string
  /** SHA256 fingerprint, unpadded base64 without the `SHA256:` prefix. */
  fingerprint_sha256: string
  /** A deploy key every maintainer may enable (`public`); false for user keys. */
  public: boolean
  expires_at: Timestamp | null
  created_at: Timestamp
  updated_at: Timestamp
}

declare module '../../db/schema.js' {
  interface Tables {
    keys: KeyRecord
  }
}

/** The table and its indexes: keys by user and by fingerprint. */
export const userKeyTables = {
  keys: table<KeyRecord>(['user_id', 'fingerprint', 'fingerprint_sha256']),
}
