/**
 * The project-actions area: stars (`users_star_projects`, the entities' `star_count`), starrers,
 * archive and unarchive, housekeeping, a project's repository storage and a group's shared
 * projects. gitlab: lib/api/projects.rb, lib/api/groups.rb (13.12).
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { starFragment } from './project-actions.scenario.js'
import { projectActionTables } from './project-actions.tables.js'

export type { UserStarProjectRecord } from './project-actions.tables.js'
export type { StarFields } from './project-actions.scenario.js'

/** The project-actions area. */
export const projectActions: Area = {
  name: 'project-actions',
  load: async () => {
    const { projectActionRoutes } = await import('./project-actions.routes.js')
    return { api: projectActionRoutes }
  },
  register: async () => {
    await import('./project-actions.relations.js')
  },
  tables: projectActionTables,
  scenario: starFragment,
}
