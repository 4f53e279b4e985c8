/**
 * The version area: `GET /version`. No tables, no scenario fragment. gitlab: lib/api/version.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'

/** The version area. */
export const version: Area = {
  name: 'version',
  load: async () => {
    const { versionRoutes } = await import('./version.routes.js')
    return { api: versionRoutes }
  },
}
