/**
 * Merge request entities. `MergeRequestBasic` is what milestone merge request lists and an issue's
 * `closed_by` list return; the full `MergeRequest` entity is meant to spread it and add its fields.
 * Field order follows GitLab 13.12/14.0 `lib/api/entities/merge_request_basic.rb`
 * (gitlab-behaviour.md §4.3).
 * @module
 */
import type { Tables } from '../db/schema.js'
import {
  IssuableReferences,
  IssuableTimeStats,
  issuableLabels,
  issuableMilestone,
  issuableReference,
  taskCompletionStatus,
  userBasicOrNull,
  usersByIds,
  type ReferenceFrom,
} from './issue.js'
import { projectWebUrl, type PresentCtx } from './urls.js'
import { UserBasic } from './user.js'

/** The merge requests area's record (merged into `Tables`; this folder imports no area). */
type MergeRequestRecord = Tables['merge_requests']

/** `https://host/<namespace>/<project>/-/merge_requests/<iid>` (gitlab: lib/gitlab/url_builder.rb). */
export function mergeRequestWebUrl(ctx: PresentCtx, mergeRequest: MergeRequestRecord): string {
  const project = ctx.db.tables.projects.get(mergeRequest.project_id)
  return `${project ? projectWebUrl(ctx, project) : ctx.baseUrl}/-/merge_requests/${mergeRequest.iid}`
}

/**
 * The `merge_status` GitLab shows (`public_merge_status`): a recheck in progress reads `checking`.
 * spec-gap: GitLab also kicks off an asynchronous mergeability check for `unchecked` merge requests
 * when it presents them; the simulator has no repository to check, so the stored value is shown.
 */
function publicMergeStatus(status: string): string {
  return status === 'cannot_be_merged_rechecking' ? 'checking' : status
}

/** Options of {@link MergeRequestBasic}. */
export interface MergeRequestBasicOptions {
  /** What `reference` and `references.relative` are relative to (GitLab `options[:project]`); default none. */
  from?: ReferenceFrom
}

/**
 * `MergeRequestBasic`: `{id, iid, project_id, title, description, state, created_at, updated_at,
 * merged_by, merged_at, closed_by, closed_at, target_branch, source_branch, user_notes_count,
 * upvotes, downvotes, author, assignees, assignee, reviewers, source_project_id, target_project_id,
 * labels, draft, work_in_progress, milestone, merge_when_pipeline_succeeds, merge_status, sha,
 * merge_commit_sha, squash_commit_sha, discussion_locked, should_remove_source_branch,
 * force_remove_source_branch, [allow_collaboration, allow_maintainer_to_push], reference,
 * references, web_url, time_stats, squash, task_completion_status, has_conflicts,
 * blocking_discussions_resolved}`. The two `allow_*` keys are present only for merge requests
 * from a fork (source project differs from target project).
 * Source: gitlab-behaviour.md §4.3; gitlab: lib/api/entities/merge_request_basic.rb.
 */
export function MergeRequestBasic(mergeRequest: MergeRequestRecord, ctx: PresentCtx, options: MergeRequestBasicOptions = {}) {
  const from = options.from ?? null
  const project = ctx.db.tables.projects.get(mergeRequest.project_id)
  const assignees = usersByIds(ctx, mergeRequest.assignee_ids).map((user) => UserBasic(user, ctx))
  const forFork = mergeRequest.source_project_id !== mergeRequest.project_id
  return {
    id: mergeRequest.id,
    iid: mergeRequest.iid,
    project_id: mergeRequest.project_id,
    title: mergeRequest.title,
    description: mergeRequest.description as string | null,
    state: mergeRequest.state,
    created_at: mergeRequest.created_at,
    updated_at: mergeRequest.updated_at,
    merged_by: userBasicOrNull(ctx, mergeRequest.merged_by_id),
    merged_at: mergeRequest.merged_at,
    closed_by: userBasicOrNull(ctx, mergeRequest.closed_by_id),
    closed_at: mergeRequest.closed_at,
    target_branch: mergeRequest.target_branch,
    source_branch: mergeRequest.source_branch,
    user_notes_count: mergeRequest.user_notes_count,
    upvotes: mergeRequest.upvotes,
    downvotes: mergeRequest.downvotes,
    author: userBasicOrNull(ctx, mergeRequest.author_id),
    assignees,
    assignee: assignees[0] ?? null,
    // spec-gap: the store has no reviewers, merge options, squash, locking or time tracking for
    // merge requests yet; these are GitLab's values for a merge request that never set them.
    reviewers: [],
    source_project_id: mergeRequest.source_project_id,
    target_project_id: mergeRequest.project_id,
    labels: issuableLabels(ctx, mergeRequest.label_ids).map((label) => label.title),
    draft: mergeRequest.draft,
    work_in_progress: mergeRequest.draft,
    milestone: issuableMilestone(ctx, mergeRequest.milestone_id),
    merge_when_pipeline_succeeds: false,
    merge_status: publicMergeStatus(mergeRequest.merge_status),
    sha: mergeRequest.sha,
    merge_commit_sha: null,
    squash_commit_sha: null,
    discussion_locked: null,
    should_remove_source_branch: null,
    force_remove_source_branch: null,
    ...(forFork ? { allow_collaboration: false, allow_maintainer_to_push: false } : {}),
    reference: issuableReference(ctx, project, '!', mergeRequest.iid, from),
    references: IssuableReferences(ctx, project, '!', mergeRequest.iid, from),
    web_url: mergeRequestWebUrl(ctx, mergeRequest),
    time_stats: IssuableTimeStats({ time_estimate: 0, total_time_spent: 0 }),
    squash: false,
    task_completion_status: taskCompletionStatus(mergeRequest.description),
    has_conflicts: mergeRequest.merge_status === 'cannot_be_merged',
    // No project in the simulator requires resolved discussions, so this is always true.
    blocking_discussions_resolved: true,
  }
}
