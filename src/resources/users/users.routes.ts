/**
 * `GET /user` and `GET /users/:id`: the reads clients use to discover who they are; `GET /users`,
 * the lookup tools make by username; and the administrators' user writes (`POST /users`,
 * `PUT /users/:id`, `DELETE /users/:id`, `POST /users/:id/block`, `POST /users/:id/unblock`). A
 * user's memberships (`GET /users/:user_id/memberships`) are the members area's.
 * Source: GitLab doc/api/users.md; gitlabhq:lib/api/users.rb.
 * @module
 */
import { apiMessage, conflict, forbidden, notFound, unauthorized } from '../../core/errors.js'
import { filterByCustomAttributes } from '../custom-attributes/custom-attributes.public.js'
import { UserMessage } from './users.messages.js'
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { findUser } from '../../rules/finders.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, noContent, ok, paginated } from '../../core/respond.js'
import { present } from '../../core/ruby.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { UserRecord } from '../../db/schema.js'
import { User, UserBasic, UserPublic, UserWithAdmin } from '../../entities/user.js'
import { avatarErrors } from '../../rules/avatars.js'
import { storeAvatar } from './users.avatars.js'
import { createUser, destroyUser, isBlocked, isInternal, listUsers, MINIMUM_INACTIVE_DAYS, noRecentActivity, soloOwnedGroups, storeIdentity, updateUser, userByIdentity, type UserOrder } from './users.service.js'

/** `optional_attributes` of users.rb: the profile fields `POST /users` and `PUT /users/:id` take. */
const optionalAttributes = {
  skype: p.string(),
  linkedin: p.string(),
  twitter: p.string(),
  website_url: p.string(),
  organization: p.string(),
  projects_limit: p.integer(),
  extern_uid: p.string(),
  provider: p.string(),
  bio: p.string(),
  location: p.string(),
  public_email: p.string(),
  admin: p.boolean(),
  can_create_group: p.boolean(),
  external: p.boolean(),
  // gitlab: users.rb declares `default: false`, so every update that leaves it out makes the
  // profile public again (13.x behaviour, later fixed).
  private_profile: p.boolean({ default: false }),
  /** A multipart file (users.avatars.ts). */
  avatar: p.file(),
}

const USER_ORDER = ['id', 'name', 'username', 'created_at', 'updated_at'] as const

