/**
 * What the merge request writes and sub-resources do: update (title with the draft rules,
 * description, `state_event`, labels, assignees, reviewers, milestone, branch and merge options,
 * locking), delete, subscriptions, time tracking, participants, the issues it closes and its
 * pipelines. Handlers authorize; these functions filter the params as `IssuableBaseService` does,
 * check the model's rules, then write. Label, milestone and assignee filtering are the issue
 * writes' own rules (shared through `issues.public.ts`), as GitLab's `IssuableBaseService` serves both.
 * Sources: gitlab: app/services/merge_requests/{update,close,reopen}_service.rb,
 * app/services/issuable_base_service.rb, app/models/merge_request.rb, app/models/concerns/issuable.rb,
 * app/models/concerns/subscribable.rb, lib/api/time_tracking_endpoints.rb.
 * @module
 */
import { canReadProject, issueVisibleTo } from '../../rules/access.js'
import { destroyRecords } from '../../rules/cascade.js'
import { ApiError, validationFailed } from '../../core/errors.js'
import { blank } from '../../core/ruby.js'
import type { Db } from '../../db/db.js'
import type { ProjectRecord, Tables, UserRecord } from '../../db/schema.js'
import { assigneeIdsFor, findLabelIds, findOrCreateLabelIds, issuesClosedByMergeRequest, milestoneIdFor, parseDuration } from '../issues/issues.public.js'
import { commentedOn, noteAuthorIds } from '../notes/notes.public.js'
import { pipelinesOfProject, type PipelineRecord } from '../runners/runners.public.js'
import { createTodo, resolveTodosForTarget } from '../todos/todos.public.js'
import { publishMergeRequest } from './merge-requests.events.js'
import { canAdminMergeRequest, canReadMergeRequest } from './merge-requests.policy.js'
import { diffFacts } from './merge-requests.git.js'
import type { MergeRequestRecord } from './merge-requests.tables.js'

/** Who is asking and when. */
export interface ServiceCtx {
  readonly db: Db
  readonly currentUser: UserRecord | null
  readonly today: string
  readonly now: string
  /** The base URL the request was served under (the facts its writes publish carry it). */
  readonly baseUrl: string
}

/** `MergeRequest` title limit (`validates :title, length: { maximum: 255 }`). */
export const TITLE_MAX = 255
/** Description limit (`validates :description, length: { maximum: 1_048_576 }`). */
export const DESCRIPTION_MAX = 1_048_576

/**
 * `MergeRequest.work_in_progress?(title)` (13.x `WIP_REGEX`/`DRAFT_REGEX`): a title that starts with
 * `[WIP]`, `WIP:`, `WIP ` , `[Draft]`, `(Draft)`, `Draft:`, `Draft - ` or is just `Draft`, any case.
 */
export function isDraftTitle(title: string): boolean {
  return /^\s*(\[wip\]|wip:|wip\s|\[draft\]|\(draft\)|draft:|draft\s-\s|draft$)/i.test(title)
}

/** The writable fields of `PUT /projects/:id/merge_requests/:merge_request_iid`, as declared. */
export interface MergeRequestUpdateParams {
  title?: string
  description?: string
  target_branch?: string
  state_event?: 'close' | 'reopen'
  discussion_locked?: boolean
  assignee_id?: number
  assignee_ids?: number[]
  reviewer_ids?: number[]
  milestone_id?: number
  labels?: string[]
  add_labels?: string[]
  remove_labels?: string[]
  remove_source_branch?: boolean
  squash?: boolean
}

/**
 * `filter_reviewer`: the community edition keeps the first id only, of users who may read the
 * merge request; `[0]` or `[]` clears; nothing left means "leave as is".
 */
