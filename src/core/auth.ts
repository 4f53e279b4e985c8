/**
 * Authentication: token lookup in GitLab's order, token state, scopes, blocked users and sudo.
 * Source: api-spec.md "Authentication"; gitlab-behaviour.md §1.5 (api_guard.rb, auth_finders.rb,
 * helpers.rb `sudo!`).
 * @module
 */
import type { Db } from '../db/db.js'
import type { CiJobTokenRecord, OauthAccessTokenRecord, PersonalAccessTokenRecord, UserRecord } from '../db/schema.js'
import { ApiError, forbidden, insufficientScope, invalidToken, unauthorized } from './errors.js'
import type { RawParams } from './params.js'
import type { AuthInfo, Route } from './route.js'
import type { CoreRequest } from './transport.js'

const ANONYMOUS: AuthInfo = { user: null, tokenUser: null, token: null, sudo: false, method: null }

/**
 * The session cookies a signed-in browser sends. GitLab's is `_gitlab_session`; api-spec.md calls
 * it `_service_session` (a renamed product): both name the same Warden session here.
 */
export const SESSION_COOKIES = ['_gitlab_session', '_service_session'] as const

/** Where the token came from decides which token kinds it may be. */
interface Presented {
  value: string
  /** `private_token` / `PRIVATE-TOKEN` are personal tokens only; bearer values may be OAuth too. */
  bearer: boolean
}

function stringParam(raw: RawParams, name: string): string | undefined {
  const value = raw[name]
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined
}

/** The first token present, in GitLab's order: `private_token`, `PRIVATE-TOKEN`, bearer, `access_token`. */
function presentedToken(request: CoreRequest, raw: RawParams): Presented | undefined {
  const privateToken = stringParam(raw, 'private_token') ?? request.header('private-token')
  if (privateToken) return { value: privateToken, bearer: false }
  const authorization = request.header('authorization')
  const bearer = authorization && /^bearer\s+(.+)$/i.exec(authorization.trim())?.[1]
  if (bearer) return { value: bearer, bearer: true }
  const accessToken = stringParam(raw, 'access_token')
  if (accessToken) return { value: accessToken, bearer: true }
  return undefined
}

/** The value of a cookie of the request, if sent. */
function cookie(request: CoreRequest, name: string): string | undefined {
  const header = request.header('cookie')
  if (!header) return undefined
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim()
  }
  return undefined
}

/**
 * The id of the user signed in by the request's session cookie, if any.
 * spec-gap: the spec names the cookie `_service_session`, GitLab `_gitlab_session`; both are accepted.
 */
function sessionUserId(db: Db, request: CoreRequest): number | undefined {
  for (const name of SESSION_COOKIES) {
    const value = cookie(request, name)
    const session = value ? db.tables.user_sessions.where('session_id', value)[0] : undefined
    if (session) return session.user_id
  }
  return undefined
}

/**
 * `user_from_warden`: the signed-in user of a session cookie, for GET and HEAD only (other methods
 * need a CSRF token, which the API never has), else undefined.
 */
function sessionUser(db: Db, request: CoreRequest): UserRecord | undefined {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined
  const id = sessionUserId(db, request)
  return id === undefined ? undefined : db.tables.users.get(id)
}

/**
 * `find_user_from_job_token`, on routes that allow job tokens only: the job token sent as
 * `job_token` or `JOB-TOKEN` and the user who triggered its job.
 * @throws ApiError 401 `{"message":"401 Unauthorized"}` for an unknown token or a job not running.
 */
function jobTokenUser(db: Db, request: CoreRequest, raw: RawParams, route: Route): { user: UserRecord; jobToken: CiJobTokenRecord } | undefined {
  if (!route.jobTokenAllowed) return undefined
  const value = stringParam(raw, 'job_token') ?? request.header('job-token')
  if (!value) return undefined
  const job = db.tables.ci_job_tokens.where('token', value)[0]
  if (!job || job.status !== 'running') throw unauthorized()
  const user = db.tables.users.get(job.user_id)
  if (!user) throw unauthorized()
  return { user, jobToken: job }
}

