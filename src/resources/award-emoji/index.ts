/**
 * The award emoji area: emoji awarded on issues, merge requests and their notes (list, get,
 * award, remove), names checked against GitLab's emoji list, and the `award_emoji` table (scenario issues
 * carry `award_emoji:`, which the issues area loads). gitlab: lib/api/award_emoji.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { awardEmojiTables } from './award-emoji.tables.js'

export type { AwardEmojiRecord } from './award-emoji.tables.js'

/** The award emoji area. */
export const awardEmoji: Area = {
  name: 'award-emoji',
  load: async () => {
    const { awardEmojiRoutes } = await import('./award-emoji.routes.js')
    return { api: awardEmojiRoutes }
  },
  tables: awardEmojiTables,
  // A deleted user's awards move to the ghost user (Users::MigrateToGhostUserService).
  cascade: [{ kind: 'ghost', table: 'award_emoji', column: 'user_id' }],
}