export function reviewerIdsFor(ctx: ServiceCtx, project: ProjectRecord, mr: MergeRequestRecord, ids: readonly number[] | undefined): number[] | undefined {
  if (ids === undefined) return undefined
  const first = ids.slice(0, 1)
  if (first.length === 0 || first[0] === 0) return []
  const readable = first.filter((id) => {
    const user = ctx.db.tables.users.get(id)
    return user !== undefined && canReadMergeRequest({ db: ctx.db, currentUser: user, today: ctx.today }, project, mr)
  })
  return readable.length > 0 ? readable : undefined
}

/** New assignees and reviewers get a to-do (`TodoService#reassigned_assignable`, `#reassigned_reviewable`). */
export function createPeopleTodos(ctx: ServiceCtx, mr: MergeRequestRecord, author: UserRecord, before: MergeRequestRecord): void {
  for (const userId of mr.assignee_ids) {
    if (!before.assignee_ids.includes(userId)) createTodo(ctx.db, { user_id: userId, project_id: mr.project_id, author_id: author.id, target_type: 'MergeRequest', target_id: mr.id, action_name: 'assigned', now: ctx.now })
  }
  for (const userId of mr.reviewer_ids) {
    if (!before.reviewer_ids.includes(userId)) createTodo(ctx.db, { user_id: userId, project_id: mr.project_id, author_id: author.id, target_type: 'MergeRequest', target_id: mr.id, action_name: 'review_requested', now: ctx.now })
  }
}

/**
 * `MergeRequests::UpdateService` (with `CloseService`/`ReopenService` for `state_event`).
 * A caller without `admin_merge_request` (an author or assignee below Developer) cannot change
 * labels, milestone, assignees, reviewers or `discussion_locked`: those are dropped.
 * `draft` follows the title. `remove_source_branch` is honoured only when true (13.x renames it
 * to `force_remove_source_branch` only `if present?`, so `false` changes nothing).
 * @throws ApiError 400 `{"message":{"title":["is too long (maximum is 255 characters)"]}}` (model validation);
 *   422 `{"message":["You can't use same project/branch for source and target"]}`;
 *   409 `{"message":["Another open merge request already exists for this source branch: !1"]}`.
 */
export function updateMergeRequest(ctx: ServiceCtx, user: UserRecord, project: ProjectRecord, mr: MergeRequestRecord, params: MergeRequestUpdateParams): MergeRequestRecord {
  const { db } = ctx
  const admin = canAdminMergeRequest(ctx, project)
  const patch: Partial<MergeRequestRecord> = {}
  if (params.title !== undefined) Object.assign(patch, { title: params.title, draft: isDraftTitle(params.title) })
  if (params.description !== undefined) patch.description = params.description
  const errors: Record<string, string[]> = {}
  const title = patch.title ?? mr.title
  if (blank(title)) errors.title = ["can't be blank"]
  else if ([...title].length > TITLE_MAX) errors.title = [`is too long (maximum is ${TITLE_MAX} characters)`]
  if ([...(patch.description ?? mr.description ?? '')].length > DESCRIPTION_MAX) errors.description = [`is too long (maximum is ${DESCRIPTION_MAX} characters)`]
  if (params.target_branch !== undefined) patch.target_branch = params.target_branch
  if (params.remove_source_branch) patch.force_remove_source_branch = true
  if (params.squash !== undefined) patch.squash = params.squash
  if (admin) {
    if (params.discussion_locked !== undefined) patch.discussion_locked = params.discussion_locked
    const assignees = assigneeIdsFor(ctx, project, params)
    if (assignees !== undefined) patch.assignee_ids = assignees
    const reviewers = reviewerIdsFor(ctx, project, mr, params.reviewer_ids)
    if (reviewers !== undefined) patch.reviewer_ids = reviewers
    if (params.milestone_id !== undefined) patch.milestone_id = milestoneIdFor(db, project, params.milestone_id)
    let labelIds = mr.label_ids
    if (params.labels !== undefined) labelIds = findOrCreateLabelIds(ctx, user, project, params.labels)
    if (params.add_labels !== undefined) labelIds = [...new Set([...labelIds, ...findOrCreateLabelIds(ctx, user, project, params.add_labels)])]
    if (params.remove_labels !== undefined) {
      const removed = new Set(findLabelIds(db, project, params.remove_labels))
      labelIds = labelIds.filter((id) => !removed.has(id))
    }
    if (labelIds !== mr.label_ids) patch.label_ids = labelIds
  }
  if (params.state_event === 'close' && (mr.state === 'opened' || mr.state === 'locked')) Object.assign(patch, { state: 'closed', closed_at: ctx.now, closed_by_id: user.id })
  if (params.state_event === 'reopen' && mr.state === 'closed') Object.assign(patch, { state: 'opened', closed_at: null, closed_by_id: null })
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
  // `validate_branches`: the branches of an open merge request (never the same branch twice).
  const state = patch.state ?? mr.state
  const targetBranch = patch.target_branch ?? mr.target_branch
  if (mr.source_project_id === mr.project_id && targetBranch === mr.source_branch) {
    throw new ApiError(422, { message: ["You can't use same project/branch for source and target"] })
  }
  if (state === 'opened') {
    const similar = db.tables.merge_requests
      .where('project_id', mr.project_id)
      .find((other) => other.id !== mr.id && other.state === 'opened' && other.source_project_id === mr.source_project_id && other.source_branch === mr.source_branch && other.target_branch === targetBranch)
    if (similar) throw new ApiError(409, { message: [`Another open merge request already exists for this source branch: !${similar.iid}`] })
  }
  const changed = (Object.keys(patch) as (keyof MergeRequestRecord)[]).filter((key) => JSON.stringify(patch[key]) !== JSON.stringify(mr[key]))
  if (changed.length === 0) return mr
  const updated = db.tables.merge_requests.update(mr.id, { ...patch, updated_at: ctx.now })
  publishMergeRequest(ctx, mr, updated, user.id)
  createPeopleTodos(ctx, updated, user, mr)
  if (changed.includes('state') && updated.state === 'closed') resolveTodosForTarget(db, user.id, 'MergeRequest', mr.id, ctx.now)
  return updated
}

