/**
 * Registers `star_count` of the project entities at start. gitlab: app/models/project.rb
 * (`star_count`, kept by `User#toggle_star`).
 * @module
 */
import { registerProjectRelations } from '../../entities/project.js'

registerProjectRelations({
  starCount: (db, projectId) => db.tables.users_star_projects.where('project_id', projectId).length,
})
