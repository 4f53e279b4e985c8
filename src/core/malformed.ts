/**
 * GitLab's `HandleMalformedStrings` Rack middleware, which answers 400 `text/plain` `Bad Request`
 * before any route when the request holds a string no valid request contains. Ported rules
 * (gitlab: lib/gitlab/middleware/handle_malformed_strings.rb, with Rack's and Rails' parameter
 * parsing underneath):
 * - the path, percent-decoded as `Rack::Utils.unescape` does: a `%` not followed by two hex digits
 *   (Ruby raises), invalid UTF-8, or a NUL byte;
 * - the credentials: the `Authorization` header, base64-decoded first when it is `Basic`:
 *   invalid UTF-8 or a NUL byte;
 * - the parameters (query, form and JSON bodies): a bad percent-escape or invalid UTF-8 anywhere
 *   (Rack raises `InvalidParameterError`, Rails' `check_param_encoding` rejects any value), and a NUL
 *   byte in a value nested at most two levels deep (the middleware's own depth guard).
 * Each check is a few string scans, skipped when the text has no `%`.
 * @module
 */
/** `%` not followed by two hex digits: Ruby's `URI.decode_www_form_component` raises on it. */
const BAD_ESCAPE = /%(?![0-9A-Fa-f]{2})/
/** A UTF-16 surrogate without its partner: what invalid UTF-8 in a JSON string decodes to. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
/** The middleware stops looking for NUL bytes below this nesting depth (`return false if depth > 2`). */
const MAX_NUL_DEPTH = 2

/** Percent-decodes like Rack (`+` is a space); undefined when Ruby would raise or the bytes are not UTF-8. */
function decodeComponent(text: string): string | undefined {
  if (BAD_ESCAPE.test(text)) return undefined
  try {
    return decodeURIComponent(text.includes('+') ? text.replaceAll('+', ' ') : text)
  } catch {
    return undefined
  }
}

/**
 * Whether a raw (percent-encoded) path is malformed: a bad escape, invalid UTF-8 or NUL once decoded.
 * `malformed_path?` in the middleware.
 */
export function malformedPath(path: string): boolean {
  if (!path.includes('%')) return false
  const decoded = decodeComponent(path)
  return decoded === undefined || decoded.includes('\0')
}

/**
 * Whether a raw query string or form body (`a=1&b[]=2`, still percent-encoded) has a piece Rack or
 * Rails refuses: a bad escape or invalid UTF-8 in a name or a value. NUL bytes are checked on the
 * parsed params by {@link malformedParams}, which knows their depth.
 */
export function malformedQuery(query: string): boolean {
  // Rack splits on `&` and `;` and each piece once on `=`, then unescapes both halves. None of those
  // separators can be part of an escape or of a UTF-8 sequence, so decoding the whole text fails
  // exactly when decoding some piece fails.
  return query.includes('%') && decodeComponent(query) === undefined
}

/**
 * Whether the credentials are malformed: the `Authorization` value (its base64 payload for
 * `Basic`) is not UTF-8 or holds a NUL byte. Header values arrive as Latin-1 code units, one per byte.
 */
export function malformedCredentials(authorization: string | undefined): boolean {
  if (!authorization) return false
  const [scheme, param] = splitOnce(authorization, ' ')
  let bytes: Uint8Array
  if (scheme.toLowerCase() === 'basic' && param) bytes = base64Bytes(param)
  else {
    // Pure ASCII without NUL is always valid: the common case costs one scan.
    if (/^[\x01-\x7f]*$/.test(authorization)) return false
    bytes = Uint8Array.from(authorization, (c) => c.charCodeAt(0) & 0xff)
  }
  return !validUtf8WithoutNul(bytes)
}

/**
 * Whether parsed params hold a value no valid request has: a NUL byte in a string nested at most
 * two levels deep, or a string that is not well-formed Unicode at any depth (lone surrogates: what
 * invalid UTF-8 in a JSON body decodes to). Keys are not checked, as the middleware does not.
 */
export function malformedParams(params: Record<string, unknown>): boolean {
  for (const name in params) if (malformedValue(params[name], 0)) return true
  return false
}

function malformedValue(value: unknown, depth: number): boolean {
  if (typeof value === 'string') {
    return (depth <= MAX_NUL_DEPTH && value.includes('\0')) || LONE_SURROGATE.test(value)
  }
  if (value === null || typeof value !== 'object' || (typeof Blob !== 'undefined' && value instanceof Blob)) return false
  const children = Array.isArray(value) ? value : Object.values(value)
  for (const child of children) if (malformedValue(child, depth + 1)) return true
  return false
}

/** Strict UTF-8 decoding; a body that is not UTF-8 (JSON must be) is malformed. */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true })

/**
 * Decodes UTF-8 bytes, refusing invalid sequences.
 * @returns the text, or undefined when the bytes are not UTF-8.
 */
export function decodeUtf8Strict(bytes: Uint8Array): string | undefined {
  try {
    return STRICT_UTF8.decode(bytes)
  } catch {
    return undefined
  }
}

function validUtf8WithoutNul(bytes: Uint8Array): boolean {
  const text = decodeUtf8Strict(bytes)
  return text !== undefined && !text.includes('\0')
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator)
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)]
}

/** Ruby's `Base64.decode64`: lenient, skipping characters outside the alphabet. */
function base64Bytes(text: string): Uint8Array {
  const clean = text.replace(/[^A-Za-z0-9+/]/g, '')
  const binary = atob(clean.slice(0, clean.length - (clean.length % 4 === 1 ? 1 : 0)))
  return Uint8Array.from(binary, (c) => c.charCodeAt(0))
}
