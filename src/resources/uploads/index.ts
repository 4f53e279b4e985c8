/**
 * The uploads area: files uploaded to a project (`POST /projects/:id/uploads`) in the
 * `project_uploads` table, served back at the project's web URL
 * `/<namespace>/<project>/uploads/:secret/:filename`; the instance's attachment limit in
 * `upload_settings` (top-level `max_attachment_size:` and `enforce_max_attachment_size_upload_api:`
 * of the scenario). The serving helpers it shares with user avatars and metric images live in
 * `rules/uploads.ts`. Issue 34 item 1; gitlab: lib/api/projects.rb, app/uploaders/file_uploader.rb,
 * app/controllers/projects/uploads_controller.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { uploadFragment } from './uploads.scenario.js'
import { uploadTables } from './uploads.tables.js'

export type { ProjectUploadRecord, UploadSettingsRecord } from './uploads.tables.js'
export type { UploadSettings } from './uploads.scenario.js'
export type { ProjectUploadEntity } from './uploads.entities.js'

/** The uploads area. */
export const uploads: Area = {
  name: 'uploads',
  load: async () => {
    const { uploadRoutes, uploadWebRoutes } = await import('./uploads.routes.js')
    return { api: uploadRoutes, web: uploadWebRoutes }
  },
  tables: uploadTables,
  scenario: uploadFragment,
}
