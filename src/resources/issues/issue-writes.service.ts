/**
 * What the issue writes do: create, update (with `state_event`), close and reopen, delete, move to
 * another project, and subscribe/unsubscribe, with the side effects GitLab 13.x has: labels created
 * on the fly, assignment to-dos, the closing user's to-dos marked done, `closed_at`/`closed_by`,
 * `moved_to_id`, iids that are never reused. Handlers authorize; these functions filter the params
 * as `IssuableBaseService#filter_params` does, check the model's rules, then write.
 * Sources: issue 16 part 1; gitlab: lib/api/issues.rb, lib/api/helpers/issues_helpers.rb,
 * app/services/issuable_base_service.rb, app/services/issues/{create,update,close,reopen,move}_service.rb,
 * app/services/todo_service.rb, app/services/labels/{available_labels,find_or_create}_service.rb,
 * app/models/concerns/{issuable,subscribable}.rb, app/models/issue.rb.
 * @module
 */
import { AccessLevel, canReadProject, projectAccessLevel } from '../../rules/access.js'
import { apiMessage, validationFailed, ValidationMessage } from '../../core/errors.js'
import { IssueMessage } from './issues.messages.js'
import { castDate } from '../../rules/dates.js'
import { blank } from '../../core/ruby.js'
import type { Db } from '../../db/db.js'
import type { ProjectRecord, Tables, UserRecord } from '../../db/schema.js'
import { allMilestones, milestoneById } from '../milestones/milestones.public.js'
import { labelById } from '../labels/labels.public.js'
import { createTodo } from '../todos/todos.public.js'
import { publishIssue } from './issues.events.js'
import { commentedOn, copyNotes, destroyNotesOf } from '../notes/notes.public.js'
import { assigneeIdsFor, availableLabels, canAdminIssue, findLabelIds, findOrCreateLabelIds, milestoneIdFor } from './issuable-writes.js'
import { resolveTodosForTarget, type ServiceCtx } from './issues.service.js'
import type { IssueRecord } from './issues.tables.js'


/** GitLab's `Issue` title limit (`validates :title, length: { maximum: 255 }`). */
const TITLE_MAX = 255
/** GitLab's description limit (`Gitlab::Database::MAX_TEXT_SIZE_LIMIT`-era `validates :description, length: { maximum: 1_048_576 }`). */
const DESCRIPTION_MAX = 1_048_576

/** The writable fields of `POST /projects/:id/issues` and `PUT …/issues/:issue_iid`, as declared. */
export interface IssueWriteParams {
  title?: string
  description?: string
  confidential?: boolean
  assignee_id?: number
  assignee_ids?: number[]
  milestone_id?: number
  labels?: string[]
  add_labels?: string[]
  remove_labels?: string[]
  due_date?: string
  discussion_locked?: boolean
  issue_type?: 'issue' | 'incident' | 'test_case'
  state_event?: 'close' | 'reopen'
  /** Create only: honoured for administrators and project owners. */
  iid?: number
  /** Create only: honoured for administrators and project owners. */
  created_at?: string
  /** Update only: replaces the new `updated_at`, for administrators and project owners. */
  updated_at?: string
}

/**
 * `set_issue_iid`, `set_issue_created_at`, `set_issue_updated_at` and `destroy_issue`: administrators
 * and project owners (gitlab: app/policies/project_policy.rb).
 */
export function canSetIssueMetadata(db: Db, user: UserRecord, project: ProjectRecord, today: string): boolean {
  return user.admin || projectAccessLevel(db, user, project, today) >= AccessLevel.OWNER
}


/** Model validations of an issue's title and description. @throws ApiError 400 `{"message":{"title":[...]}}`. */
function validateIssue(title: string, description: string | null): void {
  const errors: Record<string, string[]> = {}
  if (blank(title)) errors.title = [ValidationMessage.blank]
  else if ([...title].length > TITLE_MAX) errors.title = [ValidationMessage.tooLong(TITLE_MAX)]
  if (description !== null && [...description].length > DESCRIPTION_MAX) errors.description = [ValidationMessage.tooLong(DESCRIPTION_MAX)]
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
}

// ---- to-dos -----------------------------------------------------------------------------------

/**
 * `TodoService#create_assignment_todo`: a pending `assigned` to-do, by `author`, for every new
 * assignee (the author too when self-assigned, as 13.x does).
 */
function createAssignmentTodos(ctx: ServiceCtx, issue: IssueRecord, author: UserRecord, oldAssignees: readonly number[]): void {
  for (const userId of issue.assignee_ids) {
    if (oldAssignees.includes(userId)) continue
    createTodo(ctx.db, { user_id: userId, project_id: issue.project_id, author_id: author.id, target_type: 'Issue', target_id: issue.id, action_name: 'assigned', now: ctx.now })
  }
}

