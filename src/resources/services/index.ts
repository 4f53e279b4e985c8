/**
 * The services area: a project's integrations (`/projects/:id/services` and
 * `/projects/:id/integrations`), their fields as data (`services.definitions.ts`) and the
 * `services` table. gitlab: lib/api/services.rb, lib/api/helpers/services_helpers.rb (13.12).
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { serviceFragment } from './services.scenario.js'
import { serviceTables } from './services.tables.js'

export type { ServiceRecord } from './services.tables.js'
export type { ServiceFields } from './services.scenario.js'

/** The services area. */
export const services: Area = {
  name: 'services',
  load: async () => {
    const { serviceRoutes } = await import('./services.routes.js')
    return { api: serviceRoutes }
  },
  tables: serviceTables,
  scenario: serviceFragment,
  secrets: { bodyFields: ['api_key', 'password', 'token', 'user_key', 'google_iap_service_account_json'] },
}
