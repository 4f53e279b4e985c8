/**
 * The features area: GitLab's own feature flags (Flipper) as a store, `GET|POST|DELETE /features`,
 * for administrators. gitlab: lib/api/features.rb (13.12).
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { featureFragment } from './features.scenario.js'
import { featureTables } from './features.tables.js'

export type { FeatureRecord } from './features.tables.js'

/** The features area. */
export const features: Area = {
  name: 'features',
  load: async () => {
    const { featureRoutes } = await import('./features.routes.js')
    return { api: featureRoutes }
  },
  tables: featureTables,
  scenario: featureFragment,
}
