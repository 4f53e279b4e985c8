/**
 * Job artifacts (`ci_job_artifacts`, the `archive` file type): the files a job's `artifacts:`
 * kept, stored as their paths and bytes; the zip GitLab serves is built from them on demand
 * (`jobs.artifacts.zip.ts`). gitlab: db/structure.sql (`ci_job_artifacts`), app/models/ci/job_artifact.rb.
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** One file of an artifacts archive: its path inside the archive and its bytes (standard base64). */
export interface ArtifactEntry {
  path: string
  content: string
}

/** A job's artifacts archive (one per job that has artifacts). */
export interface JobArtifactRecord extends Row {
  job_id: number
  project_id: number
  /** The archive's files, in the order written. */
  files: ArtifactEntry[]
  /** When the artifacts expire (`artifacts_expire_at`); null = kept for ever. */
  expire_at: Timestamp | null
  created_at: Timestamp
}

declare module '../../db/schema.js' {
  interface Tables {
    job_artifacts: JobArtifactRecord
  }
}

/** The table and its index: artifacts by job. */
export const jobArtifactTables = {
  job_artifacts: table<JobArtifactRecord>(['job_id']),
}
