/**
 * The applications area: OAuth applications an administrator registers, lists and deletes
 * (`/applications`). Its rows are the users area's `oauth_applications` (the scenario's
 * `oauth_applications` section, the tokens' `application_id`), which it writes, with the tokens of
 * a deleted application. gitlab: lib/api/applications.rb (13.12).
 * @module
 */
import type { Area } from '../../scenario/area.js'

/** The applications area. */
export const applications: Area = {
  name: 'applications',
  load: async () => {
    const { applicationRoutes } = await import('./applications.routes.js')
    return { api: applicationRoutes }
  },
  writes: ['oauth_applications'],
}
