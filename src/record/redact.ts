/**
 * Redaction: takes every secret out of recorded exchanges before a cassette is written, replacing
 * each with a stable placeholder (`[REDACTED-1]`, `[REDACTED-2]`, …: the same secret gets the same
 * placeholder everywhere in one cassette), so replay still matches and a reviewer can still see
 * that two requests used the same token. Browser-safe.
 *
 * It runs in two passes over the whole cassette. The first finds secrets where they are known to
 * live: credential headers, credential query parameters, secret body fields, and anything shaped
 * like a GitLab token. The second replaces each secret wherever it occurs (URL, any header, any
 * body), because GitLab echoes credentials in places no rule names: a `Link` header repeats the
 * request's `private_token=` query, for example. Known locations are replaced whatever the value's
 * length; the everywhere-pass only replaces secrets of {@link MIN_ECHOED_SECRET_LENGTH}+ characters,
 * so a one-letter token cannot wreck unrelated text.
 *
 * Recorders that leaked tokens (Polly.js #175, php-vcr #503) redacted by rule only; the second
 * pass is the difference. Source: fakelab #11 ("Redaction by default").
 * @module
 */
import type { Entry, Header, PostData } from 'har-format'
import { areas } from '../resources/index.js'
import type { AreaSecrets } from '../scenario/area.js'

/** Extra rules, added to {@link DEFAULT_REDACTION}. Names are case-insensitive. */
export interface RedactionRules {
  /** Request or response headers whose whole value is secret. */
  headers?: readonly string[]
  /** Query parameters whose value is secret. */
  queryParams?: readonly string[]
  /** JSON or form body fields whose string value is secret, at any depth. */
  bodyFields?: readonly string[]
  /** Patterns whose matches are secret wherever they appear. Use the `g` flag or not; either works. */
  patterns?: readonly RegExp[]
  /** Literal secrets (for example the tokens a test uses), replaced wherever they appear. */
  secrets?: readonly string[]
}

/**
 * The generic rules, whatever the areas: the credentials of any request and GitLab's prefixed
 * tokens. Headers: `PRIVATE-TOKEN`, `Authorization` (the credential after the scheme),
 * `JOB-TOKEN`, `Cookie` and `Set-Cookie` (each cookie's value). Query: `private_token`,
 * `access_token`, `job_token`, `token`. Body fields: `token` (what token-creating endpoints
 * answer), the credential parameters, `password`, `secret`. Patterns: GitLab's prefixed tokens
 * (`glpat-`, `glrt-`, `gloas-`, …). Source: GitLab "Token overview" docs (token prefixes).
 */
const GENERIC_REDACTION = {
  headers: ['private-token', 'authorization', 'job-token', 'cookie', 'set-cookie', 'proxy-authorization', 'x-gitlab-token'],
  queryParams: ['private_token', 'access_token', 'job_token', 'token'],
  bodyFields: ['token', 'private_token', 'access_token', 'job_token', 'password', 'secret'],
  patterns: [/\bgl(?:pat|oas|rt|rtr|cbt|ptt|ft|imt|agent|soat|ffct|dt|wt|sst)-[A-Za-z0-9_-]+/g],
} as const satisfies Required<Omit<RedactionRules, 'secrets'>>

/** The generic rules followed by each area's declared secrets (`Area.secrets`), in area order. */
function composeRedaction(generic: Required<Omit<RedactionRules, 'secrets'>>, declared: readonly (AreaSecrets | undefined)[]): Required<Omit<RedactionRules, 'secrets'>> {
  const own = declared.filter((s): s is AreaSecrets => s !== undefined)
  return {
    headers: [...generic.headers, ...own.flatMap((s) => s.headers ?? [])],
    queryParams: [...generic.queryParams, ...own.flatMap((s) => s.queryParams ?? [])],
    bodyFields: [...generic.bodyFields, ...own.flatMap((s) => s.bodyFields ?? [])],
    patterns: [...generic.patterns, ...own.flatMap((s) => s.patterns ?? [])],
  }
}

