/**
 * The award emoji area: emoji awarded on issues and on the notes of issues (list, get, award,
 * remove), names checked against GitLab's emoji list. The `award_emoji` table is the issues
 * area's (scenario issues carry `award_emoji:`); this area only adds routes.
 * gitlab: lib/api/award_emoji.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { awardEmojiRoutes } from './award-emoji.routes.js'

/** The award emoji area. */
export const awardEmoji: Area = {
  name: 'award-emoji',
  routes: awardEmojiRoutes,
  // A deleted user's awards move to the ghost user (Users::MigrateToGhostUserService).
  cascade: [{ kind: 'ghost', table: 'award_emoji', column: 'user_id' }],
}
