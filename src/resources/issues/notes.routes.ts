/**
 * Notes on issues: list, get, edit and delete (`POST …/notes` is with the other sub-resources in
 * issues.routes.ts). They stay in the issues area rather than a folder of their own because the
 * notes table, the `Note` entity and note creation already live here and areas do not import each
 * other; merge request and snippet notes would join this file as more noteables.
 * Every note route needs a signed-in user, reads included (notes.rb `before { authenticate! }`).
 * Permissions are GitLab 13.x's `NotePolicy`: reading needs `read_issue` (and, for a confidential
 * note, Reporter+, the issue's author or assignee, or an administrator); editing and deleting need
 * `admin_note`: the note's author, Maintainer+ or an administrator, never on a system note.
 * Sources: issue 16 part 2; gitlab: lib/api/notes.rb, lib/api/helpers/notes_helpers.rb,
 * app/policies/note_policy.rb, app/services/notes/{update,destroy}_service.rb.
 * @module
 */
import { AccessLevel, projectAccessLevel } from '../../rules/access.js'
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { forbidden, notFound, recordNotFound } from '../../core/errors.js'
import { findProject } from '../../rules/finders.js'
import { paginate, paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { noContent, ok } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import { Note } from './issues.entities.js'
import { findProjectIssue } from './issues.service.js'
import type { IssueRecord, NoteRecord } from './issues.tables.js'
import { destroyNote, updateNote } from './notes.service.js'

const noteableId = { id: p.string({ required: true }), issue_iid: p.integer({ required: true }) }
const noteId = { ...noteableId, note_id: p.integer({ required: true }) }

/**
 * `find_noteable(Issue, iid)`: `NotesFinder#target` looks the issue up with
 * `IssuesFinder.new(user, project_id:).execute.find_by!(iid:)`, so a missing issue, or one the caller
 * cannot see (confidential, or its project's issues hidden from them), raises `RecordNotFound`
 * before `not_found!('Issue')` is reached (issue 23 item 2).
 * @throws ApiError 404 `{"message":"404 Not found"}`; 404 `Project Not Found` for an unreadable project.
 */
function findNoteable(ctx: Ctx<{ id: string; issue_iid: number }>): { project: ProjectRecord; issue: IssueRecord } {
  const project = findProject(ctx, ctx.params.id)
  return { project, issue: findProjectIssue(ctx, project, ctx.params.issue_iid) }
}

/** `noteable.notes.find(note_id)`: 404 Not found for a note of another issue or none. */
function findNote(ctx: Ctx<{ note_id: number }>, issue: IssueRecord): NoteRecord {
  const note = ctx.db.tables.notes.get(ctx.params.note_id)
  if (!note || note.noteable_type !== 'Issue' || note.noteable_id !== issue.id) throw recordNotFound()
  return note
}

/**
 * `read_note` once the issue is readable: a confidential note needs Reporter+, the issue's author
 * or an assignee, or an administrator (`can_read_confidential`). Returns a predicate, so a page is
 * filtered with one access lookup.
 */
function noteReader(ctx: Ctx<unknown>, project: ProjectRecord, issue: IssueRecord): (note: NoteRecord) => boolean {
  const user = ctx.currentUser
  const confidentialOk =
    user !== null &&
    (user.admin ||
      projectAccessLevel(ctx.db, user, project, ctx.today) >= AccessLevel.REPORTER ||
      issue.author_id === user.id ||
      issue.assignee_ids.includes(user.id))
  return (note) => !note.confidential || confidentialOk
}

/**
 * `authorize! :admin_note, note`: the author or Maintainer+ (or an administrator), who can also
 * read it; system notes are not editable.
 * @throws ApiError 403 `{"message":"403 Forbidden"}`.
 */
function authorizeAdminNote(ctx: Ctx<unknown>, project: ProjectRecord, issue: IssueRecord, note: NoteRecord): void {
  const user = ctx.currentUser!
  const allowed =
    !note.system &&
    noteReader(ctx, project, issue)(note) &&
    (note.author_id === user.id || user.admin || projectAccessLevel(ctx.db, user, project, ctx.today) >= AccessLevel.MAINTAINER)
  if (!allowed) throw forbidden()
}

/** The note routes (see the module comment). */
export const noteRoutes: Route[] = [
  // spec-gap: GitLab names the path parameter `:noteable_id`; api-spec.md's note route calls it
  // `issue_iid`, so the note routes use the spec's name throughout.
  route('GET /projects/:id/issues/:issue_iid/notes', {
    params: {
      ...noteableId,
      order_by: p.string({ values: ['created_at', 'updated_at'] as const, default: 'created_at' }),
      sort: p.string({ values: ['asc', 'desc'] as const, default: 'desc' }),
      ...paginationParams,
    },
    handler(ctx) {
      const { project, issue } = findNoteable(ctx)
      const key = ctx.params.order_by
      const direction = ctx.params.sort === 'asc' ? 1 : -1
      // `reorder(order_by => sort)`; equal times fall back to the id, in the same direction.
      const notes = ctx.db.tables.notes
        .where('noteable_id', issue.id)
        .filter((note) => note.noteable_type === 'Issue')
        .sort((a, b) => direction * (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : a.id - b.id))
      // gitlab: notes.rb paginates first, then drops the notes the caller may not read, so a page
      // can come back shorter than `per_page`.
      const page = paginate(ctx, notes)
      const readable = noteReader(ctx, project, issue)
      return { status: 200, body: page.rows.filter(readable).map((note) => Note(note, ctx, issue)), headers: page.headers }
    },
  }),

  route('GET /projects/:id/issues/:issue_iid/notes/:note_id', {
    params: noteId,
    handler(ctx) {
      const { project, issue } = findNoteable(ctx)
      const note = findNote(ctx, issue)
      // spec-gap: 13.x's `get_note` checks only cross-reference visibility; a confidential note is
      // answered `not_found!("Note")` here to whoever may not read it, as the list hides it.
      if (!noteReader(ctx, project, issue)(note)) throw notFound('Note')
      return ok(Note(note, ctx, issue))
    },
  }),

  route('PUT /projects/:id/issues/:issue_iid/notes/:note_id', {
    // gitlab: 13.x notes.rb `requires :body` (no `confidential`: changing it came later).
    params: { ...noteId, body: p.string({ required: true }) },
    handler(ctx) {
      const { project, issue } = findNoteable(ctx)
      const note = findNote(ctx, issue)
      authorizeAdminNote(ctx, project, issue, note)
      const updated = updateNote(ctx, note, { body: ctx.params.body })
      return ok(Note(updated, ctx, issue))
    },
  }),

  route('DELETE /projects/:id/issues/:issue_iid/notes/:note_id', {
    params: noteId,
    handler(ctx) {
      const { project, issue } = findNoteable(ctx)
      const note = findNote(ctx, issue)
      authorizeAdminNote(ctx, project, issue, note)
      checkUnmodifiedSince(ctx, note.updated_at)
      destroyNote(ctx, note)
      return noContent()
    },
  }),
]
