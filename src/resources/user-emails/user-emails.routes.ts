/**
 * Users' secondary emails: the current user's (`/user/emails`: list, get, add, delete) and an
 * administrator's view of anyone's (`/users/:id/emails`: list, add, delete). A new address is
 * unconfirmed (`confirmed_at` null; GitLab mails a confirmation link) unless an administrator adds
 * it with `skip_confirmation`. Rows of the `emails` table the notification settings area declares
 * (its `emails:` scenario field; confirmed ones are the user's verified emails).
 * gitlab: lib/api/users.rb, lib/api/entities/email.rb, app/services/emails/{create,destroy}_service.rb,
 * app/models/email.rb (13.12).
 * @module
 */
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { notFound, validationFailed, ValidationMessage } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, noContent, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Reply, type Route } from '../../core/route.js'
import type { UserRecord } from '../../db/schema.js'
import { findUserAsAdmin } from '../../rules/finders.js'
import type { EmailRecord } from '../notification-settings/index.js'

/** Devise's `email_regexp`. */
const EMAIL = /^[^@\s]+@[^@\s]+$/

/** GitLab's `Email` entity: `id, email, confirmed_at`. */
export function Email(email: EmailRecord) {
  return { id: email.id, email: email.email, confirmed_at: email.confirmed_at }
}

/** `user.emails`, oldest first. */
function emailsOf(ctx: Ctx<unknown>, user: UserRecord): EmailRecord[] {
  return ctx.db.tables.emails.where('user_id', user.id).sort((a, b) => a.id - b.id)
}

/** `user.emails.find_by(id:)`. @throws ApiError 404 `{"message":"404 Email Not Found"}`. */
function emailOf(ctx: Ctx<unknown>, user: UserRecord, id: number): EmailRecord {
  const email = ctx.db.tables.emails.get(id)
  if (!email || email.user_id !== user.id) throw notFound('Email')
  return email
}

/**
 * `Emails::CreateService`: `Email#email=` strips and downcases; the validations (present, unique
 * among emails, Devise's format, no user's primary email); confirmed at once when an
 * administrator skips the confirmation.
 * @throws ApiError 400 `{"message":{"email":[…]}}` (`render_validation_error!`).
 */
function addEmail(ctx: Ctx<unknown>, user: UserRecord, address: string, skipConfirmation: boolean): EmailRecord {
  const email = address.trim().toLowerCase()
  const errors: string[] = []
  if (email === '') errors.push(ValidationMessage.blank)
  else {
    if (ctx.db.tables.emails.all().some((e) => e.email.toLowerCase() === email)) errors.push(ValidationMessage.taken)
    if (!EMAIL.test(email)) errors.push(ValidationMessage.invalid)
    // gitlab: Email#unique_email: no user's primary email.
    if (ctx.db.tables.users.all().some((u) => u.email.toLowerCase() === email)) errors.push(ValidationMessage.taken)
  }
  if (errors.length > 0) throw validationFailed({ email: errors })
  return ctx.db.tables.emails.insert({
    user_id: user.id, email, confirmed_at: skipConfirmation && ctx.currentUser!.admin ? ctx.now : null, created_at: ctx.now,
  })
}

/**
 * `destroy_conditionally!` with `Emails::DestroyService`: the address goes, and
 * `update_secondary_emails!` clears the public email when it was this one.
 */
function destroy(ctx: Ctx<unknown>, user: UserRecord, email: EmailRecord): Reply {
  checkUnmodifiedSince(ctx, email.created_at)
  ctx.db.tables.emails.delete(email.id)
  if (user.public_email === email.email) ctx.db.tables.users.update(user.id, { public_email: '' })
  return noContent()
}

const id = p.integer({ required: true })

/** The email routes. */
export const userEmailRoutes: Route[] = [
  route('GET /user/emails', {
    params: { ...paginationParams },
    handler(ctx) {
      return paginated(ctx, emailsOf(ctx, ctx.currentUser!), Email)
    },
  }),

  route('GET /user/emails/:email_id', {
    params: { email_id: id },
    handler(ctx) {
      return ok(Email(emailOf(ctx, ctx.currentUser!, ctx.params.email_id)))
    },
  }),

  // gitlab: users.rb `post "emails"` declares only `email`: a user cannot skip the confirmation.
  route('POST /user/emails', {
    params: { email: p.string({ required: true }) },
    handler(ctx) {
      return created(Email(addEmail(ctx, ctx.currentUser!, ctx.params.email, false)))
    },
  }),

  route('DELETE /user/emails/:email_id', {
    params: { email_id: id },
    handler(ctx) {
      const user = ctx.currentUser!
      return destroy(ctx, user, emailOf(ctx, user, ctx.params.email_id))
    },
  }),

  route('GET /users/:id/emails', {
    params: { id, ...paginationParams },
    handler(ctx) {
      return paginated(ctx, emailsOf(ctx, findUserAsAdmin(ctx, ctx.params.id)), Email)
    },
  }),

  route('POST /users/:id/emails', {
    params: { id, email: p.string({ required: true }), skip_confirmation: p.boolean() },
    handler(ctx) {
      const user = findUserAsAdmin(ctx, ctx.params.id)
      return created(Email(addEmail(ctx, user, ctx.params.email, ctx.params.skip_confirmation === true)))
    },
  }),

  route('DELETE /users/:id/emails/:email_id', {
    params: { id, email_id: id },
    handler(ctx) {
      const user = findUserAsAdmin(ctx, ctx.params.id)
      return destroy(ctx, user, emailOf(ctx, user, ctx.params.email_id))
    },
  }),
]
