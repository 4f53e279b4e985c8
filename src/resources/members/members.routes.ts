/**
 * Project and group members from one definition, looped over the source type as GitLab's
 * members.rb does: list (direct, and `/all` with inherited members), get one, add one or several,
 * update, remove. Group-only extras come after the loop: the override flag and the billable
 * members of a top-level group (EE). Every route needs a signed-in user.
 * Source: api-spec.md "### Members", "Member", "Billable member", "Billable member membership";
 * gitlab-behaviour.md §11, §13, §14 items 8 and 15; gitlab: lib/api/members.rb,
 * ee/lib/ee/api/members.rb, lib/api/helpers/members_helpers.rb.
 * @module
 */
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { forbidden } from '../../core/errors.js'
import { findGroup, findUser } from '../../rules/finders.js'
import { activeMembership } from '../../rules/access.js'
import { paginate, paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, noContent, ok, paginated } from '../../core/respond.js'
import { route, type Route } from '../../core/route.js'
import { SOURCE_TYPES, SOURCES } from '../../rules/source.js'
import { billableMemberships, BILLABLE_SORTS, listBillable, removeBillable } from './billable-members.service.js'
import { BillableMember, BillableMembership, Membership, presentMembers } from './members.entities.js'
import { allMembers, directMembers, filterMembers, findDirectMember, memberOf } from './members.finder.js'
import { authorizeAdminMembers, canOverrideMembers } from './members.policy.js'
import { addMember, addMembers, removeMember, updateMember } from './members.service.js'

const id = p.string({ required: true })
const userId = p.integer({ required: true })

/** `query`, `user_ids` and `show_seat_info` (EE; accepted, no seat data to show) of both lists. */
const listParams = {
  id,
  query: p.string(),
  user_ids: p.integers(),
  show_seat_info: p.boolean(),
  ...paginationParams,
}

/** Every member route. */
export const memberRoutes: Route[] = []

for (const sourceType of SOURCE_TYPES) {
  const source = SOURCES[sourceType]
  const members = `${source.prefix}/members`

  memberRoutes.push(
    route(`GET ${members}`, {
      params: listParams,
      handler(ctx) {
        const parent = source.find(ctx, ctx.params.id)
        const page = paginate(ctx, filterMembers(ctx.db, directMembers(ctx.db, parent, ctx.today), ctx.params))
        return ok(presentMembers(page.rows, ctx), page.headers)
      },
    }),

    route(`GET ${members}/all`, {
      params: listParams,
      handler(ctx) {
        const parent = source.find(ctx, ctx.params.id)
        const page = paginate(ctx, filterMembers(ctx.db, allMembers(ctx.db, parent, ctx.today), ctx.params))
        return ok(presentMembers(page.rows, ctx), page.headers)
      },
    }),

    route(`GET ${members}/:user_id`, {
      params: { id, user_id: userId },
      handler(ctx) {
        const parent = source.find(ctx, ctx.params.id)
        return ok(presentMembers([findDirectMember(ctx, parent, ctx.params.user_id)], ctx)[0])
      },
    }),

    route(`GET ${members}/all/:user_id`, {
      params: { id, user_id: userId },
      handler(ctx) {
        const parent = source.find(ctx, ctx.params.id)
        return ok(presentMembers([memberOf(allMembers(ctx.db, parent, ctx.today), ctx.params.user_id)], ctx)[0])
      },
    }),

    route(`POST ${members}`, {
      // gitlab: lib/api/members.rb declares access_level before user_id (the order of "is missing").
      params: {
        id,
        access_level: p.integer({ required: true }),
        user_id: p.integerOrString({ required: true }),
        expires_at: p.date(),
        invite_source: p.string({ default: 'members-api' }),
      },
      handler(ctx) {
        const parent = source.find(ctx, ctx.params.id)
        authorizeAdminMembers(ctx, parent)
        const attrs = { access_level: ctx.params.access_level, expires_at: ctx.params.expires_at ?? null }
        if (typeof ctx.params.user_id === 'string' && ctx.params.user_id.includes(',')) {
          // gitlab: lib/api/members.rb answers the CreateService result hash itself, with Grape's 201.
          return created(addMembers(ctx, parent, ctx.params.user_id, attrs))
        }
        return created(presentMembers([addMember(ctx, parent, ctx.params.user_id, attrs)], ctx)[0])
      },
    }),

    route(`PUT ${members}/:user_id`, {
      params: { id, user_id: userId, access_level: p.integer({ required: true }), expires_at: p.date({ nullable: true }) },
      handler(ctx) {
        const parent = source.find(ctx, ctx.params.id)
        authorizeAdminMembers(ctx, parent)
        const member = findDirectMember(ctx, parent, ctx.params.user_id)
        // gitlab: Grape coerces a blank `expires_at` to nil and `declared_params(include_missing: false)`
        // keeps it, so `expires_at=` (or JSON null) removes the expiry; absent leaves it.
        const expiresAt = ctx.raw.expires_at === '' ? null : ctx.params.expires_at
        const updated = updateMember(ctx, parent, member, { access_level: ctx.params.access_level, expires_at: expiresAt })
        return ok(presentMembers([updated], ctx)[0])
      },
    }),

    route(`DELETE ${members}/:user_id`, {
      params: {
        id,
        user_id: userId,
        skip_subresources: p.boolean({ default: false }),
        unassign_issuables: p.boolean({ default: false }),
      },
      handler(ctx) {
        const parent = source.find(ctx, ctx.params.id)
        const member = findDirectMember(ctx, parent, ctx.params.user_id)
        // spec-gap: members carry no updated_at here; If-Unmodified-Since is judged by created_at.
        checkUnmodifiedSince(ctx, member.created_at)
        removeMember(ctx, parent, member, ctx.params)
        return noContent()
      },
    }),
  )
}

