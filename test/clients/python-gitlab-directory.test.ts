/**
 * python-gitlab, unmodified, on the arranging writes of projects, groups and users and on the
 * lookups tools make (issue 16 part 4, issue 15 part 6): `gl.projects.create` (also with `sudo`),
 * `gl.users.list(username=…)`, `gl.users.create`, `user.block()`, `gl.groups.create`,
 * `project.delete()`, `gl.namespaces.list`, `project.users.list`.
 * Skipped, saying so, where `python3 -c 'import gitlab'` fails.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { findPython, runPython, serveDefaultScenario } from '../support/clients.js'

const python = findPython()

describe.skipIf(python === undefined)('python-gitlab on projects, groups and users (skipped when python3-gitlab is not installed)', () => {
  const fakelab = serveDefaultScenario()

  it('creates, blocks, looks up and deletes as a test suite arranging its fixtures does', async () => {
    const output = await runPython(python!, join(import.meta.dirname, 'python_gitlab_directory.py'), fakelab.url)
    expect(output.trim().split('\n')).toEqual([
      'created root/python-made private',
      'sudo created gina/sudo-made 2',
      "duplicate -> 400 ['base', 'limit_reached', 'name', 'path', 'route', 'route.path']",
      'lookup [4]',
      'user pyuser active False',
      'blocked blocked',
      'unblocked active',
      "group python-group ['root']",
      'group project python-group/in-group',
      'deleted -> 404',
      "anonymous lookup ['max']",
      "namespaces ['secret-lab']",
      "project users ['devon']",
    ])
  })
})
