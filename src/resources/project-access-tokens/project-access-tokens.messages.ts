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
  /** Validation sentence: a blank `name`. */
  nameBlank: "Name can't be blank",
  /** Validation sentence: no `scopes`. */
  scopesBlank: "Scopes can't be blank",
  /** Validation sentence: a scope bots may not have. */
  scopesUnavailable: 'Scopes can only contain available scopes',
} as const
