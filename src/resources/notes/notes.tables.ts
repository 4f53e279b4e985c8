/**
 * The notes area's table: comments on issues and merge requests, the notes of their discussions.
 * The issues area writes rows too (a moved issue's copies), and both issuable areas load their
 * scenario notes through this area's loader (`notes.public.ts`).
 * gitlab: db/structure.sql (`notes`), app/models/note.rb, app/models/discussion_note.rb,
 * app/models/concerns/resolvable_note.rb.
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** What a note hangs on (`noteable_type`): GitLab's model names. */
export type NoteableType = 'Issue' | 'MergeRequest'

/**
 * A note (GitLab `notes`). `type` is null for a plain comment and `DiscussionNote` for one started
 * as, or added to, a discussion. `discussion_id` groups a discussion's notes (40 hex digits); a
 * plain comment is a discussion of its own. Rows written before discussions existed (and rows a
 * test writes) may lack `type`, `discussion_id` and the resolution columns: absent reads as null,
 * and a missing `discussion_id` is the note's own (`individualDiscussionId`).
 */
export interface NoteRecord extends Row {
  /** The or merge request's global id. */
  noteable_id: number
  noteable_type: NoteableType
  project_id: number
  author_id: number
  body: string
  system: boolean
  confidential: boolean | null
  created_at: Timestamp
  updated_at: Timestamp
  /** `DiscussionNote` for a discussion's note, null (or absent) for a plain comment. */
  type?: 'DiscussionNote' | null
  /** The discussion's id: 40 lower-case hex digits. */
  discussion_id?: string
  /** When the note was resolved (merge request discussion notes only); null when not. */
  resolved_at?: Timestamp | null
  /** Who resolved it; null when not resolved. */
  resolved_by_id?: number | null
}

declare module '../../db/schema.js' {
  interface Tables {
    notes: NoteRecord
  }
}

/** The table and its index: notes by noteable. */
export const noteTables = {
  notes: table<NoteRecord>(['noteable_id']),
}
