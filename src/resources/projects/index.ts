/**
 * The projects area: `/projects` discovery routes and the projects of a scenario (the `projects`
 * table is core's: access checks need it). gitlab: lib/api/projects.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { projectAvatarTables } from './projects.avatars.js'
import { projectTables } from './projects.redirects.js'
import { projectFragment } from './projects.scenario.js'

export type { ProjectFields } from './projects.scenario.js'
export type { ProjectFact } from './projects.events.js'

/** The projects area. */
export const projects: Area = {
  name: 'projects',
  load: async () => {
    const [{ projectRoutes }, { projectAvatarWebRoutes }] = await Promise.all([import('./projects.routes.js'), import('./projects.avatars.js')])
    return { api: projectRoutes, web: projectAvatarWebRoutes }
  },
  // The redirects a group's move leaves for its projects; uploaded avatars for `avatar_url`.
  register: async () => {
    await import('./projects.subscribers.js')
    await import('./projects.avatar-finder.js')
  },
  scenario: projectFragment,
  tables: { ...projectTables, ...projectAvatarTables },
  // A project goes with the group or the user whose namespace holds it.
  cascade: [
    { kind: 'cascade', table: 'projects', column: 'namespace_id', parent: 'groups', where: { namespace_type: 'group' } },
    { kind: 'cascade', table: 'projects', column: 'namespace_id', parent: 'users', where: { namespace_type: 'user' } },
    // A project's old paths go with it.
    { kind: 'cascade', table: 'redirect_routes', column: 'project_id', parent: 'projects' },
    // An uploaded avatar goes with its project.
    { kind: 'cascade', table: 'project_avatars', column: 'project_id', parent: 'projects' },
  ],
  // A recorded project answer's fields that its scenario fields take as they are.
  importer: {
    projectFields: ['name', 'visibility', 'description', 'default_branch', 'archived', 'created_at', 'last_activity_at', 'repository_storage', 'runners_token'],
  },
}
