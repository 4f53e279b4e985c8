/**
 * The labels area's store tables: labels of projects and groups, projects' label priorities, and
 * subscriptions (labels were the first subscribable; GitLab's `lib/api/subscriptions.rb` serves
 * labels and issues alike). Their record types merge into the store's `Tables`; other areas read
 * them through the area's finders (`labels.public.ts`).
 * gitlab: db/structure.sql (`labels`, `label_priorities`, `subscriptions`).
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

/**
 * A user's subscription to a label, an issue (or, later, a merge request); `project_id` scopes it
 * to one project. The issues area writes its issues' rows too (it declares `writes`).
 * gitlab: app/models/subscription.rb, app/models/concerns/subscribable.rb.
 */
export interface SubscriptionRecord extends Row {
  user_id: number
  subscribable_type: 'Label' | 'Issue' | 'MergeRequest'
  subscribable_id: number
  project_id: number | null
  subscribed: boolean
}

declare module '../../db/schema.js' {
  interface Tables {
    labels: LabelRecord
    label_priorities: LabelPriorityRecord
    subscriptions: SubscriptionRecord
  }
}

/** The tables and their indexes: labels by parent, priorities by project. */
export const labelTables = {
  labels: table<LabelRecord>(['project_id', 'group_id']),
  label_priorities: table<LabelPriorityRecord>(['project_id']),
  subscriptions: table<SubscriptionRecord>(['subscribable_id']),
}
