/**
 * The zero-drift round trip (issue 40 item 2): a session of python-gitlab, @gitbeaker/rest, the
 * Ruby gem and curl, each recorded through `fakelab record` in front of `fakelab serve` on the
 * default scenario (`cassettes/roundtrip/*.har`, re-recorded by `npm run corpus`), with projects
 * paged through Link headers, issues with labels, milestones and their issue lists, merge
 * requests, creates, updates and deletes, and error answers. For each, run as a user runs them
 * (`fakelab` on dist/):
 * - `fakelab verify <cassette>` (seeded from the cassette itself) exits 0, 100% identical;
 * - `fakelab import <cassette> --out s.yaml`, then `fakelab verify <cassette> --scenario s.yaml`
 *   (the replay of the same session against the imported scenario) exits 0, 100% identical.
 * The machine running this needs neither ruby nor python-gitlab: the cassettes are replayed.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Har } from 'har-format'
import { afterAll, describe, expect, it } from 'vitest'
import { ROOT, runCli } from './support.js'

const CLIENTS = ['python-gitlab', 'gitbeaker', 'ruby-gitlab', 'curl'] as const
const dir = mkdtempSync(join(tmpdir(), 'fakelab-roundtrip-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function cassette(client: string): { file: string; har: Har } {
  const file = join('cassettes', 'roundtrip', `${client}.har`)
  return { file, har: JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Har }
}

/** `<method> <path>` of each recorded exchange, `?query` dropped, and its status. */
function exchanges(har: Har): string[] {
  return har.log.entries.map((e) => `${e.request.method} ${new URL(e.request.url).pathname.replace(/^\/api\/v4/, '')} ${e.response.status}`)
}

describe.each(CLIENTS)('the %s round-trip session', (client) => {
  const { file, har } = cassette(client)

  it('was recorded through fakelab record with the variety the round trip asks for', () => {
    const seen = exchanges(har)
    const header = (name: string) => har.log.entries.flatMap((e) => e.response.headers.filter((h) => h.name.toLowerCase() === name).map((h) => h.value))
    expect(har.log.creator.name).toBe('fakelab')
    // Projects paged through their Link headers: two pages, the first pointing at the second.
    expect(seen.filter((x) => x === 'GET /projects 200')).toHaveLength(2)
    expect(header('link').some((l) => /rel="next"/.test(l))).toBe(true)
    expect(seen).toEqual(expect.arrayContaining([
      'GET /issues 200', 'GET /merge_requests 200', 'GET /projects/20/labels 200', 'GET /projects/20/issues 200',
      'GET /projects/20/milestones/220/issues 200', 'GET /projects/20/merge_requests/1 200',
      'POST /projects/20/issues 201', 'PUT /projects/20/issues/5 200', 'POST /projects/20/labels 201', 'POST /projects/20/labels 409',
      'POST /projects/20/milestones 201', 'PUT /projects/20/milestones/223 200', 'DELETE /projects/20/milestones/223 204',
      'GET /projects/9999 404',
    ]))
    expect(seen.some((x) => /^GET \/groups\/(10|acme)\/milestones\/200\/issues 200$/.test(x))).toBe(true)
    expect(seen.some((x) => /^DELETE \/projects\/20\/labels\/\S+ 204$/.test(x))).toBe(true)
    // Issues with labels.
    const issues = JSON.parse(har.log.entries.find((e) => new URL(e.request.url).pathname === '/api/v4/issues')!.response.content.text!) as { labels: string[] }[]
    expect(issues.filter((i) => i.labels.length > 0).length).toBeGreaterThanOrEqual(5)
  })

  it('fakelab verify exits 0 with every exchange identical after normalisation', async () => {
    const run = await runCli(['verify', file])
    expect(run.stdout).toContain(`Total: ${har.log.entries.length}/${har.log.entries.length} exchanges identical after normalisation (100%)`)
    expect(run.code, run.stdout + run.stderr).toBe(0)
  })

  it('fakelab import, then a replay of the same session against the imported scenario, answers identically', async () => {
    const out = join(dir, `${client}.yaml`)
    const imported = await runCli(['import', file, '--out', out])
    expect(imported.code, imported.stderr).toBe(0)
    // The import's own replay of the session finds no answer field that differs.
    expect(imported.stderr).not.toMatch(/^ {2}- (GET|POST|PUT|DELETE) \S+: (?!created )/m)
    const replay = await runCli(['verify', file, '--scenario', out])
    expect(replay.stdout).toContain(`Total: ${har.log.entries.length}/${har.log.entries.length} exchanges identical after normalisation (100%)`)
    expect(replay.code, replay.stdout + replay.stderr).toBe(0)
  })
})