/**
 * `Issuable::DestroyService`: the merge request goes with what hangs off it (to-dos,
 * subscriptions, award emoji, closing-issue links), as the foreign keys cascade.
 */
export function destroyMergeRequest(db: Db, mr: MergeRequestRecord): void {
  destroyRecords(db, 'merge_requests', [mr.id])
}

// ---- subscriptions ----------------------------------------------------------------------------

type SubscriptionRecord = Tables['subscriptions']

function subscriptionRow(db: Db, mr: MergeRequestRecord, user: UserRecord): SubscriptionRecord | undefined {
  return db.tables.subscriptions
    .where('subscribable_id', mr.id)
    .find((s) => s.subscribable_type === 'MergeRequest' && s.user_id === user.id && s.project_id === mr.project_id)
}

/**
 * `Subscribable#subscribed?(user, project)`: the user's row when there is one, else whether the
 * user participates (author, assignee, reviewer, or author of a note on it).
 */
export function subscribedToMergeRequest(db: Db, mr: MergeRequestRecord, user: UserRecord | null): boolean {
  if (!user) return false
  const row = subscriptionRow(db, mr, user)
  if (row) return row.subscribed
  return mr.author_id === user.id || mr.assignee_ids.includes(user.id) || mr.reviewer_ids.includes(user.id) || commentedOn(db, 'MergeRequest', mr.id, user.id)
}

/** `subscribe`/`unsubscribe(user, project)`: creates or updates the user's row. */
export function setMergeRequestSubscription(db: Db, mr: MergeRequestRecord, user: UserRecord, subscribed: boolean): void {
  const row = subscriptionRow(db, mr, user)
  if (row) db.tables.subscriptions.update(row.id, { subscribed })
  else db.tables.subscriptions.insert({ user_id: user.id, subscribable_type: 'MergeRequest', subscribable_id: mr.id, project_id: mr.project_id, subscribed })
}

// ---- time tracking ----------------------------------------------------------------------------

