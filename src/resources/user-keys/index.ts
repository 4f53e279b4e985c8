/**
 * The user keys area: the `keys` table (users' SSH keys and deploy keys, GitLab's single `Key`
 * table) and the `Key` model's rules that deploy keys share.
 * gitlab: app/models/key.rb, lib/api/keys.rb, lib/api/users.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { userKeyTables } from './user-keys.tables.js'
import type { SSHKey as SSHKeyPresenter } from './user-keys.entities.js'

export type { KeyRecord } from './user-keys.tables.js'
export type { KeyFact } from './user-keys.events.js'

/** GitLab's `SSHKey` entity, as fakelab sends it. */
export type SSHKey = ReturnType<typeof SSHKeyPresenter>

/** The user keys area. */
export const userKeys: Area = {
  name: 'user-keys',
  load: async () => {
    const { userKeyRoutes } = await import('./user-keys.routes.js')
    return { api: userKeyRoutes }
  },
  tables: userKeyTables,
}
