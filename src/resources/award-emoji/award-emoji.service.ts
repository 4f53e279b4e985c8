/**
 * Finding awardables and awarding or removing emoji, as GitLab 13.x's `API::AwardEmoji` helpers and
 * `AwardEmojis::AddService`/`DestroyService` do. Awardables are issues and merge requests (by
 * `iid`) and the notes on them, as their areas register them (award-emoji.awardables.ts); snippets
 * would be one more registered kind.
 * Sources: issue 16 part 3; gitlab: lib/api/award_emoji.rb, app/services/award_emojis/*,
 * app/models/award_emoji.rb, app/models/concerns/awardable.rb, app/services/todo_service.rb.
 * @module
 */
import { notFound, recordNotFound, ValidationMessage } from '../../core/errors.js'
import { ModelErrors } from '../../rules/model-errors.js'
import { AwardEmojiMessage } from './award-emoji.messages.js'
import { rubyInspect } from '../../core/ruby.js'
import type { Db } from '../../db/db.js'
import type { ProjectRecord, UserRecord } from '../../db/schema.js'
import { resolveTodosForTarget } from '../todos/todos.public.js'
import { awardableKind, awardableNote, type AwardableFacts, type AwardableNote, type AwardableType, type AwardCtx } from './award-emoji.awardables.js'
import type { AwardEmojiRecord } from './award-emoji.tables.js'
import { isEmojiName, normalizeEmojiName } from '../../rules/emoji.js'


/** The issue or merge request an award hangs on, or whose note it hangs on: its rights decide. */
export interface AwardParent {
  readonly type: AwardableType
  readonly record: AwardableFacts
}

/** What an award hangs on: an issue or a merge request, or a note on one. */
export type Awardable =
  | { type: AwardableType; id: number; parent: AwardParent }
  | { type: 'Note'; id: number; parent: AwardParent; note: AwardableNote }

/**
 * `awardable`: `user_project.issues.find_by!(iid:)` (or `merge_requests`), then
 * `awardable.notes.find(note_id)` when a note is named. Neither lookup checks visibility (that is
 * {@link canReadAwardable}).
 * @throws ApiError 404 `{"message":"404 Not found"}` for a missing issue, merge request or note.
 */
export function findAwardable(ctx: AwardCtx, project: ProjectRecord, type: AwardableType, iid: number, noteId?: number): Awardable {
  const record = awardableKind(type).byIid(ctx.db, project.id, iid)
  if (!record) throw recordNotFound()
  const parent: AwardParent = { type, record }
  if (noteId === undefined) return { type, id: record.id, parent }
  const note = awardableNote(ctx.db, type, record.id, noteId)
  if (!note) throw recordNotFound()
  return { type: 'Note', id: note.id, parent, note }
}

/** `can_read_awardable?`: `read_issue` or `read_merge_request` on the parent (a note is read through its noteable). */
export function canReadAwardable(ctx: AwardCtx, project: ProjectRecord, awardable: Awardable): boolean {
  return awardableKind(awardable.parent.type).canRead(ctx, project, awardable.parent.record)
}

/** The awardable's awards, oldest first (`awardable.award_emoji`, paginated by id). */
export function awardsOf(db: Db, awardable: Awardable): AwardEmojiRecord[] {
  return db.tables.award_emoji.where('awardable_id', awardable.id).filter((a) => a.awardable_type === awardable.type)
}

/**
 * `awardable.award_emoji.find(award_id)`.
 * @throws ApiError 404 `{"message":"404 Not found"}`.
 */
export function findAward(db: Db, awardable: Awardable, awardId: number): AwardEmojiRecord {
  const award = db.tables.award_emoji.get(awardId)
  if (!award || award.awardable_type !== awardable.type || award.awardable_id !== awardable.id) throw recordNotFound()
  return award
}

/** How an award changes the vote counters: `thumbsup` and `thumbsdown` count, only on an issue or merge request itself. */
function countVote(db: Db, awardable: Awardable, name: string, delta: 1 | -1): void {
  if (awardable.type !== 'Note') awardableKind(awardable.type).countVote(db, awardable.id, name, delta)
}

/**
 * `AwardEmojis::AddService`: the name is normalised (`+1` → `thumbsup`) and validated (`presence`,
 * inclusion in GitLab's emoji names, one award per user, name and awardable); then the user's
 * pending to-dos on the issue or merge request are done (`TodoService#new_award_emoji`).
 * @throws ApiError 404 `{"message":"404 Award Emoji [\"Name has already been taken\"] Not Found"}`
 *   and the like: the API wraps the model's full messages, a Ruby array, in `not_found!`;
 *   404 `{"message":"404 Award Emoji Awardable cannot be awarded emoji Not Found"}` on a system note.
 */
export function awardEmoji(ctx: AwardCtx, awardable: Awardable, user: UserRecord, rawName: string): AwardEmojiRecord {
  const { db } = ctx
  // `emoji_awardable?`: system notes take no emoji; the service's message is a plain string here.
  if (awardable.type === 'Note' && awardable.note.system) throw notFound(AwardEmojiMessage.notAwardable)
  const name = normalizeEmojiName(rawName)
  const errors = new ModelErrors()
  if (name.trim() === '') errors.add('name', ValidationMessage.blank)
  if (!isEmojiName(name)) errors.add('name', ValidationMessage.notIncluded)
  else if (awardsOf(db, awardable).some((a) => a.user_id === user.id && a.name === name)) errors.add('name', ValidationMessage.taken)
  if (errors.size > 0) throw notFound(AwardEmojiMessage.failed(errors.fullMessages().map(rubyInspect).join(', ')))
  const award = db.tables.award_emoji.insert({ awardable_id: awardable.id, awardable_type: awardable.type, name, user_id: user.id, created_at: ctx.now })
  countVote(db, awardable, name, 1)
  // fakelab keeps no to-dos on snippets.
  if (awardable.parent.type !== 'Snippet') resolveTodosForTarget(db, user.id, awardable.parent.type, awardable.parent.record.id, ctx.now)
  return award
}

/** `award.destroy`: the award goes, and an issue's vote counter with it. */
export function removeAward(db: Db, awardable: Awardable, award: AwardEmojiRecord): void {
  db.tables.award_emoji.delete(award.id)
  countVote(db, awardable, award.name, -1)
}
