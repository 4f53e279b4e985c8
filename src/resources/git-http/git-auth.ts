/**
 * Who a git request acts as, as `Gitlab::Auth.find_for_git_client` finds it from HTTP Basic
 * credentials, and what it may do (`Gitlab::GitAccess`'s checks, in their order, with their texts).
 * Credentials, in GitLab's order: `gitlab-ci-token` with a running job's token; `oauth2` (or any
 * login) with an OAuth access token; any login with a personal access token; then the deploy-token
 * and password checks the areas owning those credentials register ({@link registerGitCredentialCheck}:
 * deploy-tokens/deploy-tokens.git.ts, users/users.git.ts). A token's scopes give its
 * abilities (`abilities_for_scopes`): `api` everything, `read_api` and `read_repository`
 * `download_code`, `write_repository` `download_code` and `push_code`.
 * gitlab: lib/gitlab/auth.rb, lib/gitlab/git_access.rb, app/controllers/repositories/git_http_client_controller.rb (13.12).
 * @module
 */
import type { Ctx } from '../../core/route.js'
import type { Db } from '../../db/db.js'
import type { ProjectRecord, UserRecord } from '../../db/schema.js'
import { userAccessDeniedReason } from '../../core/auth.js'
import { canReadProject } from '../../rules/access.js'
import { canPushCode } from '../../rules/protected-refs.js'
import { canDownloadCode } from '../repository/repository.public.js'

/** What a git actor may do: GitLab's authentication abilities that git's checks read. */
export type GitAbility = 'download_code' | 'push_code' | 'build_download_code'

/** The actor of a git request and its abilities (`Gitlab::Auth::Result`). */
export interface GitActor {
  /** The user, or null for an anonymous clone (or a deploy token, which has none). */
  readonly user: UserRecord | null
  /** How it authenticated (`Result#type`). */
  readonly type: 'none' | 'ci' | 'oauth' | 'personal_access_token' | 'deploy_token' | 'gitlab_or_ldap'
  readonly abilities: ReadonlySet<GitAbility>
  /** A CI job's project (`ci?`): its job token reads that project's code whatever the user's role. */
  readonly jobProjectId?: number
  /** For a deploy token: whether it may read or write this project's repository. */
  readonly deployAccess?: { readonly read: boolean; readonly write: boolean }
}

/**
 * A credential check another area adds (deploy tokens, passwords): given the Basic login and
 * password, the actor they name, or undefined when they name none (the next check runs).
 */
export type GitCredentialCheck = (db: Db, login: string, password: string, project: ProjectRecord | undefined, now: Date) => GitActor | undefined

const extraChecks: GitCredentialCheck[] = []

/**
 * Adds a credential check after the token checks (`deploy_token_check`, `user_with_password_for_git`),
 * for the area that owns the credential. The seam for deploy tokens: their area registers one from
 * a module its index imports.
 */
export function registerGitCredentialCheck(check: GitCredentialCheck): void {
  extraChecks.push(check)
}

const FULL: ReadonlySet<GitAbility> = new Set(['download_code', 'push_code'])
const READ: ReadonlySet<GitAbility> = new Set(['download_code'])

/** `abilities_for_scopes`: the git abilities a token's scopes give; empty for none that count. */
function abilitiesFor(scopes: readonly string[]): Set<GitAbility> {
  const out = new Set<GitAbility>()
  if (scopes.includes('api')) for (const a of FULL) out.add(a)
  if (scopes.includes('read_api') || scopes.includes('read_repository')) out.add('download_code')
  if (scopes.includes('write_repository')) {
    out.add('download_code')
    out.add('push_code')
  }
  return out
}

/** The login and password of an `Authorization: Basic` header, or undefined when there is none. */
export function basicCredentials(header: string | undefined): { login: string; password: string } | undefined {
  const match = header && /^basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header.trim())
  if (!match) return undefined
  let decoded: string
  try {
    decoded = new TextDecoder().decode(Uint8Array.from(atob(match[1]!), (c) => c.charCodeAt(0)))
  } catch {
    return undefined
  }
  const colon = decoded.indexOf(':')
  return colon === -1 ? { login: decoded, password: '' } : { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) }
}

function expired(expiresAt: string | null, now: Date, dateOnly: boolean): boolean {
  if (expiresAt === null) return false
  if (dateOnly) return expiresAt <= now.toISOString().slice(0, 10)
  return Date.parse(expiresAt) <= now.getTime()
}

/**
 * `find_for_git_client`: the actor Basic credentials name, or undefined when they name none
 * (GitLab then answers 401 with its challenge). An OAuth or personal access token names its user
 * whatever the account's state (13.12's `oauth_access_token_check` and `personal_access_token_check`
 * do not look at it): `GitAccess#check_active_user!` then refuses a blocked or deactivated user with
 * a 403 (see {@link gitUserRefusal}). A password names only an active account (`find_with_user_password`).
 */
