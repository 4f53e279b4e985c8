/**
 * Registers `import_status` of the project entities at start (`import_state.status`, `none` without
 * an import). gitlab: app/models/project.rb (`import_status`).
 * @module
 */
import { registerProjectRelations } from '../../entities/project.js'

registerProjectRelations({
  importStatus: (db, projectId) => db.tables.project_import_states.where('project_id', projectId)[0]?.status ?? 'none',
})
