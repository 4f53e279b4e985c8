/**
 * Project access token entities: `ResourceAccessToken` (13.x `PersonalAccessToken` fields) and
 * `ResourceAccessTokenWithToken`, which adds the secret and only answers the create call.
 * Source: api-spec.md "Project access token"; gitlab-behaviour.md §3;
 * gitlab: lib/api/entities/personal_access_token.rb, personal_access_token_with_token.rb.
 * @module
 */
import type { PersonalAccessTokenRecord } from '../../db/schema.js'
import { PersonalAccessToken } from '../../entities/access-token.js'
import type { PresentCtx } from '../../entities/urls.js'

/** `ResourceAccessToken`: GitLab's `PersonalAccessToken` fields, no secret. */
export function ResourceAccessToken(token: PersonalAccessTokenRecord, ctx: PresentCtx) {
  return PersonalAccessToken(token, ctx.today)
}

/** {@link ResourceAccessToken} plus `token`, the secret: the create response only. */
export function ResourceAccessTokenWithToken(token: PersonalAccessTokenRecord, ctx: PresentCtx) {
  return { ...ResourceAccessToken(token, ctx), token: token.token }
}
