/**
 * python-gitlab, unmodified, on to-dos and notification settings (todos and notification-settings
 * areas): `gl.todos.list()`, `todo.mark_as_done()`, an issue's `todo()` then 304,
 * `gl.todos.mark_all_as_done()`, `gl.notificationsettings.get()/save()` and the group and project
 * notification settings managers. Skipped, saying so, where `python3 -c 'import gitlab'` fails.
 */
import { execFile, execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { loadDefaultScenario, startServer, type RunningServer } from '../../src/node.js'

/** The first Python that can import python-gitlab (Debian's lives in /usr/bin, not a pyenv shim). */
function findPython(): string | undefined {
  for (const candidate of ['python3', '/usr/bin/python3']) {
    try {
      execFileSync(candidate, ['-c', 'import gitlab'], { stdio: 'ignore' })
      return candidate
    } catch {
      // try the next one
    }
  }
  return undefined
}

const python = findPython()

describe.skipIf(python === undefined)('python-gitlab: to-dos and notification settings (skipped when python3-gitlab is not installed)', () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer(createSimulator({ scenario: await loadDefaultScenario() }), { port: 0 })
  })
  afterAll(() => server?.close())

  it('lists and completes to-dos and changes notification settings', async () => {
    const script = join(import.meta.dirname, 'python_gitlab_todos.py')
    const output = await new Promise<string>((resolve, reject) => {
      execFile(python!, ['-W', 'ignore', script, server.url], { timeout: 30_000 }, (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
      )
    })
    expect(output.trim().split('\n')).toEqual([
      'todos [606, 603, 601]',
      'filtered [603]',
      'target Issue 1 Login button does nothing',
      'marked 601 done',
      'todo on issue True',
      'second todo -> 304',
      'after all []',
      'done [601, 602, 603, 606]',
      'global watch nadia@work.example.com',
      'changed mention nadia@example.com',
      'restored watch',
      'group custom True None True',
      'group saved watch',
      'project disabled',
      'project saved custom True True',
    ])
  })
})
