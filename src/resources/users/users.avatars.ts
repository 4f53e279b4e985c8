/**
 * User avatars uploaded through `POST /users` and `PUT /users/:id` (`avatar`, a multipart file):
 * validated as GitLab's `Avatarable` does, kept in memory, and served back at the URL the user's
 * `avatar_url` shows, `<host>/uploads/-/system/user/avatar/:id/:filename`, outside the API.
 * User avatars are public: GitLab's uploads controller serves a user's to anyone, signed in or not.
 * Source: issue 23 item 22; gitlab (13.x): lib/api/users.rb (`optional :avatar, type: File`),
 * app/models/concerns/avatarable.rb (`avatar_type`, `file_size: { maximum: 200.kilobytes }`),
 * app/uploaders/avatar_uploader.rb (`SAFE_IMAGE_EXT`), app/controllers/uploads_controller.rb
 * (`when User then true`), CarrierWave's `sanitize_regexp`.
 * @module
 */
import { webNotFound } from '../../core/errors.js'
import { p, uploadedBytes } from '../../core/params.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import { rubyToI } from '../../core/ruby.js'
import { avatarFilename, sendAvatar } from '../../rules/avatars.js'
import { storedBytes } from '../../rules/uploads.js'
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** An uploaded avatar; the bytes are kept in memory, base64 (so the store stays JSON). */
export interface UserAvatarRecord extends Row {
  user_id: number
  /** The sanitised file name, as the URL shows it. */
  filename: string
  data: string
  created_at: Timestamp
}

declare module '../../db/schema.js' {
  interface Tables {
    user_avatars: UserAvatarRecord
  }
}

/** The avatars table and its index. */
export const userAvatarTables = { user_avatars: table<UserAvatarRecord>(['user_id']) }

/**
 * Keeps `file` as the user's avatar (replacing any earlier upload) and points `avatar_url` at it:
 * stored as the path, which the user entities show under the base URL of each request.
 */
export function storeAvatar(ctx: Ctx<unknown>, userId: number, file: Blob): void {
  const avatars = ctx.db.tables.user_avatars
  for (const old of avatars.where('user_id', userId)) avatars.delete(old.id)
  const filename = avatarFilename(file)
  avatars.insert({ user_id: userId, filename, data: storedBytes(uploadedBytes(file)), created_at: ctx.now })
  ctx.db.tables.users.update(userId, { avatar_url: `/uploads/-/system/user/avatar/${userId}/${encodeURIComponent(filename)}` })
}

/** The web route serving uploaded avatars. */
export const userAvatarWebRoutes: Route[] = [
  route('GET /uploads/-/system/user/avatar/:id/:filename', {
    auth: 'optional',
    params: { id: p.string({ required: true }), filename: p.string({ required: true }) },
    handler(ctx) {
      const userId = rubyToI(ctx.params.id)
      const avatar = ctx.db.tables.users.get(userId) ? ctx.db.tables.user_avatars.where('user_id', userId).find((a) => a.filename === ctx.params.filename) : undefined
      if (!avatar) throw webNotFound()
      return sendAvatar(avatar.filename, avatar.data)
    },
  }),
]
