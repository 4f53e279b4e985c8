/**
 * Editing and deleting notes on issues, as `Notes::UpdateService` and `Notes::DestroyService` do
 * (note creation is `createNote` in issues.service.ts).
 * Sources: issue 16 part 2; gitlab: app/services/notes/update_service.rb,
 * app/services/notes/destroy_service.rb, app/models/note.rb, app/models/concerns/awardable.rb.
 * @module
 */
import { badRequest, ValidationMessage } from '../../core/errors.js'
import { failedToMessage, ModelErrors } from '../../rules/model-errors.js'
import { blank } from '../../core/ruby.js'
import type { ServiceCtx } from './issues.service.js'
import type { NoteRecord } from './issues.tables.js'

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
export function updateNote(ctx: ServiceCtx, note: NoteRecord, changes: NoteChanges): NoteRecord {
  if (blank(changes.body)) throw badRequest(failedToMessage('save note', new ModelErrors().add('note', ValidationMessage.blank)))
  if (changes.body === note.body) return note
  return ctx.db.tables.notes.update(note.id, { body: changes.body, updated_at: ctx.now })
}

/**
 * `Notes::DestroyService`: the note and its award emoji go; a user note no longer counts in the
 * issue's `user_notes_count`.
 */
export function destroyNote(ctx: ServiceCtx, note: NoteRecord): void {
  const { db } = ctx
  for (const award of db.tables.award_emoji.where('awardable_id', note.id)) if (award.awardable_type === 'Note') db.tables.award_emoji.delete(award.id)
  db.tables.notes.delete(note.id)
  const issue = db.tables.issues.get(note.noteable_id)
  if (issue && !note.system) db.tables.issues.update(issue.id, { user_notes_count: Math.max(0, issue.user_notes_count - 1) })
}
