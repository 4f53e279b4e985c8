/**
 * The noteables: issues, merge requests and commits as the note and discussion endpoints see
 * them, one shape for all (GitLab's `API::Helpers::NotesHelpers` serves every noteable with one set
 * of helpers). Finding one (`find_noteable`), who may read its confidential notes, comment on it,
 * administer or resolve its notes, and the counters a note moves on it.
 * Each kind of noteable is registered here by the area that owns it (`registerNoteableKind`), as it
 * loads: the notes area names no issue, merge request or repository code, so those areas import it
 * without a cycle (as `Noteable` is a concern their models include in GitLab).
 * Sources: gitlab: lib/api/helpers/notes_helpers.rb, app/finders/notes_finder.rb,
 * app/policies/note_policy.rb, app/policies/issuable_policy.rb, app/policies/issue_policy.rb,
 * app/policies/project_policy.rb, app/models/concerns/resolvable_discussion.rb.
 * @module
 */
import { KindRegistry } from '../../rules/kinds.js'
import { forbidden, notFound, recordNotFound } from '../../core/errors.js'
import type { Ctx } from '../../core/route.js'
import type { Db } from '../../db/db.js'
import type { ProjectRecord, UserRecord } from '../../db/schema.js'
import { AccessLevel, projectAccessLevel } from '../../rules/access.js'
import { findProject } from '../../rules/finders.js'
import type { NoteableType } from './notes.tables.js'

/** Who is asking: what a read check needs of a request context. */
export interface NoteableReadCtx {
  readonly db: Db
  readonly currentUser: UserRecord | null
  readonly today: string
}

/** Who is asking and when: the parts of a request context the notes code reads. */
export interface NotesCtx extends NoteableReadCtx {
  readonly now: string
  /** The base URL the request was served under (the facts a note's quick actions publish carry it). */
  readonly baseUrl: string
}

/** What the notes code reads of an issue, a merge request or a commit. */
export interface NoteableFacts {
  /** The issue's or merge request's global id (its notes' `noteable_id`); null for a commit. */
  readonly id: number | null
  /** Its iid (its notes' `noteable_iid`); null for a commit, which has none. */
  readonly iid: number | null
  /** A commit's sha (its notes' `commit_id`); absent on an issue or a merge request. */
  readonly commit_id?: string
  readonly project_id: number
  /** Its author's user id; null for a commit (a git author is no user). */
  readonly author_id: number | null
  readonly assignee_ids: readonly number[]
  readonly discussion_locked: boolean | null
}

/** An issue, a merge request or a commit, with its project. */
export interface Noteable {
  readonly type: NoteableType
  readonly project: ProjectRecord
  readonly record: NoteableFacts
}

/** What quick actions in a new note did: its text without them, their changes, their messages. */
export interface InterpretedNote {
  /** The body with each executed command's line removed. */
  content: string
  /** `commands_changes`: `{}` when no quick action ran. */
  changes: Record<string, unknown>
  /** Execution messages, one per executed command (the 202 answer's `summary`). */
  messages: string[]
}

/** A noteable's quick actions (`Notes::QuickActionsService`): read from a new note, then run. */
export interface NoteCommands {
  /** The commands of `body` the caller may run on the noteable with global id `id`, and the text left. */
  interpret(ctx: NotesCtx, project: ProjectRecord, id: number, body: string): InterpretedNote
  /** Runs the interpreted commands, after the note (if any) is stored. */
  execute(ctx: NotesCtx, id: number): void
}

/**
 * One kind of noteable, as the area owning its model registers it: how the note code finds one,
 * who may read it, and what a note does to it. `R` is the area's record.
 */
export interface NoteableKind<R extends NoteableFacts = NoteableFacts> {
  /** GitLab's model name, the notes' `noteable_type`. */
  readonly type: NoteableType
  /**
   * `NotesFinder#target`'s lookup: the one the path names in the project, readable or not, by iid
   * (`project.<noteables>.find_by(iid:)`) or, for a commit, by sha or ref (`project.commit(id)`).
   */
  find(db: Db, project: ProjectRecord, key: number | string): R | undefined
  /** `read_issue`/`read_merge_request`/`read_commit` on one of the (readable) project's noteables. */
  canRead(ctx: NoteableReadCtx, project: ProjectRecord, record: R): boolean
  /**
   * The `not_found!` name for a missing or unreadable one (`noteable || not_found!(noteable_type)`:
   * a commit's `404 Commit Not Found`); without it, the finder's `404 Not found`.
   */
  readonly notFoundName?: string
  /** Who keeps `create_note` on a locked discussion: this access level and up (administrators too). */
  readonly lockedDiscussionLevel: number
  /** A user note's effect on it (by global id): `user_notes_count` by `delta` (never below 0); `now` also moves its `updated_at`. */
  countNote?(db: Db, id: number, delta: 1 | -1, now: string | null): void
  /** Its quick actions, if fakelab interprets any. */
  readonly commands?: NoteCommands
}

