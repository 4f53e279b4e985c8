/**
 * Invitations of projects and groups from one definition, looped over the source type as GitLab's
 * invitations.rb does: invite by email (`{"status":"success"}` or the per-email error hash, 201
 * either way), list the pending invitations (whoever may read the source), update and delete one by
 * its email (`admin_project_member` / `admin_group_member`). Every route needs a signed-in user.
 * gitlab: lib/api/invitations.rb, lib/api/entities/invitation.rb, lib/api/helpers/members_helpers.rb
 * (`retrieve_member_invitations`), doc/api/invitations.md (13.12).
 * @module
 */
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { badRequest, grapeError, recordNotFound } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, noContent, ok, paginated } from '../../core/respond.js'
import { route, type Route } from '../../core/route.js'
import { SOURCE_TYPES, SOURCES } from '../../rules/source.js'
import { authorizeAdminMembers } from '../members/members.public.js'
import { Invitation, InvitedMember } from './invitations.entities.js'
import { InvitationMessage } from './invitations.messages.js'
import { validEmailList } from './invitations.email.js'
import { invitationsOf, invite, updateInvitation } from './invitations.service.js'

const id = p.string({ required: true })
/** `Gitlab::Access.all_values`: Guest to Owner. */
const ACCESS_VALUES = [10, 20, 30, 40, 50] as const

/** Every invitation route. */
export const invitationRoutes: Route[] = []

for (const sourceType of SOURCE_TYPES) {
  const source = SOURCES[sourceType]
  const invitations = `${source.prefix}/invitations`

  invitationRoutes.push(
    route(`POST ${invitations}`, {
      params: {
        id,
        email: p.string({ required: true }),
        access_level: p.integer({ required: true, values: ACCESS_VALUES }),
        expires_at: p.datetime(),
        invite_source: p.string({ default: 'invitations-api' }),
        areas_of_focus: p.strings(),
      },
      handler(ctx) {
        // Grape's `email_or_email_list` validator runs with the params, before the endpoint.
        if (!validEmailList(ctx.params.email)) throw grapeError(InvitationMessage.invalidEmail)
        const parent = source.find(ctx, ctx.params.id)
        authorizeAdminMembers(ctx, parent)
        const expiresAt = ctx.params.expires_at === undefined ? null : ctx.params.expires_at.slice(0, 10)
        return created(invite(ctx, parent, ctx.params.email, { access_level: ctx.params.access_level, expires_at: expiresAt }))
      },
    }),

    route(`GET ${invitations}`, {
      params: { id, query: p.string(), ...paginationParams },
      handler(ctx) {
        const parent = source.find(ctx, ctx.params.id)
        const query = ctx.params.query
        // `where(invite_email: query)` when the query is present: an exact match.
        const rows = invitationsOf(ctx, parent).filter((i) => query === undefined || query === '' || i.invite_email === query)
        return paginated(ctx, rows, Invitation)
      },
    }),

    route(`PUT ${invitations}/:email`, {
      params: {
        id,
        email: p.string({ required: true }),
        access_level: p.integer({ values: ACCESS_VALUES }),
        expires_at: p.datetime({ nullable: true }),
      },
      handler(ctx) {
        const parent = source.find(ctx, ctx.params.id)
        authorizeAdminMembers(ctx, parent)
        const invitation = invitationsOf(ctx, parent).find((i) => i.invite_email === ctx.params.email)
        if (!invitation) throw recordNotFound()
        // `declared_params(include_missing: false)` less the email: nothing to change is a 400.
        const blankExpiry = ctx.raw.expires_at === '' || ctx.params.expires_at === null
        if (ctx.params.access_level === undefined && ctx.params.expires_at === undefined && !blankExpiry) throw badRequest()
        const given = ctx.params.expires_at
        const expiresAt = blankExpiry || given === null ? null : given === undefined ? undefined : given.slice(0, 10)
        const updated = updateInvitation(ctx, parent, invitation, { access_level: ctx.params.access_level, expires_at: expiresAt })
        return ok(InvitedMember(updated))
      },
    }),

    route(`DELETE ${invitations}/:email`, {
      params: { id, email: p.string({ required: true }) },
      handler(ctx) {
        const parent = source.find(ctx, ctx.params.id)
        authorizeAdminMembers(ctx, parent)
        const invitation = invitationsOf(ctx, parent).find((i) => i.invite_email === ctx.params.email)
        if (!invitation) throw recordNotFound()
        checkUnmodifiedSince(ctx, invitation.updated_at)
        ctx.db.tables.member_invitations.delete(invitation.id)
        return noContent()
      },
    }),
  )
}