/**
 * `time_estimate`: stores the parsed duration; `updated_at` moves when it changes.
 * @throws ApiError 400 `{"message":{"time_estimate":["has an invalid format"]}}`.
 */
export function setTimeEstimate(ctx: ServiceCtx, mr: MergeRequestRecord, duration: string | null): MergeRequestRecord {
  const seconds = duration === null ? 0 : parseDuration(duration)
  if (seconds === null) throw validationFailed({ time_estimate: ['has an invalid format'] })
  if (seconds === mr.time_estimate) return mr
  return ctx.db.tables.merge_requests.update(mr.id, { time_estimate: seconds, updated_at: ctx.now })
}

/**
 * `add_spent_time` (negative subtracts); `reset_spent_time` with `null`.
 * @throws ApiError 400 `{"message":{"timelogs":["is invalid"]}}` for an unparsable duration (as the
 *   issue writes answer); 400 `{"message":{"time_spent":["Time to subtract exceeds the total time spent"]}}`.
 */
export function addSpentTime(ctx: ServiceCtx, mr: MergeRequestRecord, duration: string | null): MergeRequestRecord {
  if (duration === null) return mr.total_time_spent === 0 ? mr : ctx.db.tables.merge_requests.update(mr.id, { total_time_spent: 0 })
  const seconds = parseDuration(duration)
  if (seconds === null) throw validationFailed({ timelogs: ['is invalid'] })
  const total = mr.total_time_spent + seconds
  if (total < 0) throw validationFailed({ time_spent: ['Time to subtract exceeds the total time spent'] })
  return ctx.db.tables.merge_requests.update(mr.id, { total_time_spent: total })
}

// ---- participants, closing issues, pipelines --------------------------------------------------

/**
 * `merge_request.participants(current_user)`: the author, then the authors of its notes in order,
 * then the assignees; each once, blocked users left out, and only users who may read the merge
 * request. gitlab: app/models/concerns/issuable.rb (`participant :author, :notes_with_associations,
 * :assignees`).
 */
export function participants(ctx: ServiceCtx, project: ProjectRecord, mr: MergeRequestRecord): UserRecord[] {
  const out: UserRecord[] = []
  const seen = new Set<number>()
  for (const id of [mr.author_id, ...noteAuthorIds(ctx.db, 'MergeRequest', mr.id), ...mr.assignee_ids]) {
    if (seen.has(id)) continue
    seen.add(id)
    const user = ctx.db.tables.users.get(id)
    if (!user || user.state === 'blocked') continue
    if (!canReadMergeRequest({ db: ctx.db, currentUser: user, today: ctx.today }, project, mr)) continue
    out.push(user)
  }
  return out
}

/** `visible_closing_issues_for(current_user)`: the issues it closes that the caller may read. */
export function closesIssues(ctx: ServiceCtx, mr: MergeRequestRecord): Tables['issues'][] {
  return issuesClosedByMergeRequest(ctx.db, mr.id).filter((issue) => {
    const project = ctx.db.tables.projects.get(issue.project_id)
    return project !== undefined && canReadProject(ctx.db, ctx.currentUser, project, ctx.today) && issueVisibleTo(ctx.db, ctx.currentUser, project, ctx.today)(issue)
  })
}

/**
 * `all_pipelines`: the source project's pipelines for the source branch or the head commit, and its
 * merge request pipelines (ref `refs/merge-requests/<iid>/head`), newest first (`order(id: :desc)`).
 */
export function mergeRequestPipelines(db: Db, mr: MergeRequestRecord): PipelineRecord[] {
  const head = diffFacts(db, mr).sha
  const mergeRequestRef = `refs/merge-requests/${mr.iid}/head`
  return pipelinesOfProject(db, mr.source_project_id)
    .filter((pipeline) => pipeline.ref === mr.source_branch || pipeline.ref === mergeRequestRef || pipeline.sha === mr.sha || pipeline.sha === head)
    .sort((a, b) => b.id - a.id)
}
