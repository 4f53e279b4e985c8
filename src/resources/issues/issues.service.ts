/**
 * What the issue sub-resources do: find one issue as `find_project_issue` does, time tracking,
 * participants, the merge requests related to or closing an issue, user agent details and
 * metric images. Handlers authorize; these functions check the model's rules and write.
 * Sources: gitlab-behaviour.md §4.3, §5; gitlab: lib/api/issues.rb, lib/api/time_tracking_endpoints.rb,
 * app/models/concerns/time_trackable.rb, app/models/concerns/issuable.rb
 * (participants), app/models/issue.rb (`related_merge_requests`), ee/lib/ee/api/issues.rb.
 * @module
 */
import { AccessLevel, canReadProject, issueVisibleTo, projectAccessLevel } from '../../rules/access.js'
import { recordNotFound, validationFailed, ValidationMessage } from '../../core/errors.js'
import { IssueValidationMessage } from './issues.messages.js'
import type { Db } from '../../db/db.js'
import type { ProjectRecord, Tables, UserRecord } from '../../db/schema.js'
import { noteAuthorIds } from '../notes/notes.public.js'
import { resolveTodosForTarget as resolveTodos } from '../todos/todos.public.js'
import { parseDuration } from './duration.js'
import type { IssueRecord, MetricImageRecord } from './issues.tables.js'

type MergeRequestRecord = Tables['merge_requests']

/** Who is asking and when: the parts of a request context the service reads. */
/**
 * `user_project.issues.find_by(iid:)`: the project's issue with that iid, visible to the caller or
 * not (callers check `read_issue`). The one lookup by project and iid every area uses.
 */
export function issueByIid(db: Db, projectId: number, iid: number): IssueRecord | undefined {
  return db.tables.issues.where('project_id', projectId).find((row) => row.iid === iid)
}

export interface ServiceCtx {
  readonly db: Db
  readonly currentUser: UserRecord | null
  readonly today: string
  readonly now: string
  /** The base URL the request was served under (the facts its writes publish carry it). */
  readonly baseUrl: string
}

/**
 * `find_project_issue(iid)`: the project's issue with that iid, if the caller may see it.
 * @throws ApiError 404 `{"message":"404 Not found"}` when missing or confidential to the caller.
 */
export function findProjectIssue(ctx: ServiceCtx, project: ProjectRecord, iid: number): IssueRecord {
  const issue = findProjectIssueOrNull(ctx, project, iid)
  if (!issue) throw recordNotFound()
  return issue
}

/** The project's issue with that iid if the caller may see it, else null. */
function findProjectIssueOrNull(ctx: ServiceCtx, project: ProjectRecord, iid: number): IssueRecord | null {
  const issue = issueByIid(ctx.db, project.id, iid)
  return issue && issueVisibleTo(ctx.db, ctx.currentUser, project, ctx.today)(issue) ? issue : null
}

/** Whether the caller holds `admin_issue` (Reporter+, administrators) in the project. */
export function canAdminIssue(ctx: ServiceCtx, project: ProjectRecord): boolean {
  const user = ctx.currentUser
  return user !== null && (user.admin || projectAccessLevel(ctx.db, user, project, ctx.today) >= AccessLevel.REPORTER)
}

// ---- time tracking ----------------------------------------------------------------------------

/**
 * `time_estimate`: stores the parsed duration (13.x accepts negative estimates). The issue's
 * `updated_at` moves when the estimate changes.
 * @throws ApiError 400 `{"message":{"time_estimate":["has an invalid format"]}}` for a duration that
 *   does not parse or parses to 0.
 */
export function setTimeEstimate(ctx: ServiceCtx, issue: IssueRecord, duration: string): IssueRecord {
  const seconds = parseDuration(duration)
  if (seconds === null) throw validationFailed({ time_estimate: ['has an invalid format'] })
  return updateEstimate(ctx, issue, seconds)
}

/** `reset_time_estimate`: estimate 0. */
export function resetTimeEstimate(ctx: ServiceCtx, issue: IssueRecord): IssueRecord {
  return updateEstimate(ctx, issue, 0)
}

function updateEstimate(ctx: ServiceCtx, issue: IssueRecord, seconds: number): IssueRecord {
  if (seconds === issue.time_estimate) return issue
  return ctx.db.tables.issues.update(issue.id, { time_estimate: seconds, updated_at: ctx.now })
}

/**
 * `add_spent_time`: adds a time log of `duration` (negative subtracts).
 * spec-gap: an unparsable duration gives GitLab a time log without `time_spent`, which fails the
 * issue's save; the answer here is 400 `{"message":{"timelogs":["is invalid"]}}` (autosaved
 * association's error), not verified against a live 13.x.
 * @throws ApiError 400 `{"message":{"time_spent":["Time to subtract exceeds the total time spent"]}}`
 *   when the total would go below 0.
 */
export function addSpentTime(ctx: ServiceCtx, issue: IssueRecord, duration: string): IssueRecord {
  const seconds = parseDuration(duration)
  if (seconds === null) throw validationFailed({ timelogs: [ValidationMessage.invalid] })
  const total = issue.total_time_spent + seconds
  if (total < 0) throw validationFailed({ time_spent: [IssueValidationMessage.subtractExceedsTotal] })
  return ctx.db.tables.issues.update(issue.id, { total_time_spent: total })
}

/** `reset_spent_time`: a negative time log equal to the total, so the total is 0. */
export function resetSpentTime(ctx: ServiceCtx, issue: IssueRecord): IssueRecord {
  if (issue.total_time_spent === 0) return issue
  return ctx.db.tables.issues.update(issue.id, { total_time_spent: 0 })
}

// ---- to-dos ----------------------------------------------------------------------------------

/**
 * `TodoService#resolve_todos_for_target`: the user's pending to-dos on the issue become done (on
 * closing it, commenting on it, moving it). gitlab: app/services/todo_service.rb.
 */
export function resolveTodosForTarget(ctx: ServiceCtx, issue: IssueRecord, user: UserRecord): void {
  resolveTodos(ctx.db, user.id, 'Issue', issue.id, ctx.now)
}

// ---- participants and merge requests ----------------------------------------------------------

/**
 * `issue.participants(current_user)`: the author, then the authors of its notes in order, then
 * its assignees; each once, blocked users left out, and only users who may see the issue
 * (a confidential issue's participants are filtered by `read_issue`).
 * gitlab: app/models/concerns/issuable.rb (`participant :author, :notes_with_associations,
 * :assignees`), app/models/concerns/participable.rb.
 */
export function participants(ctx: ServiceCtx, project: ProjectRecord, issue: IssueRecord): UserRecord[] {
  const { db } = ctx
  const ids: number[] = [issue.author_id, ...noteAuthorIds(db, 'Issue', issue.id), ...issue.assignee_ids]
  const out: UserRecord[] = []
  const seen = new Set<number>()
  for (const id of ids) {
    if (seen.has(id)) continue
    seen.add(id)
    const user = db.tables.users.get(id)
    if (!user || user.state === 'blocked') continue
    if (!canReadProject(db, user, project, ctx.today) || !issueVisibleTo(db, user, project, ctx.today)(issue)) continue
    out.push(user)
  }
  return out
}

// ---- metric images ----------------------------------------------------------------------------

/** The incident's metric images, oldest first. */
export function metricImages(db: Db, issue: IssueRecord): MetricImageRecord[] {
  return db.tables.issuable_metric_images.where('issue_id', issue.id)
}

/** Upload limit of a metric image (`IssuableMetricImage` `MAX_FILE_SIZE`, 1 MB). */
export const METRIC_IMAGE_MAX_BYTES = 1024 * 1024
