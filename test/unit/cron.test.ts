/**
 * What GitLab 13.x accepts as a freeze period cron and time zone (fugit 1.2 through
 * Gitlab::Ci::CronParser), as reproduced by src/resources/freeze-periods/cron.ts (on top of cron-parser) and cron-timezone.ts.
 */
import { describe, expect, it } from 'vitest'
import { isValidCronTimezone } from '../../src/resources/freeze-periods/cron-timezone.js'
import { isValidCron } from '../../src/resources/freeze-periods/cron.js'

describe('isValidCron', () => {
  it.each([
    // GitLab's own examples (freeze_periods_spec.rb, cron_parser_spec.rb, the API docs)
    ['0 23 * * 5', 'weekly start'],
    ['0 7 * * 1', 'weekly end'],
    ['5 4 * * sun', 'weekday name'],
    ['0 0 24 12 *', 'yearly date'],
    ['3 4 5 6 *', 'specific time'],
    ['* * * * 0', 'Sunday as 0'],
    ['*/10 */6 */10 */10 *', 'steps everywhere'],
    ['0,20,40 * 1-5 * *', 'list and range'],
    ['3-59/10 * * * *', 'range with step'],
    ['* * * * *', 'every minute'],
    // fugit syntax
    ['0 0 23 * * 5', 'six fields: seconds first'],
    ['/15 * * * *', 'bare step (fugit ≥ 1.2.0)'],
    ['5/10 * * * *', 'value with step'],
    ['*/99 * * * *', 'two-digit step wider than the field'],
    ['30-20 * * * *', 'reversed range'],
    ['0 0 * * fri-mon', 'reversed weekday range'],
    ['0 0 * * 7', 'Sunday as 7'],
    ['0 0 * * 0-7', 'weekday range to 7'],
    ['0 0 * * MON-FRI', 'upper-case names'],
    ['0 0 * jan-Mar *', 'mixed-case month names'],
    ['0 0 1 1 *', 'January 1'],
    ['05 09 01 01 *', 'leading zeros'],
    ['0 24 * * *', 'hour 24 (midnight)'],
    ['0 22-24 * * *', 'hour range up to 24'],
    ['0 0 L * *', 'last day of month'],
    ['0 0 last * *', 'last spelled out'],
    ['0 0 l * *', 'lower-case l'],
    ['0 0 -1 * *', 'negative day of month'],
    ['0 0 1,L * *', 'list with L'],
    ['0 0 * * 5#2', 'second Friday'],
    ['0 0 * * fri#L', 'last Friday'],
    ['0 0 * * 5#-1', 'last Friday, negative'],
    ['0 0 * * 1#1,3#3', 'several n-th weekdays'],
    ['0 0 * * sun%2', 'every other Sunday'],
    ['0 0 * * sun%2+1', 'every other Sunday, offset'],
    ['0 0 * * */0', 'weekday step 0 (fugit reads it as 1)'],
    ['5/0 * * * *', 'single value with step 0'],
    ['0 0 29 2 *', 'February 29'],
    ['0 0 31 1-2 *', 'the 31st exists in January'],
    ['0 0 L 2 *', 'last day of February'],
    ['0 0 28-31 2 *', 'a range reaching into February'],
    ['0 0 * * sat-sun', 'weekday range across the week end'],
    ['0\t0  *   * *', 'tabs and repeated spaces between fields'],
    ['0 0 * * *   ', 'trailing spaces (before the appended " UTC")'],
  ])('accepts %j (%s)', (expression) => {
    expect(isValidCron(expression)).toBe(true)
  })

  it.each([
    ['0 0 0 * *', 'day of month 0 (GitLab spec invalid_cron)'],
    ['*********', 'GitLab spec'],
    ["'0 * * * *'", 'quoted (GitLab spec)'],
    ['every 3h', 'rufus-scheduler syntax (GitLab spec)'],
    ['0 12 31 2 *', 'February 31 (GitLab spec)'],
    ['0 0 30 2 1', 'February 30, even with a weekday'],
    ['0 0 30,31 2 *', 'no valid day in February'],
    ['0 0 31 4,6,9,11 *', 'no 31st in those months'],
    ['invalid_cron', 'GitLab spec'],
    ['', 'empty'],
    ['* * * *', 'four fields'],
    ['0 0 0 23 * * 5', 'seven fields'],
    ['@daily', 'macro'],
    ['@hourly', 'macro'],
    ['? * * * *', 'question mark'],
    ['H * * * *', 'hash'],
    ['0 0 15W * *', 'nearest weekday'],
    ['0 0 * * 5L', 'last weekday, Quartz style'],
    ['60 * * * *', 'minute 60'],
    ['0 25 * * *', 'hour 25'],
    ['0 0 32 * *', 'day 32'],
    ['0 0 * 0 *', 'month 0'],
    ['0 0 * 13 *', 'month 13'],
    ['0 0 * * 8', 'weekday 8'],
    ['005 * * * *', 'three digits'],
    ['*/100 * * * *', 'three-digit step'],
    ['*/0 * * * *', 'step 0 (GitLab answers 500)'],
    ['1-5/0 * * * *', 'range step 0 (GitLab answers 500)'],
    ['0 0 */0 2 *', 'day-of-month step 0 (GitLab answers 500)'],
    ['0 0 30/0 2 *', 'February 30 with a step'],
    ['0 0 * january *', 'full month name'],
    ['0 0 * * monday', 'full weekday name'],
    ['1,,2 * * * *', 'empty list item'],
    [',1 * * * *', 'leading comma'],
    ['1, * * * *', 'trailing comma'],
    ['0 0 * * 5#6', 'sixth Friday'],
    ['0 0 * * 5#0', 'zeroth Friday'],
    ['0 0 * * 1-5#2', 'n-th of a range'],
    ['0 0 * * * UTC', 'time zone inside the expression'],
    [' 0 0 * * *', 'leading space (GitLab strips before validating)'],
    ['0 0 * * *\t', 'trailing tab'],
    ['0 0 * * *\n', 'trailing newline'],
    ['*/5-10 * * * *', 'step before range'],
    ['0 0 1 * ?', 'question mark in weekday'],
  ])('rejects %j (%s)', (expression) => {
    expect(isValidCron(expression)).toBe(false)
  })
})