/**
 * The user a request's access token or session cookie names, without any check of the token's
 * state: what Rack::Attack keys its authenticated throttle on (`authenticated_user_id`). Undefined
 * for an anonymous request or an unknown credential.
 * @param query the request's query params (tokens may come as `private_token` / `access_token`).
 */
export function requestUserId(db: Db, request: CoreRequest, query: RawParams): number | undefined {
  const presented = presentedToken(request, query)
  if (presented) return findToken(db, presented)?.user_id
  return sessionUserId(db, request)
}

function findToken(db: Db, presented: Presented): PersonalAccessTokenRecord | OauthAccessTokenRecord | undefined {
  const personal = db.tables.personal_access_tokens.where('token', presented.value)[0]
  if (personal || !presented.bearer) return personal
  return db.tables.oauth_access_tokens.where('token', presented.value)[0]
}

function isPersonal(token: PersonalAccessTokenRecord | OauthAccessTokenRecord): token is PersonalAccessTokenRecord {
  return 'impersonation' in token
}

function isExpired(token: PersonalAccessTokenRecord | OauthAccessTokenRecord, now: Date): boolean {
  if (token.expires_at === null) return false
  // A personal token "expires at midnight UTC" of its date: expired from that day on.
  if (isPersonal(token)) return now.toISOString().slice(0, 10) >= token.expires_at
  return now.getTime() >= new Date(token.expires_at).getTime()
}

/**
 * Every scope registered for a route, in registration order: `api` and `read_api` (api.rb
 * `allow_access_with_scope`), then the route's own. This is the `scope` of an `insufficient_scope`
 * answer whatever the method: `scopes_registered_for_endpoint` lists the names without evaluating
 * their `if:` conditions (gitlab-behaviour.md §1.5; gitlab: lib/api/api_guard.rb).
 */
export function registeredScopes(route: Route): string[] {
  const scopes = ['api', 'read_api']
  for (const scope of route.scopes) if (!scopes.includes(scope)) scopes.push(scope)
  return scopes
}

/**
 * Scopes that let a token call a route with a method: `api` always, `read_api` on GET/HEAD only
 * (its `if: get? || head?`), and the route's own.
 */
export function acceptedScopes(route: Route, method: string): string[] {
  return registeredScopes(route).filter((scope) => scope !== 'read_api' || method === 'GET' || method === 'HEAD')
}

/** {@link acceptedScopes} without building lists: the check every authenticated request makes. */
function hasAcceptedScope(tokenScopes: readonly string[], route: Route, method: string): boolean {
  if (tokenScopes.includes('api')) return true
  if ((method === 'GET' || method === 'HEAD') && tokenScopes.includes('read_api')) return true
  return route.scopes.some((scope) => tokenScopes.includes(scope))
}

/**
 * `Gitlab::UserAccess#allowed?` in `find_current_user!`: GitLab 13.x's reasons
 * (user_access_denied_reason.rb; gitlab-behaviour.md §1.5). `<base url>` is `Gitlab.config.gitlab.url`,
 * and the deactivated reason has no closing full stop.
 */
function checkUserState(user: UserRecord, baseUrl: string): void {
  const reason = userAccessDeniedReason(user, baseUrl)
  if (reason !== null) throw forbidden(reason)
}

/**
 * `Gitlab::Auth::UserAccessDeniedReason#rejection_message` for a user who may not act (13.x): the
 * text for a blocked (or LDAP-blocked), a pending-approval and a deactivated account, null for an
 * active one. The API
 * answers it as a 403, git over HTTP as its plain-text 403 (`GitAccess#check_active_user!`).
 * @param baseUrl `Gitlab.config.gitlab.url`, which the deactivated text ends with (no full stop).
 */
export function userAccessDeniedReason(user: UserRecord, baseUrl: string): string | null {
  if (user.state === 'blocked' || user.state === 'ldap_blocked') return 'Your account has been blocked.'
  if (user.state === 'blocked_pending_approval') return 'Your account is pending approval from your administrator and hence blocked.'
  if (user.state === 'deactivated') return `Your account has been deactivated by your administrator. Please log back in from a web browser to reactivate your account at ${baseUrl}`
  return null
}

