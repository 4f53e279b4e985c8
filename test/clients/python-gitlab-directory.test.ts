/**
 * python-gitlab, unmodified, on the arranging writes of projects, groups and users and on the
 * lookups tools make (issue 16 part 4, issue 15 part 6): `gl.projects.create` (also with `sudo`),
 * `gl.users.list(username=…)`, `gl.users.create`, `user.block()`, `gl.groups.create`,
 * `project.delete()`, `gl.namespaces.list`, `project.users.list`.
 * Skipped, saying so, where `python3 -c 'import gitlab'` fails.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { loadDefaultScenario, startServer, type RunningServer } from '../../src/node.js'
import { findPython, runPython } from '../support/clients.js'

const python = findPython()

describe.skipIf(python === undefined)('python-gitlab on projects, groups and users (skipped when python3-gitlab is not installed)', () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer(createSimulator({ scenario: await loadDefaultScenario() }), { port: 0 })
  })
  afterAll(() => server?.close())

  it('creates, blocks, looks up and deletes as a test suite arranging its fixtures does', async () => {
    const output = await runPython(python!, join(import.meta.dirname, 'python_gitlab_directory.py'), server.url)
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
