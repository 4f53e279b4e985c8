/**
 * The namespaces area: `GET /namespaces`, the lookup clients make to find where a project can go
 * (a user's personal namespace and the groups they belong to). It owns no table: namespaces are
 * the users' and groups' rows. gitlab: lib/api/namespaces.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'

/** The namespaces area. */
export const namespaces: Area = {
  name: 'namespaces',
  load: async () => {
    const { namespaceRoutes } = await import('./namespaces.routes.js')
    return { api: namespaceRoutes }
  },
}
