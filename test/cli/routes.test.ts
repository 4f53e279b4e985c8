/**
 * `fakelab routes` as a user runs it (`node bin/fakelab routes`, dist/ built first): GitLab 13.12
 * CE's routes per lib/api file with fakelab's share, the same table docs/coverage.md and
 * `GET /-/fakelab/routes` show (issue 40 item 1).
 */
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { routeTable } from '../../src/reference/coverage.js'
import { ROUTE_TABLE } from '../../src/resources/route-table.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const run = (...args: string[]): string => execFileSync(process.execPath, [join(ROOT, 'bin', 'fakelab'), 'routes', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 15_000 })
const table = routeTable(Object.values(ROUTE_TABLE).flatMap((area) => area.api))

describe('fakelab routes', () => {
  it('prints the share per GitLab file', () => {
    const out = run()
    const lines = out.trimEnd().split('\n')
    expect(lines[0]).toBe(`GitLab 13.12 CE: fakelab answers ${table.totals.simulated} of ${table.totals.gitlab} routes read from lib/api `
      + `(${Math.round((table.totals.simulated / table.totals.gitlab) * 100)}%); ${table.totals.fakelabOnly} more outside CE; ${table.notRead.length} mounted files not read`)
    expect(lines).toContainEqual(expect.stringMatching(/^lib\/api\/labels\.rb +9\/9$/))
    expect(lines).toContainEqual(expect.stringMatching(/^lib\/api\/access_requests\.rb +0\/8$/))
    expect(lines.length).toBe(1 + table.areas.length)
  })

  it('--all ticks every route fakelab answers', () => {
    const out = run('--all')
    expect(out).toContain('  [x] PUT /projects/:id/labels/:name\n')
    expect(out).toContain('  [ ] GET /projects/:id/access_requests\n')
    expect(out).toContain('  [x] GET /groups/:id/billable_members (paid)\n')
  })

  it('--json prints the table GET /-/fakelab/routes serves', () => {
    expect(JSON.parse(run('--json'))).toEqual(table)
  })
})
