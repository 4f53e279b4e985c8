/**
 * What other areas may use of SSH keys: the `SSHKey` presenter and the `Key` model's validation,
 * which deploy keys share (they are rows of the same `keys` table).
 * @module
 */
export { SSHKey } from './user-keys.entities.js'
export { validateKey } from './user-keys.model.js'
export type { KeyRecord } from './user-keys.tables.js'
