/**
 * python-gitlab, unmodified, on the issues area (issue 8 "Done when"): project, group and global
 * issue lists with filters and page walking, time tracking both ways, notes, participants, related
 * and closing merge requests, user agent detail. `issue.todo()` belongs to the to-dos area.
 * Skipped, saying so, where `python3 -c 'import gitlab'` fails.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { findPython, runPython, serveDefaultScenario } from '../support/clients.js'

const python = findPython()

describe.skipIf(python === undefined)('python-gitlab on issues (skipped when python3-gitlab is not installed)', () => {
  const fakelab = serveDefaultScenario()

  it('lists, filters, tracks time, comments and reads the related data of issues', async () => {
    const script = join(import.meta.dirname, 'python_gitlab_issues.py')
    const output = await runPython(python!, script, fakelab.url)
    expect(output.trim().split('\n')).toEqual([
      'project issues [1, 4]',
      'not filter [6, 5, 3, 2]',
      'group issues [404, 401, 400]',
      'my issues [405]',
      'walk 6', // iterator=True, per_page=2: three pages followed through the Link header
      'estimate 1w 2d',
      'spent 4h', // 30m already spent + 3h 30m
      'spent less 3h 30m',
      // python-gitlab answers time_stats() from the attributes the list gave it (no request).
      'stats 1800',
      'reset 0 0',
      'note from python-gitlab 1',
      "participants ['devon', 'riley', 'gina']",
      'related [1]',
      'closed_by [1]',
      'user agent detail as riley -> 403',
      'user agent detail 192.0.2.10',
    ])
  })
})
