/**
 * Project access token entities: `ResourceAccessToken` (13.x `PersonalAccessToken` fields) and
 * `ResourceAccessTokenWithToken`, which adds the secret and only answers the create call.
 * Source: api-spec.md "Project access token"; gitlab-behaviour.md §3;
 * gitlab: lib/api/entities/personal_access_token.rb, personal_access_token_with_token.rb.
 * @module
 */
import type { PersonalAccessTokenRecord } from '../../db/schema.js'
import type { PresentCtx } from '../../entities/urls.js'

/**
 * Whether a token is in force today: not revoked, and not expired (a token expires at midnight UTC
 * starting its `expires_at` day, as `core/auth.ts` judges it).
 */
export function tokenActive(token: PersonalAccessTokenRecord, today: string): boolean {
  return !token.revoked && (token.expires_at === null || token.expires_at > today)
}

/** `id, name, revoked, created_at, scopes, user_id, active, expires_at` (13.x order), no secret. */
export function ResourceAccessToken(token: PersonalAccessTokenRecord, ctx: PresentCtx) {
  return {
    id: token.id,
    name: token.name,
    revoked: token.revoked,
    created_at: token.created_at,
    scopes: [...token.scopes],
    user_id: token.user_id,
    active: tokenActive(token, ctx.today),
    expires_at: token.expires_at,
  }
}

/** {@link ResourceAccessToken} plus `token`, the secret: the create response only. */
export function ResourceAccessTokenWithToken(token: PersonalAccessTokenRecord, ctx: PresentCtx) {
  return { ...ResourceAccessToken(token, ctx), token: token.token }
}
