/**
 * Ruby `String` whitespace semantics, written as loops so they stay linear on any input (a regex
 * such as `/\s+$/` is re-run from every whitespace position by a backtracking engine, which is
 * quadratic on a long run of spaces followed by anything else).
 * @module
 */

/** Ruby's `strip` whitespace: tab, line feed, vertical tab, form feed, carriage return, space. */
const isStripSpace = (c: number): boolean => c === 0x20 || (c >= 0x09 && c <= 0x0d)

/**
 * Ruby's `String#strip` (2.7): ASCII whitespace removed from both ends, and NUL from the end only.
 * Unlike JavaScript's `trim`, Unicode spaces such as U+00A0 or U+3000 are kept.
 * @example rubyStrip('\t a b \0') // 'a b'
 */
export function rubyStrip(value: string): string {
  let start = 0
  let end = value.length
  while (start < end && isStripSpace(value.charCodeAt(start))) start++
  while (end > start && (isStripSpace(value.charCodeAt(end - 1)) || value.charCodeAt(end - 1) === 0)) end--
  return start === 0 && end === value.length ? value : value.slice(start, end)
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
