/**
 * Notes on issues and merge requests: list, get, create, edit and delete
 * (`/projects/:id/{issues,merge_requests}/:iid/notes(/:note_id)`). The routes are made from one
 * definition looped over the noteables, as GitLab's `API::Notes` loops over its noteable types.
 * Every note route needs a signed-in user, reads included (notes.rb `before { authenticate! }`).
 * Permissions are GitLab 13.x's `NotePolicy`: reading needs `read_issue`/`read_merge_request` (and,
 * for a confidential note, Reporter+, the noteable's author or assignee, or an administrator);
 * creating needs `create_note` (a locked discussion keeps it for Reporter+ on an issue, project
 * members on a merge request); editing and deleting need `admin_note`: the note's author,
 * Maintainer+ or an administrator, never on a system note.
 * spec-gap: GitLab names the path parameter `:noteable_id`; api-spec.md's issue note routes call it
 * `issue_iid` (and GitLab's documentation `merge_request_iid` for merge requests), so those names
 * are used, and a bad one reads "issue_iid is invalid" rather than "noteable_id is invalid".
 * Sources: issue 16 part 2, issue 25 item 1; gitlab: lib/api/notes.rb, lib/api/helpers/notes_helpers.rb,
 * app/policies/note_policy.rb, app/services/notes/{create,update,destroy}_service.rb.
 * @module
 */
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { forbidden, notFound, recordNotFound } from '../../core/errors.js'
import { paginate, paginationParams } from '../../core/pagination.js'
import { p, type ParamSpecs } from '../../core/params.js'
import { created, noContent, ok } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import { Note } from './notes.entities.js'
import { authorizeCreateNote, canAdminAnyNote, findNoteable, NOTEABLES, type Noteable } from './notes.noteables.js'
import { noteableNotes, noteOfNoteable } from './notes.finder.js'
import { createNote, destroyNote, noteReader, updateNote } from './notes.service.js'
import type { NoteableType, NoteRecord } from './notes.tables.js'

/** The params every route of one noteable reads: the project, the noteable's iid, maybe a note id. */
type NoteParams = { id: string; note_id?: number } & Record<string, unknown>

/** `find_noteable` for the path's noteable (see notes.noteables.ts). */
export function pathNoteable(ctx: Ctx<unknown>, type: NoteableType, idParam: string): Noteable {
  const params = ctx.params as NoteParams
  return findNoteable(ctx, type, params.id, params[idParam] as number | string)
}

/**
 * `noteable.notes.find(note_id)`.
 * @throws ApiError 404 `{"message":"404 Not found"}` for a note of another noteable or none.
 */
export function findNote(ctx: Ctx<unknown>, noteable: Noteable, noteId: number): NoteRecord {
  const note = noteOfNoteable(ctx.db, noteable, noteId)
  if (!note) throw recordNotFound()
  return note
}

/**
 * `authorize! :admin_note, note`: the author or Maintainer+ (or an administrator), who can also
 * read it; system notes are not editable.
 * @throws ApiError 403 `{"message":"403 Forbidden"}`.
 */
export function authorizeAdminNote(ctx: Ctx<unknown>, noteable: Noteable, note: NoteRecord): void {
  const user = ctx.currentUser!
  const allowed = !note.system && noteReader(ctx, noteable)(note) && (note.author_id === user.id || canAdminAnyNote(ctx, noteable))
  if (!allowed) throw forbidden()
}

/**
 * `get_note`: the note when the caller may read it.
 * spec-gap: 13.x's `get_note` checks only cross-reference visibility; a confidential note is
 * answered `not_found!("Note")` here to whoever may not read it, as the list hides it.
 * @throws ApiError 404 `{"message":"404 Note Not Found"}`.
 */
export function readableNote(ctx: Ctx<unknown>, noteable: Noteable, note: NoteRecord): NoteRecord {
  if (!noteReader(ctx, noteable)(note)) throw notFound('Note')
  return note
}

