/**
 * `/personal_access_tokens` (GitLab 13.3+): an administrator lists every token of the instance (or
 * one user's, `user_id`), anyone else their own personal access tokens (no impersonation tokens);
 * `DELETE /personal_access_tokens/:id` revokes a token its owner or an administrator may revoke.
 * The tokens are core's `personal_access_tokens` rows, so a revoked one stops authenticating.
 * gitlab: lib/api/personal_access_tokens.rb, app/finders/personal_access_tokens_finder.rb,
 * app/services/personal_access_tokens/revoke_service.rb, app/policies/personal_access_token_policy.rb (13.12).
 * @module
 */
import { badRequest, recordNotFound, unauthorized } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { noContent, paginated } from '../../core/respond.js'
import { route, type Route } from '../../core/route.js'
import type { PersonalAccessTokenRecord } from '../../db/schema.js'
import { PersonalAccessToken } from '../../entities/access-token.js'

/** The personal access token routes. */
export const personalAccessTokenRoutes: Route[] = [
  route('GET /personal_access_tokens', {
    params: { user_id: p.integer(), ...paginationParams },
    handler(ctx) {
      const { db, params } = ctx
      const me = ctx.currentUser!
      // `UserFinder.new(user_id).find_by_id`: nil for an unknown id.
      const user = params.user_id === undefined ? undefined : db.tables.users.get(params.user_id)
      // restrict_non_admins!: a user_id names only oneself (`read_user_personal_access_tokens`).
      if (!me.admin && params.user_id !== undefined && user?.id !== me.id) throw unauthorized()
      const all = db.tables.personal_access_tokens.all()
      // finder_params: an administrator's `user` (nil: every token), else the caller's own, impersonation false.
      let tokens: PersonalAccessTokenRecord[]
      if (me.admin) tokens = user ? all.filter((t) => t.user_id === user.id) : all
      else tokens = all.filter((t) => t.user_id === me.id && !t.impersonation)
      tokens = [...tokens].sort((a, b) => a.id - b.id)
      return paginated(ctx, tokens, (t) => PersonalAccessToken(t, ctx.today))
    },
  }),

  route('DELETE /personal_access_tokens/:id', {
    params: { id: p.integer({ required: true }) },
    handler(ctx) {
      const me = ctx.currentUser!
      // find_token: `PersonalAccessToken.find(id)`, 404 `Not found`.
      const token = ctx.db.tables.personal_access_tokens.get(ctx.params.id)
      if (!token) throw recordNotFound()
      // RevokeService: `revoke_token` is the owner's or an administrator's; otherwise `bad_request!(nil)`.
      if (!me.admin && token.user_id !== me.id) throw badRequest()
      ctx.db.tables.personal_access_tokens.update(token.id, { revoked: true })
      return noContent()
    },
  }),
]
