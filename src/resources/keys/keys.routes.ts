/**
 * The administrator's look-ups across every SSH key, users' and deploy keys alike: `GET /keys/:id`
 * (`SSHKeyWithUser`) and `GET /keys?fingerprint=` (`DeployKeyWithUser` for a deploy key).
 * gitlab: lib/api/keys.rb, app/finders/keys_finder.rb, lib/api/entities/ssh_key_with_user.rb,
 * deploy_key_with_user.rb (13.12).
 * @module
 */
import { notFound, recordNotFound } from '../../core/errors.js'
import { p } from '../../core/params.js'
import { ok } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import { UserPublic } from '../../entities/user.js'
import { deployKeyProjectLinks } from '../deploy-keys/deploy-keys.public.js'
import { keyByFingerprint, keyById, SSHKey, type KeyRecord } from '../user-keys/user-keys.public.js'

/** `SSHKeyWithUser`: the `SSHKey` fields and the owner as `UserPublic` (null when there is none). */
function SSHKeyWithUser(key: KeyRecord, ctx: Ctx<unknown>) {
  const user = key.user_id === null ? undefined : ctx.db.tables.users.get(key.user_id)
  return { ...SSHKey(key), user: user ? UserPublic(user, ctx) : null }
}

/** `DeployKeyWithUser`: {@link SSHKeyWithUser} and the key's `deploy_keys_projects` rows. */
function DeployKeyWithUser(key: KeyRecord, ctx: Ctx<unknown>) {
  return { ...SSHKeyWithUser(key, ctx), deploy_keys_projects: deployKeyProjectLinks(ctx.db, key.id) }
}

/** The keys routes. */
export const keyRoutes: Route[] = [
  route('GET /keys/:id', {
    auth: 'admin',
    params: { id: p.integer({ required: true }) },
    handler(ctx) {
      const key = keyById(ctx.db, ctx.params.id)
      if (!key) throw recordNotFound()
      return ok(SSHKeyWithUser(key, ctx))
    },
  }),

  route('GET /keys', {
    auth: 'admin',
    params: { fingerprint: p.string({ required: true }) },
    handler(ctx) {
      const key = keyByFingerprint(ctx.db, ctx.params.fingerprint)
      if (!key) throw notFound('Key')
      return ok(key.type === 'DeployKey' ? DeployKeyWithUser(key, ctx) : SSHKeyWithUser(key, ctx))
    },
  }),
]
