/**
 * The merge requests table. Other areas read it through `db.tables.merge_requests` and name its
 * record `Tables['merge_requests']`. gitlab: db/structure.sql (`merge_requests`).
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** A merge request; `project_id` is the target project, `iid` is per target project. */
export interface MergeRequestRecord extends Row {
  iid: number
  project_id: number
  source_project_id: number
  title: string
  description: string
  state: 'opened' | 'closed' | 'merged' | 'locked'
  author_id: number
  assignee_ids: number[]
  label_ids: number[]
  milestone_id: number | null
  source_branch: string
  target_branch: string
  draft: boolean
  sha: string
  merge_status: string
  created_at: Timestamp
  updated_at: Timestamp
  merged_at: Timestamp | null
  merged_by_id: number | null
  closed_at: Timestamp | null
  closed_by_id: number | null
  upvotes: number
  downvotes: number
  user_notes_count: number
}

declare module '../../db/schema.js' {
  interface Tables {
    merge_requests: MergeRequestRecord
  }
}

/** The table and its index: merge requests by target project. */
export const mergeRequestTables = {
  merge_requests: table<MergeRequestRecord>(['project_id']),
}
