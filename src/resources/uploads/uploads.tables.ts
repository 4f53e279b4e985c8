/**
 * The uploads tables: files uploaded to a project's Markdown (`POST /projects/:id/uploads`), the
 * bytes kept base64 so the store (and its state export) stays JSON, and the instance's attachment
 * limit. gitlab: db/structure.sql (`uploads`: `model_type`, `model_id`, `uploader`, `secret`, `path`,
 * `size`), app/models/application_setting.rb (`max_attachment_size`).
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** A file uploaded to a project (`FileUploader`): found by its secret and file name. */
export interface ProjectUploadRecord extends Row {
  project_id: number
  /** `FileUploader.generate_secret`: 32 lower-case hex digits, the URL's directory. */
  secret: string
  /** The sanitised file name (CarrierWave's `sanitize_regexp`), as the URL shows it. */
  filename: string
  /** The bytes, standard base64 (`rules/uploads.ts` `storedBytes`). */
  data: string
  /** The size in bytes. */
  size: number
  /** The user who uploaded it. */
  uploaded_by_user_id: number | null
  created_at: Timestamp
}

/** The instance's attachment limit (one row, id 1), from the scenario's top-level settings. */
export interface UploadSettingsRecord extends Row {
  /** `ApplicationSetting#max_attachment_size`, in megabytes (MB = 1024 × 1024 bytes). */
  max_attachment_size: number
  /** Whether the `enforce_max_attachment_size_upload_api` feature flag is on (off in 13.12). */
  enforce_max_attachment_size_upload_api: boolean
}

declare module '../../db/schema.js' {
  interface Tables {
    project_uploads: ProjectUploadRecord
    upload_settings: UploadSettingsRecord
  }
}

/** The tables and their indexes: uploads by project and by secret. */
export const uploadTables = {
  project_uploads: table<ProjectUploadRecord>(['project_id', 'secret']),
  upload_settings: table<UploadSettingsRecord>([]),
}
