/**
 * What other areas may use of SSH keys: the `SSHKey` presenter and the `Key` model's validation,
 * which deploy keys share (they are rows of the same `keys` table), and `KeysFinder`'s look-ups.
 * @module
 */
export { SSHKey } from './user-keys.entities.js'
export { keyByFingerprint, keyById, validateKey } from './user-keys.model.js'
export type { KeyRecord } from './user-keys.tables.js'
