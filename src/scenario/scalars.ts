/**
 * The scalar field types every area's part of the scenario format uses: dates, timestamps, ids,
 * paths and visibility, with messages in the scenario's words. Source: STYLE.md §10; GitLab's path
 * format (`Gitlab::PathRegex`), Rails date and time columns.
 * @module
 */
import { z } from 'zod'
import { isoTimestamp } from './iso-time.js'

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2}))?$/
const PATH = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/
const PATH_HINT = 'letters, digits, "_", "-" and ".", not starting with "-" or "." nor ending in ".git" or ".atom"'

function isCalendarDate(value: string): boolean {
  const m = DATE.exec(value)
  if (!m) return false
  const date = new Date(`${value}T00:00:00.000Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value)
}

/** Whether {@link pathSchema} accepts `value`. */
export function isPath(value: string): boolean {
  return PATH.test(value) && !/\.(git|atom)$/i.test(value)
}

/** A calendar date, `YYYY-MM-DD` (unquoted in YAML is fine: YAML 1.2 reads it as a string). */
export const dateSchema = z
  .string()
  .refine(isCalendarDate, { error: (issue) => `must be a date (YYYY-MM-DD); got ${JSON.stringify(issue.input)}` })

/**
 * An instant, ISO 8601 with an explicit offset (`2021-04-01T12:00:00Z`, `…+02:00`) or a bare date
 * (midnight UTC). Normalised to `toISOString()` form (`2021-04-01T12:00:00.000Z`), the store's
 * `Timestamp`. A time without an offset is refused: it would depend on the machine's time zone.
 */
export const timestampSchema = z
  .string()
  .refine(isTimestamp, {
    error: (issue) =>
      `must be an ISO 8601 timestamp with an offset (2021-04-01T12:00:00Z) or a date; got ${JSON.stringify(issue.input)}`,
  })
  .transform(normalTimestamp)

/** Whether {@link timestampSchema} accepts `s`. */
export function isTimestamp(s: string): boolean {
  return TIMESTAMP.test(s) && !Number.isNaN(instant(s))
}

/** What {@link timestampSchema} makes of a timestamp it accepts (see {@link isTimestamp}). */
export function normalTimestamp(s: string): string {
  const normal = isoTimestamp(instant(s))
  // Most scenarios write the normal form already: keep the given string, not an equal copy.
  return normal === s ? s : normal
}

/** The last string {@link instant} read, and its instant. */
let lastText = ''
let lastMs = Number.NaN

/**
 * The instant a timestamp names, in ms (NaN when `Date` cannot read it). The refinement and the
 * transform ask for the same string one after the other: the last answer is kept for the second
 * ask, halving the parsing of the 270,000 timestamps of the scale scenario (issue 13).
 */
function instant(s: string): number {
  if (s !== lastText) {
    lastText = s
    lastMs = Date.parse(s.length === 10 ? `${s}T00:00:00Z` : s)
  }
  return lastMs
}

/** A positive integer record id. */
export const idSchema = z.int().positive()

/** A positive integer internal id (`iid`), unique per project or group. */
export const iidSchema = z.int().positive()

/** A username, group path or project path segment (GitLab's path format). */
export const pathSchema = z.string().refine(isPath, {
  error: (issue) => `must be a path (${PATH_HINT}); got ${JSON.stringify(issue.input)}`,
})

/** Whether {@link fullPathSchema} accepts `s`. */
export function isFullPath(s: string): boolean {
  return s.split('/').every(isPath)
}

/** A group full path (`acme/platform`) or, for `namespace`, a username. */
export const fullPathSchema = z.string().refine(isFullPath, {
  error: (issue) => `must be a full path such as "acme/platform"; got ${JSON.stringify(issue.input)}`,
})

/** `public`, `internal` or `private`. */
export const visibilitySchema = z.enum(['public', 'internal', 'private'])
