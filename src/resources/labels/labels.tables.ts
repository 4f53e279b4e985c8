/**
 * The labels area's store tables: labels of projects and groups, and projects' label priorities.
 * Their record types merge into the store's `Tables`, so `db.tables.labels` is typed everywhere.
 * gitlab: db/structure.sql (`labels`, `label_priorities`).
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** A label of a project (`project_id` set) or of a group (`group_id` set). */
export interface LabelRecord extends Row {
  title: string
  /** `#RRGGBB` or `#RGB`, case as given. */
  color: string
  description: string | null
  project_id: number | null
  group_id: number | null
  created_at: Timestamp
  updated_at: Timestamp
}

/** A project's priority for a label (GitLab `label_priorities`); absent = no priority. */
export interface LabelPriorityRecord extends Row {
  project_id: number
  label_id: number
  priority: number
}

declare module '../../db/schema.js' {
  interface Tables {
    labels: LabelRecord
    label_priorities: LabelPriorityRecord
  }
}

/** The tables and their indexes: labels by parent, priorities by project. */
export const labelTables = {
  labels: table<LabelRecord>(['project_id', 'group_id']),
  label_priorities: table<LabelPriorityRecord>(['project_id']),
}
