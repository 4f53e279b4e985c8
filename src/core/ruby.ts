/**
 * Ruby and ActiveSupport value semantics that GitLab's behaviour rests on, in one place: what
 * `blank?` and `present?` call empty, what `String#to_i` makes of an id, what `String#strip` strips,
 * how `String#inspect` quotes a string.
 * Areas call these instead of writing their own regular expressions, so a difference from Ruby is
 * fixed once. Source: Ruby 2.7 `String#to_i`, `String#strip`; ActiveSupport
 * `active_support/core_ext/object/blank.rb`.
 * @module
 */

/**
 * ActiveSupport's `String::BLANK_RE`, `/\A[[:space:]]*\z/`: Onigmo's `[[:space:]]` on a UTF-8
 * string is the Unicode space separators plus tab, line feed, vertical tab, form feed, carriage
 * return, NEL (U+0085) and the line and paragraph separators. (JavaScript's `\s` differs: it
 * includes U+FEFF and leaves out U+0085.)
 */
const BLANK_STRING = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/

/**
 * ActiveSupport `Object#blank?`: `nil`, `false`, a string of only whitespace (see
 * {@link BLANK_STRING}), an empty array or an empty hash. Numbers and `true` are never blank.
 * @param value a parameter or attribute value (`undefined` stands for Ruby's `nil`).
 */
export function blank(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return true
  if (typeof value === 'string') return BLANK_STRING.test(value)
  if (Array.isArray(value)) return value.length === 0
  if (typeof value === 'object') return Object.keys(value).length === 0
  return false
}

/** ActiveSupport `Object#present?`: not {@link blank}. Narrows a string parameter to `string`. */
export function present<T>(value: T | null | undefined): value is T {
  return !blank(value)
}

/**
 * Ruby's `String#to_i`, which is what ActiveRecord's `find` / `find_by_id` make of an id that no
 * Grape declaration coerced: the leading integer (underscores allowed between digits), else 0.
 * `"12abc"` → 12, `"1_000"` → 1000, `"bug"` → 0 (never found). Numbers pass through, truncated.
 */
export function rubyToI(value: unknown): number {
  if (typeof value === 'number') return Math.trunc(value)
  const match = /^\s*([-+]?\d+(?:_\d+)*)/.exec(String(value ?? ''))
  return match ? Number(match[1]!.replaceAll('_', '')) : 0
}

/**
 * Ruby's `String#strip`: ASCII whitespace (tab, line feed, vertical tab, form feed, carriage
 * return, space) at both ends, and NUL bytes at the end. Unicode spaces are kept.
 */
export function rubyStrip(value: string): string {
  // A loop, not `/[\s]+$/`: a backtracking engine re-runs that regex from every whitespace
  // position, which is quadratic on a long run of spaces followed by anything else.
  let start = 0
  let end = value.length
  while (start < end && isStripSpace(value.charCodeAt(start))) start++
  while (end > start && (isStripSpace(value.charCodeAt(end - 1)) || value.charCodeAt(end - 1) === 0)) end--
  return start === 0 && end === value.length ? value : value.slice(start, end)
}

/** Ruby's `strip` whitespace: tab, line feed, vertical tab, form feed, carriage return, space. */
function isStripSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d)
}

/**
 * `value` without trailing occurrences of `char` (a one-character string), in linear time.
 * @example trimEndChar('0 0 * * *   ', ' ') // '0 0 * * *'
 */
export function trimEndChar(value: string, char: string): string {
  let end = value.length
  while (end > 0 && value[end - 1] === char) end--
  return end === value.length ? value : value.slice(0, end)
}

/**
 * ActiveSupport `String#squish`: every run of whitespace (Unicode, as {@link blank} counts it)
 * becomes one space, and the ends are stripped.
 */
export function squish(value: string): string {
  return value.replace(/[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g, ' ').trim()
}

/**
 * `String#inspect` as Ruby 2.7 prints it: double quotes, with `\`, `"`, control characters and
 * `#{` / `#$` / `#@` escaped.
 */
export function rubyInspect(value: string): string {
  let out = ''
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!
    const next = value[i + 1]
    if (ch === '\\' || ch === '"') out += `\\${ch}`
    else if (ch === '#' && (next === '{' || next === '$' || next === '@')) out += '\\#'
    else if (ch === '\n') out += '\\n'
    else if (ch === '\t') out += '\\t'
    else if (ch === '\r') out += '\\r'
    else if (ch === '\u001b') out += '\\e'
    else if (ch < ' ' || ch === '\u007f') out += `\\x${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`
    else out += ch
  }
  return `"${out}"`
}

/**
 * Rails' `Array#to_sentence` (English defaults): `[]` → `""`, `[a]` → `a`, `[a, b]` → `a and b`,
 * `[a, b, c]` → `a, b, and c`. GitLab joins model error messages with it
 * (`errors.full_messages.to_sentence`). Source: activesupport core_ext/array/conversions.rb.
 */
export function toSentence(words: readonly string[]): string {
  if (words.length <= 1) return words[0] ?? ''
  if (words.length === 2) return `${words[0]} and ${words[1]}`
  return `${words.slice(0, -1).join(', ')}, and ${words[words.length - 1]}`
}

/**
 * ActiveSupport `String#parameterize` (separator `-`, lower case), which GitLab uses to derive a
 * project's path from its name (`Projects::CreateService#set_project_name_from_path`):
 * transliterate to ASCII (accents dropped, anything else becomes `?`), replace every run of
 * characters other than letters, digits, `-` and `_` with `-`, squeeze repeated `-`, strip a
 * leading or trailing `-`, downcase. `"My Project!"` → `"my-project"`, `"Ünïcödé"` → `"unicode"`.
 * Source: activesupport/lib/active_support/inflector/transliterate.rb.
 */
export function parameterize(value: string): string {
  const ascii = value
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x00-\x7f]/gu, '?')
  return ascii
    .replace(/[^a-z0-9\-_]+/gi, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase()
}

/**
 * ActiveModel `errors.messages.inspect` on Ruby 2.7, as GitLab pastes it into messages such as
 * `Failed to save group {:path=>["has already been taken"]}`: attributes as symbols (quoted when
 * they are not plain words, `:"route.path"`), messages as {@link rubyInspect} strings.
 * @param errors attribute → messages, in the order they were added.
 */
export function rubyInspectErrors(errors: Iterable<readonly [string, readonly string[]]>): string {
  const pairs = [...errors].map(([attribute, messages]) => {
    const symbol = /^[A-Za-z_][A-Za-z0-9_]*$/.test(attribute) ? `:${attribute}` : `:${rubyInspect(attribute)}`
    return `${symbol}=>[${messages.map(rubyInspect).join(', ')}]`
  })
  return `{${pairs.join(', ')}}`
}
