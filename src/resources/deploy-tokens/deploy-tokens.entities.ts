/**
 * Deploy token entities: `DeployToken` (no secret) and `DeployTokenWithToken`, which adds it and
 * answers only the create call. gitlab: lib/api/entities/deploy_token.rb,
 * deploy_token_with_token.rb (13.12: `id, name, username, expires_at, scopes`).
 * @module
 */
import type { DeployTokenRecord } from './deploy-tokens.tables.js'

/** `DeployToken#username`: the given username, else `gitlab+deploy-token-<id>`. gitlab: app/models/deploy_token.rb */
export function deployTokenUsername(token: DeployTokenRecord): string {
  return token.username ?? `gitlab+deploy-token-${token.id}`
}

/** `id, name, username, expires_at, scopes`: the 13.12 `DeployToken` entity, no secret. */
export function DeployToken(token: DeployTokenRecord) {
  return {
    id: token.id,
    name: token.name,
    username: deployTokenUsername(token),
    expires_at: token.expires_at,
    scopes: [...token.scopes],
  }
}

/** {@link DeployToken} plus `token`, the secret: the create response only. */
export function DeployTokenWithToken(token: DeployTokenRecord) {
  return { ...DeployToken(token), token: token.token }
}
