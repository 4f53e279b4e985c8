/**
 * The pages area: a project's GitLab Pages domains (`/projects/:id/pages/domains`, the admin's
 * `/pages/domains`), unpublishing (`DELETE /projects/:id/pages`), the `pages_domains` table and
 * `pages_domains:` of scenario projects. gitlab: lib/api/pages_domains.rb, lib/api/pages.rb (13.12).
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { pagesFragment } from './pages.scenario.js'
import { pagesTables } from './pages.tables.js'

export type { PagesDomainRecord } from './pages.tables.js'
export type { PagesDomainFields } from './pages.scenario.js'
export type { PagesDomainEntity, PagesDomainBasicEntity } from './pages.entities.js'

/** The pages area. */
export const pages: Area = {
  name: 'pages',
  load: async () => {
    const { pagesRoutes } = await import('./pages.routes.js')
    return { api: pagesRoutes }
  },
  tables: pagesTables,
  scenario: pagesFragment,
}
