/**
 * GitLab's error vocabulary. Every failure inside the simulator is thrown as an {@link ApiError}
 * and rendered in exactly one place (`core/engine.ts`), so a wording fix is one edit here.
 *
 * Names and messages follow `lib/api/helpers.rb` (`not_found!` → {@link notFound}) and Grape's
 * validation errors (`{"error": "..."}`). Source: shared/reference/gitlab-behaviour.md §1.2, §1.3.
 * @module
 */

/**
 * Message texts of GitLab's generic helpers that endpoints share (the pagination helpers). An
 * area's own messages live in its folder (`<area>.messages.ts`); model-error messages are built by
 * `rules/model-errors.ts`. gitlab: lib/api/helpers/pagination_strategies.rb.
 */
export const ErrorMessage = {
  /** 405 for `pagination=keyset` where keyset pagination is not offered. */
  keysetUnsupported: 'Keyset pagination is not yet available for this type of request',
  /** 405 for an offset past the limit of a keyset-capable list. */
  offsetTooLarge: (maximum: number, type: string) =>
    `Offset pagination has a maximum allowed offset of ${maximum} for requests that return objects of type ${type}. Remaining records can be retrieved using keyset pagination.`,
} as const

/**
 * ActiveModel validation messages as Rails and GitLab's shared validators word them (the texts of
 * `errors.add`), found inside {@link validationFailed} bodies and `Failed to …` messages (see
 * `rules/model-errors.ts`). An area's model-specific messages live in its folder.
 * gitlab: config/locales/en.yml of activemodel, app/validators/color_validator.rb.
 */
export const ValidationMessage = {
  blank: "can't be blank",
  invalid: 'is invalid',
  taken: 'has already been taken',
  tooLong: (maximum: number) => `is too long (maximum is ${maximum} characters)`,
  greaterThanOrEqualTo: (count: number) => `must be greater than or equal to ${count}`,
  /** Rails' inclusion validator. */
  notIncluded: 'is not included in the list',
  /** `ColorValidator`. */
  invalidColor: 'must be a valid color code',
} as const

/** A JSON error body: GitLab helpers answer `{message}`, Grape answers `{error}`. */
export type ErrorBody = Record<string, unknown> | undefined

/**
 * An HTTP error with GitLab's exact status and body. Thrown anywhere below `sim.handle()`.
 * `body` undefined means "no body on the wire" (304, 204).
 */
export class ApiError extends Error {
  readonly status: number
  readonly body: ErrorBody
  readonly headers: Record<string, string>
  /**
   * A plain-text body for answers GitLab gives before its API (Rack middleware): sent as
   * `text/plain` without the API's standard headers. `body` is then undefined.
   */
  readonly text: string | undefined

  /**
   * @param status HTTP status code.
   * @param body JSON body, or undefined for none.
   * @param headers extra response headers (for example `WWW-Authenticate` on a 401).
   * @param text a plain-text body instead of JSON (see {@link ApiError.text}).
   */
  constructor(status: number, body: ErrorBody, headers: Record<string, string> = {}, text?: string) {
    super(`${status} ${text ?? JSON.stringify(body ?? null)}`)
    this.name = 'ApiError'
    this.status = status
    this.body = body
    this.headers = headers
    this.text = text
  }
}

/** 404 `{message: "404 <Resource> Not Found"}` (`not_found!(resource)`); no argument: `"404 Not Found"`. */
export function notFound(resource?: string): ApiError {
  return new ApiError(404, { message: resource ? `404 ${resource} Not Found` : '404 Not Found' })
}

/**
 * 404 `{message: "404 Not found"}` with a lower-case "found": what `ActiveRecord::RecordNotFound`
 * gives when GitLab calls `Model.find(id)` directly for a record an endpoint names by id.
 * spec-gap: the spec names no body for these; GitLab's lower-case one wins (gitlab-behaviour.md §14
 * item 13).
 */
export function recordNotFound(): ApiError {
  return new ApiError(404, { message: '404 Not found' })
}

/**
 * 404 `{error: "404 Not Found"}`: GitLab's catch-all route (`route :any, '*path'`), for an unknown
 * path and for a known path under another method alike (gitlab-behaviour.md §1.2).
 */
export function routeNotFound(): ApiError {
  return new ApiError(404, { error: '404 Not Found' })
}

/** 401 `{message: "401 Unauthorized"}` (`unauthorized!`). */
export function unauthorized(): ApiError {
  return new ApiError(401, { message: '401 Unauthorized' })
}

/** 403 `{message: "403 Forbidden"}` or `"403 Forbidden - <reason>"` (`forbidden!`). */
export function forbidden(reason?: string): ApiError {
  return new ApiError(403, { message: reason ? `403 Forbidden - ${reason}` : '403 Forbidden' })
}

