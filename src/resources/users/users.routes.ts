/**
 * `GET /user` and `GET /users/:id`: the reads clients use to discover who they are.
 * Source: GitLab doc/api/users.md; gitlabhq:lib/api/users.rb.
 * @module
 */
import { findUser } from '../../core/finders.js'
import { p } from '../../core/params.js'
import { ok } from '../../core/respond.js'
import { route, type Route } from '../../core/route.js'
import { User, UserPublic } from '../../entities/user.js'

/** Routes of the users area implemented so far. */
export const userRoutes: Route[] = [
  route('GET /user', {
    scopes: ['read_user'],
    handler(ctx) {
      return ok(UserPublic(ctx.currentUser!, ctx))
    },
  }),

  route('GET /users/:id', {
    auth: 'optional',
    scopes: ['read_user'],
    params: { id: p.integer({ required: true }) },
    handler(ctx) {
      const user = findUser(ctx, ctx.params.id)
      const viewer = ctx.currentUser
      return ok(viewer && (viewer.admin || viewer.id === user.id) ? UserPublic(user, ctx) : User(user, ctx))
    },
  }),
]
