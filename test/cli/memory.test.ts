/**
 * What the CLI build does to keep `fakelab serve`'s resident memory down (issue 39 item 5), checked
 * on dist/ (which `npm test` builds first) in child processes, so that no global of this process is
 * touched: cron-parser's vendor bundle sets its luxon's default locale, so the first cron parsed (a
 * freeze period or pipeline schedule) does not create an `Intl.DateTimeFormat`, whose first use maps
 * about 6 MB of ICU's locale data; a zone other than UTC still needs ICU, for its offsets. JSON
 * packages the CLI loads on first use (emojibase's data and shortcodes) are dist/vendor/*.json files
 * that node parses, so no source of them stays in the heap, and `fakelab serve` still renders and
 * checks emoji with them.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

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

describe('JSON packages loaded on first use', () => {
  const server = { url: '', stop: () => {} }

  beforeAll(async () => {
    const child = spawn(process.execPath, [fileURLToPath(new URL('../../bin/fakelab', import.meta.url)), 'serve', '--port', '0', '--log', 'off', '--quiet'], { stdio: ['ignore', 'pipe', 'ignore'] })
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS)
    server.stop = () => {
      clearTimeout(timer)
      child.kill('SIGKILL')
    }
    server.url = await new Promise<string>((resolve, reject) => {
      let out = ''
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk
        if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')).trim())
      })
      child.once('exit', (code) => reject(new Error(`fakelab serve exited with ${code}`)))
    })
  })

  afterAll(() => server.stop())

  it('are JSON files beside the vendor bundles', () => {
    for (const name of ['emojibase-data-en-data', 'emojibase-data-en-shortcodes-joypixels']) {
      expect(existsSync(join(DIST, 'vendor', `${name}.json`))).toBe(true)
      expect(existsSync(join(DIST, 'vendor', `${name}.cjs`))).toBe(false)
    }
  })

  it('render an emoji and check an award name through fakelab serve', async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${server.url}/api/v4${path}`, { method: 'POST', headers: { 'PRIVATE-TOKEN': 'glpat-devon-fakelab', 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
    const markdown = await post('/markdown', { text: 'Hi :tada:', gfm: true })
    expect(await markdown.json()).toEqual({ html: '<p data-sourcepos="1:1-1:9" dir="auto">Hi <gl-emoji title="party popper" data-name="tada" data-unicode-version="6.0">🎉</gl-emoji></p>' })
    const unknown = await post('/projects/30/issues/1/award_emoji', { name: 'no_such_emoji' })
    expect(unknown.status).toBe(404)
    const award = await post('/projects/30/issues/1/award_emoji', { name: '+1' })
    expect(award.status).toBe(201)
    expect(await award.json()).toMatchObject({ name: 'thumbsup', user: { username: 'devon' } })
  })
})