/** The five note routes of one noteable. */
function noteRoutesOf(type: NoteableType, segment: string, idParam: string): Route[] {
  const base = `/projects/:id/${segment}/:${idParam}/notes`
  const ids: ParamSpecs = { id: p.string({ required: true }), [idParam]: p.integer({ required: true }) }
  const noteId: ParamSpecs = { ...ids, note_id: p.integer({ required: true }) }
  const noteable = (ctx: Ctx<unknown>) => pathNoteable(ctx, type, idParam)
  const noteParam = (ctx: Ctx<unknown>) => (ctx.params as NoteParams).note_id!
  return [
    route(`GET ${base}`, {
      params: {
        ...ids,
        order_by: p.string({ values: ['created_at', 'updated_at'] as const, default: 'created_at' }),
        sort: p.string({ values: ['asc', 'desc'] as const, default: 'desc' }),
        ...paginationParams,
      } as ParamSpecs,
      handler(ctx) {
        const found = noteable(ctx)
        const key = ctx.params.order_by as 'created_at' | 'updated_at'
        const direction = ctx.params.sort === 'asc' ? 1 : -1
        // `reorder(order_by => sort)`; equal times fall back to the id, in the same direction.
        const notes = noteableNotes(ctx.db, found).sort((a, b) => direction * (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : a.id - b.id))
        // gitlab: notes.rb paginates first, then drops the notes the caller may not read, so a page
        // can come back shorter than `per_page`.
        const page = paginate(ctx as never, notes)
        const readable = noteReader(ctx, found)
        return { status: 200, body: page.rows.filter(readable).map((note) => Note(note, ctx, found.record.iid)), headers: page.headers }
      },
    }),

    route(`GET ${base}/:note_id`, {
      params: noteId,
      handler(ctx) {
        const found = noteable(ctx)
        return ok(Note(readableNote(ctx, found, findNote(ctx, found, noteParam(ctx))), ctx, found.record.iid))
      },
    }),

    route(`POST ${base}`, {
      // gitlab: 13.x notes.rb `requires :body`, `optional :confidential`.
      params: { ...ids, body: p.string({ required: true }), confidential: p.boolean() } as ParamSpecs,
      handler(ctx) {
        // `find_noteable`: the finder's 404 Not found for a missing or hidden noteable (issue 23 item 2).
        const found = noteable(ctx)
        authorizeCreateNote(ctx, found)
        // Quick actions (GitLab Premium `/promote` on issues; issue 23 item 10): the executed
        // command's line is not stored, and a note of nothing but commands is not stored at all
        // (202 with the summary, `Entities::NoteCommands`).
        const result = createNote(ctx, found, ctx.currentUser!, { body: ctx.params.body as string, confidential: (ctx.params.confidential as boolean | undefined) ?? null })
        if (!result.note) return { status: 202, body: { commands_changes: result.changes, summary: result.messages } }
        return created(Note(result.note, ctx, found.record.iid, result.changes))
      },
    }),

    route(`PUT ${base}/:note_id`, {
      // gitlab: 13.x notes.rb `requires :body` (no `confidential`: changing it came later).
      params: { ...noteId, body: p.string({ required: true }) } as ParamSpecs,
      handler(ctx) {
        const found = noteable(ctx)
        const note = findNote(ctx, found, noteParam(ctx))
        authorizeAdminNote(ctx, found, note)
        return ok(Note(updateNote(ctx, note, { body: ctx.params.body as string }), ctx, found.record.iid))
      },
    }),

    route(`DELETE ${base}/:note_id`, {
      params: noteId,
      handler(ctx) {
        const found = noteable(ctx)
        const note = findNote(ctx, found, noteParam(ctx))
        authorizeAdminNote(ctx, found, note)
        checkUnmodifiedSince(ctx, note.updated_at)
        destroyNote(ctx, note)
        return noContent()
      },
    }),
  ]
}

/** The note routes (see the module comment). */
export const noteRoutes: Route[] = NOTEABLES.flatMap(({ type, segment, idParam }) => noteRoutesOf(type, segment, idParam))
