/**
 * Project access tokens: the tokens of a project's bot users, creating one (a `project_bot` user,
 * made a Maintainer of the project, holding the token) and revoking one (the token is revoked and
 * the bot leaves the project, as GitLab's deletion of the bot user does). A created token
 * authenticates like any personal access token (`core/auth.ts`): as its bot, with its scopes, until
 * revoked or expired. Every check runs before the first write.
 * Source: api-spec.md "### Project access tokens", "Project access token"; gitlab-behaviour.md §3,
 * §14 item 9; gitlab: lib/api/resource_access_tokens.rb,
 * app/services/resource_access_tokens/{create,revoke}_service.rb,
 * app/services/personal_access_tokens/create_service.rb, app/models/personal_access_token.rb.
 * @module
 */
import { AccessLevel, hasProjectAccess } from '../../rules/access.js'
import { badRequest, notFound, unauthorized, ValidationMessage } from '../../core/errors.js'
import { ModelErrors } from '../../rules/model-errors.js'
import { ProjectAccessTokenMessage, ProjectAccessTokenValidationMessage } from './project-access-tokens.messages.js'
import type { Ctx } from '../../core/route.js'
import { toSentence } from '../../core/ruby.js'
import { newUserRecord } from '../../rules/user-record.js'
import type { PersonalAccessTokenRecord, ProjectRecord, UserRecord } from '../../db/schema.js'

/**
 * Scopes a project access token may hold: `Gitlab::Auth.resource_bot_scopes` in 13.x (the API and
 * repository scopes and the registry scopes; no `sudo`, no `read_user`).
 */
export const RESOURCE_BOT_SCOPES = ['api', 'read_api', 'read_repository', 'write_repository', 'read_registry', 'write_registry'] as const

/** The project's bot users: `project_bot` users holding a membership row of the project (`resource.bots`). */
function projectBotIds(ctx: Ctx<unknown>, project: ProjectRecord): Set<number> {
  const ids = new Set<number>()
  for (const m of ctx.db.tables.members.where('source_id', project.id)) {
    if (m.source_type === 'project' && ctx.db.tables.users.get(m.user_id)?.user_type === 'project_bot') ids.add(m.user_id)
  }
  return ids
}

/**
 * The project's access tokens, every state, by id (`PersonalAccessTokensFinder` over the bots,
 * impersonation tokens excluded).
 * @throws ApiError 401 `{"message":"401 Unauthorized"}` below Maintainer (`read_resource_access_tokens`).
 */
export function listProjectTokens(ctx: Ctx<unknown>, project: ProjectRecord): PersonalAccessTokenRecord[] {
  if (!hasProjectAccess(ctx.db, ctx.currentUser, project, AccessLevel.MAINTAINER, ctx.today)) throw unauthorized()
  const bots = projectBotIds(ctx, project)
  const tokens: PersonalAccessTokenRecord[] = []
  for (const botId of bots) tokens.push(...ctx.db.tables.personal_access_tokens.where('user_id', botId).filter((t) => !t.impersonation))
  return tokens.sort((a, b) => a.id - b.id)
}

/** What the create call asks for. */
export interface CreateTokenParams {
  name: string
  scopes: string[]
  expires_at?: string | undefined
}

/** `project_<id>_bot`, then `project_<id>_bot1`, `…2` while taken (`Uniquify`). */
function botUsername(ctx: Ctx<unknown>, project: ProjectRecord): string {
  const base = `project_${project.id}_bot`
  let name = base
  for (let n = 1; ctx.db.findUserByUsername(name); n++) name = `${base}${n}`
  return name
}

/** A fresh secret no other token has: 20 letters and digits from the seeded faker. */
function newSecret(ctx: Ctx<unknown>): string {
  for (;;) {
    const secret = ctx.faker.string.alphanumeric(20)
    if (ctx.db.tables.personal_access_tokens.where('token', secret).length === 0) return secret
  }
}

