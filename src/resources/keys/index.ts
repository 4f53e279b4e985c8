/**
 * The keys area: `lib/api/keys.rb`'s look-ups across the `keys` table, which hold users' SSH keys
 * and deploy keys. It sits above both key areas and owns no table.
 * gitlab: lib/api/keys.rb (13.12).
 * @module
 */
import type { Area } from '../../scenario/area.js'

/** The keys area. */
export const keys: Area = {
  name: 'keys',
  load: async () => {
    const { keyRoutes } = await import('./keys.routes.js')
    return { api: keyRoutes }
  },
}
