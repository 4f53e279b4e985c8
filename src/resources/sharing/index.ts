/**
 * The sharing area: groups and projects shared with groups (`group_group_links`,
 * `project_group_links`). Both tables are core's, because every access check reads them
 * (src/rules/access.ts); this area writes them. gitlab: lib/api/groups.rb, lib/api/projects.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { sharingFragment } from './sharing.scenario.js'
import { sharingImporter } from './sharing.import.js'

export type { SharingFields } from './sharing.scenario.js'

/** The sharing area. */
export const sharing: Area = {
  name: 'sharing',
  load: async () => {
    const { sharingRoutes } = await import('./sharing.routes.js')
    return { api: sharingRoutes }
  },
  scenario: sharingFragment,
  importer: sharingImporter,
  // A share goes with either side.
  cascade: [
    { kind: 'cascade', table: 'group_group_links', column: 'shared_group_id', parent: 'groups' },
    { kind: 'cascade', table: 'group_group_links', column: 'shared_with_group_id', parent: 'groups' },
    { kind: 'cascade', table: 'project_group_links', column: 'project_id', parent: 'projects' },
    { kind: 'cascade', table: 'project_group_links', column: 'group_id', parent: 'groups' },
  ],
}
