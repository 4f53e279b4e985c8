/**
 * The kinds of awardable (GitLab's `Awardable` concern, which issues, merge requests and notes
 * include): how the award emoji code finds one under a project, who may read it, and what an award
 * does to its vote counters. The area owning each model registers its kind here as it loads
 * (`registerAwardableKind`; the notes area `registerAwardableNotes`), so this area names no issue,
 * merge request or note code and those areas import it without a cycle.
 * gitlab: lib/api/award_emoji.rb (`awardable`, `can_read_awardable?`), app/models/concerns/awardable.rb.
 * @module
 */
import { KindRegistry } from '../../rules/kinds.js'
import type { Db } from '../../db/db.js'
import type { ProjectRecord, UserRecord } from '../../db/schema.js'

/** Who is asking and when. */
export interface AwardCtx {
  readonly db: Db
  readonly currentUser: UserRecord | null
  readonly today: string
  readonly now: string
}

/** The awardables under a project (`issues/:iid`, `merge_requests/:iid`, `snippets/:snippet_id`): GitLab's model names. */
export type AwardableType = 'Issue' | 'MergeRequest' | 'Snippet'

/** What the award emoji code reads of an issue or a merge request. */
export interface AwardableFacts {
  readonly id: number
}

/** One kind of awardable under a project, as the area owning its model registers it. `R` is that area's record. */
export interface AwardableKind<R extends AwardableFacts = AwardableFacts> {
  readonly type: AwardableType
  /** `user_project.<awardables>.find_by!(iid:)`: the one with that iid in the project, readable or not. */
  byIid(db: Db, projectId: number, iid: number): R | undefined
  /** `can_read_awardable?`: `read_issue` or `read_merge_request` on it. */
  canRead(ctx: AwardCtx, project: ProjectRecord, record: R): boolean
  /** An award's effect on its vote counters (`thumbsup`, `thumbsdown`; by `delta`, never below 0). */
  countVote(db: Db, id: number, name: string, delta: 1 | -1): void
}

/** What the award emoji code reads of a note. */
export interface AwardableNote {
  readonly id: number
  readonly system: boolean
}

/** `awardable.notes.find(note_id)`: the note with that id on that issue or merge request, if any. */
export type AwardableNoteLookup = (db: Db, parentType: AwardableType, parentId: number, noteId: number) => AwardableNote | undefined

const kinds = new KindRegistry<AwardableType, AwardableKind>('awardable')
let noteLookup: AwardableNoteLookup = () => undefined

/** Registers a kind of awardable (its area calls this once, as it loads). */
export function registerAwardableKind<R extends AwardableFacts>(kind: AwardableKind<R>): void {
  kinds.register(kind as unknown as AwardableKind)
}

/** Sets how notes on awardables are found (the notes area calls this once, as it loads); none are found without it. */
export function registerAwardableNotes(lookup: AwardableNoteLookup): void {
  noteLookup = lookup
}

/**
 * The registered kind of that type.
 * @throws Error when no area registered it (a composition bug, not a request error).
 */
export function awardableKind(type: AwardableType): AwardableKind {
  return kinds.get(type)
}

/** The note `noteId` on the issue or merge request, through the registered lookup. */
export function awardableNote(db: Db, parentType: AwardableType, parentId: number, noteId: number): AwardableNote | undefined {
  return noteLookup(db, parentType, parentId, noteId)
}
