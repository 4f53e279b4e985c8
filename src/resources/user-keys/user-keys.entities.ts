/**
 * SSH key entities. gitlab: lib/api/entities/ssh_key.rb (13.12: `id, title, key, created_at, expires_at`).
 * @module
 */
import type { KeyRecord } from './user-keys.tables.js'

/** GitLab's `SSHKey`: `id, title, key, created_at, expires_at`. */
export function SSHKey(key: KeyRecord) {
  return {
    id: key.id,
    title: key.title,
    key: key.key,
    created_at: key.created_at,
    expires_at: key.expires_at,
  }
}
