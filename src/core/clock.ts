/**
 * The injected clock. Everything time-dependent (timestamps, runner `online`, milestone `expired`,
 * token expiry) reads `clock.now()`, so a scenario with `now:` gives the same bytes on every run.
 * @module
 */

/** A source of the current time. */
export interface Clock {
  /** The current instant. */
  now(): Date
}

/** A clock frozen at `start` that moves only when told (`advance`, `set`). */
export interface ManualClock extends Clock {
  /** Moves the clock forward by `ms` milliseconds. */
  advance(ms: number): void
  /** Sets the clock to an instant. */
  set(instant: Date | string): void
}

/** The wall clock. */
export const systemClock: Clock = { now: () => new Date() }

/** Node's `process.hrtime`, where there is one (not in browsers or MSW's browser door). */
const hrtime = (globalThis as { process?: { hrtime?: { bigint?: () => bigint } } }).process?.hrtime

/**
 * A monotonic time in milliseconds (fractional) from an arbitrary origin, for durations
 * (`JournalEntry.durationMs`). Node's `process.hrtime.bigint()` where it exists: in node the first
 * read of the `performance` global loads perf_hooks, 0.7 ms of every CLI start's first request
 * (issue 27); `performance.now()` elsewhere.
 */
export const monotonicMs: () => number = hrtime?.bigint ? () => Number(hrtime.bigint!()) / 1e6 : () => performance.now()

/**
 * A clock frozen at `start` (a `Date` or an ISO 8601 string).
 * @throws RangeError for an unparsable start.
 */
export function frozenClock(start: Date | string): ManualClock {
  // Kept as a number: a request asks `now()` half a dozen times, and a `Date` made from a number
  // costs less than one copied from a `Date`. Each call still gets its own `Date` (callers may change it).
  let current = toDate(start).getTime()
  return {
    now: () => new Date(current),
    advance: (ms) => {
      // Through a Date, so that an instant past its range stays invalid as before.
      current = new Date(current + ms).getTime()
    },
    set: (instant) => {
      current = toDate(instant).getTime()
    },
  }
}

function toDate(value: Date | string): Date {
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) throw new RangeError(`invalid instant: ${String(value)}`)
  return date
}

/** ISO 8601 UTC with milliseconds, as Rails serialises timestamps: `2021-03-31T17:28:44.812Z`. */
export function timestamp(date: Date): string {
  return date.toISOString()
}

/** The UTC calendar date `YYYY-MM-DD` of an instant (GitLab `Date.today` on a UTC server). */
export function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10)
}