/**
 * What is redacted with no configuration: the generic rules (credential headers and query
 * parameters, `token`-like body fields, GitLab's prefixed tokens) plus what each area declares
 * about its own secrets (`Area.secrets`: the fields that hold them, the format of the tokens it
 * generates). Names are lower-case.
 */
export const DEFAULT_REDACTION: Readonly<Required<Omit<RedactionRules, 'secrets'>>> = composeRedaction(
  GENERIC_REDACTION,
  areas.map((area) => area.secrets),
)

/**
 * Secrets found by the everywhere-pass must be at least this long; shorter values are replaced
 * only where a rule points at them.
 */
export const MIN_ECHOED_SECRET_LENGTH = 8

/**
 * Field names that hold secrets in other GitLab entities (`feed_token`, `incoming_email_token`,
 * `webhook_secret`, …): their values are redacted when they look like a token (20+ characters of
 * a token alphabet), so dates such as `token_expires_at` stay readable.
 */
const TOKENISH_FIELD = /token|secret|password/i
const TOKENISH_VALUE = /^[A-Za-z0-9_\-.+/=]{20,}$/

/** The placeholder form: `[REDACTED-<n>]`, numbered by first appearance in the cassette. */
export const PLACEHOLDER = /\[REDACTED-\d+\]/

/** True when `value` contains a redaction placeholder. */
export function isRedacted(value: string): boolean {
  return PLACEHOLDER.test(value)
}

/** Redacts whole cassettes; one instance numbers placeholders for one cassette. */
export interface Redactor {
  /**
   * Redacted copies of `entries` (the input is not changed), in the same order.
   * Placeholders are numbered in order of first appearance, so the same session always gives the
   * same cassette.
   */
  entries(entries: readonly Entry[]): Entry[]
}

interface Rules {
  headers: Set<string>
  queryParams: Set<string>
  bodyFields: Set<string>
  patterns: RegExp[]
  secrets: string[]
}

function lowerSet(...lists: (readonly string[] | undefined)[]): Set<string> {
  return new Set(lists.flatMap((list) => list ?? []).map((s) => s.toLowerCase()))
}

function globalPattern(pattern: RegExp): RegExp {
  return pattern.flags.includes('g') ? new RegExp(pattern.source, pattern.flags) : new RegExp(pattern.source, `${pattern.flags}g`)
}

/** Secrets found in one header value, by header kind. */
function headerSecrets(name: string, value: string): string[] {
  const lower = name.toLowerCase()
  if (lower === 'authorization' || lower === 'proxy-authorization') {
    const credential = /^\s*\S+\s+(.+)$/.exec(value)
    return [credential ? credential[1]!.trim() : value]
  }
  if (lower === 'cookie') return value.split(';').map(cookieValue).filter((v) => v !== '')
  if (lower === 'set-cookie') return [cookieValue(value.split(';')[0] ?? '')].filter((v) => v !== '')
  return value === '' ? [] : [value]
}

function cookieValue(pair: string): string {
  const eq = pair.indexOf('=')
  return eq < 0 ? '' : pair.slice(eq + 1).trim()
}

/** Walks parsed JSON and collects the string values of secret fields. */
function jsonSecrets(value: unknown, rules: Rules, out: string[]): void {
  if (Array.isArray(value)) {
    for (const item of value) jsonSecrets(item, rules, out)
    return
  }
  if (value === null || typeof value !== 'object') return
  for (const [key, child] of Object.entries(value)) {
    if (typeof child === 'string' && child !== '' && isSecretField(key, child, rules)) out.push(child)
    else jsonSecrets(child, rules, out)
  }
}

function isSecretField(key: string, value: string, rules: Rules): boolean {
  return rules.bodyFields.has(key.toLowerCase()) || (TOKENISH_FIELD.test(key) && TOKENISH_VALUE.test(value))
}

