/**
 * Where a difference is: one path syntax for the status, the headers and the JSON body, and the
 * ignore rules written in it. Browser-safe.
 *
 * Paths: `status`; `headers.<lower-case name>` (`headers.x-total`); `headers.link.<rel>` and
 * `headers.link.<rel>.<query param>` for the parsed `Link` header; the body as a JSON path from
 * `$` (`$[0].labels[2].name`, `$.namespace.id`; keys that are not identifiers are quoted:
 * `$["web.url"]`). Ignore rules use the same syntax, with `*` for exactly one segment (a key or an
 * index) and `**` for any number of segments (zero or more), and may start with a route key to
 * apply to one route only: `GET /projects/:id $.permissions`. Source: issue 15 ("--ignore").
 * @module
 */

/** One step of a path: an object key or a list index. */
export type PathSegment = string | number

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]*$/

/** Appends a key or index to a body path in the `$.a[0]["b c"]` form. */
export function childPath(path: string, segment: PathSegment): string {
  if (typeof segment === 'number') return `${path}[${segment}]`
  return IDENTIFIER.test(segment) ? `${path}.${segment}` : `${path}[${JSON.stringify(segment)}]`
}

/** Thrown by {@link parseIgnoreRule} for a rule it cannot read; `message` says what and where. */
export class IgnoreSyntaxError extends Error {
  /** The rule as given. */
  readonly rule: string

  /** @param rule the rule as given. @param reason what is wrong with it. */
  constructor(rule: string, reason: string) {
    super(`bad ignore rule ${JSON.stringify(rule)}: ${reason}`)
    this.name = 'IgnoreSyntaxError'
    this.rule = rule
  }
}

/** One pattern segment: a literal key or index, `*` (one segment) or `**` (any depth). */
type PatternSegment = { literal: string } | { any: 'one' } | { any: 'deep' }

/** A parsed ignore rule. */
export interface IgnoreRule {
  /** The rule as written. */
  readonly source: string
  /** The route key it is limited to (`GET /projects/:id`), if any. */
  readonly route?: string
  /** Tests a difference's path (and the route key of its exchange). */
  matches(path: string, route: string): boolean
}

/** Splits a path in the syntax above into segments (indexes and keys both as strings). */
function splitPath(path: string, rule: string): string[] {
  const out: string[] = []
  let i = 0
  const fail = (reason: string): never => {
    throw new IgnoreSyntaxError(rule, `${reason} at character ${i + 1}`)
  }
  // The first segment is `$`, `status` or `headers` (or a wildcard), written without a dot.
  const first = /^(\$|\*\*|\*|[A-Za-z_][A-Za-z0-9_-]*)/.exec(path)
  if (!first) fail('a path starts with $, status, headers, * or **')
  out.push(first![1]!)
  i = first![1]!.length
  while (i < path.length) {
    const c = path[i]
    if (c === '.') {
      const m = /^(\*\*|\*|[A-Za-z0-9_-]+)/.exec(path.slice(i + 1))
      if (!m) fail('expected a key, * or ** after "."')
      out.push(m![1]!)
      i += 1 + m![1]!.length
    } else if (c === '[') {
      const rest = path.slice(i + 1)
      const m = /^(\d+|\*\*|\*|"(?:[^"\\]|\\.)*")\]/.exec(rest)
      if (!m) fail('expected [<index>], [*], [**] or ["key"]')
      const inner = m![1]!
      out.push(inner.startsWith('"') ? (JSON.parse(inner) as string) : inner)
      i += 1 + m![0].length
    } else {
      fail(`unexpected ${JSON.stringify(c)}`)
    }
  }
  return out
}

function toPattern(segments: string[]): PatternSegment[] {
  return segments.map((s) => (s === '**' ? { any: 'deep' } : s === '*' ? { any: 'one' } : { literal: s }))
}

/** Whether `pattern` matches all of `segments` (`**` matches zero or more). */
function matchSegments(pattern: readonly PatternSegment[], segments: readonly string[], p = 0, s = 0): boolean {
  if (p === pattern.length) return s === segments.length
  const head = pattern[p]!
  if ('any' in head && head.any === 'deep') {
    for (let k = s; k <= segments.length; k++) if (matchSegments(pattern, segments, p + 1, k)) return true
    return false
  }
  if (s === segments.length) return false
  if ('any' in head || head.literal === segments[s]) return matchSegments(pattern, segments, p + 1, s + 1)
  return false
}

const ROUTE_PREFIX = /^([A-Z]+) (\/\S*)\s+(\S.*)$/

/**
 * Parses one ignore rule.
 * @param source a path pattern, optionally preceded by a route key and whitespace.
 * @throws IgnoreSyntaxError for an empty rule, an unknown character, an unclosed `[` or a `***`.
 * @example parseIgnoreRule('$[*].created_at'); parseIgnoreRule('**.web_url'); parseIgnoreRule('GET /user $.last_sign_in_at')
 */
export function parseIgnoreRule(source: string): IgnoreRule {
  const text = source.trim()
  if (text === '') throw new IgnoreSyntaxError(source, 'empty rule')
  const routed = ROUTE_PREFIX.exec(text)
  const route = routed ? `${routed[1]} ${routed[2]}` : undefined
  const pathText = routed ? routed[3]!.trim() : text
  if (/\*\*\*/.test(pathText)) throw new IgnoreSyntaxError(source, '"***" is not a wildcard (use * or **)')
  const pattern = toPattern(splitPath(pathText, source))
  return {
    source,
    ...(route ? { route } : {}),
    matches(path, routeKey) {
      if (route !== undefined && route !== routeKey) return false
      // Paths built by the verifier always parse; a failure would be a bug, so it simply does not match.
      let segments: string[]
      try {
        segments = splitPath(path, path)
      } catch {
        return false
      }
      return matchSegments(pattern, segments)
    },
  }
}

/**
 * Parses every rule.
 * @throws IgnoreSyntaxError for the first bad rule.
 */
export function parseIgnoreRules(sources: readonly string[]): IgnoreRule[] {
  return sources.map(parseIgnoreRule)
}
