/**
 * Issue 6 defect 4: every text transformation runs in linear time.
 *
 * The argument is structural: the text modules scan their input with loops that only move forward
 * (HTML5 tree construction is parse5's, which answers stack questions from indexes), and every
 * regular expression they still use is one that a backtracking engine runs in linear time. The first test keeps it
 * that way: a new regular expression in these modules fails it until it is reviewed and listed
 * with its reason. The second test is a safety net with generous bounds: inputs of 256 KB that made
 * the old regular expressions take seconds to hours must each finish well within two seconds
 * (they take a few to a few hundred milliseconds).
 */
import { readFileSync } from 'node:fs'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { isValidCron } from '../../src/resources/freeze-periods/cron.js'
import { isValidCronTimezone } from '../../src/resources/freeze-periods/cron-timezone.js'
import { rubyStrip } from '../../src/core/ruby.js'
import { sanitizeHtml } from '../../src/rules/sanitize.js'
import { renderSingleLine } from '../../src/rules/single-line.js'
import { taskCompletion } from '../../src/rules/task-list.js'

const TEXT_MODULES = [...['sanitize', 'single-line', 'task-list'].map((name) => `src/rules/${name}.ts`), 'src/core/ruby.ts']

/** Reviewed regular expressions, by source text, and why each is linear. */
const REVIEWED: Record<string, string> = {
  // sanitize.ts (preprocessing)
  '/[\\u0001-\\u0008\\u000b\\u000e-\\u001f\\u007f-\\u009f\\ufdd0-\\ufdef\\ufffe\\uffff\\u{1fffe}\\u{1ffff}\\u{2fffe}\\u{2ffff}\\u{3fffe}\\u{3ffff}\\u{4fffe}\\u{4ffff}\\u{5fffe}\\u{5ffff}\\u{6fffe}\\u{6ffff}\\u{7fffe}\\u{7ffff}\\u{8fffe}\\u{8ffff}\\u{9fffe}\\u{9ffff}\\u{afffe}\\u{affff}\\u{bfffe}\\u{bffff}\\u{cfffe}\\u{cffff}\\u{dfffe}\\u{dffff}\\u{efffe}\\u{effff}\\u{ffffe}\\u{fffff}\\u{10fffe}\\u{10ffff}]/gu':
    'one character class, one character per match',
  '/[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]/g': 'one character with one-character look-around',
  '/\\r\\n?/g': 'fixed length',
  '/[<&\\0\\r\\u0001-\\u0008\\u000b\\u000e-\\u001f\\u007f-\\u00a0\\ud800-\\udfff\\ufdd0-\\ufdef\\ufffe\\uffff]/':
    'one character class (fast-path test)',
  // single-line.ts
  '/^[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]*$/':
    'anchored at the start, one class repeated: fails at the first other character',
  '/[&<>:]/': 'one character class',
  '/[^a-z+.-]+/g': 'a run of one class with nothing after it: no backtracking',
  // ruby.ts
  '/^\\s*([-+]?\\d+(?:_\\d+)*)/': 'anchored at the start; `_` separates the digit runs, so each character has one reading',
  '/[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]+/g':
    'a run of one class with nothing after it: no backtracking',
  // ruby.ts `parameterize` and `rubyInspectErrors` (arrange-directory)
  '/\\p{M}/gu': 'one character class',
  '/[^\\x00-\\x7f]/gu': 'one character class',
  '/[^a-z0-9\\-_]+/gi': 'a run of one class with nothing after it: no backtracking',
  '/-{2,}/g': 'a run of one character with nothing after it',
  '/^-|-$/g': 'two fixed-length alternatives',
  '/^[A-Za-z_][A-Za-z0-9_]*$/': 'anchored, one class then a run of one class to the end: each character has one reading',
}

function regexesIn(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
  const found: string[] = []
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) found.push(node.getText(source))
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'RegExp') {
      found.push(`new RegExp in ${file}: one character class built from Addressable's classes`)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

describe('text modules', () => {
  it('use only reviewed, linear regular expressions', () => {
    const found = TEXT_MODULES.flatMap(regexesIn)
    const unreviewed = found.filter((re) => !Object.hasOwn(REVIEWED, re) && !re.startsWith('new RegExp in src/rules/single-line.ts'))
    expect(unreviewed).toEqual([])
    // And the list does not rot: every reviewed expression is still in use.
    expect(Object.keys(REVIEWED).filter((re) => !found.includes(re))).toEqual([])
  })
})

describe('adversarial inputs of 256 KB', () => {
  const SIZE = 256 * 1024
  const fill = (piece: string): string => piece.repeat(Math.ceil(SIZE / piece.length)).slice(0, SIZE)
  const transforms: [string, (text: string) => unknown][] = [
    ['sanitizeHtml', sanitizeHtml],
    ['renderSingleLine', (text) => renderSingleLine(text, 'http://gitlab.test')],
    ['taskCompletion', taskCompletion],
    ['rubyStrip', rubyStrip],
    ['isValidCron', isValidCron],
    ['isValidCronTimezone', isValidCronTimezone],
  ]
  const pieces = [
    '<script', '<div>', '<span>', '<li>', '<b>', '</x>', '</p>', '<!--', '<a b=\'', '<p><svg>', '<table>', '<select>',
    '<template>', '<script><!--<script>', '&#', '&#9999999999', '&amp', '[a', '>\n', '- [ ', 'a://', 'http://x/&', ' ',
    'x ', '\u00a0', '-->',
  ]
  it.each(transforms.flatMap(([name, fn]) => pieces.map((piece) => [name, piece, fn] as const)))(
    '%s on %j repeated finishes within two seconds',
    (_, piece, fn) => {
      const text = fill(piece) + 'x'
      const started = performance.now()
      fn(text)
      expect(performance.now() - started).toBeLessThan(2_000)
    },
  )
})
