/**
 * Creating, editing, deleting and resolving notes on issues, merge requests and commits, as
 * `Notes::CreateService`, `Notes::UpdateService`, `Notes::DestroyService`,
 * `Discussions::ResolveService` and `Discussions::UnresolveService` do, and the reads the note and
 * discussion endpoints share (which notes the caller may read, in which order).
 * Handlers authorize; these functions check the model's rules and write.
 * Sources: issue 16 part 2, issue 25 item 4; gitlab: app/services/notes/{create,update,destroy}_service.rb,
 * app/services/discussions/{resolve,unresolve}_service.rb, app/models/note.rb,
 * app/models/concerns/resolvable_note.rb, app/models/concerns/awardable.rb, app/services/todo_service.rb.
 * @module
 */
import { badRequest, ValidationMessage } from '../../core/errors.js'
import { blank } from '../../core/ruby.js'
import type { UserRecord } from '../../db/schema.js'
import { failedToMessage, ModelErrors } from '../../rules/model-errors.js'
import { destroyAwardsOf } from '../award-emoji/award-emoji.public.js'
import { resolveTodosForTarget } from '../todos/todos.public.js'
import { byCreation, discussionIdFor, discussionIdOf, isResolvable, lineDiscussionIdFor } from './notes.model.js'
import { canReadConfidentialNotes, countNote, noteableKind, type Noteable, type NotesCtx } from './notes.noteables.js'
import { noteableNotes } from './notes.finder.js'
import type { CommitDiffLine, NoteRecord } from './notes.tables.js'
import { publishNote } from './notes.events.js'

/** What a new note is: its text, and for a discussion note the discussion it starts or joins. */
export interface NewNote {
  body: string
  confidential?: boolean | null
  /** `DiscussionNote` for a note made through the discussions API; plain comments have none. */
  type?: 'DiscussionNote' | null
  /** A commit comment on a line of its diff (`LegacyDiffNote`): the line's `line_code` and what it names. */
  diffLine?: { lineCode: string; line: CommitDiffLine }
  /** The discussion a reply joins (`in_reply_to_discussion_id`); a new discussion gets its own id. */
  discussionId?: string
  /** `created_at` the caller may set (project owners and administrators: `set_note_created_at`); `updated_at` follows it. */
  createdAt?: string
}

/** What {@link createNote} did: the note (null when only quick actions were sent) and what they changed. */
export interface CreatedNote {
  note: NoteRecord | null
  /** `commands_changes`: `{}` when no quick action ran. */
  changes: Record<string, unknown>
  /** Execution messages of the quick actions that ran (the 202 answer's `summary`). */
  messages: string[]
}

/**
 * `Notes::CreateService`: quick actions run first (the noteable kind's `commands`: an issue's
 * `/promote`; a merge request has none fakelab interprets, so its commands stay text), and the executed
 * commands' lines are not stored; a note of nothing but commands is not stored at all. A stored
 * note is a user note: its noteable's `user_notes_count` grows and its `updated_at` moves (the note
 * touches its noteable); the author's pending to-dos on the noteable are done.
 * @throws ApiError 400 `{"message":"400 Bad request - Note {:note=>[\"can't be blank\"]}"}` for a
 *   blank body.
 */
export function createNote(ctx: NotesCtx, noteable: Noteable, author: UserRecord, input: NewNote): CreatedNote {
  const noteableId = noteable.record.id
  // Quick actions run on a noteable with a global id (an issue's); a commit has none fakelab interprets.
  const quickActions = noteableId === null ? undefined : noteableKind(noteable.type).commands
  const commands = quickActions && noteableId !== null ? quickActions.interpret(ctx, noteable.project, noteableId, input.body) : { content: input.body, changes: {}, messages: [] }
  const onlyCommands = commands.messages.length > 0 && commands.content === ''
  let note: NoteRecord | null = null
  if (!onlyCommands) {
    if (blank(commands.content)) throw badRequest(`Note ${new ModelErrors().add('note', ValidationMessage.blank).inspect()}`)
    const id = ctx.db.tables.notes.peekNextId()
    const { record } = noteable
    const commitId = record.commit_id
    const diff = input.diffLine
    note = ctx.db.tables.notes.insert({
      id,
      noteable_id: record.id,
      noteable_type: noteable.type,
      // A commit's note names the commit by sha (`commit_id`), not by `noteable_id`.
      ...(commitId === undefined ? {} : { commit_id: commitId }),
      project_id: noteable.project.id,
      author_id: author.id,
      body: commands.content,
      system: false,
      confidential: input.confidential ?? null,
      created_at: input.createdAt ?? ctx.now,
      updated_at: input.createdAt ?? ctx.now,
      type: diff ? 'LegacyDiffNote' : (input.type ?? null),
      ...(diff ? { line_code: diff.lineCode, diff_line: diff.line } : {}),
      discussion_id: input.discussionId ?? (diff ? lineDiscussionIdFor(commitId ?? '', diff.lineCode) : discussionIdFor(noteable.type, record.id ?? commitId ?? '', id)),
      resolved_at: null,
      resolved_by_id: null,
    })
    countNote(ctx.db, { type: noteable.type, id: record.id }, 1, ctx.now)
    // `TodoService#new_note` → `handle_note`: commenting resolves the author's pending to-dos on it
    // (fakelab keeps no to-dos on commits or snippets).
    if (noteable.type !== 'Commit' && noteable.type !== 'Snippet' && record.id !== null) resolveTodosForTarget(ctx.db, author.id, noteable.type, record.id, ctx.now)
    publishNote(ctx, note, author.id)
  }
  if (quickActions && noteableId !== null && commands.messages.length > 0) quickActions.execute(ctx, noteableId)
  return { note, changes: commands.changes, messages: commands.messages }
}

