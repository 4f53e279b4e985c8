/**
 * GitLab's `PersonalAccessToken` entity family, which every kind of token GitLab answers with
 * builds on: a project's resource access tokens (`ResourceAccessToken < PersonalAccessToken`) and a
 * user's impersonation tokens (`ImpersonationToken < PersonalAccessToken`, adding `impersonation`).
 * gitlab: lib/api/entities/personal_access_token.rb, personal_access_token_with_token.rb,
 * resource_access_token.rb, impersonation_token.rb (13.12).
 * @module
 */
import type { PersonalAccessTokenRecord } from '../db/schema.js'

/**
 * Whether a token is in force today: not revoked, and not expired (a token expires at midnight UTC
 * starting its `expires_at` day, as `core/auth.ts` judges it).
 * @param today `YYYY-MM-DD` by the simulator's clock.
 */
export function tokenActive(token: PersonalAccessTokenRecord, today: string): boolean {
  return !token.revoked && (token.expires_at === null || token.expires_at > today)
}

/** `id, name, revoked, created_at, scopes, user_id, active, expires_at` (13.x order), never the secret. */
export function PersonalAccessToken(token: PersonalAccessTokenRecord, today: string) {
  return {
    id: token.id,
    name: token.name,
    revoked: token.revoked,
    created_at: token.created_at,
    scopes: [...token.scopes],
    user_id: token.user_id,
    active: tokenActive(token, today),
    expires_at: token.expires_at,
  }
}
