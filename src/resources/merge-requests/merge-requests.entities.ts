/**
 * Merge request entities. `MergeRequestBasic` is what milestone merge request lists and an issue's
 * `closed_by` list return (other areas present them through `merge-requests.public.ts`); the full `MergeRequest` entity is meant to spread it and add its fields.
 * Field order follows GitLab 13.12/14.0 `lib/api/entities/merge_request_basic.rb`
 * (gitlab-behaviour.md §4.3).
 * @module
 */
import { IssuableReferences, IssuableTimeStats, issuableReference, taskCompletionStatus, type ReferenceFrom } from '../../entities/issuable.js'
import { projectWebUrl, type PresentCtx } from '../../entities/urls.js'
import { UserBasic, userBasicOrNull, usersByIds } from '../../entities/user.js'
import { issuableMilestone } from '../group-milestones/group-milestones.public.js'
import { issuableLabels } from '../labels/labels.public.js'
import type { MergeRequestRecord } from './merge-requests.tables.js'

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

/** Options of {@link MergeRequest}. */
export interface MergeRequestOptions extends MergeRequestBasicOptions {
  /** `user.can_merge`: whether the caller may merge into the target project (Developer+). */
  canMerge: boolean
}

/**
 * `Entities::MergeRequest` without `subscribed` (`include_subscribed: false`, as issue lists of
 * merge requests present it): `MergeRequestBasic`, then `changes_count`,
 * `latest_build_started_at`, `latest_build_finished_at`, `first_deployed_to_production_at`,
 * `pipeline`, `head_pipeline`, `diff_refs {base_sha, head_sha, start_sha}`, `merge_error`,
 * `user {can_merge}`.
 * Source: api-spec.md "Issue-related merge request"; gitlab-behaviour.md §4.3;
 * gitlab: lib/api/entities/merge_request.rb.
 */
export function MergeRequest(mergeRequest: MergeRequestRecord, ctx: PresentCtx, options: MergeRequestOptions) {
  return {
    ...MergeRequestBasic(mergeRequest, ctx, options),
    // spec-gap: the simulator keeps no diffs, pipelines or deployments; these are GitLab's values
    // for a merge request without them (`changes_count` is a string, as api-spec.md says).
    changes_count: '0',
    latest_build_started_at: null,
    latest_build_finished_at: null,
    first_deployed_to_production_at: null,
    pipeline: null,
    head_pipeline: null,
    diff_refs: { base_sha: null, head_sha: mergeRequest.sha, start_sha: null },
    merge_error: null,
    user: { can_merge: options.canMerge },
  }
}
