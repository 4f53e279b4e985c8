/**
 * What other areas may use of the award emoji area: finders over `award_emoji` (GitLab's
 * `AwardEmoji` scopes that `IssuesFinder#by_my_reaction_emoji` uses), the deletion of an
 * awardable's awards (a deleted note's), and the registration of the kinds of awardable (issues,
 * merge requests, and notes on them) by the areas that own them. Its public module: besides
 * `index.ts`, the only file of this folder another area imports. Nothing here imports another area.
 * @module
 */
import type { Db } from '../../db/db.js'
import type { AwardEmojiRecord } from './award-emoji.tables.js'

export { registerAwardableKind, registerAwardableNotes } from './award-emoji.awardables.js'

/** Every award the user gave, on anything, in id order (`AwardEmoji.award_emoji_by_user`). */
export function awardsByUser(db: Db, userId: number): AwardEmojiRecord[] {
  return db.tables.award_emoji.where('user_id', userId)
}

/**
 * Deletes the awards on one awardable (`has_many :award_emoji, dependent: :destroy`): a deleted
 * note's or issue's. Vote counters are the caller's business (the awardable is going away).
 */
export function destroyAwardsOf(db: Db, type: AwardEmojiRecord['awardable_type'], awardableId: number): void {
  for (const award of db.tables.award_emoji.where('awardable_id', awardableId)) if (award.awardable_type === type) db.tables.award_emoji.delete(award.id)
}
