/**
 * What a note is beyond its columns, as GitLab's `Note`, `DiscussionNote`, `ResolvableNote` and
 * `Discussion` models say: its discussion id, whether it is resolvable or resolved, and how notes
 * group into discussions. Pure functions over rows; nothing here writes.
 * gitlab: app/models/note.rb, app/models/discussion_note.rb, app/models/concerns/resolvable_note.rb,
 * app/models/concerns/resolvable_discussion.rb, app/models/discussion.rb, app/models/concerns/noteable.rb.
 * @module
 */
import { sha1 } from '@noble/hashes/legacy.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import type { NoteableType, NoteRecord } from './notes.tables.js'

/**
 * A discussion's id: 40 hex digits, as GitLab's (`Digest::SHA1.hexdigest` of a random base there).
 * fakelab's are deterministic: the SHA-1 of `<noteable_type>-<noteable_id>-<first note id>`, so the
 * same requests on the same scenario give the same ids.
 */
export function discussionIdFor(noteableType: NoteableType, noteableId: number | string, firstNoteId: number): string {
  return bytesToHex(sha1(utf8ToBytes(`${noteableType}-${noteableId}-${firstNoteId}`)))
}

/**
 * The discussion id of the diff comments on one line of a commit (`LegacyDiffDiscussion`: the notes
 * on the same line are one discussion): the SHA-1 of `Commit-<sha>-<line_code>`.
 */
export function lineDiscussionIdFor(commitId: string, lineCode: string): string {
  return bytesToHex(sha1(utf8ToBytes(`Commit-${commitId}-${lineCode}`)))
}

/** The note's discussion id: the stored one, or (a row written without one) its own discussion's. */
export function discussionIdOf(note: NoteRecord): string {
  return note.discussion_id ?? discussionIdFor(note.noteable_type, note.noteable_id ?? note.commit_id ?? '', note.id)
}

/**
 * `ResolvableNote#resolvable?`: a `DiscussionNote` (or `DiffNote`) on a merge request that is not a
 * system note. Issue discussions are never resolvable in 13.x (`Noteable::RESOLVABLE_TYPES`).
 */
export function isResolvable(note: NoteRecord): boolean {
  return note.type === 'DiscussionNote' && note.noteable_type === 'MergeRequest' && !note.system
}

/** `resolved?`: a resolvable note with a `resolved_at`. */
function isResolved(note: NoteRecord): boolean {
  return isResolvable(note) && (note.resolved_at ?? null) !== null
}

/** `Note.fresh`: oldest first, by `created_at` then id. */
export function byCreation(a: NoteRecord, b: NoteRecord): number {
  return a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id - b.id
}

/**
 * `Discussion.build_collection(notes)`: the notes grouped by discussion id, each group oldest
 * first, the groups in the order of their first notes (`discussion_ids_relation` orders by
 * `MIN(created_at), MIN(id)`).
 */
export function groupDiscussions(notes: readonly NoteRecord[]): NoteRecord[][] {
  const groups = new Map<string, NoteRecord[]>()
  for (const note of [...notes].sort(byCreation)) {
    const id = discussionIdOf(note)
    const group = groups.get(id)
    if (group) group.push(note)
    else groups.set(id, [note])
  }
  return [...groups.values()]
}

/**
 * `ResolvableDiscussion#resolvable?` and `#resolved?`: a discussion is resolvable when one of its
 * notes is, and resolved when it is resolvable and none of its resolvable notes is unresolved.
 */
export function discussionState(notes: readonly NoteRecord[]): { resolvable: boolean; resolved: boolean } {
  const resolvable = notes.filter(isResolvable)
  return { resolvable: resolvable.length > 0, resolved: resolvable.length > 0 && resolvable.every(isResolved) }
}
