/**
 * Cron expressions as GitLab 13.x validates them for deploy freeze periods (time zones:
 * `cron-timezone.ts`).
 *
 * GitLab's check (gitlabhq:lib/gitlab/ci/cron_parser.rb, 13.x) is "does fugit 1.2 parse it":
 * `cron_valid?` parses `"#{cron} UTC"` and `cron_timezone_valid?` parses `"* * * * * #{zone}"`
 * with `Fugit::Cron.parse`, after mapping an ActiveSupport zone name (`"Eastern Time (US & Canada)"`)
 * to its TZInfo identifier. We parse with the `cron-parser` library and add only what is needed to
 * accept and reject what fugit does: fugit's token grammar in front (cron-parser is more lenient),
 * a translation of the few fugit-only forms into cron-parser syntax, and fugit's "February 30" rule.
 *
 * Known differences from GitLab (all rare):
 * - `*\/0`, `1-5/0`, `/0` outside day-of-week make fugit raise (GitLab answers 500); here they are
 *   simply invalid. fugit accepts `/0` in day-of-week (read as `/1`), and so do we.
 * - Which fugit 1.2 details hold for `%` modulo day-of-week and `25-L` ranges was inferred from
 *   fugit's changelog, not from the 1.2 source.
 * @module
 */
import { CronExpressionParser } from 'cron-parser'
import { trimEndChar } from '../../core/ruby.js'

type FieldKind = 'second' | 'minute' | 'hour' | 'dayOfMonth' | 'month' | 'dayOfWeek'

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat']

// gitlab: fugit 1.2 Fugit::Cron::Parser: one value per field kind (names only in three letters).
const VALUE: Record<FieldKind, string> = {
  second: '[0-5]?\\d',
  minute: '[0-5]?\\d',
  hour: '2[0-4]|[01]?\\d',
  dayOfMonth: '-?(?:3[01]|[12]\\d|0?[1-9])|last|l',
  month: `1[0-2]|0?[1-9]|${MONTHS.join('|')}`,
  dayOfWeek: `[0-7]|${WEEKDAYS.join('|')}`,
}

/** `*`, `v` or `v-v`, then an optional `/step` (one or two digits); or a bare `/step` (fugit ≥ 1.2.0). */
function elementPattern(kind: FieldKind): RegExp {
  const v = `(?:${VALUE[kind]})`
  return new RegExp(`^(?:\\/(\\d\\d?)|(?:(\\*)|(${v})(?:-(${v}))?)(?:\\/(\\d\\d?))?)$`, 'i')
}

const ELEMENT: Record<FieldKind, RegExp> = {
  second: elementPattern('second'),
  minute: elementPattern('minute'),
  hour: elementPattern('hour'),
  dayOfMonth: elementPattern('dayOfMonth'),
  month: elementPattern('month'),
  dayOfWeek: elementPattern('dayOfWeek'),
}

/** Day of week with `#n` (n-th weekday of the month, `#-1`/`#L` the last) or `%n+m` (every n-th week). */
const WEEKDAY_SPECIAL = new RegExp(`^(${VALUE.dayOfWeek})(?:#(?:-?[1-5]|last|l)|%\\d+(?:\\+\\d+)?)$`, 'i')

/** Longest month lengths, as fugit's `MAXDAYS` (February counts 29). */
const MAX_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

/** A value as a number: names to their index, `L`/`last` to -1 (fugit's "last day"). */
function valueOf(kind: FieldKind, token: string): number {
  const lower = token.toLowerCase()
  if (kind === 'month' && MONTHS.includes(lower)) return MONTHS.indexOf(lower) + 1
  if (kind === 'dayOfWeek' && WEEKDAYS.includes(lower)) return WEEKDAYS.indexOf(lower)
  if (kind === 'dayOfMonth' && lower.startsWith('l')) return -1
  return Number.parseInt(token, 10)
}

/** One list element, parsed. `start === null` with `star === false` is a bare `/step`. */
interface Element {
  star: boolean
  start: number | null
  end: number | null
  step: number | null
  /** A day-of-week `#n` or `%n` element (its day is `start`). */
  special: boolean
}

function parseElement(kind: FieldKind, text: string): Element | null {
  if (kind === 'dayOfWeek') {
    const special = WEEKDAY_SPECIAL.exec(text)
    if (special) return { star: false, start: valueOf(kind, special[1]!), end: null, step: null, special: true }
  }
  const m = ELEMENT[kind].exec(text)
  if (!m) return null
  const [, bareStep, star, start, end, step] = m
  return {
    star: star !== undefined,
    start: start === undefined ? null : valueOf(kind, start),
    end: end === undefined ? null : valueOf(kind, end),
    step: bareStep !== undefined ? Number(bareStep) : step === undefined ? null : Number(step),
    special: false,
  }
}

/**
 * The values a field stands for, as fugit 1.2 expands them, or null for "every value"
 * (`*`, `*\/1` anywhere in the list). Only used for months and days of month.
 */
