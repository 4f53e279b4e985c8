/**
 * Discussions on issues, merge requests and commits (`/projects/:id/{issues,merge_requests}/:iid/discussions`,
 * `/projects/:id/repository/commits/:commit_id/discussions`): list, get, start one, its notes
 * (list, add, get, edit or resolve, delete) and, on merge requests, resolving or unresolving a
 * whole discussion. A commit is named by sha or ref, read with `read_commit` (`download_code`:
 * `404 Commit Not Found` for a missing or unreadable one), and its discussions are its commit
 * comments (`…/commits/:sha/comments`, the repository area's). A discussion is its notes grouped by
 * `discussion_id`; notes made here are the same notes the note routes list (`type:
 * "DiscussionNote"`), and a plain comment appears here as a discussion with `individual_note: true`.
 * Every route needs a signed-in user (discussions.rb `before { authenticate! }`); reading and
 * writing follow the note routes (notes.routes.ts). Resolving needs `resolve_note` on the note
 * (its author, the merge request's author, Developer+) or, for a whole discussion,
 * `Discussion#can_resolve?` (the merge request's author or Developer+).
 * spec-gap: a merge request discussion with a `position` (a diff note) needs the repository's
 * diffs; `position` is not read, so such a request starts an ordinary discussion.
 * Sources: issue 25 item 4; gitlab: lib/api/discussions.rb, lib/api/helpers/notes_helpers.rb,
 * app/services/notes/build_service.rb, app/models/discussion.rb, app/models/individual_note_discussion.rb,
 * app/models/concerns/resolvable_discussion.rb, app/policies/note_policy.rb.
 * @module
 */
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { badRequest, forbidden, notFound } from '../../core/errors.js'
import { paginate, paginationParams } from '../../core/pagination.js'
import { p, type ParamSpecs } from '../../core/params.js'
import { created, noContent, ok } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import { NoteMessage } from './notes.messages.js'
import { Discussion, Note } from './notes.entities.js'
import { discussionState, groupDiscussions, isResolvable } from './notes.model.js'
import { authorizeCreateNote, canReadConfidentialNotes, canResolveDiscussions, canSetNoteCreatedAt, DISCUSSABLES, type Noteable } from './notes.noteables.js'
import { authorizeAdminNote, findNote, pathNoteable, readableNote } from './notes.routes.js'
import { noteableNotes } from './notes.finder.js'
import { createNote, destroyNote, discussionNotes, noteReader, setDiscussionResolved, updateNote } from './notes.service.js'
import type { NoteableType, NoteRecord } from './notes.tables.js'

type DiscussionParams = { discussion_id: string; note_id: number; body?: string; created_at?: string; resolved?: boolean }

/**
 * `readable_discussion_notes(noteable, discussion_id)`: the discussion's notes the caller may read,
 * oldest first; none when there is no such discussion.
 */
function readableDiscussion(ctx: Ctx<unknown>, noteable: Noteable, discussionId: string): NoteRecord[] {
  return discussionNotes(ctx, noteable, discussionId).filter(noteReader(ctx, noteable))
}

/** The `created_at` param as kept: only for `set_note_created_at`, and only when it parses. */
function createdAtParam(ctx: Ctx<unknown>, noteable: Noteable, value: string | undefined): string | undefined {
  if (value === undefined || !canSetNoteCreatedAt(ctx, noteable)) return undefined
  const time = Date.parse(value)
  return Number.isNaN(time) ? undefined : new Date(time).toISOString()
}

/**
 * `resolve_note`: `NotePolicy` gives it to the note's author and the noteable's author, the project
 * to Developer+; someone who may not read a confidential note has none.
 */
function canResolveNote(ctx: Ctx<unknown>, noteable: Noteable, note: NoteRecord): boolean {
  const user = ctx.currentUser!
  if (note.confidential && !canReadConfidentialNotes(ctx, noteable)) return false
  return note.author_id === user.id || canResolveDiscussions(ctx, noteable)
}

