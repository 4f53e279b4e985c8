/**
 * The version area: `GET /version`. No tables, no scenario fragment. gitlab: lib/api/version.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { versionRoutes } from './version.routes.js'

/** The version area. */
export const version: Area = {
  name: 'version',
  routes: versionRoutes,
}
