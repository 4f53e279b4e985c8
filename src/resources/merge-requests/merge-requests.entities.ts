/**
 * Merge request entities. `MergeRequestBasic` is what milestone merge request lists and an issue's
 * `closed_by` list return (other areas present them through `merge-requests.public.ts`); the full
 * `MergeRequest` entity spreads it and adds its fields; `MergeRequestSimple` is `view=simple`.
 * Field order follows GitLab 13.12/14.0 `lib/api/entities/merge_request_basic.rb`
 * (gitlab-behaviour.md §4.3).
 * @module
 */
import { IssuableReferences, IssuableTimeStats, issuableReference, taskCompletionStatus, type ReferenceFrom } from '../../entities/issuable.js'
import { projectWebUrl, type PresentCtx } from '../../entities/urls.js'
import { UserBasic, userBasicOrNull, usersByIds } from '../../entities/user.js'
import { issuableMilestone } from '../milestones/milestones.public.js'
import { issuableLabels } from '../labels/labels.public.js'
import { Pipeline, PipelineBasic, pipelinesOfProject, type PipelineRecord } from '../runners/runners.public.js'
import { autoMergeEnabled, changesCount, diffFacts } from './merge-requests.git.js'
import type { MergeRequestRecord } from './merge-requests.tables.js'

/** `https://host/<namespace>/<project>/-/merge_requests/<iid>` (gitlab: lib/gitlab/url_builder.rb). */
export function mergeRequestWebUrl(ctx: PresentCtx, mergeRequest: MergeRequestRecord): string {
  const project = ctx.db.tables.projects.get(mergeRequest.project_id)
  return `${project ? projectWebUrl(ctx, project) : ctx.baseUrl}/-/merge_requests/${mergeRequest.iid}`
}

/**
 * The `merge_status` GitLab shows (`public_merge_status`): a recheck in progress reads `checking`.
 * An open merge request whose branches exist in the repository shows the status its branches give
 * (see `liveDiff`); others show the stored value.
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
  const facts = diffFacts(ctx.db, mergeRequest)
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
    reviewers: usersByIds(ctx, mergeRequest.reviewer_ids).map((user) => UserBasic(user, ctx)),
    source_project_id: mergeRequest.source_project_id,
    target_project_id: mergeRequest.project_id,
    labels: issuableLabels(ctx, mergeRequest.label_ids).map((label) => label.title),
    draft: mergeRequest.draft,
    work_in_progress: mergeRequest.draft,
    milestone: issuableMilestone(ctx, mergeRequest.milestone_id),
    merge_when_pipeline_succeeds: autoMergeEnabled(ctx.db, mergeRequest),
    merge_status: publicMergeStatus(facts.merge_status),
    sha: facts.sha,
    merge_commit_sha: mergeRequest.merge_commit_sha,
    squash_commit_sha: mergeRequest.squash_commit_sha,
    discussion_locked: mergeRequest.discussion_locked,
    // `merge_params['should_remove_source_branch']`, set by the merge call.
    should_remove_source_branch: mergeRequest.should_remove_source_branch ?? null,
    force_remove_source_branch: mergeRequest.force_remove_source_branch,
    ...(forFork ? { allow_collaboration: false, allow_maintainer_to_push: false } : {}),
    reference: issuableReference(ctx, project, '!', mergeRequest.iid, from),
    references: IssuableReferences(ctx, project, '!', mergeRequest.iid, from),
    web_url: mergeRequestWebUrl(ctx, mergeRequest),
    time_stats: IssuableTimeStats(mergeRequest),
    squash: mergeRequest.squash,
    task_completion_status: taskCompletionStatus(mergeRequest.description),
    has_conflicts: facts.merge_status === 'cannot_be_merged',
    // No project in the simulator requires resolved discussions, so this is always true.
    blocking_discussions_resolved: true,
  }
}

/** Options of {@link MergeRequest}. */
export interface MergeRequestOptions extends MergeRequestBasicOptions {
  /** `user.can_merge`: whether the caller may merge into the target project (Developer+). */
  canMerge: boolean
  /**
   * `subscribed`, shown when given (`include_subscribed`, true for a single merge request; lists
   * of to-dos and an issue's related merge requests leave it out).
   */
  subscribed?: boolean
  /**
   * `options[:project]` with builds available: `latest_build_*`, `first_deployed_to_production_at`
   * and `pipeline` are shown. Default true; a to-do's target has no project option, so false.
   */
  withBuilds?: boolean
  /** `read_pipeline` on the project: `head_pipeline` is shown. Default true (false for to-dos). */
  withHeadPipeline?: boolean
  /** The merge request's pipelines, newest first, when the caller has them (see {@link headPipeline}). */
  pipelines?: readonly PipelineRecord[]
  /** `include_rebase_in_progress`: show `rebase_in_progress` (always false: a rebase is done at once). */
  includeRebaseInProgress?: boolean
  /** `include_diverged_commits_count`: the count to show as `diverged_commits_count`. */
  divergedCommitsCount?: number
}

