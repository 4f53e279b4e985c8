/**
 * Registers `star_count` of the project entities and the stars `GET /projects?starred=true` reads,
 * before the first request. gitlab: app/models/project.rb
 * (`star_count`, kept by `User#toggle_star`).
 * @module
 */
import { registerProjectRelations } from '../../entities/project.js'

registerProjectRelations({
  starCount: (db, projectId) => db.tables.users_star_projects.where('project_id', projectId).length,
  starredBy: (db, userId) => new Set(db.tables.users_star_projects.where('user_id', userId).map((star) => star.project_id)),
})
