/**
 * The coverage table (docs/coverage.md, moved there from the README: issue 24 item 8) cannot drift
 * from the code: every row marked `done` is a registered route, and every registered route is
 * listed as `done`.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { allRoutes } from '../../src/resources/index.js'

const page = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'coverage.md'), 'utf8')
const rows = [...page.matchAll(/^\| (done|not yet|[^|]+?) \| `((?:GET|POST|PUT|DELETE) [^`]+)` \|$/gm)].map((m) => ({ status: m[1]!, key: m[2]! }))
const registered = new Set(allRoutes.map((r) => r.key))

describe('docs/coverage.md coverage table', () => {
  it('lists rows', () => {
    expect(rows.length).toBeGreaterThan(100)
  })

  it('marks done exactly the registered routes', () => {
    const done = rows.filter((r) => r.status === 'done').map((r) => r.key).sort()
    expect(done).toEqual([...registered].sort())
  })
})
