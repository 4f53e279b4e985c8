/**
 * python-gitlab, unmodified (Debian's python3-gitlab 3.12, which has no storage-move managers):
 * storage moves through its low-level `http_*` API, `gl.auth()` with an OAuth token, an
 * impersonation token and a job token, and sudo through its `sudo=` argument. Skipped, saying so,
 * where `import gitlab` fails. Issue 10 "Done when".
 */
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { findPython, serveDefaultScenario } from '../support/clients.js'


const python = findPython()

describe.skipIf(python === undefined)('python-gitlab: storage moves and credentials (skipped when python3-gitlab is not installed)', () => {
  const fakelab = serveDefaultScenario()

  it('schedules and reads storage moves, authenticates every way, and uses sudo', async () => {
    const script = join(import.meta.dirname, 'python_gitlab_auth_check.py')
    const output = await new Promise<string>((resolve, reject) => {
      execFile(python!, ['-W', 'ignore', script, fakelab.url], { timeout: 30_000 }, (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
      )
    })
    expect(output.trim().split('\n')).toEqual([
      'scheduled 1 scheduled default storage-2 acme/website',
      "read only -> 400 {'project': ['is read only']}",
      'get finished',
      'project list [1]',
      "bulk {'message': '202 Accepted'}",
      'snippet moves [600, 601]',
      "invalid -> 400 {'destination_storage_name': ['is not included in the list']}",
      'non-admin -> 403',
      'oauth auth devon',
      'impersonation auth nora',
      'job token auth -> 401',
      'job token public read acme/website',
      'expired -> 401 invalid_token',
      'sudo oauth max',
      'sudo as nora -> 404',
      'sudo non-admin -> 403 403 Forbidden - Must be admin to use sudo',
    ])
  })
})
