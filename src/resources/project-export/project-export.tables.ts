/**
 * The project-export area's tables: the export file of a project and of a group (fakelab's own
 * tar.gz, kept as base64 so that the state export carries it), and how a project's import went
 * (`project_import_states`' status and last error). gitlab: db/structure.sql `import_export_uploads`,
 * `project_export_jobs`, `project_mirror_data` (`import_state`) (13.12).
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** A finished export of a project or a group: its file. */
export interface ExportUploadRecord extends Row {
  /** `project` or `group`. */
  kind: 'project' | 'group'
  /** The project's or group's id. */
  owner_id: number
  /** `2021-04-01_12-00-000_acme_website_export.tar.gz` (`export_filename`). */
  filename: string
  /** The tar.gz, standard base64. */
  archive: string
  created_at: Timestamp
}

/** How a project's import from an export file went. */
export interface ProjectImportStateRecord extends Row {
  project_id: number
  /** `finished` or `failed` (the import runs at once). */
  status: 'finished' | 'failed'
  last_error: string | null
  correlation_id: string
}

declare module '../../db/schema.js' {
  interface Tables {
    import_export_uploads: ExportUploadRecord
    project_import_states: ProjectImportStateRecord
  }
}

/** The tables, indexed by owner and project. */
export const exportTables = {
  import_export_uploads: table<ExportUploadRecord>(['owner_id']),
  project_import_states: table<ProjectImportStateRecord>(['project_id']),
}
