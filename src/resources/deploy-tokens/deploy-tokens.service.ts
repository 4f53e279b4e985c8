/**
 * Deploy tokens of the instance, a project or a group: listing, creating (`DeployTokens::CreateService`
 * with the model's validations), deleting, and what authentication asks of a token (is it active,
 * may it read a project's repository). Every check runs before the first write.
 * gitlab: lib/api/deploy_tokens.rb, app/services/{projects,groups}/deploy_tokens/create_service.rb,
 * app/models/deploy_token.rb, app/policies/{project,group}_policy.rb (13.12).
 * @module
 */
import { forbidden, recordNotFound, apiMessage } from '../../core/errors.js'
import type { Ctx } from '../../core/route.js'
import { toSentence } from '../../core/ruby.js'
import type { Db } from '../../db/db.js'
import type { GroupRecord, ProjectRecord } from '../../db/schema.js'
import { AccessLevel, hasGroupAccess, hasProjectAccess } from '../../rules/access.js'
import { friendlyToken } from '../../rules/tokens.js'
import { DeployTokenMessage } from './deploy-tokens.messages.js'
import { DEPLOY_TOKEN_SCOPES, type DeployTokenRecord, type DeployTokenScope } from './deploy-tokens.tables.js'

/** Who holds deploy tokens: the instance (the admin list), a project or a group. */
export type DeployTokenHolder = { kind: 'project'; project: ProjectRecord } | { kind: 'group'; group: GroupRecord }

/** What a deploy-token action needs: reading the list, creating, deleting. */
type Action = 'read' | 'create' | 'destroy'

/**
 * `authorize!(:<action>_deploy_token, holder)`: a project's are Maintainer+ for every action
 * (ProjectPolicy's maintainer block); a group's are Maintainer+ to read and Owner to create or
 * delete (GroupPolicy); administrators always pass.
 * @throws ApiError 403 `{"message":"403 Forbidden"}`.
 */
export function authorizeDeployTokens(ctx: Ctx<unknown>, holder: DeployTokenHolder, action: Action): void {
  const allowed = holder.kind === 'project'
    ? hasProjectAccess(ctx.db, ctx.currentUser, holder.project, AccessLevel.MAINTAINER, ctx.today)
    : hasGroupAccess(ctx.db, ctx.currentUser, holder.group, action === 'read' ? AccessLevel.MAINTAINER : AccessLevel.OWNER, ctx.today)
  if (!allowed) throw forbidden()
}

/** Every deploy token of the instance (`DeployToken.all`), by id. */
export function allDeployTokens(db: Db): DeployTokenRecord[] {
  return db.tables.deploy_tokens.all().sort((a, b) => a.id - b.id)
}

/** The holder's tokens, every state (`holder.deploy_tokens`: expired and revoked ones too), by id. */
export function holderDeployTokens(db: Db, holder: DeployTokenHolder): DeployTokenRecord[] {
  const rows = holder.kind === 'project'
    ? db.tables.deploy_tokens.where('project_id', holder.project.id)
    : db.tables.deploy_tokens.where('group_id', holder.group.id)
  return [...rows].sort((a, b) => a.id - b.id)
}

/**
 * One of the holder's tokens (`holder.deploy_tokens.find(token_id)`).
 * @throws ApiError 404 `{"message":"404 Not found"}` when the holder has no such token.
 */
export function findHolderDeployToken(db: Db, holder: DeployTokenHolder, tokenId: number): DeployTokenRecord {
  const token = db.tables.deploy_tokens.get(tokenId)
  const mine = token && (holder.kind === 'project' ? token.project_id === holder.project.id : token.group_id === holder.group.id)
  if (!token || !mine) throw recordNotFound()
  return token
}

/** What the create call asks for. */
export interface CreateDeployTokenParams {
  name: string
  scopes: DeployTokenScope[]
  expires_at?: string | undefined
  username?: string | undefined
}

/**
 * `DeployTokens::CreateService`: the model's validations (at least one scope, the username's
 * format and length, the name's length), then the token with a fresh 20-character secret.
 * @throws ApiError 400 `{"message":"<full messages as a sentence>"}` (`render_api_error!`, no status prefix).
 */
export function createDeployToken(ctx: Ctx<unknown>, holder: DeployTokenHolder, params: CreateDeployTokenParams): DeployTokenRecord {
  const errors: string[] = []
  const username = params.username === undefined || params.username === '' ? null : params.username
  if (params.name.length > 255) errors.push(DeployTokenMessage.nameTooLong)
  if (username !== null) {
    if (username.length > 255) errors.push(DeployTokenMessage.usernameTooLong)
    if (!/^[a-zA-Z0-9.+_-]+$/.test(username)) errors.push(DeployTokenMessage.usernameFormat)
  }
  if (params.scopes.length === 0) errors.push(DeployTokenMessage.scopesBlank)
  if (errors.length > 0) throw apiMessage(400, toSentence(errors))
  let secret = friendlyToken(ctx.faker)
  while (ctx.db.tables.deploy_tokens.where('token', secret).length > 0) secret = friendlyToken(ctx.faker)
  return ctx.db.tables.deploy_tokens.insert({
    name: params.name,
    username,
    token: secret,
    scopes: DEPLOY_TOKEN_SCOPES.filter((s) => params.scopes.includes(s)),
    expires_at: params.expires_at ?? null,
    revoked: false,
    project_id: holder.kind === 'project' ? holder.project.id : null,
    group_id: holder.kind === 'group' ? holder.group.id : null,
    creator_id: ctx.currentUser?.id ?? null,
    created_at: ctx.now,
  })
}

/**
 * `DeployToken.active`: not revoked, and not past its `expires_at` (null never expires).
 * @param now an ISO 8601 instant.
 */
export function deployTokenActive(token: DeployTokenRecord, now: string): boolean {
  return !token.revoked && (token.expires_at === null || token.expires_at > now)
}

/**
 * `DeployToken#has_access_to?(project)`: a project token reads its own project, a group token the
 * projects of its group and the group's descendants; an instance token none.
 */
export function deployTokenHasAccessTo(db: Db, token: DeployTokenRecord, project: ProjectRecord): boolean {
  if (token.project_id !== null) return token.project_id === project.id
  if (token.group_id === null || project.namespace_type !== 'group') return false
  for (let group = db.tables.groups.get(project.namespace_id); group; group = group.parent_id === null ? undefined : db.tables.groups.get(group.parent_id)) {
    if (group.id === token.group_id) return true
  }
  return false
}