/**
 * The head pipeline: the newest of the source project's pipelines for the head commit (GitLab's
 * `head_pipeline_id`, set when a pipeline runs for the source branch's head), or null.
 */
export function headPipeline(ctx: PresentCtx, mergeRequest: MergeRequestRecord): PipelineRecord | null {
  const sha = diffFacts(ctx.db, mergeRequest).sha
  let found: PipelineRecord | null = null
  for (const pipeline of pipelinesOfProject(ctx.db, mergeRequest.source_project_id)) {
    if (pipeline.sha === sha && (!found || pipeline.id > found.id)) found = pipeline
  }
  return found
}

/**
 * `Entities::MergeRequest`: `MergeRequestBasic`, then `[subscribed]`, `changes_count`,
 * `[latest_build_started_at, latest_build_finished_at, first_deployed_to_production_at, pipeline]`,
 * `[head_pipeline]`, `diff_refs {base_sha, head_sha, start_sha}`, `merge_error`,
 * `[rebase_in_progress]`, `[diverged_commits_count]`, `user {can_merge}`.
 * The bracketed keys depend on the options, as GitLab's `expose … if:` do.
 * Source: api-spec.md "Issue-related merge request"; gitlab-behaviour.md §4.3;
 * gitlab: lib/api/entities/merge_request.rb, lib/api/entities/diff_refs.rb.
 */
export function MergeRequest(mergeRequest: MergeRequestRecord, ctx: PresentCtx, options: MergeRequestOptions): ReturnType<typeof MergeRequestBasic> & MergeRequestDetailFields {
  const head = options.withBuilds === false && options.withHeadPipeline === false ? null : headPipeline(ctx, mergeRequest)
  const entity: Record<string, unknown> = { ...MergeRequestBasic(mergeRequest, ctx, options) }
  if (options.subscribed !== undefined) entity.subscribed = options.subscribed
  // The files of its diff when the repository has them, else 0 (`changes_count` is a string, as
  // api-spec.md says). spec-gap: no deployments, so the build and deployment times are null.
  entity.changes_count = changesCount(ctx.db, mergeRequest)
  if (options.withBuilds !== false) {
    entity.latest_build_started_at = null
    entity.latest_build_finished_at = null
    entity.first_deployed_to_production_at = null
    // `metrics.pipeline`: the head pipeline, as GitLab records it when that pipeline runs.
    entity.pipeline = head ? PipelineBasic(head, ctx) : null
  }
  if (options.withHeadPipeline !== false) entity.head_pipeline = head ? Pipeline(head, ctx) : null
  const facts = diffFacts(ctx.db, mergeRequest)
  entity.diff_refs = { base_sha: facts.base_sha, head_sha: facts.sha, start_sha: facts.start_sha }
  entity.merge_error = mergeRequest.merge_error ?? null
  if (options.includeRebaseInProgress) entity.rebase_in_progress = false
  if (options.divergedCommitsCount !== undefined) entity.diverged_commits_count = options.divergedCommitsCount
  entity.user = { can_merge: options.canMerge }
  return entity as unknown as ReturnType<typeof MergeRequestBasic> & MergeRequestDetailFields
}

/** The fields {@link MergeRequest} adds to `MergeRequestBasic` (some only with their options). */
export interface MergeRequestDetailFields {
  subscribed?: boolean
  changes_count: string
  latest_build_started_at?: string | null
  latest_build_finished_at?: string | null
  first_deployed_to_production_at?: string | null
  pipeline?: ReturnType<typeof PipelineBasic> | null
  head_pipeline?: ReturnType<typeof Pipeline> | null
  diff_refs: { base_sha: string | null; head_sha: string | null; start_sha: string | null }
  merge_error: string | null
  rebase_in_progress?: boolean
  diverged_commits_count?: number
  user: { can_merge: boolean }
}

/**
 * `Entities::MergeRequestSimple` (`view=simple`): `{id, iid, project_id, title, description,
 * state, created_at, updated_at, web_url}`. gitlab: lib/api/entities/merge_request_simple.rb.
 */
export function MergeRequestSimple(mergeRequest: MergeRequestRecord, ctx: PresentCtx) {
  return {
    id: mergeRequest.id,
    iid: mergeRequest.iid,
    project_id: mergeRequest.project_id,
    title: mergeRequest.title,
    description: mergeRequest.description as string | null,
    state: mergeRequest.state,
    created_at: mergeRequest.created_at,
    updated_at: mergeRequest.updated_at,
    web_url: mergeRequestWebUrl(ctx, mergeRequest),
  }
}