/** 400 `{message: "400 Bad request"}` or `"400 Bad request - <reason>"` (`bad_request!`, lower-case r). */
export function badRequest(reason?: string): ApiError {
  return new ApiError(400, { message: reason ? `400 Bad request - ${reason}` : '400 Bad request' })
}

/** 400 `{message: "400 Bad request - \"name\" not given"}` (`bad_request_missing_attribute!`). */
export function missingAttribute(name: string): ApiError {
  return badRequest(`"${name}" not given`)
}

/**
 * 400 `{message: {attr: ["msg", ...]}}`: a model validation failure (`render_validation_error!`).
 * Keys are model attribute names (`title`, not the `name` parameter).
 */
export function validationFailed(errors: Record<string, string[]>): ApiError {
  return new ApiError(400, { message: errors })
}

/** A 4xx with a bare `{message: <text>}` body, for endpoints that call `render_api_error!(text, status)`. */
export function apiMessage(status: number, message: string): ApiError {
  return new ApiError(status, { message })
}

/**
 * A 4xx with `{message: {error: <text>}}`: `render_api_error!({ error: message }, status)`, what a
 * service's `ServiceResponse.error` becomes in the snippets API (gitlab: lib/api/snippets.rb).
 */
export function serviceError(status: number, message: string): ApiError {
  return new ApiError(status, { message: { error: message } })
}

/** 409 `{message: "409 Conflict"}`, or `{message: <msg>}` with no status prefix (`conflict!(msg)`). */
export function conflict(message?: string): ApiError {
  return new ApiError(409, { message: message ?? '409 Conflict' })
}

/** 304 with no body (`not_modified!`): a repeated subscribe or unsubscribe. */
export function notModified(): ApiError {
  return new ApiError(304, undefined)
}

/** 412 `{message: "412 Precondition Failed"}` (`destroy_conditionally!` with a stale `If-Unmodified-Since`). */
export function preconditionFailed(): ApiError {
  return new ApiError(412, { message: '412 Precondition Failed' })
}

/** 405 `{message: "405 Method Not Allowed"}` (`not_allowed!`, raised by an endpoint itself). */
export function notAllowed(): ApiError {
  return new ApiError(405, { message: '405 Method Not Allowed' })
}

/** 414 for a query string over the limit. The body follows Grape's `{error}` shape. */
export function uriTooLong(): ApiError {
  return new ApiError(414, { error: '414 Request-URI Too Large' })
}

/**
 * 413 for a request body over the limit. GitLab's Rails never sees such a body: the nginx in front
 * of it answers, and the body is nginx's HTML error page.
 * spec-gap: the spec's error table has no 413; it was asked for; fakelab answers as Omnibus
 * nginx does (`client_max_body_size 250m`), with its HTML page and `Content-Type: text/html`.
 */
export function payloadTooLarge(): ApiError {
  return new ApiError(413, undefined, { 'content-type': 'text/html' }, PAYLOAD_TOO_LARGE_HTML)
}

/** The HTML page nginx sends with a 413. */
const PAYLOAD_TOO_LARGE_HTML =
  '<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body>\r\n<center><h1>413 Request Entity Too Large</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n'

/**
 * 429 `text/plain` `Retry later` (GitLab's default `rate_limiting_response_text`) from Rack::Attack,
 * in front of the API: no JSON, none of the API's headers.
 * @param headers the `RateLimit-*` and `Retry-After` headers (see `core/rate-limit.ts`).
 */
export function rateLimited(headers: Record<string, string>): ApiError {
  return new ApiError(429, undefined, headers, 'Retry later\n')
}

/** 410 `{error: "API V3 is no longer supported. Use API V4 instead."}` for any `/api/v3/*` path. */
export function apiV3Gone(): ApiError {
  return new ApiError(410, { error: 'API V3 is no longer supported. Use API V4 instead.' })
}

/**
 * A Grape-style 4xx `{error: <text>}`: parameter validation, keyset refusals.
 * spec-gap: api-spec.md's generic error list shows `{message: ...}` for a missing or invalid
 * parameter; GitLab 13.x (Grape) sends `{"error": "name is missing"}`, and the spec is generic
 * there, so GitLab wins (gitlab-behaviour.md §14 item 1).
 */
export function grapeError(message: string, status = 400): ApiError {
  return new ApiError(status, { error: message })
}

/**
 * 403 `{error: "insufficient_scope", error_description, scope}` (api_guard.rb).
 * @param scopes the scopes that would have been accepted, space-joined in the body.
 */
