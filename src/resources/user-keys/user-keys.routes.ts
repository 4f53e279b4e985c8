/**
 * SSH keys of users: the current user's (`/user/keys`), any user's list (`/users/:user_id/keys`,
 * readable by anyone) and an administrator adding and deleting a user's (`/users/:id/keys`); the
 * look-ups across every key (`/keys/:id`, `/keys?fingerprint=`) are the keys area's.
 * gitlab: lib/api/users.rb (13.12).
 * @module
 */
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { notFound, validationFailed } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, noContent, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { UserRecord } from '../../db/schema.js'
import { findUser, findUserById } from '../../rules/finders.js'
import { SSHKey } from './user-keys.entities.js'
import { validateKey } from './user-keys.model.js'
import type { KeyRecord } from './user-keys.tables.js'
import { publishKey } from './user-keys.events.js'

/** The user's SSH keys (not deploy keys), by id. */
function keysOf(ctx: Ctx<unknown>, user: UserRecord): KeyRecord[] {
  return ctx.db.tables.keys.where('user_id', user.id).filter((k) => k.type === null).sort((a, b) => a.id - b.id)
}

/**
 * `user.keys.find_by(id:)`.
 * @throws ApiError 404 `{"message":"404 Key Not Found"}`.
 */
function keyOf(ctx: Ctx<unknown>, user: UserRecord, id: number): KeyRecord {
  const key = keysOf(ctx, user).find((k) => k.id === id)
  if (!key) throw notFound('Key')
  return key
}

/**
 * `user.keys.new(…).save`: the `Key` validations, then the key.
 * @throws ApiError 400 `{"message":{"<attribute>":[…]}}` (`render_validation_error!`).
 */
function addKey(ctx: Ctx<unknown>, user: UserRecord, params: { title: string; key: string; expires_at?: string | undefined }): KeyRecord {
  const { errors, valid } = validateKey(ctx.db, params.title, params.key)
  if (!valid) throw validationFailed(errors)
  const saved = ctx.db.tables.keys.insert({
    user_id: user.id,
    type: null,
    title: params.title,
    key: valid.key,
    fingerprint: valid.parsed.fingerprint,
    fingerprint_sha256: valid.parsed.fingerprintSha256,
    public: false,
    expires_at: params.expires_at ?? null,
    created_at: ctx.now,
    updated_at: ctx.now,
  })
  publishKey(ctx, 'create', saved)
  return saved
}

const keyParams = { title: p.string({ required: true }), key: p.string({ required: true }), expires_at: p.datetime() }
const keyId = p.integer({ required: true })

/** The user key routes. */
export const userKeyRoutes: Route[] = [
  route('GET /user/keys', {
    params: { ...paginationParams },
    handler(ctx) {
      return paginated(ctx, keysOf(ctx, ctx.currentUser!), SSHKey)
    },
  }),

  route('GET /user/keys/:key_id', {
    params: { key_id: keyId },
    handler(ctx) {
      return ok(SSHKey(keyOf(ctx, ctx.currentUser!, ctx.params.key_id)))
    },
  }),

  route('POST /user/keys', {
    params: keyParams,
    handler(ctx) {
      const { title, key, expires_at } = ctx.params
      return created(SSHKey(addKey(ctx, ctx.currentUser!, { title, key, expires_at })))
    },
  }),

  route('DELETE /user/keys/:key_id', {
    params: { key_id: keyId },
    handler(ctx) {
      const key = keyOf(ctx, ctx.currentUser!, ctx.params.key_id)
      checkUnmodifiedSince(ctx, key.updated_at)
      ctx.db.tables.keys.delete(key.id)
      publishKey(ctx, 'destroy', key)
      return noContent()
    },
  }),

  route('GET /users/:user_id/keys', {
    auth: 'optional',
    params: { user_id: p.string({ required: true }), ...paginationParams },
    handler(ctx) {
      return paginated(ctx, keysOf(ctx, findUser(ctx, ctx.params.user_id)), SSHKey)
    },
  }),

  route('POST /users/:id/keys', {
    auth: 'admin',
    params: { id: p.integer({ required: true }), ...keyParams },
    handler(ctx) {
      const user = findUserById(ctx, ctx.params.id)
      const { title, key, expires_at } = ctx.params
      return created(SSHKey(addKey(ctx, user, { title, key, expires_at })))
    },
  }),

  route('DELETE /users/:id/keys/:key_id', {
    auth: 'admin',
    params: { id: p.integer({ required: true }), key_id: keyId },
    handler(ctx) {
      const user = findUserById(ctx, ctx.params.id)
      const key = keyOf(ctx, user, ctx.params.key_id)
      checkUnmodifiedSince(ctx, key.updated_at)
      ctx.db.tables.keys.delete(key.id)
      publishKey(ctx, 'destroy', key)
      return noContent()
    },
  }),
]
