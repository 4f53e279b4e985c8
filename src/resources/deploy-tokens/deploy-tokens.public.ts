/**
 * What other areas may ask of deploy tokens: the git-over-HTTP side authenticates a clone with
 * {@link deployTokenByToken} (the `Deploy-Token` header or the password of basic auth) and checks
 * {@link deployTokenCanReadRepository} before serving the project's repository.
 * gitlab: lib/gitlab/auth/auth_finders.rb (`deploy_token_from_request`), lib/gitlab/auth.rb
 * (`deploy_token_check`), app/models/deploy_token.rb.
 * @module
 */
import type { Db } from '../../db/db.js'
import type { ProjectRecord } from '../../db/schema.js'
import { deployTokenActive, deployTokenHasAccessTo } from './deploy-tokens.service.js'
import type { DeployTokenRecord } from './deploy-tokens.tables.js'
import { deployTokenUsername } from './deploy-tokens.entities.js'

export type { DeployTokenRecord } from './deploy-tokens.tables.js'

/**
 * `DeployToken.active.find_by_token(secret)`: the token with this secret, if it is neither revoked
 * nor expired at `now`; undefined otherwise (an unknown, revoked or expired secret alike).
 * @param now an ISO 8601 instant (the simulator's clock).
 */
export function deployTokenByToken(db: Db, secret: string, now: string): DeployTokenRecord | undefined {
  if (secret === '') return undefined
  const token = db.tables.deploy_tokens.where('token', secret)[0]
  return token && deployTokenActive(token, now) ? token : undefined
}

/**
 * Whether an active token may read (clone, fetch) the project's repository: it holds
 * `read_repository` and has access to the project (its own project, or a project of its group or
 * the group's descendants). `Gitlab::Auth#deploy_token_check` for `download_code`.
 */
export function deployTokenCanReadRepository(db: Db, token: DeployTokenRecord, project: ProjectRecord): boolean {
  return token.scopes.includes('read_repository') && deployTokenHasAccessTo(db, token, project)
}

/**
 * The username a client sends with the token in basic auth (`gitlab+deploy-token-<id>` unless one
 * was given); `Gitlab::Auth` accepts a deploy token's secret only with its own username.
 */
export function deployTokenLogin(token: DeployTokenRecord): string {
  return deployTokenUsername(token)
}

/**
 * What an active deploy token may do in a project's package registry: read with
 * `read_package_registry` or `write_package_registry`, write (and delete) with
 * `write_package_registry`, both only where it has access to the project. ProjectPolicy's
 * `read_package_registry_deploy_token` and `write_package_registry_deploy_token` rules (13.12).
 */
export function deployTokenPackageAccess(db: Db, token: DeployTokenRecord, project: ProjectRecord): { read: boolean; write: boolean } {
  if (!deployTokenHasAccessTo(db, token, project)) return { read: false, write: false }
  const write = token.scopes.includes('write_package_registry')
  return { read: write || token.scopes.includes('read_package_registry'), write }
}