/** The discussion routes of one noteable. */
function discussionRoutesOf(type: NoteableType, segment: string, idParam: string, key: 'iid' | 'sha'): Route[] {
  const base = `/projects/:id/${segment}/:${idParam}/discussions`
  const ids: ParamSpecs = { id: p.string({ required: true }), [idParam]: key === 'iid' ? p.integer({ required: true }) : p.string({ required: true }) }
  const discussionId: ParamSpecs = { ...ids, discussion_id: p.string({ required: true }) }
  const noteId: ParamSpecs = { ...discussionId, note_id: p.integer({ required: true }) }
  const noteable = (ctx: Ctx<unknown>) => pathNoteable(ctx, type, idParam)
  const params = (ctx: Ctx<unknown>) => ctx.params as DiscussionParams
  const routes: Route[] = [
    route(`GET ${base}`, {
      params: { ...ids, ...paginationParams } as ParamSpecs,
      handler(ctx) {
        const found = noteable(ctx)
        // `paginate(noteable.discussion_ids_relation)`, then the readable notes of the page's
        // discussions: a discussion none of whose notes the caller may read drops out of its page.
        const page = paginate(ctx as never, groupDiscussions(noteableNotes(ctx.db, found)))
        const readable = noteReader(ctx, found)
        const body = page.rows.map((notes) => notes.filter(readable)).filter((notes) => notes.length > 0).map((notes) => Discussion(notes, ctx, found.record.iid))
        return { status: 200, body, headers: page.headers }
      },
    }),

    route(`GET ${base}/:discussion_id`, {
      params: discussionId,
      handler(ctx) {
        const found = noteable(ctx)
        const notes = readableDiscussion(ctx, found, params(ctx).discussion_id)
        if (notes.length === 0) throw notFound('Discussion')
        return ok(Discussion(notes, ctx, found.record.iid))
      },
    }),

    route(`POST ${base}`, {
      params: { ...ids, body: p.string({ required: true }), created_at: p.string() } as ParamSpecs,
      handler(ctx) {
        const found = noteable(ctx)
        authorizeCreateNote(ctx, found)
        const { note } = createNote(ctx, found, ctx.currentUser!, {
          body: params(ctx).body!,
          type: 'DiscussionNote',
          createdAt: createdAtParam(ctx, found, params(ctx).created_at),
        })
        // `present note.discussion`: a discussion of one note. A note of nothing but quick actions
        // is not stored; 13.x then presents the unsaved note's discussion, which fakelab cannot
        // (spec-gap): it answers as the note route does.
        if (!note) return { status: 202, body: { commands_changes: {}, summary: [] } }
        return created(Discussion([note], ctx, found.record.iid))
      },
    }),

    route(`GET ${base}/:discussion_id/notes`, {
      params: discussionId,
      handler(ctx) {
        const found = noteable(ctx)
        const notes = readableDiscussion(ctx, found, params(ctx).discussion_id)
        if (notes.length === 0) throw notFound('Notes')
        return ok(notes.map((note) => Note(note, ctx, found.record.iid)))
      },
    }),

    route(`POST ${base}/:discussion_id/notes`, {
      params: { ...discussionId, body: p.string({ required: true }), created_at: p.string() } as ParamSpecs,
      handler(ctx) {
        const found = noteable(ctx)
        const notes = readableDiscussion(ctx, found, params(ctx).discussion_id)
        const first = notes[0]
        if (!first) throw notFound('Discussion')
        // `part_of_discussion? || can_convert_to_discussion?`: a plain comment can be replied to
        // (it becomes a discussion), a system note cannot.
        if (first.system) throw badRequest(NoteMessage.cannotReply)
        authorizeCreateNote(ctx, found)
        // `IndividualNoteDiscussion#convert_to_discussion!`: a plain comment becomes a `DiscussionNote`.
        if ((first.type ?? null) === null) ctx.db.tables.notes.update(first.id, { type: 'DiscussionNote' })
        const { note } = createNote(ctx, found, ctx.currentUser!, {
          body: params(ctx).body!,
          type: 'DiscussionNote',
          discussionId: params(ctx).discussion_id,
          createdAt: createdAtParam(ctx, found, params(ctx).created_at),
        })
        if (!note) return { status: 202, body: { commands_changes: {}, summary: [] } }
        return created(Note(note, ctx, found.record.iid))
      },
    }),

    route(`GET ${base}/:discussion_id/notes/:note_id`, {
      params: noteId,
      handler(ctx) {
        // `get_note(noteable, note_id)`: the note is looked up on the noteable; the discussion id
        // in the path is not checked.
        const found = noteable(ctx)
        return ok(Note(readableNote(ctx, found, findNote(ctx, found, params(ctx).note_id)), ctx, found.record.iid))
      },
    }),

    route(`PUT ${base}/:discussion_id/notes/:note_id`, {
      params: { ...noteId, body: p.string(), resolved: p.boolean() } as ParamSpecs,
      rules: { exactlyOneOf: ['body', 'resolved'] },
      handler(ctx) {
        const found = noteable(ctx)
        const note = findNote(ctx, found, params(ctx).note_id)
        const resolved = params(ctx).resolved
        if (resolved === undefined) {
          authorizeAdminNote(ctx, found, note)
          return ok(Note(updateNote(ctx, note, { body: params(ctx).body! }), ctx, found.record.iid))
        }
        // `resolve_note`: authorize, then `bad_request!("Note is not resolvable")`.
        if (!canResolveNote(ctx, found, note)) throw forbidden()
        if (!isResolvable(note)) throw badRequest(NoteMessage.notResolvable)
        const [updated] = setDiscussionResolved(ctx, [note], resolved)
        return ok(Note(updated!, ctx, found.record.iid))
      },
    }),

    route(`DELETE ${base}/:discussion_id/notes/:note_id`, {
      params: noteId,
      handler(ctx) {
        const found = noteable(ctx)
        const note = findNote(ctx, found, params(ctx).note_id)
        authorizeAdminNote(ctx, found, note)
        checkUnmodifiedSince(ctx, note.updated_at)
        destroyNote(ctx, note)
        return noContent()
      },
    }),
  ]
  if (type === 'MergeRequest') {
    // `Noteable::RESOLVABLE_TYPES`: only merge request discussions resolve.
    routes.push(
      route(`PUT ${base}/:discussion_id`, {
        params: { ...discussionId, resolved: p.boolean({ required: true }) } as ParamSpecs,
        handler(ctx) {
          const found = noteable(ctx)
          // `noteable.find_discussion(id)`; spec-gap: an unknown id makes 13.x fail with a 500
          // (`nil.can_resolve?`); fakelab answers 404 Discussion Not Found.
          const notes = discussionNotes(ctx, found, params(ctx).discussion_id)
          if (notes.length === 0) throw notFound('Discussion')
          // `Discussion#can_resolve?`: a signed-in user, a resolvable discussion, and the merge
          // request's author or `resolve_note` in the project.
          if (!discussionState(notes).resolvable || !canResolveDiscussions(ctx, found)) throw forbidden()
          const updated = setDiscussionResolved(ctx, notes, params(ctx).resolved === true)
          return ok(Discussion(updated, ctx, found.record.iid))
        },
      }),
    )
  }
  return routes
}

/** The discussion routes (see the module comment). */
export const discussionRoutes: Route[] = DISCUSSABLES.flatMap(({ type, segment, idParam, key }) => discussionRoutesOf(type, segment, idParam, key))