// Group members only (EE): the override flag, then billable members of a top-level group.
for (const [method, value] of [['POST', true], ['DELETE', false]] as const) {
  memberRoutes.push(
    route(`${method} /groups/:id/members/:user_id/override`, {
      params: { id, user_id: userId },
      handler(ctx) {
        const group = findGroup(ctx, ctx.params.id)
        const parent = { type: 'group' as const, group }
        // gitlab: ee/lib/ee/api/members.rb: `override_group_member` (an LDAP-synced group's Owners and
        // administrators) is checked first, so a group without LDAP group links is 403 to everyone.
        // spec-gap: fakelab runs no LDAP sync, so every direct member of a synced group counts as an
        // LDAP member (`member.ldap?`). A non-member gets 404 (GitLab answers 500, gitlab-behaviour §11.2).
        if (!canOverrideMembers(ctx, group)) throw forbidden()
        const member = findDirectMember(ctx, parent, ctx.params.user_id)
        const updated = ctx.db.tables.members.update(member.id, { override: value, updated_at: ctx.now })
        const body = presentMembers([updated], ctx, { withOverride: true })[0]
        return method === 'POST' ? created(body) : ok(body)
      },
    }),
  )
}

memberRoutes.push(
  route('GET /groups/:id/billable_members', {
    params: { id, search: p.string(), sort: p.string({ values: BILLABLE_SORTS }), ...paginationParams },
    handler(ctx) {
      const group = findGroup(ctx, ctx.params.id)
      const users = listBillable(ctx, group, ctx.params.search, ctx.params.sort)
      return paginated(ctx, users, (u) => BillableMember(u.user, u.membershipType, ctx))
    },
  }),

  route('GET /groups/:id/billable_members/:user_id/memberships', {
    params: { id, user_id: userId, ...paginationParams },
    handler(ctx) {
      const group = findGroup(ctx, ctx.params.id)
      return paginated(ctx, billableMemberships(ctx, group, ctx.params.user_id), (m) => BillableMembership(m, ctx))
    },
  }),

  route('DELETE /groups/:id/billable_members/:user_id', {
    params: { id, user_id: userId },
    handler(ctx) {
      removeBillable(ctx, findGroup(ctx, ctx.params.id), ctx.params.user_id)
      return noContent()
    },
  }),
)

// gitlab: lib/api/users.rb `get ":user_id/memberships"` (13.x): administrators only, a user's
// direct memberships of projects and groups, in id order, `type` narrowing to one kind.
memberRoutes.push(
  route('GET /users/:user_id/memberships', {
    auth: 'admin',
    params: { user_id: userId, type: p.string({ values: ['Project', 'Namespace'] }), ...paginationParams },
    handler(ctx) {
      const user = findUser(ctx, ctx.params.user_id)
      const kind = ctx.params.type === 'Project' ? 'project' : ctx.params.type === 'Namespace' ? 'group' : undefined
      const rows = ctx.db.tables.members
        .where('user_id', user.id)
        .filter((m) => (kind === undefined || m.source_type === kind) && activeMembership(m, ctx.today))
        .sort((a, b) => a.id - b.id)
      return paginated(ctx, rows, (m) => Membership(m, ctx))
    },
  }),
)
