/**
 * The `note` fact the notes area publishes on the domain-event channel (`rules/events.ts`) when a
 * user's comment is saved on an issue, a merge request, a commit or a snippet (not a system note,
 * nor a note that held only quick actions). Webhooks (note events) and the events API
 * (`commented on`) subscribe. gitlab: app/services/notes/create_service.rb (`execute_note_hooks`,
 * `EventCreateService#leave_note`).
 * @module
 */
import { publish } from '../../rules/events.js'
import type { NotesCtx } from './notes.noteables.js'
import type { NoteRecord } from './notes.tables.js'

/** The `note` fact: the note as saved (its `noteable_type`, `noteable_id` or `commit_id`, and `project_id` say what it is on). */
export interface NoteFact {
  readonly note: NoteRecord
}

declare module '../../rules/events.js' {
  interface DomainEvents {
    /** A user's note was created (see {@link NoteFact}). */
    note: NoteFact
  }
}

/** Publishes the `note` fact of a note just saved by `authorId`. */
export function publishNote(ctx: NotesCtx, note: NoteRecord, authorId: number): void {
  publish(ctx.db, 'note', { note, actorId: authorId, at: ctx.now, baseUrl: ctx.baseUrl })
}
