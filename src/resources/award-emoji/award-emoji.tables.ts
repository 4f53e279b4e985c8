/**
 * The award emoji area's table: the emoji users award issues, merge requests and their notes. The issues area
 * writes rows too (a scenario issue's `award_emoji:`, the copies a moved issue keeps, the awards of
 * a deleted note) and declares so (`writes` of its `Area`).
 * gitlab: db/structure.sql (`award_emoji`).
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** An award emoji a user gave an issue, a merge request or a note (`awardable_type`). */
export interface AwardEmojiRecord extends Row {
  awardable_id: number
  awardable_type: 'Issue' | 'MergeRequest' | 'Snippet' | 'Note'
  /** The emoji name, such as `thumbsup`. */
  name: string
  user_id: number
  created_at: Timestamp
}

declare module '../../db/schema.js' {
  interface Tables {
    award_emoji: AwardEmojiRecord
  }
}

/** The table and its indexes: by awardable (its awards) and by user (`my_reaction_emoji`). */
export const awardEmojiTables = {
  award_emoji: table<AwardEmojiRecord>(['awardable_id', 'user_id']),
}
