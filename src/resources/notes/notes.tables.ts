/**
 * The notes area's table: comments on issues, merge requests and commits, the notes of their discussions.
 * The issues area writes rows too (a moved issue's copies), and both issuable areas load their
 * scenario notes through this area's loader (`notes.public.ts`).
 * gitlab: db/structure.sql (`notes`), app/models/note.rb, app/models/discussion_note.rb,
 * app/models/concerns/resolvable_note.rb.
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** What a note hangs on (`noteable_type`): GitLab's model names. */
export type NoteableType = 'Issue' | 'MergeRequest' | 'Commit' | 'Snippet'

/** Where on a commit's diff a diff comment sits (`LegacyDiffNote#diff_line`): the file, the line and its side. */
export interface CommitDiffLine {
  /** The file's path after the commit (`diff_file.file_path`). */
  path: string
  /** The line number: the new file's for an added line, the old file's for a removed one (`Diff::Line#line`). */
  line: number
  /** `new` (an added line) or `old` (a removed one). */
  line_type: 'new' | 'old'
}

/**
 * A note (GitLab `notes`). `type` is null for a plain comment, `DiscussionNote` for one started
 * as, or added to, a discussion, and `LegacyDiffNote` for a commit comment on a line of its diff. `discussion_id` groups a discussion's notes (40 hex digits); a
 * plain comment is a discussion of its own. Rows written before discussions existed (and rows a
 * test writes) may lack `type`, `discussion_id` and the resolution columns: absent reads as null,
 * and a missing `discussion_id` is the note's own (`individualDiscussionId`).
 */
export interface NoteRecord extends Row {
  /** The issue's, merge request's or project snippet's global id; null on a commit's note. */
  noteable_id: number | null
  noteable_type: NoteableType
  /** The commit's sha, on a commit's note only (`commit_id`). */
  commit_id?: string
  project_id: number
  author_id: number
  body: string
  system: boolean
  confidential: boolean | null
  created_at: Timestamp
  updated_at: Timestamp
  /** `DiscussionNote` for a discussion's note, `LegacyDiffNote` for a commit's diff comment, null (or absent) for a plain comment. */
  type?: 'DiscussionNote' | 'LegacyDiffNote' | null
  /** A commit diff comment's `line_code`: `<sha1 of the path>_<old line>_<new line>`. */
  line_code?: string | null
  /** The diff line `line_code` names in the commit's diff (which never changes), kept when the note is made. */
  diff_line?: CommitDiffLine | null
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

/** The table and its indexes: notes by noteable, and by commit. */
export const noteTables = {
  notes: table<NoteRecord>(['noteable_id', 'commit_id']),
}
