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
  /**
   * A scenario's `changes_count` stand-in: the number of changed files answered when the project's
   * repository has no diff for the merge request (an imported recording's); absent reads 0.
   */
  changes_count?: number
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

/**
 * An approval of a merge request by a user (CE 13.12: any number, one per user).
 * gitlab: db/structure.sql (`approvals`), app/models/approval.rb.
 */
export interface MergeRequestApprovalRecord extends Row {
  merge_request_id: number
  user_id: number
  created_at: Timestamp
  updated_at: Timestamp
}

/**
 * A version of a merge request's diff (`merge_request_diffs`): one when it is created, one more for
 * every push to its source branch. Its commits and files are read from the repository by its SHAs.
 * gitlab: db/structure.sql (`merge_request_diffs`), app/models/merge_request_diff.rb.
 */
export interface MergeRequestDiffRecord extends Row {
  merge_request_id: number
  /** The source branch's head (40 hex), or null when it had none. */
  head_commit_sha: string | null
  /** The merge base of head and start, or null (unrelated histories, or unknown). */
  base_commit_sha: string | null
  /** The target branch's head. */
  start_commit_sha: string | null
  /** `empty` (no commits, or no changed file), `collected` (changed files). */
  state: 'empty' | 'collected'
  /** The number of changed files as a string; null when the diff had no commits. */
  real_size: string | null
  created_at: Timestamp
}

declare module '../../db/schema.js' {
  interface Tables {
    merge_requests: MergeRequestRecord
    merge_request_approvals: MergeRequestApprovalRecord
    merge_request_diffs: MergeRequestDiffRecord
  }
}

/** The tables and their indexes: merge requests by target project; approvals and diff versions by merge request. */
export const mergeRequestTables = {
  merge_requests: table<MergeRequestRecord>(['project_id', 'source_project_id']),
  merge_request_approvals: table<MergeRequestApprovalRecord>(['merge_request_id']),
  merge_request_diffs: table<MergeRequestDiffRecord>(['merge_request_id']),
}
