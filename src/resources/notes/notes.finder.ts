/**
 * The notes of a noteable, read from the `notes` table (`noteable.notes`): by issue or merge
 * request (`noteable_id`), or by commit (`commit_id`, within its project). The services and the
 * public module read notes through these.
 * @module
 */
import type { Db } from '../../db/db.js'
import type { Noteable } from './notes.noteables.js'
import type { NoteableType, NoteRecord } from './notes.tables.js'

/** The notes on one issue or merge request, in id order (`noteable.notes`). */
export function notesOf(db: Db, type: NoteableType, noteableId: number): NoteRecord[] {
  return db.tables.notes.where('noteable_id', noteableId).filter((note) => note.noteable_type === type)
}

/** `noteable.notes.find(note_id)`: the note with that id if it is on this issue or merge request. */
export function noteOn(db: Db, type: NoteableType, noteableId: number, noteId: number): NoteRecord | undefined {
  const note = db.tables.notes.get(noteId)
  return note && note.noteable_type === type && note.noteable_id === noteableId ? note : undefined
}

/** The noteable's notes (`noteable.notes`), in id order: a commit's by `commit_id` in its project. */
export function noteableNotes(db: Db, noteable: Noteable): NoteRecord[] {
  const { record } = noteable
  if (record.commit_id === undefined) return notesOf(db, noteable.type, record.id!)
  return db.tables.notes.where('commit_id', record.commit_id).filter((note) => note.noteable_type === noteable.type && note.project_id === noteable.project.id)
}

/** `noteable.notes.find(note_id)`: the note with that id if it is on this noteable. */
export function noteOfNoteable(db: Db, noteable: Noteable, noteId: number): NoteRecord | undefined {
  const { record } = noteable
  if (record.commit_id === undefined) return noteOn(db, noteable.type, record.id!, noteId)
  const note = db.tables.notes.get(noteId)
  return note && note.noteable_type === noteable.type && note.commit_id === record.commit_id && note.project_id === noteable.project.id ? note : undefined
}
