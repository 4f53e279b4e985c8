/**
 * python-gitlab runners, unmodified, against `startServer` on the default scenario (issue 7 "Done
 * when"): `gl.runners.create`, `list(scope=…)`, `all()`, `runner.save()`, `verify`,
 * `project.runners.create/delete`, `runner.jobs.list()`. Skipped, saying so, where
 * `python3 -c 'import gitlab'` fails (python-gitlab comes from Debian's python3-gitlab).
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { findPython, runPython, serveDefaultScenario } from '../support/clients.js'

const python = findPython()

describe.skipIf(python === undefined)('python-gitlab runners (skipped when python3-gitlab is not installed)', () => {
  const fakelab = serveDefaultScenario()

  it('registers, verifies, lists, saves, enables, disables, lists jobs and deletes a runner', async () => {
    const script = join(import.meta.dirname, 'runners_python_gitlab_check.py')
    const output = await runPython(python!, script, fakelab.url)
    expect(output.trim().split('\n')).toEqual([
      'registered 11 20',
      "new project_type not_connected 13.9.0 ['py']",
      'verified online',
      'bad token -> 403',
      'owned online [3, 5, 10, 11]',
      'owned project_type [11]',
      'all [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]',
      'all shared [1, 2]',
      "saved py-runner-paused False paused ['py', 'linux']",
      'enabled 11 [20, 23]',
      'disabled [23]',
      'last project -> 403 403 Forbidden - Only one project associated with the runner. Please remove the runner instead',
      "jobs [2000, 2001, 2002, 2003] ['failed']",
      'deleted -> 404 404 Not found',
    ])
  })
})
