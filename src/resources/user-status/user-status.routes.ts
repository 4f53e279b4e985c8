/**
 * A user's status: `GET|PUT /user/status` and `GET /users/:user_id/status`. Setting an emoji, a
 * message or the `busy` availability saves a status (the emoji `speech_balloon` when none is given);
 * setting none of them clears it. A user without a status reads as the empty entity.
 * gitlab: lib/api/users.rb (`:user_id/status`, `status`), lib/api/entities/user_status.rb,
 * app/services/users/set_status_service.rb, app/models/user_status.rb (13.12).
 * @module
 */
import { forbidden, notFound, validationFailed } from '../../core/errors.js'
import { p } from '../../core/params.js'
import { ok } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import { findUser } from '../../rules/finders.js'
import { EMOJI_SHORTCODE, glEmoji, isEmojiName } from '../../rules/emoji.js'
import type { UserStatusRecord } from './user-status.tables.js'

/** `UserStatus::DEFAULT_EMOJI`. */
const DEFAULT_EMOJI = 'speech_balloon'

/** `cache_markdown_field :message, pipeline: :emoji`: the text HTML-escaped, `:name:` shortcodes as `<gl-emoji>`. */
function messageHtml(message: string | null): string {
  if (message === null || message.trim() === '') return ''
  const escaped = message.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
  return escaped.replace(EMOJI_SHORTCODE, (whole, name: string) => glEmoji(name) ?? whole)
}

/** `Entities::UserStatus`: `{emoji, message, availability, message_html}`; all empty for no status. */
function UserStatus(status: UserStatusRecord | undefined) {
  return {
    emoji: status?.emoji ?? null,
    message: status?.message ?? null,
    availability: status?.availability ?? null,
    message_html: messageHtml(status?.message ?? null),
  }
}

/** `read_user`: anyone may read an active user; a blocked one only administrators (`UserPolicy`). */
function readableUser(ctx: Ctx<unknown>, id: string) {
  const user = findUser(ctx, id)
  if (user.state === 'blocked' && !ctx.currentUser?.admin) throw notFound('User')
  return user
}

/** The user status routes. */
export const userStatusRoutes: Route[] = [
  route('GET /user/status', {
    scopes: ['read_user'],
    handler(ctx) {
      return ok(UserStatus(ctx.db.tables.user_statuses.get(ctx.currentUser!.id)))
    },
  }),

  route('PUT /user/status', {
    params: { emoji: p.string(), message: p.string(), availability: p.string({ values: ['not_set', 'busy'] }) },
    handler(ctx) {
      const user = ctx.currentUser!
      // update_user_status: the user themself, not a blocked or a bot user.
      if (user.state !== 'active') throw forbidden()
      const { emoji, message, availability } = ctx.params
      const table = ctx.db.tables.user_statuses
      const blank = (value: string | undefined) => value === undefined || value.trim() === ''
      if (blank(emoji) && blank(message) && (availability === undefined || availability === 'not_set')) {
        if (table.get(user.id)) table.delete(user.id)
        return ok(UserStatus(undefined))
      }
      const next = { emoji: blank(emoji) ? DEFAULT_EMOJI : emoji!, message: message ?? null, availability: availability ?? 'not_set' } as const
      const errors: Record<string, string[]> = {}
      if (!isEmojiName(next.emoji)) errors.emoji = ['is not included in the list']
      if (next.message !== null && [...next.message].length > 100) errors.message = ['is too long (maximum is 100 characters)']
      if (Object.keys(errors).length > 0) throw validationFailed(errors)
      const saved = table.get(user.id) ? table.update(user.id, next) : table.insert({ id: user.id, ...next })
      return ok(UserStatus(saved))
    },
  }),

  route('GET /users/:user_id/status', {
    auth: 'optional',
    scopes: ['read_user'],
    params: { user_id: p.string({ required: true }) },
    handler(ctx) {
      const user = readableUser(ctx, ctx.params.user_id)
      return ok(UserStatus(ctx.db.tables.user_statuses.get(user.id)))
    },
  }),
]
