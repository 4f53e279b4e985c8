/**
 * The templates area: the instance's `.gitlab-ci.yml`, `.gitignore`, Dockerfile and license
 * templates (`/templates/*`), a small real set shipped with fakelab. No tables, no scenario
 * fragment. gitlab: lib/api/templates.rb (13.12).
 * @module
 */
import type { Area } from '../../scenario/area.js'

/** The templates area. */
export const templates: Area = {
  name: 'templates',
  load: async () => {
    const { templateRoutes } = await import('./templates.routes.js')
    return { api: templateRoutes }
  },
}
