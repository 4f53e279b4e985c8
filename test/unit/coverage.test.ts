/**
 * docs/coverage.md cannot drift from the code:
 * - its generated part (between the `coverage:generated` markers) is exactly what
 *   `coverageMarkdown(routeTable(allRoutes))` gives: GitLab 13.12 CE's routes read from lib/api
 *   (src/reference/gitlab-13.12-routes.json) with fakelab's share (issue 40 item 1). Rewrite it
 *   with `UPDATE_COVERAGE=1 npx vitest run test/unit/coverage.test.ts`;
 * - src/reference/gitlab-13.12-routes.json is what scripts/gitlab-routes.mjs makes of
 *   data/gitlab-13.12-grape-excerpts.rb.txt;
 * - the hand-written area tables below mark `done` exactly the registered routes (issue 24 item 8).
 */
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROUTE_TABLE } from '../../src/resources/route-table.js'
import { coverageMarkdown, optionalVariants, OUTSIDE_CE, routeTable } from '../../src/reference/coverage.js'

/** fakelab's API route keys, from the static route table (src/resources/route-table.ts). */
const fakelabKeys = Object.values(ROUTE_TABLE).flatMap((area) => area.api)

const ROOT = join(import.meta.dirname, '..', '..')
const PAGE = join(ROOT, 'docs', 'coverage.md')
const START = '<!-- coverage:generated start: test/unit/coverage.test.ts writes this part; do not edit by hand -->\n'
const END = '<!-- coverage:generated end -->\n'

const page = readFileSync(PAGE, 'utf8')
const rows = [...page.matchAll(/^\| (done|not yet|[^|]+?) \| `((?:GET|HEAD|POST|PUT|PATCH|DELETE) [^`]+)` \|$/gm)].map((m) => ({ status: m[1]!, key: m[2]! }))
const registered = new Set(fakelabKeys)
const table = routeTable(fakelabKeys)

describe('docs/coverage.md: GitLab 13.12 CE routes and fakelab\'s share', () => {
  it('the generated part is current', () => {
    const from = page.indexOf(START)
    const to = page.indexOf(END)
    expect(from, 'docs/coverage.md has the coverage:generated markers').toBeGreaterThan(-1)
    const expected = coverageMarkdown(table)
    if (process.env.UPDATE_COVERAGE) {
      writeFileSync(PAGE, page.slice(0, from + START.length) + '\n' + expected + '\n' + page.slice(to))
      return
    }
    expect(page.slice(from + START.length, to)).toBe('\n' + expected + '\n')
  })

  it('the route list is what the extractor makes of the excerpts', () => {
    expect(() => execFileSync(process.execPath, [join(ROOT, 'scripts', 'gitlab-routes.mjs'), '--check'], { stdio: 'pipe' })).not.toThrow()
  })

  it('counts every fakelab route once: in a GitLab area or outside CE', () => {
    const simulated = table.areas.flatMap((a) => a.routes.filter((r) => r.simulated))
    expect(table.totals.simulated + table.totals.fakelabOnly).toBe(simulated.length)
    expect(table.totals.simulated).toBeGreaterThan(250)
    // Every registered route is ticked somewhere: matched by shape, or listed outside CE.
    const outside = new Set(table.areas.find((a) => a.area === OUTSIDE_CE)?.routes.map((r) => `${r.method} ${r.path}`))
    const shape = (k: string): string => k.replace(/:[A-Za-z_]+/g, ':').replace(/\*[A-Za-z_]+(?=\/)/g, ':')
    const ticked = new Set(simulated.filter((r) => r.inGitlab).flatMap((r) => optionalVariants(r.path).map((path) => shape(`${r.method} ${path}`))))
    for (const key of registered) expect(outside.has(key) || ticked.has(shape(key)) || ticked.has(shape(key.replace(/\.[\w.]+$/, ''))), key).toBe(true)
  })

  it('matches routes by shape, parameter names aside, and marks EE routes paid', () => {
    const t = routeTable(['GET /projects/:id/labels/:label_id', 'GET /groups/:id/billable_members', 'GET /projects/:id/repository/archive.zip'])
    const labels = t.areas.find((a) => a.area === 'lib/api/labels.rb')!
    expect(labels.routes.find((r) => r.path === '/projects/:id/labels/:name' && r.method === 'GET')!.simulated).toBe(true)
    expect(labels.simulated).toBe(1)
    const outside = t.areas.find((a) => a.area === OUTSIDE_CE)!
    expect(outside.routes).toEqual([{ method: 'GET', path: '/groups/:id/billable_members', file: 'ee/lib/ee/api/members.rb', tier: 'paid', simulated: true, inGitlab: false }])
    expect(t.areas.find((a) => a.area === 'lib/api/repositories.rb')!.routes.find((r) => r.path === '/projects/:id/repository/archive')!.simulated).toBe(true)
  })

  it('counts a route with optional segments once fakelab serves every path it stands for', () => {
    expect(optionalVariants('/groups/:id/(-/)search')).toEqual(['/groups/:id/-/search', '/groups/:id/search'])
    expect(optionalVariants('/projects/:id/(ref/:ref/)trigger/pipeline')).toEqual(['/projects/:id/ref/:ref/trigger/pipeline', '/projects/:id/trigger/pipeline'])
    const search = (keys: string[]) => routeTable(keys).areas.find((a) => a.area === 'lib/api/search.rb')!.routes.find((r) => r.path === '/groups/:id/(-/)search')!
    expect(search(['GET /groups/:id/search']).simulated).toBe(false)
    expect(search(['GET /groups/:id/-/search']).simulated).toBe(false)
    expect(search(['GET /groups/:id/search', 'GET /groups/:id/-/search']).simulated).toBe(true)
    // A served variant is the GitLab route's, never a route outside CE.
    expect(routeTable(['GET /groups/:id/search']).areas.find((a) => a.area === OUTSIDE_CE)).toBeUndefined()
  })
})

describe('docs/coverage.md coverage table', () => {
  it('lists rows', () => {
    expect(rows.length).toBeGreaterThan(100)
  })

  it('marks done exactly the registered routes', () => {
    const done = rows.filter((r) => r.status === 'done').map((r) => r.key).sort()
    expect(done).toEqual([...registered].sort())
  })
})