/** What `PUT …/notes/:note_id` changes. */
export interface NoteChanges {
  body: string
}

/**
 * `Notes::UpdateService`: the body changes and `updated_at` moves, only when it differs (an
 * unchanged note is not saved).
 * @throws ApiError 400 `{"message":"400 Bad request - Failed to save note {:note=>[\"can't be blank\"]}"}`
 *   for a blank body (gitlab: lib/api/helpers/notes_helpers.rb `update_note`).
 */
export function updateNote(ctx: NotesCtx, note: NoteRecord, changes: NoteChanges): NoteRecord {
  if (blank(changes.body)) throw badRequest(failedToMessage('save note', new ModelErrors().add('note', ValidationMessage.blank)))
  if (changes.body === note.body) return note
  return ctx.db.tables.notes.update(note.id, { body: changes.body, updated_at: ctx.now })
}

/**
 * `Notes::DestroyService`: the note and its award emoji go; a user note no longer counts in its
 * noteable's `user_notes_count`.
 */
export function destroyNote(ctx: NotesCtx, note: NoteRecord): void {
  const { db } = ctx
  destroyAwardsOf(db, 'Note', note.id)
  db.tables.notes.delete(note.id)
  if (!note.system) countNote(db, { type: note.noteable_type, id: note.noteable_id }, -1, null)
}

/**
 * The noteable's notes the caller may read (`readable_by?`): a confidential note needs
 * {@link canReadConfidentialNotes}. Returns a predicate, so a page is filtered with one access lookup.
 * spec-gap: 13.x's `visible_for?` checks only cross-reference visibility; confidential notes are
 * hidden here from whoever may not read them, as the note list hides them.
 */
export function noteReader(ctx: NotesCtx, noteable: Noteable): (note: NoteRecord) => boolean {
  const confidentialOk = canReadConfidentialNotes(ctx, noteable)
  return (note) => !note.confidential || confidentialOk
}

/** The notes of one discussion of the noteable, oldest first (`notes.with_discussion_ids([id]).fresh`), readable or not. */
export function discussionNotes(ctx: NotesCtx, noteable: Noteable, discussionId: string): NoteRecord[] {
  return noteableNotes(ctx.db, noteable)
    .filter((note) => discussionIdOf(note) === discussionId)
    .sort(byCreation)
}

/**
 * `Discussions::ResolveService` / `UnresolveService` on a discussion's notes: each resolvable note
 * not yet resolved gets `resolved_at` now and `resolved_by` the caller; unresolving clears both.
 * The merge request's `updated_at` does not move (the notes change, not the merge request).
 * @returns the discussion's notes as stored afterwards, oldest first.
 */
export function setDiscussionResolved(ctx: NotesCtx, notes: readonly NoteRecord[], resolved: boolean): NoteRecord[] {
  const user = ctx.currentUser!
  return notes.map((note) => {
    if (!isResolvable(note)) return note
    if (resolved) return (note.resolved_at ?? null) !== null ? note : ctx.db.tables.notes.update(note.id, { resolved_at: ctx.now, resolved_by_id: user.id })
    return (note.resolved_at ?? null) === null ? note : ctx.db.tables.notes.update(note.id, { resolved_at: null, resolved_by_id: null })
  })
}