/** Secrets in a request or response body of the given content type. */
function bodySecrets(text: string | undefined, mimeType: string, rules: Rules): string[] {
  if (!text) return []
  const out: string[] = []
  if (/json/i.test(mimeType) || /^\s*[[{]/.test(text)) {
    try {
      jsonSecrets(JSON.parse(text), rules, out)
    } catch {
      // Not JSON after all: the pattern rules still apply to the raw text.
    }
  }
  if (/x-www-form-urlencoded/i.test(mimeType)) {
    for (const [key, value] of new URLSearchParams(text)) if (value !== '' && isSecretField(key, value, rules)) out.push(value)
  }
  return out
}

function patternSecrets(text: string, rules: Rules): string[] {
  return rules.patterns.flatMap((pattern) => [...text.matchAll(globalPattern(pattern))].map((m) => m[0]))
}

/** Every string of an entry the everywhere-pass looks at, for the pattern rules. */
function allTexts(entry: Entry): string[] {
  const { request, response } = entry
  return [
    request.url,
    ...request.headers.map((h) => h.value),
    request.postData?.text ?? '',
    ...response.headers.map((h) => h.value),
    response.content.encoding === 'base64' ? '' : (response.content.text ?? ''),
    response.redirectURL,
  ]
}

/**
 * Creates a redactor with the default rules plus `rules`.
 * @example
 * const redacted = createRedactor({ headers: ['X-Api-Key'] }).entries(recorded)
 */
export function createRedactor(rules: RedactionRules = {}): Redactor {
  const r: Rules = {
    headers: lowerSet(DEFAULT_REDACTION.headers, rules.headers),
    queryParams: lowerSet(DEFAULT_REDACTION.queryParams, rules.queryParams),
    bodyFields: lowerSet(DEFAULT_REDACTION.bodyFields, rules.bodyFields),
    patterns: [...DEFAULT_REDACTION.patterns, ...(rules.patterns ?? [])],
    secrets: [...(rules.secrets ?? [])].filter((s) => s !== ''),
  }
  return {
    entries(entries) {
      const placeholders = new Map<string, string>()
      const note = (secret: string): void => {
        if (secret !== '' && !PLACEHOLDER.test(secret) && !placeholders.has(secret)) {
          placeholders.set(secret, `[REDACTED-${placeholders.size + 1}]`)
        }
      }
      for (const secret of r.secrets) note(secret)
      for (const entry of entries) for (const secret of findSecrets(entry, r)) note(secret)
      return entries.map((entry) => redactEntry(entry, r, placeholders))
    },
  }
}

/** The secrets of one entry, in a fixed order: request before response, rules before patterns. */
function findSecrets(entry: Entry, rules: Rules): string[] {
  const { request, response } = entry
  const found: string[] = []
  for (const h of request.headers) if (rules.headers.has(h.name.toLowerCase())) found.push(...headerSecrets(h.name, h.value))
  for (const [key, value] of new URL(request.url).searchParams) if (rules.queryParams.has(key.toLowerCase()) && value !== '') found.push(value)
  found.push(...bodySecrets(request.postData?.text, request.postData?.mimeType ?? '', rules))
  for (const h of response.headers) if (rules.headers.has(h.name.toLowerCase())) found.push(...headerSecrets(h.name, h.value))
  if (response.content.encoding !== 'base64') found.push(...bodySecrets(response.content.text, response.content.mimeType, rules))
  for (const text of allTexts(entry)) found.push(...patternSecrets(text, rules))
  return found
}

/** Replaces every known secret in `text` (raw, percent-encoded and JSON-escaped spellings). */
function replaceAll(text: string, replacements: readonly [string, string][]): string {
  let out = text
  for (const [from, to] of replacements) if (out.includes(from)) out = out.split(from).join(to)
  return out
}

/** `[secret spelling, placeholder]` pairs, longest spelling first so no secret is cut by a shorter one. */
function spellings(placeholders: Map<string, string>): [string, string][] {
  const pairs: [string, string][] = []
  for (const [secret, placeholder] of placeholders) {
    if (secret.length < MIN_ECHOED_SECRET_LENGTH) continue
    const forms = new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1), new URLSearchParams({ s: secret }).toString().slice(2)])
    for (const form of forms) pairs.push([form, placeholder])
  }
  return pairs.sort((a, b) => b[0].length - a[0].length)
}