// ---- create -----------------------------------------------------------------------------------

/** What the request adds to a create: where it came from (spam check's user agent detail). */
export interface RequestFacts {
  userAgent: string
  ipAddress: string
}

/**
 * `Issues::CreateService`: a new issue with the next iid of the project (or the given `iid`, for
 * administrators and owners), labels found or created, assignment to-dos, and the request's user
 * agent and IP stored for `user_agent_detail` (`SpamCheckService#create_user_agent_detail`).
 * A guest's `labels`, `milestone_id`, `assignee_ids`, `due_date` and `discussion_locked` are dropped
 * (`filter_params` without `admin_issue`).
 * @throws ApiError 400 `{"message":{"title":["can't be blank"]}}` (model validation);
 *   409 `{"message":"Duplicated issue"}` for an `iid` the project already has.
 */
export function createIssue(ctx: ServiceCtx, user: UserRecord, project: ProjectRecord, params: IssueWriteParams, request: RequestFacts): IssueRecord {
  const { db } = ctx
  const description = params.description ?? null
  validateIssue(params.title ?? '', description)
  const admin = canAdminIssue(db, user, project, ctx.today)
  const metadata = canSetIssueMetadata(db, user, project, ctx.today)
  let iid: number
  if (metadata && params.iid !== undefined) {
    // gitlab: lib/api/issues.rb rescues `ActiveRecord::RecordNotUnique` as 409 'Duplicated issue'.
    if (db.tables.issues.where('project_id', project.id).some((i) => i.iid === params.iid)) throw apiMessage(409, IssueMessage.duplicated)
    iid = params.iid
    db.bumpIid('issues', 'project', project.id, iid)
  } else {
    iid = db.nextIid('issues', 'project', project.id)
  }
  const createdAt = metadata && params.created_at !== undefined ? params.created_at : ctx.now
  const assignees = admin ? assigneeIdsFor(ctx, project, params) ?? [] : []
  const issue = db.tables.issues.insert({
    iid,
    project_id: project.id,
    title: params.title ?? '',
    description,
    state: 'opened',
    author_id: user.id,
    assignee_ids: assignees,
    label_ids: admin && params.labels ? findOrCreateLabelIds(ctx, user, project, params.labels) : [],
    milestone_id: admin && params.milestone_id !== undefined ? milestoneIdFor(db, project, params.milestone_id) : null,
    confidential: params.confidential ?? false,
    discussion_locked: admin ? params.discussion_locked ?? null : null,
    issue_type: params.issue_type ?? 'issue',
    due_date: admin && params.due_date !== undefined ? castDate(params.due_date) : null,
    created_at: createdAt,
    updated_at: createdAt,
    closed_at: null,
    closed_by_id: null,
    moved_to_id: null,
    upvotes: 0,
    downvotes: 0,
    user_notes_count: 0,
    relative_position: null,
    time_estimate: 0,
    total_time_spent: 0,
  })
  db.tables.user_agent_details.insert({ subject_id: issue.id, subject_type: 'Issue', user_agent: request.userAgent, ip_address: request.ipAddress, akismet_submitted: false })
  publishIssue(ctx, null, issue, user.id)
  createAssignmentTodos(ctx, issue, user, [])
  return issue
}

// ---- update -----------------------------------------------------------------------------------

/**
 * `Issues::UpdateService` (with `Issues::CloseService`/`ReopenService` for `state_event`): changes
 * the given fields; `labels` replaces, `add_labels`/`remove_labels` adjust; a new assignee gets an
 * `assigned` to-do; closing sets `closed_at`/`closed_by` and marks the closer's to-dos on the issue
 * done; reopening clears both. `updated_at` moves only when something changed.
 * A guest (who may update only an issue they authored) cannot change labels, milestone,
 * assignees, due date or `discussion_locked`: those are dropped, as `filter_params` drops them.
 * @throws ApiError 400 `{"message":{"title":["can't be blank"]}}` (model validation).
 */
