/**
 * SSH keys of users: the current user's (`/user/keys`), any user's list (`/users/:user_id/keys`,
 * readable by anyone), an administrator adding and deleting a user's (`/users/:id/keys`), and the
 * administrator's look-ups across every key (`/keys/:id`, `/keys?fingerprint=`), which find deploy
 * keys too. gitlab: lib/api/users.rb, lib/api/keys.rb, app/finders/keys_finder.rb,
 * lib/api/entities/ssh_key_with_user.rb, deploy_key_with_user.rb (13.12).
 * @module
 */
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { apiMessage, notFound, recordNotFound, validationFailed } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, noContent, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { UserRecord } from '../../db/schema.js'
import { UserPublic } from '../../entities/user.js'
import { findUser } from '../../rules/finders.js'
import { SSHKey } from './user-keys.entities.js'
import { validateKey } from './user-keys.model.js'
import type { KeyRecord } from './user-keys.tables.js'
import { deployKeyProjectLinks } from '../deploy-keys/deploy-keys.public.js'

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
  return ctx.db.tables.keys.insert({
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
}

/** `SSHKeyWithUser`: the `SSHKey` fields and the owner as `UserPublic` (null when there is none). */
function SSHKeyWithUser(key: KeyRecord, ctx: Ctx<unknown>) {
  const user = key.user_id === null ? undefined : ctx.db.tables.users.get(key.user_id)
  return { ...SSHKey(key), user: user ? UserPublic(user, ctx) : null }
}

/** `DeployKeyWithUser`: {@link SSHKeyWithUser} and the key's `deploy_keys_projects` rows. */
function DeployKeyWithUser(key: KeyRecord, ctx: Ctx<unknown>) {
  return { ...SSHKeyWithUser(key, ctx), deploy_keys_projects: deployKeyProjectLinks(ctx.db, key.id) }
}

/**
 * `KeysFinder` by fingerprint: `SHA256:<base64>` by the SHA256 fingerprint, else an MD5 one
 * (`MD5:` prefix optional, 16 colon-separated hex pairs).
 * @throws ApiError 400 `{"message":"Failed to return the key"}` for anything else (`InvalidFingerprint`).
 */
function keyByFingerprint(ctx: Ctx<unknown>, fingerprint: string): KeyRecord | undefined {
  if (fingerprint.startsWith('SHA256:')) return ctx.db.tables.keys.where('fingerprint_sha256', fingerprint.slice(7))[0]
  const md5 = fingerprint.replace(/^MD5:/, '')
  if (!/^([0-9a-fA-F]{2}:){15}[0-9a-fA-F]{2}$/.test(md5)) throw apiMessage(400, 'Failed to return the key')
  return ctx.db.tables.keys.where('fingerprint', md5.toLowerCase())[0]
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
      const user = ctx.db.tables.users.get(ctx.params.id)
      if (!user) throw notFound('User')
      const { title, key, expires_at } = ctx.params
      return created(SSHKey(addKey(ctx, user, { title, key, expires_at })))
    },
  }),

  route('DELETE /users/:id/keys/:key_id', {
    auth: 'admin',
    params: { id: p.integer({ required: true }), key_id: keyId },
    handler(ctx) {
      const user = ctx.db.tables.users.get(ctx.params.id)
      if (!user) throw notFound('User')
      const key = keyOf(ctx, user, ctx.params.key_id)
      checkUnmodifiedSince(ctx, key.updated_at)
      ctx.db.tables.keys.delete(key.id)
      return noContent()
    },
  }),

  route('GET /keys/:id', {
    auth: 'admin',
    params: { id: p.integer({ required: true }) },
    handler(ctx) {
      const key = ctx.db.tables.keys.get(ctx.params.id)
      if (!key) throw recordNotFound()
      return ok(SSHKeyWithUser(key, ctx))
    },
  }),

  route('GET /keys', {
    auth: 'admin',
    params: { fingerprint: p.string({ required: true }) },
    handler(ctx) {
      const key = keyByFingerprint(ctx, ctx.params.fingerprint)
      if (!key) throw notFound('Key')
      return ok(key.type === 'DeployKey' ? DeployKeyWithUser(key, ctx) : SSHKeyWithUser(key, ctx))
    },
  }),
]