function redactEntry(entry: Entry, rules: Rules, placeholders: Map<string, string>): Entry {
  const pairs = spellings(placeholders)
  const anywhere = (text: string): string => replaceAll(text, pairs)
  const ruled = (secret: string): string => placeholders.get(secret) ?? secret
  const header = (h: Header): Header => {
    if (!rules.headers.has(h.name.toLowerCase())) return { ...h, value: anywhere(h.value) }
    let value = h.value
    for (const secret of headerSecrets(h.name, h.value)) value = value.split(secret).join(ruled(secret))
    return { ...h, value }
  }
  const redactedUrl = anywhere(redactQuery(entry.request.url, (key, value) => (rules.queryParams.has(key.toLowerCase()) && value !== '' ? ruled(value) : undefined)))
  const { request, response } = entry
  const bodyText = (text: string | undefined, mimeType: string): string | undefined => {
    if (text === undefined) return undefined
    let out = text
    for (const secret of bodySecrets(text, mimeType, rules)) out = replaceField(out, secret, ruled(secret))
    return anywhere(out)
  }
  const redactPostData = (postData: PostData): PostData => {
    if (postData.params) {
      return {
        ...postData,
        params: postData.params.map((p) => (p.value === undefined ? p : { ...p, value: anywhere(rules.bodyFields.has(p.name.toLowerCase()) ? ruled(p.value) : p.value) })),
      } as PostData
    }
    return { ...postData, text: bodyText(postData.text, postData.mimeType) ?? '' } as PostData
  }
  return {
    ...entry,
    request: {
      ...request,
      url: redactedUrl,
      headers: request.headers.map(header),
      queryString: [...new URL(redactedUrl).searchParams].map(([name, value]) => ({ name, value })),
      cookies: request.cookies.map((c) => ({ ...c, value: ruled(c.value) })),
      ...(request.postData ? { postData: redactPostData(request.postData) } : {}),
    },
    response: {
      ...response,
      headers: response.headers.map(header),
      cookies: response.cookies.map((c) => ({ ...c, value: ruled(c.value) })),
      content:
        response.content.encoding === 'base64' || response.content.text === undefined
          ? response.content
          : { ...response.content, text: bodyText(response.content.text, response.content.mimeType) },
      redirectURL: anywhere(response.redirectURL),
    },
  }
}

/** Query values keep placeholders readable (`[`, `]` are legal in a query) and encode the rest. */
function encodeQueryValue(value: string): string {
  return encodeURIComponent(value).replace(/%5B/g, '[').replace(/%5D/g, ']')
}

/**
 * Rewrites the values of secret query parameters in a URL and leaves every other byte as it was
 * (re-encoding the whole query would turn `tags[]=a+b` into `tags%5B%5D=a%20b`).
 * @param replace returns the new (unencoded) value of a parameter, or undefined to keep it.
 */
function redactQuery(url: string, replace: (key: string, value: string) => string | undefined): string {
  const hashAt = url.indexOf('#')
  const hash = hashAt < 0 ? '' : url.slice(hashAt)
  const head = hashAt < 0 ? url : url.slice(0, hashAt)
  const queryAt = head.indexOf('?')
  if (queryAt < 0) return url
  const parts = head.slice(queryAt + 1).split('&').map((part) => {
    const eq = part.indexOf('=')
    if (eq < 0) return part
    const [key, value] = [...new URLSearchParams(part)][0] ?? ['', '']
    const next = replace(key, value)
    return next === undefined ? part : `${part.slice(0, eq)}=${encodeQueryValue(next)}`
  })
  return `${head.slice(0, queryAt)}?${parts.join('&')}${hash}`
}

/**
 * Replaces a secret field's value in a JSON or form body without re-serialising it, so every other
 * byte of the recorded body stays as GitLab sent it.
 */
function replaceField(text: string, secret: string, placeholder: string): string {
  const json = JSON.stringify(secret)
  const form = new URLSearchParams({ s: secret }).toString().slice(2)
  return text
    .split(json).join(JSON.stringify(placeholder))
    .split(`=${form}`).join(`=${encodeQueryValue(placeholder)}`)
}
