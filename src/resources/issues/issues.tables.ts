/**
 * The issues area's tables: issues, "merge request closes issue" links, user agent
 * details and metric images. Other areas read them through the area's finders
 * (`issues.public.ts`) and may name a record as `Tables['issues']`.
 * gitlab: db/structure.sql (`issues`, `merge_requests_closing_issues`,
 * `user_agent_details`, `issuable_metric_images`).
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type DateString, type Timestamp } from '../../db/schema.js'

/** An issue; `iid` is per project. Label and assignee links are id arrays. */
export interface IssueRecord extends Row {
  iid: number
  project_id: number
  title: string
  /** null when the issue was created without one (GitLab stores nil). */
  description: string | null
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
  /** Award emoji `thumbsup` count (scenario `upvotes` plus `thumbsup` awards). */
  upvotes: number
  /** Award emoji `thumbsdown` count. */
  downvotes: number
  /** Non-system notes (scenario `user_notes_count` plus the notes stored). */
  user_notes_count: number
  relative_position: number | null
  /** Seconds. */
  time_estimate: number
  /** Seconds; the sum of time logs. */
  total_time_spent: number
  /**
   * Weight (a higher-tier field, GitLab Premium); absent or null = none. Set by a scenario's
   * `weight:`; read by `order_by=weight` and the burndown events (issue 23, item 10).
   */
  weight?: number | null
}

/** "Merge request `merge_request_id` closes issue `issue_id` when merged" (`Closes #1` in its description). */
export interface ClosingIssueRecord extends Row {
  merge_request_id: number
  issue_id: number
}

/** "Merge request `merge_request_id` mentions issue `issue_id`" (a related merge request that does not close it). */
export interface MentionRecord extends Row {
  merge_request_id: number
  issue_id: number
}

/** How an issue or a snippet was submitted (spam checking): administrators read it through the API. */
export interface UserAgentDetailRecord extends Row {
  subject_id: number
  subject_type: 'Issue' | 'Snippet'
  user_agent: string
  ip_address: string
  akismet_submitted: boolean
}

/** A metric image uploaded to an incident; the bytes are kept in memory. */
export interface MetricImageRecord extends Row {
  issue_id: number
  filename: string
  /** The uploaded bytes, base64 (so the store stays JSON-serialisable). */
  data: string
  content_type: string
  /** The optional link given with the upload. */
  url: string | null
  created_at: Timestamp
}

declare module '../../db/schema.js' {
  interface Tables {
    issues: IssueRecord
    merge_requests_closing_issues: ClosingIssueRecord
    merge_request_mentions: MentionRecord
    user_agent_details: UserAgentDetailRecord
    issuable_metric_images: MetricImageRecord
  }
}

/** The tables and their indexes. */
export const issueTables = {
  issues: table<IssueRecord>(['project_id', 'milestone_id']),
  merge_requests_closing_issues: table<ClosingIssueRecord>(['issue_id', 'merge_request_id']),
  merge_request_mentions: table<MentionRecord>(['issue_id']),
  user_agent_details: table<UserAgentDetailRecord>(['subject_id']),
  issuable_metric_images: table<MetricImageRecord>(['issue_id']),
}
