/**
 * The noteables: issues and merge requests as the note and discussion endpoints see them, one
 * shape for both (GitLab's `API::Helpers::NotesHelpers` serves every noteable with one set of
 * helpers). Finding one (`find_noteable`), who may read its confidential notes, comment on it,
 * administer or resolve its notes, and the counters a note moves on it. The issue and merge
 * request facts come through those areas' public modules.
 * Sources: gitlab: lib/api/helpers/notes_helpers.rb, app/finders/notes_finder.rb,
 * app/policies/note_policy.rb, app/policies/issuable_policy.rb, app/policies/issue_policy.rb,
 * app/policies/project_policy.rb, app/models/concerns/resolvable_discussion.rb.
 * @module
 */
import { forbidden, recordNotFound } from '../../core/errors.js'
import type { Ctx } from '../../core/route.js'
import type { Db } from '../../db/db.js'
import type { ProjectRecord, UserRecord } from '../../db/schema.js'
import { AccessLevel, issueVisibleTo, projectAccessLevel } from '../../rules/access.js'
import { findProject } from '../../rules/finders.js'
import { countIssueNote, issueByIid } from '../issues/issues.public.js'
import { canReadMergeRequest, countMergeRequestNote, mergeRequestByIid } from '../merge-requests/merge-requests.public.js'
import type { NoteableType } from './notes.tables.js'

/** Who is asking and when: the parts of a request context the notes code reads. */
export interface NotesCtx {
  readonly db: Db
  readonly currentUser: UserRecord | null
  readonly today: string
  readonly now: string
}

/** What the notes code reads of an issue or a merge request. */
export interface NoteableFacts {
  readonly id: number
  readonly iid: number
  readonly project_id: number
  readonly author_id: number
  readonly assignee_ids: readonly number[]
  readonly discussion_locked: boolean | null
}

/** An issue or a merge request, with its project. */
export interface Noteable {
  readonly type: NoteableType
  readonly project: ProjectRecord
  readonly record: NoteableFacts
}

/** The noteables under `/projects/:id`: their path segment and the name of their id parameter (the spec's). */
export const NOTEABLES: readonly { type: NoteableType; segment: string; idParam: string }[] = [
  { type: 'Issue', segment: 'issues', idParam: 'issue_iid' },
  { type: 'MergeRequest', segment: 'merge_requests', idParam: 'merge_request_iid' },
]

/**
 * `find_noteable(type, iid)`: the project (`user_project`), then `NotesFinder#target`, which looks
 * the issue or merge request up through its finder (`IssuesFinder`/`MergeRequestsFinder`
 * `…find_by!(iid:)`), so a missing one and one the caller may not read (a confidential issue, a
 * private project's merge requests for a Guest) are both the finder's `RecordNotFound`.
 * @throws ApiError 404 `{"message":"404 Project Not Found"}`; 404 `{"message":"404 Not found"}`.
 */
export function findNoteable(ctx: Ctx<unknown>, type: NoteableType, projectId: string, iid: number): Noteable {
  const project = findProject(ctx, projectId)
  if (type === 'Issue') {
    const issue = issueByIid(ctx.db, project.id, iid)
    if (!issue || !issueVisibleTo(ctx.db, ctx.currentUser, project, ctx.today)(issue)) throw recordNotFound()
    return { type, project, record: issue }
  }
  const mr = mergeRequestByIid(ctx.db, project.id, iid)
  if (!mr || !canReadMergeRequest(ctx, project, mr)) throw recordNotFound()
  return { type, project, record: mr }
}

/** The caller's access level in the noteable's project (0 for anonymous). */
function accessLevel(ctx: NotesCtx, noteable: Noteable): number {
  return projectAccessLevel(ctx.db, ctx.currentUser, noteable.project, ctx.today)
}

/**
 * `NotePolicy` `can_read_confidential`: Reporter+, the noteable's author or an assignee, or an
 * administrator. Worked out once per request, so a page is filtered with one access lookup.
 */
export function canReadConfidentialNotes(ctx: NotesCtx, noteable: Noteable): boolean {
  const user = ctx.currentUser
  if (!user) return false
  return user.admin || accessLevel(ctx, noteable) >= AccessLevel.REPORTER || noteable.record.author_id === user.id || noteable.record.assignee_ids.includes(user.id)
}

/**
 * `authorize! :create_note, noteable` once it is readable: a locked discussion keeps
 * `create_note` for those who may administer the issue (Reporter+, `IssuePolicy`) or, on a merge
 * request, for project members (`IssuablePolicy` `locked & ~is_project_member`).
 * @throws ApiError 403 `{"message":"403 Forbidden"}`.
 */
export function authorizeCreateNote(ctx: NotesCtx, noteable: Noteable): void {
  if (!noteable.record.discussion_locked) return
  const user = ctx.currentUser
  const threshold = noteable.type === 'Issue' ? AccessLevel.REPORTER : AccessLevel.GUEST
  if (!user || !(user.admin || accessLevel(ctx, noteable) >= threshold)) throw forbidden()
}

/** Whether the caller may administer any note here (`admin_note` from the project: Maintainer+, administrators). */
export function canAdminAnyNote(ctx: NotesCtx, noteable: Noteable): boolean {
  const user = ctx.currentUser
  return user !== null && (user.admin || accessLevel(ctx, noteable) >= AccessLevel.MAINTAINER)
}

/**
 * `Discussion#can_resolve?` beyond resolvability: the merge request's author, or whoever holds
 * `resolve_note` in the project (Developer+, administrators).
 */
export function canResolveDiscussions(ctx: NotesCtx, noteable: Noteable): boolean {
  const user = ctx.currentUser
  if (!user) return false
  return user.admin || noteable.record.author_id === user.id || accessLevel(ctx, noteable) >= AccessLevel.DEVELOPER
}

/**
 * A user note's effect on its noteable's `user_notes_count` (by `delta`, never below 0); `now`
 * also moves its `updated_at` (a new note touches its noteable; a deleted one does not).
 */
export function countNote(db: Db, noteable: { type: NoteableType; id: number }, delta: 1 | -1, now: string | null): void {
  if (noteable.type === 'Issue') countIssueNote(db, noteable.id, delta, now)
  else countMergeRequestNote(db, noteable.id, delta, now)
}

/**
 * `set_note_created_at` (`ProjectPolicy`, owners; administrators): whether a new note's
 * `created_at` parameter is kept (`create_note` drops it otherwise).
 */
export function canSetNoteCreatedAt(ctx: NotesCtx, noteable: Noteable): boolean {
  const user = ctx.currentUser
  return user !== null && (user.admin || accessLevel(ctx, noteable) >= AccessLevel.OWNER)
}
