/**
 * The deploy tokens table. GitLab keeps a token's project or group in join tables
 * (`project_deploy_tokens`, `group_deploy_tokens`); a token has exactly one holder, so fakelab keeps
 * it in the row (`project_id` or `group_id`, both null for an instance token), where the store's
 * delete conventions take a project's or group's tokens with it.
 * gitlab: db/structure.sql (`deploy_tokens`), app/models/deploy_token.rb.
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** The scopes a deploy token may hold in 13.12 (`DeployToken::AVAILABLE_SCOPES`), in GitLab's order. */
export const DEPLOY_TOKEN_SCOPES = ['read_repository', 'read_registry', 'write_registry', 'read_package_registry', 'write_package_registry'] as const

/** One of {@link DEPLOY_TOKEN_SCOPES}. */
export type DeployTokenScope = (typeof DEPLOY_TOKEN_SCOPES)[number]

/** A deploy token: a secret with scopes, held by a project, a group, or (neither) the instance. */
export interface DeployTokenRecord extends Row {
  name: string
  /** The username given at creation; null presents as `gitlab+deploy-token-<id>`. */
  username: string | null
  /** The secret (`Deploy-Token` header, or the password of HTTP basic auth). */
  token: string
  /** Its scopes, in {@link DEPLOY_TOKEN_SCOPES} order. */
  scopes: DeployTokenScope[]
  /** When it stops authenticating (an instant); null for never. */
  expires_at: Timestamp | null
  revoked: boolean
  /** The project holding it (a project token), else null. */
  project_id: number | null
  /** The group holding it (a group token), else null. */
  group_id: number | null
  /** The user who created it, if known. */
  creator_id: number | null
  created_at: Timestamp
}

declare module '../../db/schema.js' {
  interface Tables {
    deploy_tokens: DeployTokenRecord
  }
}

/** The table and its indexes: tokens by project, by group and by secret. */
export const deployTokenTables = {
  deploy_tokens: table<DeployTokenRecord>(['project_id', 'group_id', 'token']),
}
