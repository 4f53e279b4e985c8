/**
 * Users' GPG keys: the current user's (`/user/gpg_keys`: list, get, add, revoke, delete), anyone's
 * list and key (`GET /users/:id/gpg_keys[/:key_id]`), and administrators adding, revoking and
 * deleting a user's. Revoking a key removes it (GitLab also unverifies the commits it signed,
 * which fakelab does not keep) and answers 202. gitlab: lib/api/users.rb, lib/api/entities/gpg_key.rb,
 * app/services/gpg_keys/create_service.rb, app/models/gpg_key.rb (`revoke`) (13.12).
 * @module
 */
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { notFound, validationFailed } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, noContent, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Reply, type Route } from '../../core/route.js'
import type { UserRecord } from '../../db/schema.js'
import { findUserAsAdmin, findUserById } from '../../rules/finders.js'
import { parseGpgKey, validateGpgKey, type ParsedGpgKey } from './user-gpg-keys.model.js'
import type { GpgKeyRecord } from './user-gpg-keys.tables.js'

/** GitLab's `GpgKey` entity: `id, key, created_at`. */
export function GpgKey(key: GpgKeyRecord) {
  return { id: key.id, key: key.key, created_at: key.created_at }
}

/** `user.gpg_keys`, oldest first. */
function keysOf(ctx: Ctx<unknown>, user: UserRecord): GpgKeyRecord[] {
  return ctx.db.tables.gpg_keys.where('user_id', user.id).sort((a, b) => a.id - b.id)
}

/** `user.gpg_keys.find_by(id:)`. @throws ApiError 404 `{"message":"404 GPG Key Not Found"}`. */
function keyOf(ctx: Ctx<unknown>, user: UserRecord, id: number): GpgKeyRecord {
  const key = ctx.db.tables.gpg_keys.get(id)
  if (!key || key.user_id !== user.id) throw notFound('GPG Key')
  return key
}

/**
 * `GpgKeys::CreateService`: the validations, then the key.
 * @throws ApiError 400 `{"message":{"key":[…]}}` (`render_validation_error!`).
 */
function addKey(ctx: Ctx<{ key: string }>, user: UserRecord): GpgKeyRecord {
  const parsed = ctx.prepared as ParsedGpgKey | null
  const errors = validateGpgKey(ctx.db, ctx.params.key, parsed)
  if (Object.keys(errors).length > 0 || !parsed) throw validationFailed(errors)
  return ctx.db.tables.gpg_keys.insert({
    user_id: user.id, key: ctx.params.key.trim(), fingerprint: parsed.fingerprint, primary_keyid: parsed.primaryKeyid, created_at: ctx.now, updated_at: ctx.now,
  })
}

/** `key.revoke` then `status :accepted`: the key goes; the body is the status Grape's `status` returned. */
function revoke(ctx: Ctx<unknown>, key: GpgKeyRecord): Reply {
  ctx.db.tables.gpg_keys.delete(key.id)
  return { status: 202, body: 202 }
}

/** `destroy_conditionally!` with `GpgKeys::DestroyService`. */
function destroy(ctx: Ctx<unknown>, key: GpgKeyRecord): Reply {
  checkUnmodifiedSince(ctx, key.updated_at)
  ctx.db.tables.gpg_keys.delete(key.id)
  return noContent()
}

const id = p.integer({ required: true })
const keyParam = { key: p.string({ required: true }) }
/** The key's parse, before the handler (openpgp's API is asynchronous). */
const prepare = (ctx: Ctx<{ key: string }>) => parseGpgKey(ctx.params.key)

/** The GPG key routes. */
export const userGpgKeyRoutes: Route[] = [
  route('GET /user/gpg_keys', {
    params: { ...paginationParams },
    handler(ctx) {
      return paginated(ctx, keysOf(ctx, ctx.currentUser!), GpgKey)
    },
  }),

  route('GET /user/gpg_keys/:key_id', {
    params: { key_id: id },
    handler(ctx) {
      return ok(GpgKey(keyOf(ctx, ctx.currentUser!, ctx.params.key_id)))
    },
  }),

  route('POST /user/gpg_keys', {
    params: keyParam,
    prepare,
    handler(ctx) {
      return created(GpgKey(addKey(ctx, ctx.currentUser!)))
    },
  }),

  route('POST /user/gpg_keys/:key_id/revoke', {
    params: { key_id: id },
    handler(ctx) {
      return revoke(ctx, keyOf(ctx, ctx.currentUser!, ctx.params.key_id))
    },
  }),

  route('DELETE /user/gpg_keys/:key_id', {
    params: { key_id: id },
    handler(ctx) {
      return destroy(ctx, keyOf(ctx, ctx.currentUser!, ctx.params.key_id))
    },
  }),

  // gitlab: users.rb `get ':id/gpg_keys'`: no authentication needed (`authenticate_non_get!`).
  route('GET /users/:id/gpg_keys', {
    auth: 'optional',
    params: { id, ...paginationParams },
    handler(ctx) {
      return paginated(ctx, keysOf(ctx, findUserById(ctx, ctx.params.id)), GpgKey)
    },
  }),

  route('GET /users/:id/gpg_keys/:key_id', {
    auth: 'optional',
    params: { id, key_id: id },
    handler(ctx) {
      return ok(GpgKey(keyOf(ctx, findUserById(ctx, ctx.params.id), ctx.params.key_id)))
    },
  }),

  route('POST /users/:id/gpg_keys', {
    params: { id, ...keyParam },
    prepare,
    handler(ctx) {
      return created(GpgKey(addKey(ctx, findUserAsAdmin(ctx, ctx.params.id))))
    },
  }),

  route('POST /users/:id/gpg_keys/:key_id/revoke', {
    params: { id, key_id: id },
    handler(ctx) {
      return revoke(ctx, keyOf(ctx, findUserAsAdmin(ctx, ctx.params.id), ctx.params.key_id))
    },
  }),

  route('DELETE /users/:id/gpg_keys/:key_id', {
    params: { id, key_id: id },
    handler(ctx) {
      return destroy(ctx, keyOf(ctx, findUserAsAdmin(ctx, ctx.params.id), ctx.params.key_id))
    },
  }),
]
