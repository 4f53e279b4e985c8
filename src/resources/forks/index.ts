/**
 * The forks area: forking a project, its forks, fork links between existing projects
 * (`fork_network_members`), and the project entities' `forks_count` and `forked_from_project`
 * (registered at start). gitlab: lib/api/projects.rb, app/services/projects/fork_service.rb (13.12).
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { forkFragment } from './forks.scenario.js'
import { forkTables } from './forks.tables.js'

export type { ForkLinkRecord } from './forks.tables.js'
export type { ForkFields } from './forks.scenario.js'

/** The forks area. */
export const forks: Area = {
  name: 'forks',
  load: async () => {
    const { forkRoutes } = await import('./forks.routes.js')
    return { api: forkRoutes }
  },
  register: async () => {
    await import('./forks.relations.js')
  },
  tables: forkTables,
  scenario: forkFragment,
  cascade: [{ kind: 'cascade', table: 'fork_network_members', column: 'forked_from_project_id', parent: 'projects' }],
}
