/**
 * What the CLI build does to keep `fakelab serve`'s resident memory down (issue 39 item 5), checked
 * on dist/ (which `npm test` builds first) in child processes, so that no global of this process is
 * touched: cron-parser's vendor bundle sets its luxon's default locale, so the first cron parsed (a
 * freeze period or pipeline schedule) does not create an `Intl.DateTimeFormat`, whose first use maps
 * about 6 MB of ICU's locale data; a zone other than UTC still needs ICU, for its offsets.
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url))
const CHILD_TIMEOUT_MS = 15_000

/** How many `Intl.DateTimeFormat`s the CLI's cron-parser creates for its first next time of `0 23 * * 5` in `zone`. */
function dateFormatsMade(zone: string): number {
  const script = `
    const Real = Intl.DateTimeFormat
    let made = 0
    Intl.DateTimeFormat = class extends Real { constructor(...args) { super(...args); made += 1 } }
    const { CronExpressionParser } = require(${JSON.stringify(join(DIST, 'vendor', 'cron-parser.cjs'))})
    const next = CronExpressionParser.parse('0 23 * * 5', { tz: ${JSON.stringify(zone)}, currentDate: new Date(0) }).next().toDate()
    process.stdout.write(JSON.stringify({ made, next: next.toISOString() }))
  `
  const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: CHILD_TIMEOUT_MS })
  expect(run.stderr).toBe('')
  const { made, next } = JSON.parse(run.stdout) as { made: number; next: string }
  expect(next).toBe(zone === 'UTC' ? '1970-01-02T23:00:00.000Z' : '1970-01-02T22:00:00.000Z')
  return made
}

describe("the CLI's cron-parser (dist/vendor/cron-parser.cjs)", () => {
  it('reads a UTC cron without creating a date format (no ICU locale data)', () => {
    expect(dateFormatsMade('UTC')).toBe(0)
  })

  it('still asks ICU for the offsets of another zone', () => {
    expect(dateFormatsMade('Europe/Berlin')).toBeGreaterThan(0)
  })
})