/**
 * Works out the acting user for a request and enforces the route's policy.
 * Order: token (unknown → 401, revoked/expired → 401 `invalid_token`), user state (403), sudo
 * (403 not admin, 403 `insufficient_scope` without the `sudo` scope, 404 unknown user), scopes
 * (403 `insufficient_scope` naming every registered scope), then the policy (401 anonymous,
 * 403 not admin).
 * @param raw merged query and body params (tokens and `sudo` may come as params).
 * @param baseUrl GitLab's URL, named in the deactivated user's 403.
 * @throws ApiError as listed above.
 */
export function authenticate(db: Db, request: CoreRequest, raw: RawParams, route: Route, now: Date, baseUrl: string): AuthInfo {
  if (route.auth === 'none') return ANONYMOUS
  const presented = presentedToken(request, raw)
  let info = ANONYMOUS
  if (presented) {
    const token = findToken(db, presented)
    if (!token) throw unauthorized()
    // AccessTokenValidationService order: expired, revoked, (scopes, later), impersonation disabled.
    if (isExpired(token, now)) throw invalidToken('Token is expired. You can either do re-authorization or token refresh.')
    if (token.revoked) throw invalidToken('Token was revoked. You have to re-authorize from the user.')
    if (isPersonal(token) && token.impersonation && db.tables.auth_settings.get(1)?.impersonation_enabled === false) {
      throw invalidToken('Token is an impersonation token but impersonation was disabled.')
    }
    const user = db.tables.users.get(token.user_id)
    if (!user) throw unauthorized()
    checkUserState(user, baseUrl)
    info = { user, tokenUser: user, token, sudo: false, method: 'token' }
  } else {
    // find_user_from_sources: job token (where allowed), then the session cookie.
    const job = jobTokenUser(db, request, raw, route)
    const user = job?.user ?? sessionUser(db, request)
    if (user) {
      checkUserState(user, baseUrl)
      info = job
        ? { user, tokenUser: user, token: null, sudo: false, method: 'job_token', jobToken: job.jobToken }
        : { user, tokenUser: user, token: null, sudo: false, method: 'session' }
    }
  }

  const sudoId = stringParam(raw, 'sudo') ?? request.header('sudo')
  if (sudoId !== undefined && sudoId !== '') {
    if (!info.user) throw unauthorized()
    if (!info.user.admin) throw forbidden('Must be admin to use sudo')
    if (!info.token) throw forbidden('Must be authenticated using an OAuth or Personal Access Token to use sudo')
    if (!info.token?.scopes.includes('sudo')) throw insufficientScope(['sudo'])
    const target = /^\d+$/.test(sudoId) ? db.tables.users.get(Number(sudoId)) : db.findUserByUsername(sudoId)
    if (!target) throw new ApiError(404, { message: `404 User with ID or username '${sudoId}' Not Found` })
    info = { user: target, tokenUser: info.user, token: info.token, sudo: true, method: info.method }
  } else if (info.token && !hasAcceptedScope(info.token.scopes, route, request.method)) {
    throw insufficientScope(registeredScopes(route))
  }

  if (!info.user && route.auth !== 'optional') throw unauthorized()
  if (route.auth === 'admin' && !info.user?.admin) throw forbidden()
  return info
}

/**
 * Who a request to a web route is (GitLab's Rails controllers, not its API): the user the session
 * cookie signs in, on GET and HEAD, else anonymous. Access tokens are the API's and are ignored
 * here, as GitLab 13.x's `UploadsController` ignores `PRIVATE-TOKEN` (it has no sessionless
 * authentication), so an unknown or expired token is no 401 either. A blocked user's session is
 * signed out (anonymous). gitlab: app/controllers/application_controller.rb, uploads_controller.rb.
 */
export function authenticateWeb(db: Db, request: CoreRequest): AuthInfo {
  const user = sessionUser(db, request)
  if (!user || user.state !== 'active') return ANONYMOUS
  return { user, tokenUser: user, token: null, sudo: false, method: 'session' }
}