export function updateIssue(ctx: ServiceCtx, user: UserRecord, project: ProjectRecord, issue: IssueRecord, params: IssueWriteParams): IssueRecord {
  const { db } = ctx
  const admin = canAdminIssue(db, user, project, ctx.today)
  const patch: Partial<IssueRecord> = {}
  if (params.title !== undefined) patch.title = params.title
  if (params.description !== undefined) patch.description = params.description
  validateIssue(patch.title ?? issue.title, patch.description ?? issue.description)
  if (params.confidential !== undefined) patch.confidential = params.confidential
  if (params.issue_type !== undefined) patch.issue_type = params.issue_type
  if (admin) {
    if (params.discussion_locked !== undefined) patch.discussion_locked = params.discussion_locked
    const assignees = assigneeIdsFor(ctx, project, params)
    if (assignees !== undefined) patch.assignee_ids = assignees
    if (params.milestone_id !== undefined) patch.milestone_id = milestoneIdFor(db, project, params.milestone_id)
    if (params.due_date !== undefined) patch.due_date = castDate(params.due_date)
    let labelIds = issue.label_ids
    if (params.labels !== undefined) labelIds = findOrCreateLabelIds(ctx, user, project, params.labels)
    if (params.add_labels !== undefined) labelIds = [...new Set([...labelIds, ...findOrCreateLabelIds(ctx, user, project, params.add_labels)])]
    if (params.remove_labels !== undefined) {
      const removed = new Set(findLabelIds(db, project, params.remove_labels))
      labelIds = labelIds.filter((id) => !removed.has(id))
    }
    if (labelIds !== issue.label_ids) patch.label_ids = labelIds
  }
  if (params.state_event === 'close' && issue.state === 'opened') Object.assign(patch, { state: 'closed', closed_at: ctx.now, closed_by_id: user.id })
  if (params.state_event === 'reopen' && issue.state === 'closed') Object.assign(patch, { state: 'opened', closed_at: null, closed_by_id: null })
  const changed = (Object.keys(patch) as (keyof IssueRecord)[]).filter((key) => JSON.stringify(patch[key]) !== JSON.stringify(issue[key]))
  // `set_issue_updated_at`: the given time is the issue's updated_at, changed or not.
  const updatedAt = params.updated_at !== undefined && canSetIssueMetadata(db, user, project, ctx.today) ? params.updated_at : undefined
  if (changed.length === 0) return updatedAt === undefined ? issue : db.tables.issues.update(issue.id, { updated_at: updatedAt })
  const updated = db.tables.issues.update(issue.id, { ...patch, updated_at: updatedAt ?? ctx.now })
  publishIssue(ctx, issue, updated, user.id)
  if (changed.includes('assignee_ids')) createAssignmentTodos(ctx, updated, user, issue.assignee_ids)
  if (changed.includes('state') && updated.state === 'closed') resolveTodosForTarget(ctx, updated, user)
  return updated
}

// ---- delete -----------------------------------------------------------------------------------

/**
 * `Issuable::DestroyService`: the issue goes with everything that hangs off it (notes and their
 * award emoji, award emoji, to-dos, subscriptions, merge request links, user agent detail, metric
 * images). Its iid is not given out again (the project's iid counter stays where it is).
 * gitlab: app/models/concerns/issuable.rb, awardable.rb (`dependent: :destroy`), db/structure.sql
 * (foreign keys with `ON DELETE CASCADE`).
 */
export function destroyIssue(db: Db, issue: IssueRecord): void {
  const t = db.tables
  destroyNotesOf(db, 'Issue', issue.id)
  for (const award of t.award_emoji.where('awardable_id', issue.id)) if (award.awardable_type === 'Issue') t.award_emoji.delete(award.id)
  for (const todo of t.todos.filter((row) => row.target_type === 'Issue' && row.target_id === issue.id)) t.todos.delete(todo.id)
  for (const row of t.subscriptions.where('subscribable_id', issue.id)) if (row.subscribable_type === 'Issue') t.subscriptions.delete(row.id)
  for (const row of t.merge_requests_closing_issues.where('issue_id', issue.id)) t.merge_requests_closing_issues.delete(row.id)
  for (const row of t.merge_request_mentions.where('issue_id', issue.id)) t.merge_request_mentions.delete(row.id)
  for (const row of t.user_agent_details.where('subject_id', issue.id)) if (row.subject_type === 'Issue') t.user_agent_details.delete(row.id)
  for (const row of t.issuable_metric_images.where('issue_id', issue.id)) t.issuable_metric_images.delete(row.id)
  t.issues.delete(issue.id)
}

// ---- move -------------------------------------------------------------------------------------

/**
 * `Issues::MoveService`: a copy of the issue in `target` (next iid there; labels and milestone kept
 * when the target has ones with the same titles; notes and award emoji copied), then the original
 * is closed by the mover (their to-dos on it done) and points at the copy with `moved_to_id`.
 * @throws ApiError 400 `{"message":"Cannot move issue due to insufficient permissions!"}` unless the
 *   user may `admin_issue` in both projects and the issue was not moved already;
 *   400 `{"message":"Cannot move issue to project it originates from!"}`.
 */
