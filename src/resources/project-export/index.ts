/**
 * The project-export area: project and group export files (fakelab's own tar.gz), and projects and
 * groups imported from them (`import_export_uploads`, `project_import_states`; the entities'
 * `import_status`). gitlab: lib/api/project_export.rb, project_import.rb, group_export.rb,
 * group_import.rb (13.12).
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { exportTables } from './project-export.tables.js'

export type { ExportUploadRecord, ProjectImportStateRecord } from './project-export.tables.js'

/** The project-export area. */
export const projectExport: Area = {
  name: 'project-export',
  load: async () => {
    const { exportRoutes } = await import('./project-export.routes.js')
    return { api: exportRoutes }
  },
  register: async () => {
    await import('./project-export.relations.js')
  },
  tables: exportTables,
  cascade: [{ kind: 'cascade', table: 'import_export_uploads', column: 'owner_id', parent: 'projects', where: { kind: 'project' } }, { kind: 'cascade', table: 'import_export_uploads', column: 'owner_id', parent: 'groups', where: { kind: 'group' } }],
}
