/**
 * The user GPG keys area: the `gpg_keys` table and `/user/gpg_keys`, `/users/:id/gpg_keys`.
 * gitlab: lib/api/users.rb, app/models/gpg_key.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { userGpgKeyTables } from './user-gpg-keys.tables.js'

export type { GpgKeyRecord } from './user-gpg-keys.tables.js'

/** The user GPG keys area. */
export const userGpgKeys: Area = {
  name: 'user-gpg-keys',
  load: async () => {
    const { userGpgKeyRoutes } = await import('./user-gpg-keys.routes.js')
    return { api: userGpgKeyRoutes }
  },
  tables: userGpgKeyTables,
}