/**
 * `ResourceAccessTokens::CreateService`: the permission (`admin_project`, Maintainer+), the token's
 * validations, then the bot user, its Maintainer membership (expiring with the token) and the token.
 * @throws ApiError 400 `{"message":"400 Bad request - User does not have permission to create project Access Token"}`,
 * 400 `{"message":"400 Bad request - Scopes can only contain available scopes"}` and other validation sentences.
 */
export function createProjectToken(ctx: Ctx<unknown>, project: ProjectRecord, params: CreateTokenParams): PersonalAccessTokenRecord {
  if (!hasProjectAccess(ctx.db, ctx.currentUser, project, AccessLevel.MAINTAINER, ctx.today)) {
    // gitlab: app/services/resource_access_tokens/create_service.rb
    throw badRequest(ProjectAccessTokenMessage.createNotPermitted)
  }
  const errors = new ModelErrors()
  if (params.name.trim() === '') errors.add('name', ValidationMessage.blank)
  if (params.scopes.length === 0) errors.add('scopes', ValidationMessage.blank)
  else if (!params.scopes.every((s) => (RESOURCE_BOT_SCOPES as readonly string[]).includes(s))) errors.add('scopes', ProjectAccessTokenValidationMessage.scopesUnavailable)
  if (errors.size > 0) throw badRequest(toSentence(errors.fullMessages()))

  const username = botUsername(ctx, project)
  const host = new URL(ctx.baseUrl).hostname
  const bot: UserRecord = ctx.db.tables.users.insert(
    newUserRecord({
      username,
      name: params.name,
      email: `${username}@noreply.${host}`,
      user_type: 'project_bot',
      created_at: ctx.now,
      can_create_group: false,
      projects_limit: 0,
    }),
  )
  const expiresAt = params.expires_at ?? null
  ctx.db.tables.members.insert({
    source_type: 'project',
    source_id: project.id,
    user_id: bot.id,
    access_level: AccessLevel.MAINTAINER,
    expires_at: expiresAt,
    created_at: ctx.now,
    updated_at: ctx.now,
    created_by_id: ctx.currentUser?.id ?? null,
    override: false,
  })
  return ctx.db.tables.personal_access_tokens.insert({
    user_id: bot.id,
    name: params.name,
    token: newSecret(ctx),
    scopes: [...new Set(params.scopes)],
    revoked: false,
    expires_at: expiresAt,
    impersonation: false,
    created_at: ctx.now,
    last_used_at: null,
  })
}

/**
 * `DELETE …/access_tokens/:token_id`: the token among the project's bots' (404), the caller's
 * `admin_project_member` (400 naming both), the bot still a member (400), then the token is revoked
 * and the bot leaves the project.
 * @param tokenId the path's `token_id`, an id or any string (a non-numeric one finds nothing).
 * @throws ApiError 404 `{"message":"404 Could not find project access token with token_id: <id> Not Found"}`,
 * 400 `{"message":"400 Bad request - <caller name> cannot delete <bot name>"}`.
 */
export function revokeProjectToken(ctx: Ctx<unknown>, project: ProjectRecord, tokenId: number | string): void {
  const bots = projectBotIds(ctx, project)
  const token = typeof tokenId === 'number' ? ctx.db.tables.personal_access_tokens.get(tokenId) : undefined
  if (!token || token.impersonation || !bots.has(token.user_id)) {
    throw notFound(ProjectAccessTokenMessage.notFound(tokenId))
  }
  const bot = ctx.db.tables.users.get(token.user_id)!
  if (!hasProjectAccess(ctx.db, ctx.currentUser, project, AccessLevel.MAINTAINER, ctx.today)) {
    throw badRequest(ProjectAccessTokenMessage.cannotDelete(ctx.currentUser?.name ?? '', bot.name))
  }
  ctx.db.tables.personal_access_tokens.update(token.id, { revoked: true })
  for (const m of ctx.db.tables.members.where('user_id', bot.id)) ctx.db.tables.members.delete(m.id)
}
