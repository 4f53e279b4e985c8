/**
 * Registers the forks area's part of the project entities at start: `forks_count` and
 * `forked_from_project` read the fork links. gitlab: app/models/project.rb (`forks_count`,
 * `forked_from_project`).
 * @module
 */
import { registerProjectRelations } from '../../entities/project.js'

registerProjectRelations({
  forksCount: (db, projectId) => db.tables.fork_network_members.where('forked_from_project_id', projectId).length,
  forkedFrom(db, projectId) {
    const link = db.tables.fork_network_members.where('project_id', projectId)[0]
    return link ? db.tables.projects.get(link.forked_from_project_id) : undefined
  },
})