const kinds = new KindRegistry<NoteableType, NoteableKind>('noteable')

/** Registers a kind of noteable (its area calls this once, as it loads). */
export function registerNoteableKind<R extends NoteableFacts>(kind: NoteableKind<R>): void {
  kinds.register(kind as unknown as NoteableKind)
}

/**
 * The registered kind of that type.
 * @throws Error when no area registered it (a composition bug, not a request error).
 */
export function noteableKind(type: NoteableType): NoteableKind {
  return kinds.get(type)
}

/** The noteables under `/projects/:id` with note routes: their path segment and the name of their id parameter (the spec's). */
export const NOTEABLES: readonly { type: NoteableType; segment: string; idParam: string }[] = [
  { type: 'Issue', segment: 'issues', idParam: 'issue_iid' },
  { type: 'MergeRequest', segment: 'merge_requests', idParam: 'merge_request_iid' },
  // Project snippets, named by their id under GitLab's own parameter name (the snippets area registers the kind).
  { type: 'Snippet', segment: 'snippets', idParam: 'noteable_id' },
]

/**
 * The noteables under `/projects/:id` with discussion routes (discussions.rb's noteable types):
 * those with note routes, named by iid, and commits (`repository/commits/:commit_id`, GitLab's
 * documented name), named by sha or ref.
 */
export const DISCUSSABLES: readonly { type: NoteableType; segment: string; idParam: string; key: 'iid' | 'sha' }[] = [
  ...NOTEABLES.map((noteable) => ({ ...noteable, key: 'iid' as const })),
  { type: 'Commit', segment: 'repository/commits', idParam: 'commit_id', key: 'sha' },
]

/**
 * `find_noteable(type, iid)`: the project (`user_project`), then `NotesFinder#target`, which looks
 * the issue or merge request up through its finder (`IssuesFinder`/`MergeRequestsFinder`
 * `…find_by!(iid:)`), so a missing one and one the caller may not read (a confidential issue, a
 * private project's merge requests for a Guest) are both the finder's `RecordNotFound`; a commit
 * (`project.commit(sha)`, then `read_commit`) is `not_found!("Commit")` for both.
 * @throws ApiError 404 `{"message":"404 Project Not Found"}`; 404 `{"message":"404 Not found"}`;
 *   404 `{"message":"404 Commit Not Found"}`.
 */
export function findNoteable(ctx: Ctx<unknown>, type: NoteableType, projectId: string, key: number | string): Noteable {
  const project = findProject(ctx, projectId)
  const record = readableNoteable(ctx, project, type, key)
  if (!record) {
    const name = noteableKind(type).notFoundName
    throw name === undefined ? recordNotFound() : notFound(name)
  }
  return { type, project, record }
}

/**
 * `NotesFinder#target` in a readable project: the noteable of that type and iid (a commit: sha or
 * ref) if the caller may read it, else undefined (GitLab's finder raises `RecordNotFound` for both).
 */
export function readableNoteable(ctx: NoteableReadCtx, project: ProjectRecord, type: NoteableType, key: number | string): NoteableFacts | undefined {
  const kind = noteableKind(type)
  const record = kind.find(ctx.db, project, key)
  return record && kind.canRead(ctx, project, record) ? record : undefined
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
  const threshold = noteableKind(noteable.type).lockedDiscussionLevel
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
export function countNote(db: Db, noteable: { type: NoteableType; id: number | null }, delta: 1 | -1, now: string | null): void {
  // A commit has no counter and no `updated_at`.
  if (noteable.id !== null) noteableKind(noteable.type).countNote?.(db, noteable.id, delta, now)
}

/**
 * `set_note_created_at` (`ProjectPolicy`, owners; administrators): whether a new note's
 * `created_at` parameter is kept (`create_note` drops it otherwise).
 */
export function canSetNoteCreatedAt(ctx: NotesCtx, noteable: Noteable): boolean {
  const user = ctx.currentUser
  return user !== null && (user.admin || accessLevel(ctx, noteable) >= AccessLevel.OWNER)
}
