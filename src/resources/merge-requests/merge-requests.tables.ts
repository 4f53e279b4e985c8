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
  /** Users asked to review (GitLab 13.7+ `merge_request_reviewers`), in the order given. */
  reviewer_ids: number[]
  label_ids: number[]
  milestone_id: number | null
  source_branch: string
  target_branch: string
  draft: boolean
  /** The head commit of the source branch (`diff_head_sha`; `diff_refs.head_sha`). 40 hex digits. */
  sha: string
  /** The merge base of source and target (`diff_refs.base_sha`). 40 hex digits. */
  base_sha: string
  /** The target branch's head when the diff was made (`diff_refs.start_sha`). 40 hex digits. */
  start_sha: string
  /** The merge commit of a merged merge request (null until merged, and when squashed). */
  merge_commit_sha: string | null
  /** The squash commit of a merged merge request that was squashed, else null. */
  squash_commit_sha: string | null
  merge_status: string
  /** Squash the commits on merge. */
  squash: boolean
  /** Whether only project members may comment; null when never set. */
  discussion_locked: boolean | null
  /** `force_remove_source_branch` (`remove_source_branch` of the API writes); null when never set. */
  force_remove_source_branch: boolean | null
  /** Seconds. */
  time_estimate: number
  /** Seconds; the sum of time logs. */
  total_time_spent: number
  created_at: Timestamp
  updated_at: Timestamp
  merged_at: Timestamp | null
  merged_by_id: number | null
  closed_at: Timestamp | null
  closed_by_id: number | null
  upvotes: number
  downvotes: number
  user_notes_count: number
  /** `auto_merge_enabled` with the `merge_when_pipeline_succeeds` strategy; absent reads false. */
  merge_when_pipeline_succeeds?: boolean
  /** Who set it to merge when the pipeline succeeds (`merge_user_id`). */
  merge_user_id?: number | null
  /** `merge_params['should_remove_source_branch']`, given to the merge call; absent reads null. */
  should_remove_source_branch?: boolean | null
  /** `merge_error`: why the last merge or rebase failed; absent reads null. */
  merge_error?: string | null
  /** The rest of `merge_params` the merge call kept for a later automatic merge; absent reads {}. */
  merge_params?: MergeRequestMergeParams
}

/** `merge_params` besides `should_remove_source_branch` (its own column here). */
export interface MergeRequestMergeParams {
  /** `merge_commit_message` of the merge call. */
  commit_message?: string
  /** `squash_commit_message` of the merge call. */
  squash_commit_message?: string
  /** The source head the merge was asked for (`sha`, else the head then): a push since aborts an automatic merge. */
  sha?: string
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
