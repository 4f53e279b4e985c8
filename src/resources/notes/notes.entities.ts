/**
 * The entities of notes and discussions: `Entities::Note` and `Entities::Discussion` (GitLab 13.x).
 * Field order: gitlab-behaviour.md §4.3; gitlab: lib/api/entities/note.rb, lib/api/entities/discussion.rb.
 * @module
 */
import { userBasicOrNull } from '../../entities/user.js'
import type { PresentCtx } from '../../entities/urls.js'
import { discussionIdOf, isResolvable } from './notes.model.js'
import type { NoteRecord } from './notes.tables.js'

/**
 * `Entities::Note`: `{id, type, body, attachment, author, created_at, updated_at, system,
 * noteable_id, noteable_type, resolvable, [resolved, resolved_by, resolved_at], confidential,
 * noteable_iid, commands_changes}`. The `resolved*` keys are there only on a resolvable note (a
 * merge request's discussion note that is not a system note). `confidential` is always a boolean:
 * GitLab exposes `confidential?`, which reads a never-set (NULL) column as false.
 * Source: gitlab-behaviour.md §4.3; gitlab: lib/api/entities/note.rb.
 * @param noteableIid the or merge request's `iid`; null on a commit's note (only issues and
 *   merge requests have one: `NOTEABLE_TYPES_WITH_IID`).
 * @param commandsChanges what quick actions changed (`{}` when none).
 */
export function Note(note: NoteRecord, ctx: PresentCtx, noteableIid: number | null, commandsChanges: Record<string, unknown> = {}) {
  const resolvable = isResolvable(note)
  const resolution = resolvable
    ? {
        resolved: (note.resolved_at ?? null) !== null,
        resolved_by: note.resolved_by_id == null ? null : userBasicOrNull(ctx, note.resolved_by_id),
        resolved_at: note.resolved_at ?? null,
      }
    : {}
  return {
    id: note.id,
    type: note.type ?? null,
    body: note.body,
    attachment: null,
    author: userBasicOrNull(ctx, note.author_id),
    created_at: note.created_at,
    updated_at: note.updated_at,
    system: note.system,
    noteable_id: note.noteable_id,
    noteable_type: note.noteable_type,
    resolvable,
    ...resolution,
    confidential: note.confidential === true,
    noteable_iid: noteableIid,
    commands_changes: commandsChanges,
  }
}

/**
 * `Entities::Discussion`: `{id, individual_note, notes}`, the notes oldest first. A discussion is an
 * individual note when its first note is a plain comment (`IndividualNoteDiscussion`); a commit's
 * diff comments are not (`LegacyDiffDiscussion`).
 * gitlab: lib/api/entities/discussion.rb, app/models/discussion.rb.
 * @param notes the discussion's notes the caller may read, oldest first (at least one).
 */
export function Discussion(notes: readonly NoteRecord[], ctx: PresentCtx, noteableIid: number | null) {
  const first = notes[0]!
  return {
    id: discussionIdOf(first),
    individual_note: (first.type ?? null) === null,
    notes: notes.map((note) => Note(note, ctx, noteableIid)),
  }
}

/**
 * `Entities::CommitNote`: `{note, path, line, line_type, author, created_at}`, a commit comment as
 * the commits API shows it; `path`, `line` and `line_type` are those of the diff line a diff comment
 * (`LegacyDiffNote`) sits on, null on a plain comment.
 * gitlab: lib/api/entities/commit_note.rb (13.x).
 */
export function CommitNote(note: NoteRecord, ctx: PresentCtx) {
  const line = note.diff_line ?? null
  return {
    note: note.body,
    path: line ? line.path : null,
    line: line ? line.line : null,
    line_type: line ? line.line_type : null,
    author: userBasicOrNull(ctx, note.author_id),
    created_at: note.created_at,
  }
}