function expand(elements: Element[], min: number, max: number): number[] | null {
  const out = new Set<number>()
  for (const e of elements) {
    const step = e.step === 1 ? null : e.step
    if (e.start === null && e.end === null && step === null) return null
    if (e.start !== null && e.end === null) {
      out.add(e.start)
      continue
    }
    if (step === 0) return null // fugit raises here (GitLab 500); cron-parser rejects the `/0` later
    let from = e.start ?? min
    let to = e.end ?? max
    if (from > to) [from, to] = [to, from]
    for (let v = from; v <= to; v += step ?? 1) out.add(v)
  }
  return [...out]
}

/** fugit 1.2.1 rejects a month/day pairing that never happens (`0 0 30 2 *`), whatever the weekday. */
function someDayExists(months: Element[], days: Element[]): boolean {
  const monthValues = expand(months, 1, 12)
  const dayValues = expand(days, 1, 31)
  if (monthValues === null || dayValues === null) return true
  return monthValues.some((m) => dayValues.some((d) => d <= (MAX_DAYS[m - 1] ?? 31)))
}

/** The element in cron-parser syntax with the same validity (not always the same schedule). */
function translate(kind: FieldKind, e: Element): string {
  if (e.special) return String(e.start) // n-th weekday / modulo: the day itself is what can be invalid
  const clamp = (v: number) => (kind === 'hour' ? Math.min(v, 23) : v) // fugit reads hour 24 as 0
  const step = kind === 'dayOfWeek' && e.step === 0 ? 1 : e.step // fugit steps weekdays by at least 1
  const suffix = step === null ? '' : `/${step}`
  if (e.star || e.start === null) return `*${suffix}`
  if (kind === 'dayOfMonth' && (e.start < 0 || (e.end ?? 0) < 0)) return 'L'
  if (e.end === null) return String(clamp(e.start)) // fugit: `5/10` is just 5
  const [from, to] = e.start <= e.end ? [e.start, e.end] : [e.end, e.start] // fugit swaps `30-20`
  return `${clamp(from)}-${clamp(to)}${suffix}`
}

/**
 * Whether GitLab 13.x accepts `expression` as a freeze period cron (`CronValidator`): what fugit 1.2
 * parses when given `"<expression> UTC"`. Five fields (minute hour day-of-month month day-of-week) or
 * six (seconds first); `*`, values, ranges (`1-5`, reversed ones too), steps (`*\/15`, `/15`, two digits
 * at most), comma lists; three-letter month and weekday names in any case; day of month `L`, `last` or
 * negative (from the end); hour 24 (midnight); weekday `#n`, `#L` and `%n+m`.
 * Rejected: macros such as `@daily`, `?`, `H`, `W`, `5L`, a time zone inside the expression,
 * leading whitespace, empty list items, and day/month pairs that never occur (`0 0 30 2 *`).
 * The caller strips surrounding whitespace first, as GitLab's model does (`strip_attributes`).
 * @param expression the cron text as stored.
 * @returns true when GitLab would store it.
 */
export function isValidCron(expression: string): boolean {
  // `"#{cron} UTC"`: spaces may precede the appended zone; anything else must be a field.
  const body = trimEndChar(expression, ' ') // a loop: `/ +$/` is quadratic on long inner runs of spaces
  if (body === '' || /^[ \t]/.test(body) || /\t$/.test(body)) return false
  const fields = body.split(/[ \t]+/)
  const kinds: FieldKind[] =
    fields.length === 6
      ? ['second', 'minute', 'hour', 'dayOfMonth', 'month', 'dayOfWeek']
      : fields.length === 5
        ? ['minute', 'hour', 'dayOfMonth', 'month', 'dayOfWeek']
        : []
  if (kinds.length === 0) return false
  const parsed: Element[][] = []
  for (const [i, kind] of kinds.entries()) {
    const elements = fields[i]!.split(',').map((text) => parseElement(kind, text))
    if (elements.some((e) => e === null)) return false
    parsed.push(elements as Element[])
  }
  const offset = kinds.length - 5
  if (!someDayExists(parsed[offset + 3]!, parsed[offset + 2]!)) return false
  const translated = kinds.map((kind, i) => parsed[i]!.map((e) => translate(kind, e)).join(',')).join(' ')
  try {
    CronExpressionParser.parse(translated, { tz: 'UTC', currentDate: new Date(0) })
    return true
  } catch {
    return false
  }
}

/**
 * The first time after `from` that a valid cron expression names in a zone
 * (`Gitlab::Ci::CronParser#next_time_from`), read by cron-parser.
 * spec-gap: fugit-only forms (`#L`, `%n+m`, negative days) that cron-parser reads differently give
 * cron-parser's time; undefined when it cannot read the expression at all.
 * @param zone an IANA zone or `UTC+05:30` (`cronZoneName`).
 */
export function nextCronTime(expression: string, zone: string, from: Date): Date | undefined {
  try {
    return CronExpressionParser.parse(expression.trim(), { tz: zone, currentDate: from }).next().toDate()
  } catch {
    return undefined
  }
}
