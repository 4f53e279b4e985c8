/**
 * The project access tokens area's error messages. gitlab: lib/api/resource_access_tokens.rb,
 * app/services/resource_access_tokens/create_service.rb, revoke_service.rb.
 * @module
 */

/** Messages of the project access token routes. */
export const ProjectAccessTokenMessage = {
  /** 400 reason: a caller below Maintainer creating a token (13.x capitalises "Access Token"; gitlab-behaviour §15). */
  createNotPermitted: 'User does not have permission to create project Access Token',
  /** 404 resource: no project bot token with this id. */
  notFound: (tokenId: number | string) => `Could not find project access token with token_id: ${tokenId}`,
  /** 400 reason: a caller below Maintainer revoking a token. */
  cannotDelete: (callerName: string, botName: string) => `${callerName} cannot delete ${botName}`,
} as const

/** `PersonalAccessToken` validation messages that are not Rails' defaults. gitlab: app/models/personal_access_token.rb. */
export const ProjectAccessTokenValidationMessage = {
  /** `scopes`: a scope a project bot may not have. */
  scopesUnavailable: 'can only contain available scopes',
} as const