export function insufficientScope(scopes: string[]): ApiError {
  return new ApiError(403, {
    error: 'insufficient_scope',
    error_description: 'The request requires higher privileges than provided by the access token.',
    scope: scopes.join(' '),
  }, {
    'www-authenticate': `Bearer realm="The API", error="insufficient_scope", error_description="The request requires higher privileges than provided by the access token.", scope="${scopes.join(' ')}"`,
  })
}

/** 401 `{error: "invalid_token", error_description}` for an expired or revoked token (api_guard.rb). */
export function invalidToken(description: string): ApiError {
  return new ApiError(401, { error: 'invalid_token', error_description: description }, {
    'www-authenticate': `Bearer realm="The API", error="invalid_token", error_description="${description}"`,
  })
}

/** 202 `{message: "202 Accepted"}` (`accepted!`). Not an error, but GitLab raises it like one. */
export function accepted(): ApiError {
  return new ApiError(202, { message: '202 Accepted' })
}

/** 500 `{message: "500 Internal Server Error"}`: what any unexpected exception becomes. */
export function internalError(): ApiError {
  return new ApiError(500, { message: '500 Internal Server Error' })
}

/**
 * 400 `{error: "Empty message body supplied with <content type> content-type"}`: a multipart body
 * Rack cannot parse. Grape turns Rack's `EOFError` into this since 1.5.3 (grape#2161); the Grape 1.4
 * of GitLab 13.x let it become a 500, which fakelab never reproduces (gitlab-behaviour.md §0).
 * @param contentType the request's `Content-Type` as sent.
 */
export function emptyMessageBody(contentType: string): ApiError {
  return grapeError(`Empty message body supplied with ${contentType} content-type`)
}

/**
 * 400 `text/plain` `Bad Request`: GitLab's `HandleMalformedStrings` Rack middleware, which answers
 * before the API (so no JSON and none of the API's headers) when the path, the credentials or a
 * parameter holds a NUL byte or invalid UTF-8. gitlab: lib/gitlab/middleware/handle_malformed_strings.rb
 */
export function malformedRequest(): ApiError {
  return new ApiError(400, undefined, {}, 'Bad Request')
}

/**
 * 429 `text/plain` `Retry later\n` with `Retry-After`: GitLab's Rack::Attack throttle answer, sent
 * before the API (no JSON). gitlab: lib/gitlab/rack_attack.rb, lib/gitlab/throttle.rb
 * (`rate_limiting_response_text`, default "Retry later"). spec-gap: the RateLimit-* headers GitLab
 * adds are left out; fakelab injects this as a fault, with no real limit to report.
 * @param retryAfter seconds.
 */
export function throttled(retryAfter: number): ApiError {
  return new ApiError(429, undefined, { 'retry-after': String(retryAfter) }, 'Retry later\n')
}

/**
 * 502 `text/plain` `GitLab is not responding\n`: GitLab Workhorse's answer when Rails is not
 * reachable (workhorse internal/badgateway). Sent in front of the API, so no JSON.
 */
export function badGateway(): ApiError {
  return new ApiError(502, undefined, {}, 'GitLab is not responding\n')
}

/** 503 `{message: "503 Service Unavailable"}` (`service_unavailable!`). gitlab: lib/api/helpers.rb */
export function serviceUnavailable(): ApiError {
  return new ApiError(503, { message: '503 Service Unavailable' })
}

/**
 * GitLab's web 404 (`ApplicationController#render_404`, HTML format): a web route's answer for a
 * missing record, or one the signed-in user may not read. An HTML page, not the API's JSON.
 * spec-gap: GitLab renders its full `errors/not_found` page; this is its title and message only.
 */
export function webNotFound(): ApiError {
  return new ApiError(404, undefined, { 'content-type': 'text/html; charset=utf-8' }, WEB_NOT_FOUND_HTML)
}

const WEB_NOT_FOUND_HTML =
  '<!DOCTYPE html>\n<html>\n<head><meta charset="utf-8"><title>Not Found</title></head>\n<body>\n<h1>404</h1>\n' +
  "<h3>Page Not Found</h3>\n<p>Make sure the address is correct and the page hasn't moved.</p>\n</body>\n</html>\n"

/**
 * Devise's `authenticate_user!` on a web route for an anonymous browser (GitLab 13.x
 * `UploadsController#authorize_access!` when the record is not readable without signing in): 302 to
 * the sign-in page, with Rails' redirect body.
 * @param baseUrl the simulated GitLab's origin.
 */
export function signInRedirect(baseUrl: string): ApiError {
  const location = `${baseUrl}/users/sign_in`
  return new ApiError(302, undefined, { location, 'content-type': 'text/html; charset=utf-8' }, `<html><body>You are being <a href="${location}">redirected</a>.</body></html>`)
}