export function findForGitClient(db: Db, login: string, password: string, project: ProjectRecord | undefined, now: Date): GitActor | undefined {
  const active = (user: UserRecord | undefined): user is UserRecord => user !== undefined && user.state === 'active'
  if (login === 'gitlab-ci-token') {
    // `build_access_token_check`: a running job's token; any other password goes on to the next
    // checks (a personal access token with this login is the token's user, as semantic-release sends it).
    const job = db.tables.ci_job_tokens.where('token', password)[0]
    const user = job && job.status === 'running' ? db.tables.users.get(job.user_id) : undefined
    if (user) return active(user) ? { user, type: 'ci', abilities: new Set(['build_download_code']), jobProjectId: job!.project_id } : undefined
  }
  if (login === 'oauth2') {
    const token = db.tables.oauth_access_tokens.where('token', password)[0]
    const user = token && !token.revoked && !expired(token.expires_at, now, false) ? db.tables.users.get(token.user_id) : undefined
    if (user) {
      const abilities = abilitiesFor(token!.scopes)
      if (abilities.size > 0) return { user, type: 'oauth', abilities }
    }
  }
  const pat = db.tables.personal_access_tokens.where('token', password)[0]
  if (pat && !pat.revoked && !expired(pat.expires_at, now, true)) {
    const user = db.tables.users.get(pat.user_id)
    const abilities = abilitiesFor(pat.scopes)
    if (user && abilities.size > 0) return { user, type: 'personal_access_token', abilities }
  }
  for (const check of extraChecks) {
    const actor = check(db, login, password, project, now)
    if (actor) return actor
  }
  return undefined
}

/** The anonymous actor of a clone without credentials (`Result.new(nil, project, :none, [:download_code])`). */
export const ANONYMOUS_ACTOR: GitActor = { user: null, type: 'none', abilities: READ }

/** `Gitlab::GitAccess::ERROR_MESSAGES` (13.12), the ones the checks here raise. */
export const GIT_ACCESS_MESSAGES = {
  project_not_found: "The project you were looking for could not be found or you don't have permission to view it.",
  download: 'You are not allowed to download code from this project.',
  upload: 'You are not allowed to upload code for this project.',
  push_code: 'You are not allowed to push code to this project.',
  auth_download: 'You are not allowed to download code.',
  auth_upload: 'You are not allowed to upload code.',
  archived: "You can't push code to an archived project.",
} as const

/**
 * `GitAccess#check_active_user!`, the check before any other once an actor is found: a user who may
 * not act (blocked, LDAP-blocked, deactivated) gets a 403 with `UserAccessDeniedReason`'s text,
 * whatever the project (even one that does not exist); null for anyone else.
 * gitlab: lib/gitlab/git_access.rb, lib/gitlab/auth/user_access_denied_reason.rb (13.12).
 */
export function gitUserRefusal(actor: GitActor, baseUrl: string): GitRefusal | null {
  const reason = actor.user ? userAccessDeniedReason(actor.user, baseUrl) : null
  return reason === null ? null : { status: 403, message: reason }
}

/** A refusal of `Gitlab::GitAccess#check`: 404 (`NotFoundError`) or 403 (`ForbiddenError`) with its text. */
export interface GitRefusal {
  readonly status: 403 | 404
  readonly message: string
}

type AccessCtx = Pick<Ctx<unknown>, 'db' | 'today'>

/**
 * `Gitlab::GitAccess#check` for a download (`git-upload-pack`) or a push (`git-receive-pack`, the
 * changes not yet known: `push_code` and the archived project), in GitLab's order: the actor's
 * abilities, the project readable, then the action; null when allowed.
 */
export function gitAccessRefusal(ctx: AccessCtx, actor: GitActor, project: ProjectRecord, action: 'download' | 'push'): GitRefusal | null {
  const user = actor.user
  if (action === 'download' && !actor.abilities.has('download_code') && !actor.abilities.has('build_download_code')) return { status: 403, message: GIT_ACCESS_MESSAGES.auth_download }
  if (action === 'push' && !actor.abilities.has('push_code')) return { status: 403, message: GIT_ACCESS_MESSAGES.auth_upload }
  const ci = actor.jobProjectId === project.id
  const deploy = actor.deployAccess
  const readable = ci || (deploy ? deploy.read || deploy.write : canReadProject(ctx.db, user, project, ctx.today))
  if (!readable) return { status: 404, message: GIT_ACCESS_MESSAGES.project_not_found }
  if (action === 'download') {
    const may = ci || (deploy ? deploy.read : canDownloadCode({ db: ctx.db, today: ctx.today, currentUser: user }, project))
    return may ? null : { status: 403, message: GIT_ACCESS_MESSAGES.download }
  }
  if (deploy) return deploy.write && !project.archived ? null : { status: 403, message: project.archived ? GIT_ACCESS_MESSAGES.archived : GIT_ACCESS_MESSAGES.upload }
  if (!user) return { status: 403, message: GIT_ACCESS_MESSAGES.upload }
  if (project.archived) return { status: 403, message: GIT_ACCESS_MESSAGES.archived }
  return canPushCode({ db: ctx.db, today: ctx.today, currentUser: user } as Ctx<unknown>, project) ? null : { status: 403, message: GIT_ACCESS_MESSAGES.push_code }
}