export function moveIssue(ctx: ServiceCtx, user: UserRecord, project: ProjectRecord, issue: IssueRecord, target: ProjectRecord): IssueRecord {
  const { db } = ctx
  // `Issue#can_move?`: admin_issue on the target, not moved yet, admin_issue on the source.
  const allowed = canReadProject(db, user, target, ctx.today) && canAdminIssue(db, user, target, ctx.today) && issue.moved_to_id === null && canAdminIssue(db, user, project, ctx.today)
  if (!allowed) throw apiMessage(400, IssueMessage.moveNotAllowed)
  if (target.id === project.id) throw apiMessage(400, IssueMessage.moveSameProject)
  const targetLabels = availableLabels(db, target)
  const labelIds: number[] = []
  for (const id of issue.label_ids) {
    const title = labelById(db, id)?.title
    const match = targetLabels.find((l) => l.title === title)
    if (match && !labelIds.includes(match.id)) labelIds.push(match.id)
  }
  const milestoneTitle = issue.milestone_id === null ? undefined : milestoneById(db, issue.milestone_id)?.title
  const milestone = milestoneTitle === undefined ? undefined : allMilestones(db).filter((m) => m.title === milestoneTitle).find((m) => milestoneIdFor(db, target, m.id) !== null)
  const copy = db.tables.issues.insert({
    iid: db.nextIid('issues', 'project', target.id),
    project_id: target.id,
    title: issue.title,
    description: issue.description,
    state: 'opened',
    author_id: issue.author_id,
    assignee_ids: [...issue.assignee_ids],
    label_ids: labelIds,
    milestone_id: milestone?.id ?? null,
    confidential: issue.confidential,
    discussion_locked: issue.discussion_locked,
    issue_type: issue.issue_type,
    due_date: issue.due_date,
    // spec-gap: the copy is a new record, created now (its notes keep their own times).
    created_at: ctx.now,
    updated_at: ctx.now,
    closed_at: null,
    closed_by_id: null,
    moved_to_id: null,
    upvotes: issue.upvotes,
    downvotes: issue.downvotes,
    user_notes_count: issue.user_notes_count,
    relative_position: null,
    time_estimate: issue.time_estimate,
    total_time_spent: issue.total_time_spent,
  })
  copyNotes(db, 'Issue', issue.id, copy.id, target.id)
  for (const award of db.tables.award_emoji.where('awardable_id', issue.id)) {
    if (award.awardable_type === 'Issue') db.tables.award_emoji.insert({ ...copyOf(award), awardable_id: copy.id })
  }
  const closed = db.tables.issues.update(issue.id, { state: 'closed', closed_at: ctx.now, closed_by_id: user.id, moved_to_id: copy.id, updated_at: ctx.now })
  publishIssue(ctx, issue, closed, user.id)
  resolveTodosForTarget(ctx, issue, user)
  return copy
}

/** A record without its id, for inserting a copy. */
function copyOf<T extends { id: number }>(row: T): Omit<T, 'id'> {
  const { id: _id, ...rest } = row
  return rest
}

// ---- subscriptions ----------------------------------------------------------------------------

/**
 * `Subscribable#subscribed?(user, project)`: the user's subscription row for the issue in the
 * project when there is one, else whether the user participates (author, assignee, or author of a
 * note on it: `subscribed_without_subscriptions?`).
 */
export function subscribedToIssue(db: Db, issue: IssueRecord, user: UserRecord | null): boolean {
  if (!user) return false
  const row = db.tables.subscriptions
    .where('subscribable_id', issue.id)
    .find((s) => s.subscribable_type === 'Issue' && s.user_id === user.id && s.project_id === issue.project_id)
  if (row) return row.subscribed
  if (issue.author_id === user.id || issue.assignee_ids.includes(user.id)) return true
  return commentedOn(db, 'Issue', issue.id, user.id)
}

/** `subscribe`/`unsubscribe(user, project)`: creates or updates the user's row for the issue. */
export function setIssueSubscription(db: Db, issue: IssueRecord, user: UserRecord, subscribed: boolean): void {
  const row = db.tables.subscriptions
    .where('subscribable_id', issue.id)
    .find((s) => s.subscribable_type === 'Issue' && s.user_id === user.id && s.project_id === issue.project_id)
  if (row) db.tables.subscriptions.update(row.id, { subscribed })
  else db.tables.subscriptions.insert({ user_id: user.id, subscribable_type: 'Issue', subscribable_id: issue.id, project_id: issue.project_id, subscribed })
}
