/**
 * Real clients against the engine features of issue 12: `GET /version` (python-gitlab's
 * `gl.version()`; gitbeaker has only `Metadata`, the 15.2+ `/metadata`, which 13.x answers with
 * its catch-all 404), and retry paths driven by injected faults, checked through the journal.
 */
import { execFile } from 'node:child_process'
import { Gitlab } from '@gitbeaker/rest'
import { findPython, serveDefaultScenario } from '../support/clients.js'
import { beforeEach, describe, expect, it } from 'vitest'

const fakelab = serveDefaultScenario()
beforeEach(() => {
  fakelab.sim.journal.clear()
  fakelab.sim.faults.clear()
})

describe('@gitbeaker/rest', () => {
  const api = () => new Gitlab({ host: fakelab.url, token: 'glpat-max-fakelab' })

  it('reads /version through its requester, and meets 13.x\'s 404 on Metadata', async () => {
    expect((await api().requester.get('version', {})).body).toEqual({ version: '13.12.15', revision: 'f4d1fa3b1d6' })
    await expect(api().Metadata.show()).rejects.toMatchObject({ cause: { response: { status: 404 } } })
    expect(fakelab.sim.journal.last()).toMatchObject({ path: '/api/v4/metadata', simulated: false, routeMiss: 'path' })
  })

  it('retries a 502 and succeeds', async () => {
    fakelab.sim.faults.add({ route: 'GET /user', status: 502, times: 1 })
    expect((await api().Users.showCurrentUser()).username).toBe('max')
    expect(fakelab.sim.journal.find({ route: 'GET /user' }).map((e) => e.status)).toEqual([200])
    expect(fakelab.sim.journal.find({ path: '/api/v4/user' }).map((e) => e.status)).toEqual([502, 200])
  }, 20_000)
})

const python = findPython()

function runPython(code: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(python!, ['-W', 'ignore', '-c', code, fakelab.url], { timeout: 30_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout.trim()),
    )
  })
}

describe.skipIf(python === undefined)('python-gitlab (skipped when python3-gitlab is not installed)', () => {
  const prelude = 'import sys, gitlab; gl = gitlab.Gitlab(sys.argv[1], private_token="glpat-max-fakelab")'

  it('gl.version() reads GET /version', async () => {
    expect(await runPython(`${prelude}; print(gl.version())`)).toBe("('13.12.15', 'f4d1fa3b1d6')")
    fakelab.sim.journal.expectCalled({ route: 'GET /version', user: 'max', status: 200 }, 1)
  })

  it('obeys a 429 with Retry-After and retries', async () => {
    fakelab.sim.faults.add({ route: 'GET /user', status: 429, retryAfter: 1, times: 1 })
    expect(await runPython(`${prelude}; gl.auth(); print(gl.user.username)`)).toBe('max')
    expect(fakelab.sim.journal.find({ path: '/api/v4/user' }).map((e) => e.status)).toEqual([429, 200])
  })

  it('raises on a 503 when transient retries are off (its default)', async () => {
    fakelab.sim.faults.add({ route: 'GET /user', status: 503, times: 1 })
    const out = await runPython(`${prelude}\ntry:\n  gl.auth()\nexcept gitlab.exceptions.GitlabError as e:\n  print(e.response_code, e.error_message)`)
    expect(out).toBe('503 503 Service Unavailable')
  })
})
