/**
 * `/users/:user_id/impersonation_tokens` (administrators only): list (by state), get, create and
 * revoke a user's impersonation tokens; `POST /users/:user_id/personal_access_tokens` creates a
 * personal access token for a user. They are rows of core's `personal_access_tokens` with
 * `impersonation` set, so a created token authenticates as its user (`core/auth.ts`), with its
 * scopes, until revoked or expired, and never while the instance's `impersonation_enabled` is off.
 * gitlab: lib/api/users.rb (`resource :impersonation_tokens`), lib/api/entities/impersonation_token.rb,
 * impersonation_token_with_token.rb, app/finders/personal_access_tokens_finder.rb,
 * app/models/personal_access_token.rb (13.12).
 * @module
 */
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { apiMessage, notFound, validationFailed } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, noContent, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { PersonalAccessTokenRecord, UserRecord } from '../../db/schema.js'
import { PersonalAccessToken, tokenActive } from '../../entities/access-token.js'
import { friendlyToken } from '../../rules/tokens.js'

/** `Gitlab::Auth.all_available_scopes` in 13.12 CE: what a personal or impersonation token may hold. */
export const ALL_AVAILABLE_SCOPES = ['api', 'read_user', 'read_api', 'read_repository', 'write_repository', 'sudo'] as const

/** `ImpersonationToken`: the `PersonalAccessToken` fields, then `impersonation`. */
function ImpersonationToken(token: PersonalAccessTokenRecord, ctx: Ctx<unknown>) {
  return { ...PersonalAccessToken(token, ctx.today), impersonation: token.impersonation }
}

/** `ImpersonationTokenWithToken`: the `PersonalAccessTokenWithToken` fields (`token` last), then `impersonation`. */
function ImpersonationTokenWithToken(token: PersonalAccessTokenRecord, ctx: Ctx<unknown>) {
  const { impersonation, ...fields } = ImpersonationToken(token, ctx)
  return { ...fields, token: token.token, impersonation }
}

/**
 * `find_user_by_id`: the user of `:user_id`, by id only.
 * @throws ApiError 404 `{"message":"404 User Not Found"}`.
 */
function userById(ctx: Ctx<unknown>, id: number): UserRecord {
  const user = ctx.db.tables.users.get(id)
  if (!user) throw notFound('User')
  return user
}

/** The user's impersonation tokens, by id. */
function impersonationTokens(ctx: Ctx<unknown>, user: UserRecord): PersonalAccessTokenRecord[] {
  return ctx.db.tables.personal_access_tokens.where('user_id', user.id).filter((t) => t.impersonation).sort((a, b) => a.id - b.id)
}

/**
 * `find_impersonation_token`.
 * @throws ApiError 404 `{"message":"404 Impersonation Token Not Found"}`.
 */
function findImpersonationToken(ctx: Ctx<unknown>, user: UserRecord, id: number): PersonalAccessTokenRecord {
  const token = impersonationTokens(ctx, user).find((t) => t.id === id)
  if (!token) throw notFound('Impersonation Token')
  return token
}

/** A new token secret no other personal access token has (`TokenAuthenticatable`). */
function uniqueSecret(ctx: Ctx<unknown>): string {
  let secret = friendlyToken(ctx.faker)
  while (ctx.db.tables.personal_access_tokens.where('token', secret).length > 0) secret = friendlyToken(ctx.faker)
  return secret
}

const userId = p.integer({ required: true })
const tokenId = p.integer({ required: true })
const base = '/users/:user_id/impersonation_tokens'

/** The impersonation token routes. */
export const impersonationTokenRoutes: Route[] = [
  route(`GET ${base}`, {
    auth: 'admin',
    params: { user_id: userId, state: p.string({ default: 'all', values: ['all', 'active', 'inactive'] }), ...paginationParams },
    handler(ctx) {
      const user = userById(ctx, ctx.params.user_id)
      const { state } = ctx.params
      const tokens = impersonationTokens(ctx, user).filter((t) => state === 'all' || tokenActive(t, ctx.today) === (state === 'active'))
      return paginated(ctx, tokens, (t) => ImpersonationToken(t, ctx))
    },
  }),

  route(`POST ${base}`, {
    auth: 'admin',
    params: { user_id: userId, name: p.string({ required: true }), expires_at: p.date(), scopes: p.strings({ values: ALL_AVAILABLE_SCOPES }) },
    handler(ctx) {
      const user = userById(ctx, ctx.params.user_id)
      const scopes = [...new Set(ctx.params.scopes ?? [])]
      const errors: Record<string, string[]> = {}
      if (ctx.params.name.trim() === '') errors.name = ["can't be blank"]
      if (scopes.length === 0) errors.scopes = ["can't be blank"]
      if (Object.keys(errors).length > 0) throw validationFailed(errors)
      const token = ctx.db.tables.personal_access_tokens.insert({
        user_id: user.id,
        name: ctx.params.name,
        token: uniqueSecret(ctx),
        scopes,
        revoked: false,
        expires_at: ctx.params.expires_at ?? null,
        impersonation: true,
        created_at: ctx.now,
        last_used_at: null,
      })
      return created(ImpersonationTokenWithToken(token, ctx))
    },
  }),

  route(`GET ${base}/:impersonation_token_id`, {
    auth: 'admin',
    params: { user_id: userId, impersonation_token_id: tokenId },
    handler(ctx) {
      const user = userById(ctx, ctx.params.user_id)
      return ok(ImpersonationToken(findImpersonationToken(ctx, user, ctx.params.impersonation_token_id), ctx))
    },
  }),

  route(`DELETE ${base}/:impersonation_token_id`, {
    auth: 'admin',
    params: { user_id: userId, impersonation_token_id: tokenId },
    handler(ctx) {
      const user = userById(ctx, ctx.params.user_id)
      const token = findImpersonationToken(ctx, user, ctx.params.impersonation_token_id)
      checkUnmodifiedSince(ctx, token.created_at) // destroy_conditionally! { token.revoke! }
      ctx.db.tables.personal_access_tokens.update(token.id, { revoked: true })
      return noContent()
    },
  }),

  // gitlab: lib/api/users.rb `resource ':user_id/personal_access_tokens'` (13.6+, administrators)
  // with PersonalAccessTokens::CreateService: the token's validation errors as a 422 sentence
  // (`render_api_error!(message, :unprocessable_entity)`), else PersonalAccessTokenWithToken.
  route('POST /users/:user_id/personal_access_tokens', {
    auth: 'admin',
    params: { user_id: userId, name: p.string({ required: true }), scopes: p.strings({ required: true, values: ALL_AVAILABLE_SCOPES }), expires_at: p.date() },
    handler(ctx) {
      const user = userById(ctx, ctx.params.user_id)
      const scopes = [...new Set(ctx.params.scopes)]
      const errors: string[] = []
      if (ctx.params.name.trim() === '') errors.push("Name can't be blank")
      if (scopes.length === 0) errors.push("Scopes can't be blank")
      // ActiveSupport's to_sentence: "a and b".
      if (errors.length > 0) throw apiMessage(422, errors.join(' and '))
      const token = ctx.db.tables.personal_access_tokens.insert({
        user_id: user.id,
        name: ctx.params.name,
        token: uniqueSecret(ctx),
        scopes,
        revoked: false,
        expires_at: ctx.params.expires_at ?? null,
        impersonation: false,
        created_at: ctx.now,
        last_used_at: null,
      })
      return created({ ...PersonalAccessToken(token, ctx.today), token: token.token })
    },
  }),
]
