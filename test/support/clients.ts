/**
 * Helpers the real-client tests share: the HTTP status of a failed @gitbeaker/rest call, and
 * finding and running a Python that has python-gitlab (Debian's python3-gitlab), and the server on
 * the default scenario they talk to.
 */
import { execFile, execFileSync } from 'node:child_process'
import { afterAll, beforeAll } from 'vitest'
import { createSimulator, type Simulator } from '../../src/index.js'
import { loadDefaultScenario, startServer, type RunningServer } from '../../src/node.js'

/** The status of the error a gitbeaker call rejects with, or undefined when it succeeds. */
export async function statusOf(call: Promise<unknown>): Promise<number | undefined> {
  try {
    await call
    return undefined
  } catch (error) {
    return (error as { cause?: { response?: Response } }).cause?.response?.status
  }
}

/** The first Python that can import python-gitlab (Debian's lives in /usr/bin, not a pyenv shim). */
export function findPython(): string | undefined {
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

/** Runs a python-gitlab script with the server URL as its argument; resolves to its stdout. */
export function runPython(python: string, script: string, url: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    execFile(python, ['-W', 'ignore', script, url], { timeout: 30_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stdout}\n${stderr}`)) : resolve(stdout),
    )
  })
}

/** The default-scenario server a client test file talks to (see {@link serveDefaultScenario}). */
export interface DefaultScenarioServer {
  /** The simulator behind the server, for journal, faults, clock and reset. */
  readonly sim: Simulator
  /** The server's base URL, `http://127.0.0.1:<port>`. */
  readonly url: string
}

/**
 * Starts `fakelab` on the default scenario before the tests of the calling file (or `describe`)
 * and closes it after them: the set-up every real-client test shares. Read `url` and `sim` inside
 * hooks and tests, not at import time (they exist once `beforeAll` has run).
 */
export function serveDefaultScenario(): DefaultScenarioServer {
  let sim: Simulator | undefined
  let server: RunningServer | undefined
  beforeAll(async () => {
    sim = createSimulator({ scenario: await loadDefaultScenario() })
    server = await startServer(sim, { port: 0 })
  })
  afterAll(() => server?.close())
  return {
    get sim() {
      if (!sim) throw new Error('serveDefaultScenario: read `sim` inside a hook or test')
      return sim
    },
    get url() {
      if (!server) throw new Error('serveDefaultScenario: read `url` inside a hook or test')
      return server.url
    },
  }
}
