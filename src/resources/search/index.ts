/**
 * The search area: GitLab's basic search over the instance, a group and a project
 * (`search.routes.ts`). gitlab: lib/api/search.rb (13.12).
 * @module
 */
import type { Area } from '../../scenario/area.js'

/** The search area. */
export const search: Area = {
  name: 'search',
  load: async () => {
    const { searchRoutes } = await import('./search.routes.js')
    return { api: searchRoutes }
  },
}
