/**
 * What other areas may use of the notes area: finders over the notes of an issue or a merge
 * request (participants, subscriptions, award emoji on notes), the making and listing of a
 * commit's comments and their `CommitNote` entity, the writes other models' services
 * make to notes (an issue's deletion and move), the scenario fields and loader issues and
 * merge requests carry, and the registration of a kind of noteable by the area that owns it
 * (notes.noteables.ts) and the lookup of a readable one (`find_noteable`, which resource events use
 * too). Its public module: besides `index.ts`, the only file of this folder
 * another area imports. It imports no other area's issue or merge request code, so those areas'
 * services can read notes through it without a cycle.
 * @module
 */
import type { Db } from '../../db/db.js'
import { destroyAwardsOf } from '../award-emoji/award-emoji.public.js'
import { notesOf } from './notes.finder.js'
import { discussionIdFor, discussionIdOf } from './notes.model.js'
import type { NoteableType, NoteRecord } from './notes.tables.js'

export { noteableNotes } from './notes.finder.js'
export { readableNoteable, registerNoteableKind } from './notes.noteables.js'
export type { Noteable, NoteableFacts } from './notes.noteables.js'
// Commit comments (`…/repository/commits/:sha/comments`, the repository area's routes) are notes on
// the commit: made, listed and presented here.
export { createNote } from './notes.service.js'
export { CommitNote, Note } from './notes.entities.js'
export type { CommitDiffLine } from './notes.tables.js'
export { checkScenarioNotes, issueDiscussionSchema, loadNotes, mergeRequestDiscussionSchema, noteSchema, scenarioNoteCount } from './notes.scenario.js'

/** The authors of the noteable's notes, in note order (repeats kept): `notes_with_associations` participants. */
export function noteAuthorIds(db: Db, type: NoteableType, noteableId: number): number[] {
  return notesOf(db, type, noteableId).map((note) => note.author_id)
}

/** Whether the user wrote a (non-system) note on it: `Subscribable#subscribed_without_subscriptions?` reads it. */
export function commentedOn(db: Db, type: NoteableType, noteableId: number, userId: number): boolean {
  return notesOf(db, type, noteableId).some((note) => !note.system && note.author_id === userId)
}

/** Deletes the noteable's notes and their award emoji (`has_many :notes, dependent: :destroy`). */
export function destroyNotesOf(db: Db, type: NoteableType, noteableId: number): void {
  for (const note of notesOf(db, type, noteableId)) {
    destroyAwardsOf(db, 'Note', note.id)
    db.tables.notes.delete(note.id)
  }
}

/**
 * Copies the notes of one noteable onto another (`Issues::MoveService` → `Notes::CopyService`
 * semantics): each keeps its author, text and times; a discussion stays one discussion, under a
 * new id; their award emoji are not copied (13.x copies the note text only).
 */
export function copyNotes(db: Db, type: NoteableType, fromId: number, toId: number, toProjectId: number): void {
  const ids = new Map<string, string>()
  for (const note of notesOf(db, type, fromId)) {
    const { id: _id, ...rest } = note
    const id = db.tables.notes.peekNextId()
    const oldDiscussion = discussionIdOf(note)
    const discussion_id = ids.get(oldDiscussion) ?? discussionIdFor(type, toId, id)
    ids.set(oldDiscussion, discussion_id)
    db.tables.notes.insert({ ...rest, id, noteable_id: toId, project_id: toProjectId, discussion_id })
  }
}

/** How many notes the instance holds, system notes included (`Note.count`, for `GET /application/statistics`). */
export function noteCount(db: Db): number {
  return db.tables.notes.size
}

/** A note by its global id (any noteable), or undefined. */
export function noteById(db: Db, id: number): NoteRecord | undefined {
  return db.tables.notes.get(id)
}

/** A project's notes (every noteable's), in id order. */
export function notesOfProject(db: Db, projectId: number): NoteRecord[] {
  return db.tables.notes.where('project_id', projectId)
}
