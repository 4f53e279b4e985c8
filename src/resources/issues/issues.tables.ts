/**
 * The issues table. Other areas read it through `db.tables.issues` (milestone issue lists, label
 * counts) and name its record `Tables['issues']`. gitlab: db/structure.sql (`issues`).
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type DateString, type Timestamp } from '../../db/schema.js'

/** An issue; `iid` is per project. Label and assignee links are id arrays. */
export interface IssueRecord extends Row {
  iid: number
  project_id: number
  title: string
  description: string
  state: 'opened' | 'closed'
  author_id: number
  assignee_ids: number[]
  label_ids: number[]
  milestone_id: number | null
  confidential: boolean
  discussion_locked: boolean | null
  issue_type: 'issue' | 'incident' | 'test_case'
  due_date: DateString | null
  created_at: Timestamp
  updated_at: Timestamp
  closed_at: Timestamp | null
  closed_by_id: number | null
  moved_to_id: number | null
  upvotes: number
  downvotes: number
  user_notes_count: number
  relative_position: number | null
  /** Seconds. */
  time_estimate: number
  /** Seconds; the sum of time logs. */
  total_time_spent: number
}

declare module '../../db/schema.js' {
  interface Tables {
    issues: IssueRecord
  }
}

/** The table and its index: issues by project. */
export const issueTables = {
  issues: table<IssueRecord>(['project_id']),
}
