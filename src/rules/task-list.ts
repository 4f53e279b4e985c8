/**
 * Task list items of an issue or merge request description, counted as GitLab 13.x's `Taskable`
 * does: `description.scan(ITEM_PATTERN)` with
 *
 * ```ruby
 * ITEM_PATTERN = %r{
 *   ^
 *   (?:(?:>\s{0,4})*)             # optional blockquote characters
 *   ((?:\s*(?:[-+*]|(?:\d+\.)))+) # list prefix (one or more) required
 *   \s+                           # whitespace prefix
 *   (\[\s\]|\[[xX]\])             # checkbox
 *   (\s.+)                        # followed by whitespace and some text.
 * }x
 * ```
 *
 * in Ruby's regex dialect: `^` starts every line, `\s` is `[ \t\n\v\f\r]` (so a prefix may run
 * over line breaks, and `[\n]` is an empty checkbox), `.` is anything but `\n`.
 *
 * Run as a backtracking regex this is quadratic (a long run of `>` lines is re-read from every line
 * start), so it is decided here in one pass each way instead. Everything between a line start and
 * the checkbox must be prefix characters (`>`, whitespace, `-+*`, digits, `.`), so the checkbox can
 * only sit at the first other character; whether the prefix itself has the pattern's shape is a
 * regular language, decided for every position at once by a right-to-left automaton.
 * Source: gitlab: app/models/concerns/taskable.rb (13.x), task_list gem `TaskList::Summary`.
 * @module
 */

/** Ruby's `\s`: space, tab, line feed, vertical tab, form feed, carriage return. */
const isSpace = (c: number): boolean => c === 0x20 || (c >= 0x09 && c <= 0x0d)
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39
const isBullet = (c: number): boolean => c === 0x2d || c === 0x2b || c === 0x2a
/** Characters that can appear before the checkbox. */
const isPrefixChar = (c: number): boolean => isSpace(c) || isBullet(c) || isDigit(c) || c === 0x2e || c === 0x3e

// States of the automaton reading a prefix right to left (the reversed pattern
// `\s+ (M \s*)+ (\s{0,4} >)*`, with M = [-+*] or \d+\.).
const DEAD = 0
const START = 1 // nothing read yet
const SPACES = 2 // the trailing \s+
const DOT = 3 // a `.` that needs digits before it
const NUMBER = 4 // digits before a `.`: a complete marker, more digits may precede  (accepting)
const MARKER = 5 // a complete bullet marker  (accepting)
const GAP = 6 // whitespace between markers  (accepting)
const QUOTE = 7 // a `>` of the blockquote part  (accepting)
// 8..11: 1..4 whitespace characters read before a `>`, which needs another `>` before them.
const QUOTE_SPACE_1 = 8

function step(state: number, c: number): number {
  switch (state) {
    case START:
      return isSpace(c) ? SPACES : DEAD
    case SPACES:
      return isSpace(c) ? SPACES : isBullet(c) ? MARKER : c === 0x2e ? DOT : DEAD
    case DOT:
      return isDigit(c) ? NUMBER : DEAD
    case NUMBER:
    case MARKER:
    case GAP:
      if (isDigit(c)) return state === NUMBER ? NUMBER : DEAD
      return isSpace(c) ? GAP : isBullet(c) ? MARKER : c === 0x2e ? DOT : c === 0x3e ? QUOTE : DEAD
    case QUOTE:
      return c === 0x3e ? QUOTE : isSpace(c) ? QUOTE_SPACE_1 : DEAD
    default:
      if (state >= QUOTE_SPACE_1) {
        if (c === 0x3e) return QUOTE
        return isSpace(c) && state < QUOTE_SPACE_1 + 3 ? state + 1 : DEAD
      }
      return DEAD
  }
}

const accepting = (state: number): boolean => state >= NUMBER && state <= QUOTE

/**
 * `task_completion_status`: `{count, completed_count}` of the task list items in `description`.
 * Linear in the length of the description.
 * @example taskCompletion('- [x] done\n- [ ] todo') // { count: 2, completed_count: 1 }
 */
export function taskCompletion(description: string | null): { count: number; completed_count: number } {
  const text = description ?? ''
  const n = text.length
  let count = 0
  let completed = 0
  if (!text.includes('[')) return { count, completed_count: completed }
  // prefixOk[i]: the text from i up to the next non-prefix character has the pattern's prefix shape.
  // nextStop[i]: that next non-prefix character's index (n when there is none).
  const prefixOk = new Uint8Array(n + 1)
  const nextStop = new Uint32Array(n + 1)
  let state = START
  let stop = n
  nextStop[n] = n
  for (let i = n - 1; i >= 0; i--) {
    const c = text.charCodeAt(i)
    if (!isPrefixChar(c)) {
      state = START
      stop = i
    } else {
      state = state === DEAD ? DEAD : step(state, c)
      prefixOk[i] = accepting(state) ? 1 : 0
    }
    nextStop[i] = stop
  }
  let lineStart = 0
  while (lineStart < n) {
    const q = nextStop[lineStart]!
    let matchEnd = -1
    if (prefixOk[lineStart] && q + 4 < n && isCheckbox(text, q)) {
      const newline = text.indexOf('\n', q + 4)
      matchEnd = newline < 0 ? n : newline
      count++
      if (text[q + 1] === 'x' || text[q + 1] === 'X') completed++
    }
    // Continue at the next line start at or after the match end (Ruby's scan), or after this line.
    const from = matchEnd >= 0 ? matchEnd : lineStart
    const newline = text.indexOf('\n', from)
    if (newline < 0) break
    lineStart = newline + 1
  }
  return { count, completed_count: completed }
}

/** `(\[\s\]|\[[xX]\])(\s.+)` at `q`: a checkbox, one whitespace character, then a non-newline. */
function isCheckbox(text: string, q: number): boolean {
  const inner = text.charCodeAt(q + 1)
  return (
    text.charCodeAt(q) === 0x5b &&
    (isSpace(inner) || inner === 0x78 || inner === 0x58) &&
    text.charCodeAt(q + 2) === 0x5d &&
    isSpace(text.charCodeAt(q + 3)) &&
    text.charCodeAt(q + 4) !== 0x0a
  )
}
