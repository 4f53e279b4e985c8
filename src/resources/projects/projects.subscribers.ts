/**
 * The projects area's subscriber: when a group's full path changes (`group_moved`, a rename or a
 * transfer), every project inside it (its subgroups' included) keeps its old full path as a
 * redirect route, as GitLab's `Route#rename_descendants` calls `create_redirect` for each route it
 * rewrites. git over HTTP then serves `old-group/project.git` with "Project … was moved" after a
 * push, as for a renamed project. gitlab: app/models/route.rb (13.12).
 * @module
 */
import { subscribe } from '../../rules/events.js'
import { recordProjectMove } from './projects.redirects.js'

subscribe('group_moved', (db, event) => {
  const groups = [event.group, ...db.groupDescendants(event.group)]
  for (const group of groups) {
    for (const project of db.tables.projects.where('namespace_id', group.id)) {
      if (project.namespace_type !== 'group') continue
      const now = db.projectFullPath(project)
      recordProjectMove(db, project, `${event.oldFullPath}${now.slice(event.newFullPath.length)}`, event.at)
    }
  }
})
