/**
 * Following users (GitLab 13.12 CE: `users_follow_users`, `User#follow` and `#unfollow`):
 * `POST /users/:id/follow` and `/unfollow` (201 with the followed user as UserBasic, 304 when
 * nothing changes: following twice, following or unfollowing oneself, unfollowing someone not
 * followed), and `GET /users/:id/followers` and `/following` (UserBasic, paginated, in the order
 * the follows were made; none readable behind a private profile).
 * gitlab: lib/api/users.rb, app/models/user.rb (`follow`, `unfollow`), app/models/users/user_follow_user.rb,
 * app/policies/user_policy.rb (`read_user_profile`), 13.12.
 * @module
 */
import { notFound, notModified } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { Db } from '../../db/db.js'
import type { UserRecord } from '../../db/schema.js'
import { UserBasic } from '../../entities/user.js'
import { findUser } from '../../rules/finders.js'

/** The users a user follows (`followees`) or who follow them (`followers`), in follow order. */
export function follows(db: Db, user: UserRecord, direction: 'followers' | 'followees'): UserRecord[] {
  const [mine, theirs] = direction === 'followers' ? (['followee_id', 'follower_id'] as const) : (['follower_id', 'followee_id'] as const)
  return db.tables.user_follow_users.where(mine, user.id).flatMap((f) => db.tables.users.get(f[theirs]) ?? [])
}

/** `read_user_profile`: a public profile, or the caller is the user or an administrator. */
function canReadProfile(viewer: UserRecord | null, user: UserRecord): boolean {
  return !user.private_profile || (viewer !== null && (viewer.id === user.id || viewer.admin))
}

/** The user of `:id` whose profile the caller may read, else 404 `User Not Found`. */
function readableUser(ctx: Ctx<{ id: number }>): UserRecord {
  const user = findUser(ctx, ctx.params.id)
  if (!canReadProfile(ctx.currentUser, user)) throw notFound('User')
  return user
}

const id = p.integer({ required: true })

/** The follow routes. */
export const userFollowRoutes: Route[] = [
  route('POST /users/:id/follow', {
    params: { id },
    handler(ctx) {
      const user = findUser(ctx, ctx.params.id)
      const me = ctx.currentUser!
      const rows = ctx.db.tables.user_follow_users
      // `User#follow`: false for oneself, and for a follow that exists (RecordNotUnique).
      if (me.id === user.id || rows.where('follower_id', me.id).some((f) => f.followee_id === user.id)) throw notModified()
      rows.insert({ follower_id: me.id, followee_id: user.id, created_at: ctx.now })
      return created(UserBasic(user, ctx))
    },
  }),

  route('POST /users/:id/unfollow', {
    params: { id },
    handler(ctx) {
      const user = findUser(ctx, ctx.params.id)
      const rows = ctx.db.tables.user_follow_users
      const mine = rows.where('follower_id', ctx.currentUser!.id).filter((f) => f.followee_id === user.id)
      if (mine.length === 0) throw notModified()
      for (const f of mine) rows.delete(f.id)
      return created(UserBasic(user, ctx))
    },
  }),

  route('GET /users/:id/following', {
    auth: 'optional',
    scopes: ['read_user'],
    params: { id, ...paginationParams },
    handler(ctx) {
      return paginated(ctx, follows(ctx.db, readableUser(ctx), 'followees'), (u) => UserBasic(u, ctx))
    },
  }),

  route('GET /users/:id/followers', {
    auth: 'optional',
    scopes: ['read_user'],
    params: { id, ...paginationParams },
    handler(ctx) {
      return paginated(ctx, follows(ctx.db, readableUser(ctx), 'followers'), (u) => UserBasic(u, ctx))
    },
  }),
]