describe('isValidCronTimezone', () => {
  it.each([
    ['UTC', 'the default'],
    ['Europe/Berlin', 'IANA'],
    ['Europe/Istanbul', 'GitLab spec'],
    ['US/Pacific', 'IANA link (GitLab spec uses it)'],
    ['America/Argentina/Buenos_Aires', 'three segments'],
    ['America/Port-au-Prince', 'hyphens'],
    ['Etc/GMT+12', 'Etc offset zone'],
    ['Etc/UTC', 'Etc/UTC'],
    ['EST', 'IANA abbreviation zone'],
    ['CET', 'IANA abbreviation zone'],
    ['GB-Eire', 'hyphenated single segment'],
    ['Eastern Time (US & Canada)', 'ActiveSupport name (GitLab spec)'],
    ['Pacific Time (US & Canada)', 'ActiveSupport name'],
    ['Berlin', 'ActiveSupport name (GitLab spec)'],
    ["Nuku'alofa", 'ActiveSupport name with an apostrophe'],
    ['International Date Line West', 'ActiveSupport name'],
    ['+05:30', 'fixed offset'],
    ['-0800', 'fixed offset without colon'],
    ['+11:45', 'largest fixed offset'],
    ['+00:00', 'zero offset'],
    [' UTC', 'leading space (not stripped by GitLab)'],
  ])('accepts %j (%s)', (zone) => {
    expect(isValidCronTimezone(zone)).toBe(true)
  })

  it.each([
    ['invalid', 'GitLab spec'],
    ['Invalid-zone', 'GitLab spec'],
    ['invalid_cron_timezone', 'GitLab spec'],
    ['', 'empty'],
    ['   ', 'blank'],
    ['UTC ', 'trailing space'],
    ['europe/berlin', 'lower case'],
    ['EUROPE/BERLIN', 'upper case'],
    ['Europe/berlin', 'lower-case city'],
    ['eastern time (us & canada)', 'ActiveSupport names are case-sensitive'],
    ['PST', 'ICU-only legacy id'],
    ['IST', 'ICU-only legacy id'],
    ['SystemV/PST8', 'ICU-only legacy id'],
    ['Z', 'single letter'],
    ['+12:00', 'offset beyond ±11 hours'],
    ['+05:20', 'offset not in quarter hours'],
    ['+5:30', 'one-digit hour offset'],
    ['UTC+1', 'offset after a name'],
    ['Etc/Unknown', 'unknown Etc zone'],
    ['Mars/Olympus_Mons', 'unknown zone'],
    ['constructor', 'not a mapping key'],
  ])('rejects %j (%s)', (zone) => {
    expect(isValidCronTimezone(zone)).toBe(false)
  })

  // Issue 39 item 5: a first Intl.DateTimeFormat maps about 6 MB of ICU's locale data, so the
  // default zone, which every freeze period and schedule without a zone gets, is known without it.
  it('checks the default zone without ICU, any other zone with it', () => {
    const Real = Intl.DateTimeFormat
    let made = 0
    Intl.DateTimeFormat = class extends Real {
      constructor(...args: ConstructorParameters<typeof Real>) {
        super(...args)
        made += 1
      }
    } as typeof Real
    try {
      for (const zone of ['UTC', ' UTC', 'Etc/UTC']) expect(isValidCronTimezone(zone)).toBe(true)
      expect(made).toBe(0)
      expect(isValidCronTimezone('Europe/Berlin')).toBe(true)
      expect(made).toBe(1)
    } finally {
      Intl.DateTimeFormat = Real
    }
  })
})
