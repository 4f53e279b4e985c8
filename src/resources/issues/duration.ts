/**
 * GitLab's human duration parser for time tracking (`Gitlab::TimeTrackingFormatter.parse`, built on
 * gitlab-chronic-duration with 8-hour days and 20-day months). Rendering is
 * `humanTimeDuration` in src/entities/issuable.ts.
 * Source: gitlab-behaviour.md §5; gitlab: lib/gitlab/time_tracking_formatter.rb; chronic_duration
 * (`cleanup`, `filter_by_type`, `filter_through_white_list`, `calculate_from_words`).
 * @module
 */

const MINUTE = 60
const HOUR = 3600
/** GitLab's `hours_per_day: 8`. */
const DAY = 8 * HOUR
/** `days_per_month: 20`, and a week is a quarter month: 5 days. */
const MONTH = 20 * DAY
const WEEK = MONTH / 4
/** ChronicDuration's year: 365.25 days of 24 hours (not working days). */
const YEAR = 31_557_600

/** Seconds per unit, by ChronicDuration's unit name. */
const UNIT_SECONDS: Record<string, number> = {
  seconds: 1,
  minutes: MINUTE,
  hours: HOUR,
  days: DAY,
  weeks: WEEK,
  months: MONTH,
  years: YEAR,
}

/** Every accepted spelling → unit (ChronicDuration `mappings`). */
const MAPPINGS: Record<string, string> = {}
for (const [unit, words] of Object.entries({
  seconds: ['seconds', 'second', 'secs', 'sec', 's'],
  minutes: ['minutes', 'minute', 'mins', 'min', 'm'],
  hours: ['hours', 'hour', 'hrs', 'hr', 'h'],
  days: ['days', 'day', 'dy', 'd'],
  weeks: ['weeks', 'week', 'wks', 'wk', 'w'],
  months: ['months', 'month', 'mos', 'mo'],
  years: ['years', 'year', 'yrs', 'yr', 'y'],
})) {
  for (const word of words) MAPPINGS[word] = unit
}

/** `h:m:s` parts, right to left (weeks are skipped in this form). */
const COLON_UNITS = ['seconds', 'minutes', 'hours', 'days', 'months', 'years']
/** ChronicDuration's `float_matcher`. */
const FLOAT = /[0-9]*\.?[0-9]+/
const FLOAT_GLOBAL = /[0-9]*\.?[0-9]+/g
const COLON_FORM = /^[0-9]*\.?[0-9]+(:[0-9]*\.?[0-9]+)+$/

/** `filter_by_type`: `2:30` becomes `2 minutes 30 seconds`; null when it has too many parts. */
function expandColonForm(text: string): string | null {
  const compact = text.replace(/ /g, '')
  if (!COLON_FORM.test(compact)) return text
  const parts = compact.split(':').reverse()
  if (parts.length > COLON_UNITS.length) return null
  return parts
    .map((value, i) => `${value} ${COLON_UNITS[i]}`)
    .reverse()
    .join(' ')
}

/** `filter_through_white_list`: numbers and unit words stay (units normalised), the rest goes. */
function whiteList(text: string): string[] {
  const out: string[] = []
  for (const word of text.split(' ')) {
    if (word === '') continue
    if (FLOAT.test(word)) {
      out.push(word)
      continue
    }
    const stripped = word.replace(/^,/, '').replace(/,$/, '')
    const unit = MAPPINGS[stripped]
    if (unit !== undefined) out.push(unit)
    // Anything else (`and`, `with`, `plus`, unknown words) is dropped: raise_exceptions is off.
  }
  // A leading unit without a number counts once: `hour` is one hour.
  if (out.length > 0 && UNIT_SECONDS[out[0]!] !== undefined) out.unshift('1')
  return out
}

/**
 * Parses a human duration into seconds the way GitLab 13.x does: a leading `-` negates; a bare
 * number is hours; decimals allowed (`1.5h`); units glued or spaced (`1h30m`, `1 hour 30 minutes`);
 * unknown words ignored; `2:30` is read right to left from seconds. A total of 0 (including input
 * with no number at all) is invalid.
 * Fractions of a second are dropped, as the integer column does.
 * @returns seconds, or null for an invalid duration (GitLab's `nil`).
 * @example parseDuration('1w 2d') // 201600
 * @example parseDuration('-30m') // -1800
 * @example parseDuration('foo') // null
 */
export function parseDuration(input: string): number | null {
  const negative = input.startsWith('-')
  const text = negative ? input.slice(1) : input
  const expanded = expandColonForm(text.toLowerCase())
  if (expanded === null) return null
  const spaced = expanded.replace(FLOAT_GLOBAL, (n) => ` ${n} `).replace(/ +/g, ' ').trim()
  const words = whiteList(spaced)
  let seconds = 0
  words.forEach((word, k) => {
    if (!FLOAT.test(word)) return
    const next = words[k + 1]
    const unit = next !== undefined && UNIT_SECONDS[next] !== undefined ? next : 'hours'
    seconds += Number.parseFloat(word) * UNIT_SECONDS[unit]!
  })
  const whole = Math.trunc(seconds)
  if (seconds === 0) return null
  return negative ? -whole : whole
}
