/**
 * The milestones table. It holds group and project milestones alike (one GitLab model); the group
 * milestone routes are this area's, and project milestone routes will join them here.
 * gitlab: db/structure.sql (`milestones`).
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type DateString, type Timestamp } from '../../db/schema.js'

/** A milestone of a group (`group_id`) or a project (`project_id`); `iid` is per parent. */
export interface MilestoneRecord extends Row {
  iid: number
  title: string
  description: string | null
  state: 'active' | 'closed'
  due_date: DateString | null
  start_date: DateString | null
  group_id: number | null
  project_id: number | null
  created_at: Timestamp
  updated_at: Timestamp
}

declare module '../../db/schema.js' {
  interface Tables {
    milestones: MilestoneRecord
  }
}

/** The table and its indexes: milestones by parent. */
export const milestoneTables = {
  milestones: table<MilestoneRecord>(['group_id', 'project_id']),
}
