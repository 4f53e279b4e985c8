/**
 * `Entities::AwardEmoji`: `{id, name, user, created_at, updated_at, awardable_id, awardable_type}`.
 * An award is never edited, so `updated_at` is its `created_at`.
 * gitlab: lib/api/entities/award_emoji.rb.
 * @module
 */
import type { Tables } from '../../db/schema.js'
import { userBasicOrNull } from '../../entities/user.js'
import type { PresentCtx } from '../../entities/urls.js'

/** The award emoji record (this area's table). */
type AwardEmojiRecord = Tables['award_emoji']

/** Presents one award; `awardable_id` is the awardable's global id (an issue's `id`, not its `iid`). */
export function AwardEmoji(award: AwardEmojiRecord, ctx: PresentCtx) {
  return {
    id: award.id,
    name: award.name,
    user: userBasicOrNull(ctx, award.user_id),
    created_at: award.created_at,
    updated_at: award.created_at,
    awardable_id: award.awardable_id,
    awardable_type: award.awardable_type,
  }
}