/** The user for an administrator's `:id` (`User.find_by(id:)`), after `authenticated_as_admin!`. */
function findUserAsAdmin(ctx: Ctx<{ id: number }>): UserRecord {
  if (!ctx.currentUser!.admin) throw forbidden()
  const user = ctx.db.tables.users.get(ctx.params.id)
  if (!user) throw notFound('User')
  return user
}

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

  // gitlab: lib/api/users.rb `get`: anonymous callers must name a username; administrators see
  // UserWithAdmin and may sort and filter by dates, everyone else sees UserBasic.
  route('GET /users', {
    auth: 'optional',
    scopes: ['read_user'],
    params: {
      ...paginationParams,
      username: p.string(),
      extern_uid: p.string(),
      provider: p.string(),
      search: p.string(),
      active: p.boolean({ default: false }),
      external: p.boolean({ default: false }),
      blocked: p.boolean({ default: false }),
      created_after: p.datetime(),
      created_before: p.datetime(),
      order_by: p.string({ default: 'id', values: USER_ORDER }),
      sort: p.string({ default: 'desc', values: ['asc', 'desc'] }),
      custom_attributes: p.hash(),
    },
    handler(ctx) {
      const { params, currentUser: user } = ctx
      const admin = user?.admin === true
      if (params.external || (present(params.extern_uid) && present(params.provider))) {
        if (!user) throw unauthorized()
        if (!admin) throw forbidden()
      }
      if (!user && !present(params.username)) throw forbidden(UserMessage.listNotAuthorized)
      // gitlab: reorder_users: only administrators keep order_by/sort, and their defaults always apply.
      const order: UserOrder | undefined = admin
        ? { column: params.order_by === 'updated_at' ? 'created_at' : (params.order_by as UserOrder['column']), sort: params.sort === 'asc' ? 'asc' : 'desc' }
        : undefined
      const filters = {
        username: params.username,
        search: params.search,
        active: params.active,
        blocked: params.blocked,
        external: params.external,
        ...(admin ? { created_after: params.created_after, created_before: params.created_before } : {}),
      }
      // gitlab: UsersFinder#by_external_identity narrows the list to the identity's user.
      let users = listUsers(ctx.db, filters, order)
      if (present(params.extern_uid) && present(params.provider)) {
        const owner = userByIdentity(ctx.db, params.provider, params.extern_uid)
        users = users.filter((u) => u.id === owner?.id)
      }
      users = filterByCustomAttributes(ctx.db, 'user', users, params.custom_attributes, admin)
      return paginated(ctx, users, (u) => (admin ? UserWithAdmin(u, ctx) : UserBasic(u, ctx)))
    },
  }),

  // gitlab: lib/api/users.rb `post`: `authenticated_as_admin!` runs in the endpoint, after the
  // params are validated.
  route('POST /users', {
    params: {
      email: p.string({ required: true }),
      password: p.string(),
      reset_password: p.boolean(),
      skip_confirmation: p.boolean(),
      name: p.string({ required: true }),
      username: p.string({ required: true }),
      force_random_password: p.boolean(),
      ...optionalAttributes,
    },
    rules: { atLeastOneOf: ['password', 'reset_password'] },
    handler(ctx) {
      if (!ctx.currentUser!.admin) throw forbidden()
      const user = createUser(ctx, ctx.params, avatarErrors(ctx.params.avatar))
      storeIdentity(ctx.db, user.id, ctx.params)
      if (ctx.params.avatar) storeAvatar(ctx, user.id, ctx.params.avatar)
      return created(UserWithAdmin(ctx.db.tables.users.get(user.id)!, ctx))
    },
  }),

  route('PUT /users/:id', {
    params: {
      id: p.integer({ required: true }),
      email: p.string(),
      password: p.string(),
      skip_reconfirmation: p.boolean(),
      name: p.string(),
      username: p.string(),
      ...optionalAttributes,
    },
    handler(ctx) {
      const user = findUserAsAdmin(ctx)
      storeIdentity(ctx.db, user.id, ctx.params)
      updateUser(ctx, ctx.db.tables.users.get(user.id)!, ctx.params, avatarErrors(ctx.params.avatar))
      if (ctx.params.avatar) storeAvatar(ctx, user.id, ctx.params.avatar)
      return ok(UserWithAdmin(ctx.db.tables.users.get(user.id)!, ctx))
    },
  }),

  // gitlab: lib/api/users.rb `delete ":id/identities/:provider"`.
  route('DELETE /users/:id/identities/:provider', {
    params: { id: p.integer({ required: true }), provider: p.string({ required: true }) },
    handler(ctx) {
      const user = findUserAsAdmin(ctx)
      const identities = user.identities ?? []
      if (!identities.some((i) => i.provider === ctx.params.provider)) throw notFound('Identity')
      ctx.db.tables.users.update(user.id, { identities: identities.filter((i) => i.provider !== ctx.params.provider) })
      return noContent()
    },
  }),

  // gitlab: lib/api/users.rb `delete ":id"`: 409 for the sole owner of a group unless
  // `hard_delete`; the deletion itself (a background job in GitLab) happens at once here.
  route('DELETE /users/:id', {
    params: { id: p.integer({ required: true }), hard_delete: p.boolean() },
    handler(ctx) {
      const user = findUserAsAdmin(ctx)
      if (soloOwnedGroups(ctx.db, user).length > 0 && !ctx.params.hard_delete) {
        throw conflict(UserMessage.soleOwner)
      }
      // destroy_conditionally!; spec-gap: users keep no updated_at, created_at stands in.
      checkUnmodifiedSince(ctx, user.created_at)
      destroyUser(ctx, user, ctx.params.hard_delete === true)
      return noContent()
    },
  }),

  // gitlab: lib/api/users.rb `post ':id/block'` (13.10-13.12): `break if user.blocked?` leaves the
  // endpoint with nil, so an already blocked user gets 201 `null`; else the BlockService's `true`.
  route('POST /users/:id/block', {
    params: { id: p.integer({ required: true }) },
    handler(ctx) {
      const user = findUserAsAdmin(ctx)
      if (user.state === 'ldap_blocked') throw forbidden(UserMessage.ldapBlockedNotModifiable)
      // `blocked?` holds for a user pending approval too.
      if (isBlocked(user)) return created(null)
      ctx.db.tables.users.update(user.id, { state: 'blocked' })
      return created(true)
    },
  }),

  // gitlab: lib/api/users.rb `post ':id/unblock'`: `user.activate`, false for an active user; a
  // user pending approval is activated too (the state machine's `activate` leaves every blocked state).
  route('POST /users/:id/unblock', {
    params: { id: p.integer({ required: true }) },
    handler(ctx) {
      const user = findUserAsAdmin(ctx)
      if (user.state === 'ldap_blocked') throw forbidden(UserMessage.ldapBlockedNotUnblockable)
      if (user.state === 'deactivated') throw forbidden(UserMessage.deactivatedNotUnblockable)
      if (user.state === 'active') return created(false)
      ctx.db.tables.users.update(user.id, { state: 'active' })
      return created(true)
    },
  }),

  // gitlab: lib/api/users.rb `post ':id/activate'` (13.12): 403 for any blocked state, then
  // `user.activate`: true from deactivated, false for an active user (no transition).
  route('POST /users/:id/activate', {
    params: { id: p.integer({ required: true }) },
    handler(ctx) {
      const user = findUserAsAdmin(ctx)
      if (isBlocked(user)) throw forbidden(UserMessage.blockedNotActivatable)
      if (user.state === 'active') return created(false)
      ctx.db.tables.users.update(user.id, { state: 'active' })
      return created(true)
    },
  }),

  // gitlab: lib/api/users.rb `post ':id/deactivate'` (13.12): `break if user.deactivated?` (201
  // `null`); unless `can_be_deactivated?` (active, no activity in 90 days, not internal) a 403 saying why.
  route('POST /users/:id/deactivate', {
    params: { id: p.integer({ required: true }) },
    handler(ctx) {
      const user = findUserAsAdmin(ctx)
      if (user.state === 'deactivated') return created(null)
      if (isBlocked(user)) throw forbidden(UserMessage.blockedNotDeactivatable)
      if (isInternal(user)) throw forbidden(UserMessage.internalNotDeactivatable)
      if (!noRecentActivity(user, ctx.now)) throw forbidden(UserMessage.recentlyActive(MINIMUM_INACTIVE_DAYS))
      ctx.db.tables.users.update(user.id, { state: 'deactivated' })
      return created(true)
    },
  }),

  // gitlab: lib/api/users.rb `post ':id/approve'` (13.7+) with app/services/users/approve_service.rb
  // (13.12): no `authenticated_as_admin!`: 404 for an unknown user, then the service's 403 for a
  // non-administrator, 409 for a user not pending approval, else 201 with the service's result hash.
  route('POST /users/:id/approve', {
    params: { id: p.integer({ required: true }) },
    handler(ctx) {
      const user = ctx.db.tables.users.get(ctx.params.id)
      if (!user) throw notFound('User')
      if (!ctx.currentUser!.admin) throw apiMessage(403, UserMessage.approveNotAllowed)
      if (user.state !== 'blocked_pending_approval') throw apiMessage(409, UserMessage.notPendingApproval)
      ctx.db.tables.users.update(user.id, { state: 'active' })
      return created({ message: 'Success', http_status: 'created', status: 'success' })
    },
  }),
]
