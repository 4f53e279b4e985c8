/**
 * python-gitlab, unmodified, against `startServer` on the default scenario: labels by name (and
 * its deprecated label update), subscribe then 304, the milestone life cycle, freeze periods through
 * its generic HTTP methods (3.12 has no freeze period manager), Link-header page walking and sudo.
 * python-gitlab is not an npm package: the test runs where `python3 -c 'import gitlab'` works
 * (Debian's python3-gitlab) and is skipped, saying so, elsewhere.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { loadDefaultScenario, startServer, type RunningServer } from '../../src/node.js'
import { findPython, runPython } from '../support/clients.js'

const python = findPython()

describe.skipIf(python === undefined)('python-gitlab (skipped when python3-gitlab is not installed)', () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer(createSimulator({ scenario: await loadDefaultScenario() }), { port: 0 })
  })
  afterAll(() => server?.close())

  it('drives labels, milestones, freeze periods, pagination and sudo', async () => {
    const script = join(import.meta.dirname, 'python_gitlab_check.py')
    const output = await runPython(python!, script, server.url)
    expect(output.trim().split('\n')).toEqual([
      'user max',
      "labels ['bug', 'docs', 'feature', 'frontend', 'good first issue', 'needs review']",
      'created 115 #008080',
      'renamed py-label',
      'subscribed True',
      'second subscribe -> 304',
      'deleted',
      'milestone 4 active',
      'closed closed',
      'ms issues [1, 2]',
      'milestone deleted',
      'fp 303 UTC',
      'fp tz Europe/Berlin',
      'fp deleted',
      'projects page walk [20, 21, 23]',
      'sudo devon',
    ])
  })
})
