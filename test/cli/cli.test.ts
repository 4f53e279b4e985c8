/**
 * The `fakelab` CLI as a user runs it: `node bin/fakelab ...` in a child process (the shim imports
 * dist/, which `npm test` builds first). Every child is bounded by a timeout and killed afterwards;
 * no fixed ports (servers use `--port 0`, the EADDRINUSE case occupies a free port first).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type AddressInfo, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const BIN = join(ROOT, 'bin', 'fakelab')
const DEFAULT_SCENARIO = 'scenarios/default.yaml'
/** Upper bound for any one child process. */
const CHILD_TIMEOUT_MS = 15_000

interface Finished {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

interface Running {
  child: ChildProcess
  stdout: () => string
  stderr: () => string
  done: Promise<Finished>
}

const children = new Set<ChildProcess>()

/** The environment without any FAKELAB_* variable of the outer shell, plus `extra`. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('FAKELAB_')) env[name] = value
  return { ...env, NO_COLOR: '1', ...extra }
}

/** Starts `node bin/fakelab ...args`; the child is killed with SIGKILL after {@link CHILD_TIMEOUT_MS}. */
function start(args: string[], env: Record<string, string> = {}): Running {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] })
  children.add(child)
  let stdout = ''
  let stderr = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS)
  const done = new Promise<Finished>((resolve, reject) => {
    child.once('error', reject)
    child.once('close', (code, signal) => {
      clearTimeout(timer)
      children.delete(child)
      resolve({ code, signal, stdout, stderr })
    })
  })
  return { child, stdout: () => stdout, stderr: () => stderr, done }
}

/** Runs a command to completion. */
function run(args: string[], env: Record<string, string> = {}): Promise<Finished> {
  return start(args, env).done
}

/** Resolves once the child's stdout (or `stream`) contains `text`; rejects if the child ends first. */
function waitForStdout(running: Running, text: string, stream: 'stdout' | 'stderr' = 'stdout'): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const check = (): void => {
      if (running[stream]().includes(text)) resolve()
    }
    running.child[stream]!.on('data', check)
    check()
    running.done.then(
      (result) => reject(new Error(`serve exited early (${result.code}): ${result.stderr}`)),
      reject,
    )
  })
}

/**
 * Starts `serve`, waits for the banner (on stderr: stdout is a pipe here, not a terminal), and
 * hands `body` the URL of the first stdout line.
 * The server is killed afterwards whatever happens (SIGKILL; a no-op when `body` stopped it).
 */
async function withServer(
  args: string[],
  env: Record<string, string>,
  body: (server: Running & { url: string }) => Promise<void>,
): Promise<void> {
  const running = start(['serve', ...args], env)
  try {
    await waitForStdout(running, '\n')
    const url = running.stdout().slice(0, running.stdout().indexOf('\n'))
    await waitForStdout(running, 'Press Ctrl+C to stop.', 'stderr')
    await body({ ...running, url })
  } finally {
    running.child.kill('SIGKILL')
  }
}

let dir: string
let broken: string

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'fakelab-cli-'))
  broken = join(dir, 'broken.yaml')
  // Two independent problems, on lines 4 and 8.
  writeFileSync(
    broken,
    ['version: 1', 'users:', '  - username: root', '    admin: maybe', 'groups:', '  - path: acme', '    name: Acme', '    visibility: secret', ''].join('\n'),
  )
})

afterAll(() => {
  for (const child of children) child.kill('SIGKILL')
  rmSync(dir, { recursive: true, force: true })
})

/**
 * stderr lists both problems of `broken.yaml` as `file:line:col message`, at the offending values
 * (`maybe` on line 4 col 12, `secret` on line 8 col 17); the wording belongs to src/scenario.
 */
function expectBrokenProblems(stderr: string): void {
  const lines = stderr.split('\n').filter((line) => line.startsWith(`${broken}:`))
  expect(lines).toHaveLength(2)
  expect(lines[0]).toMatch(/^.+:4:12 \S.*admin/)
  expect(lines[1]).toMatch(/^.+:8:17 \S.*visibility/)
}

describe('fakelab serve', () => {
  it('prints the URL first and serves GET /api/v4/user', async () => {
    await withServer(['--port', '0'], {}, async (server) => {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(Number(new URL(server.url).port)).toBeGreaterThan(0)

      const res = await fetch(`${server.url}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': 'glpat-root-fakelab' } })
      expect(res.status).toBe(200)
      expect(await res.json()).toMatchObject({ id: 1, username: 'root' })

      // The banner follows the URL: API root, users with tokens and roles, a curl example.
      const banner = server.stderr()
      expect(banner).toContain(`${server.url}/api/v4`)
      expect(banner).toMatch(/root\s+admin\s+glpat-root-fakelab \[api, sudo\]/)
      expect(banner).toContain('glpat-devon-readonly [read_api]')
      expect(banner).not.toContain('glpat-nora-revoked')
      expect(banner).toContain(`curl -H "PRIVATE-TOKEN: glpat-root-fakelab" ${server.url}/api/v4/user`)

      server.child.kill('SIGTERM')
      expect((await server.done).code).toBe(0)
    })
  })

  it.each(['SIGINT', 'SIGTERM'] as const)('stops cleanly on %s (exit 0)', async (signal) => {
    await withServer(['--port', '0'], {}, async (server) => {
      server.child.kill(signal)
      const result = await server.done
      expect(result).toMatchObject({ code: 0, signal: null })
      expect(result.stderr).toContain(`[fakelab] ${signal} received`)
      await expect(fetch(`${server.url}/api/v4/version`)).rejects.toThrow()
    })
  })

  it('reads FAKELAB_PORT, FAKELAB_HOST and FAKELAB_SCENARIO when options are absent', async () => {
    const env = { FAKELAB_PORT: '0', FAKELAB_HOST: '127.0.0.1', FAKELAB_SCENARIO: DEFAULT_SCENARIO }
    await withServer([], env, async (server) => {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(server.stderr()).toContain(`Scenario   ${DEFAULT_SCENARIO}`)
      const res = await fetch(`${server.url}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': 'glpat-max-fakelab' } })
      expect(await res.json()).toMatchObject({ username: 'max' })
      server.child.kill('SIGTERM')
      expect((await server.done).code).toBe(0)
    })
  })

  it('exits 1 with every problem as file:line:col message for an invalid scenario', async () => {
    const result = await run(['serve', '--port', '0', '--scenario', broken])
    expect(result.code).toBe(1)
    expect(result.stdout).toBe('')
    expectBrokenProblems(result.stderr)
    expect(result.stderr).toContain('[fakelab] the scenario has 2 problems; not starting.')
  })

  it.each([
    ['--port abc', ['--port', 'abc'], {}],
    ['--port 70000', ['--port', '70000'], {}],
    ['--port -1', ['--port', '-1'], {}],
    ['--seed x', ['--port', '0', '--seed', 'x'], {}],
    ['FAKELAB_PORT=abc', [], { FAKELAB_PORT: 'abc' }],
    ['an unknown option', ['--bogus'], {}],
  ] as const)('exits 1 with a usage error for %s', async (_title, args, env) => {
    const result = await run(['serve', ...args], env)
    expect(result.code).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(/^\[fakelab\] error: /)
  })

  it('exits 2 when the port is in use (EADDRINUSE)', async () => {
    const blocker: Server = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = blocker.address() as AddressInfo
      const result = await run(['serve', '--port', String(port)])
      expect(result.code).toBe(2)
      expect(result.stdout).toBe('')
      expect(result.stderr).toMatch(/^\[fakelab\] cannot listen on 127\.0\.0\.1:\d+: .*EADDRINUSE/)
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()))
    }
  })

  it('exits 2 when the scenario file cannot be read', async () => {
    const missing = join(dir, 'missing.yaml')
    const result = await run(['serve', '--port', '0', '--scenario', missing])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/^\[fakelab\] cannot read scenario .*missing\.yaml: .*ENOENT/)
  })
})

// Issue 28, item 5: fault rules checked as the control API checks them, and shown at start.
describe('fakelab serve with fault rules', () => {
  it.each([
    ['a mistyped key', '{"rout":"GET /user","status":503}', 'fault rout: unknown key (did you mean "route"?); a rule has route, method, path, delay, status, retryAfter, reset, malformed, probability, times'],
    ['a route that names no route', '{"route":"GET /usr","status":503}', 'fault route: no route "GET /usr" (did you mean "GET /user"?); a route key is a method and a path below /api/v4, e.g. "GET /projects/:id/labels"'],
    ['a bad status', '{"route":"GET /user","status":404}', 'fault status: must be 429, 500, 502 or 503'],
  ])('exits 1 for --fault with %s, saying what is wrong', async (_title, rule, message) => {
    const result = await run(['serve', '--port', '0', '--fault', rule])
    expect(result.code).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toBe(`[fakelab] error: option '--fault <json>' argument '${rule}' is invalid. ${message}\n(run with --help for usage and examples)\n`)
  })

  it("exits 1 for a scenario whose faults: name no route", async () => {
    const file = join(dir, 'bad-fault.yaml')
    writeFileSync(file, 'version: 1\nfaults:\n  - { route: GET /usr, status: 503 }\n')
    const result = await run(['serve', '--port', '0', '--scenario', file])
    expect(result.code).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toBe(`[fakelab] ${file}: the scenario's faults[0]: fault route: no route "GET /usr" (did you mean "GET /user"?); a route key is a method and a path below /api/v4, e.g. "GET /projects/:id/labels"\n`)
  })

  it('lists the faults in force in the banner, and GET /-/fakelab/faults returns them', async () => {
    const args = ['--port', '0', '--delay', '50-200', '--fault', '{"route":"GET /user","status":503,"times":2}', '--fault', '{"method":"POST","path":"^/api/v4/projects","status":429,"probability":0.5}']
    await withServer(args, {}, async (server) => {
      const banner = server.stderr()
      const at = banner.indexOf('Faults (3;')
      expect(at).toBeGreaterThan(0)
      expect(banner.slice(at).split('\n').slice(0, 4)).toEqual([
        'Faults (3; GET /-/fakelab/faults lists them, DELETE clears them)',
        '  every request: delay 50-200ms',
        '  GET /user: status 503, next 2 requests',
        '  method POST, path /^/api/v4/projects/: status 429 (Retry-After 60), probability 0.5',
      ])
      const res = await fetch(`${server.url}/-/fakelab/faults`)
      expect(await res.json()).toEqual([
        { delay: { min: 50, max: 200 } },
        { route: 'GET /user', status: 503, times: 2 },
        { method: 'POST', path: '^/api/v4/projects', status: 429, probability: 0.5 },
      ])
    })
  })

  it('shows no Faults section when there are none', async () => {
    await withServer(['--port', '0'], {}, async (server) => {
      expect(server.stderr()).not.toContain('Faults (')
    })
  })
})

describe('fakelab validate', () => {
  it('prints ok and exits 0 for the default scenario', async () => {
    const result = await run(['validate', DEFAULT_SCENARIO])
    expect(result).toMatchObject({ code: 0, stdout: `ok ${DEFAULT_SCENARIO}\n`, stderr: '' })
  })

  it('exits 1 listing every problem of a broken file, and still checks the others', async () => {
    const result = await run(['validate', broken, DEFAULT_SCENARIO])
    expect(result.code).toBe(1)
    expect(result.stdout).toBe(`ok ${DEFAULT_SCENARIO}\n`)
    expectBrokenProblems(result.stderr)
  })

  it('exits 2 for a file that cannot be read', async () => {
    const result = await run(['validate', join(dir, 'missing.yaml')])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/^\[fakelab\] cannot read .*missing\.yaml/)
  })

  it('exits 1 without a file argument', async () => {
    const result = await run(['validate'])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain("[fakelab] error: missing required argument 'scenario'")
  })
})

describe('fakelab --help', () => {
  it.each([
    ['fakelab', [], 'fakelab serve --port 0'],
    ['fakelab serve', ['serve'], 'fakelab serve --scenario my.yaml'],
    ['fakelab validate', ['validate'], 'fakelab validate scenarios/default.yaml'],
  ] as const)('%s --help exits 0 and shows examples', async (_title, args, example) => {
    const result = await run([...args, '--help'])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('Examples:')
    expect(result.stdout).toContain(example)
  })

  it('--version prints the package version', async () => {
    const result = await run(['--version'])
    expect(result.code).toBe(0)
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/)
  })

  it('exits 1 for an unknown command', async () => {
    const result = await run(['bogus'])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain("[fakelab] error: unknown command 'bogus'")
  })
})

// Issue 38 item 5: off a terminal, stdout carries only the URL line and the JSON request lines (the
// banner goes to stderr, or nowhere with --quiet), and durations have three decimals at most.
describe('fakelab serve off a terminal', () => {
  it('keeps stdout to the URL and one JSON line per request, with durations in whole microseconds', async () => {
    await withServer(['--port', '0'], {}, async (server) => {
      for (let i = 0; i < 3; i++) await fetch(`${server.url}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': 'glpat-root-fakelab' } }).then((r) => r.text())
      await waitForStdout(server, '"seq":3')
      await new Promise((resolve) => setTimeout(resolve, 50))
      const [first, ...rest] = server.stdout().split('\n').filter(Boolean)
      expect(first).toBe(server.url)
      expect(rest).toHaveLength(3)
      for (const line of rest) {
        const entry = JSON.parse(line) as { durationMs: number; route: string }
        expect(entry.route).toBe('GET /user')
        expect(String(entry.durationMs)).toMatch(/^\d+(\.\d{1,3})?$/)
      }
      expect(server.stderr()).toContain('Press Ctrl+C to stop.')
    })
  })

  it.each([
    ['--quiet', ['--quiet'], {}],
    ['FAKELAB_QUIET=1', [], { FAKELAB_QUIET: '1' }],
  ] as const)('prints no banner with %s', async (_title, args, env) => {
    const running = start(['serve', '--port', '0', ...args], env)
    try {
      await waitForStdout(running, '\n')
      const url = running.stdout().trim()
      expect((await fetch(`${url}/-/readiness`)).status).toBe(200)
      running.child.kill('SIGTERM')
      const result = await running.done
      expect(result.stdout).toBe(`${url}\n`)
      expect(result.stderr).toBe('[fakelab] SIGTERM received, stopping.\n')
    } finally {
      running.child.kill('SIGKILL')
    }
  })
})

// Issue 38 item 3: --mode means nothing without --replay (exit 1), and the replay banner names the
// cassette, its count and the mode, and leaves out the scenario's users when the scenario answers nothing.
describe('fakelab serve --replay and --mode', () => {
  const CASSETTE = 'fixtures/cassettes/gitbeaker-session.har.json'
  it.each([
    ['--mode lockdown', ['--mode', 'lockdown'], {}],
    ['FAKELAB_MODE=hybrid', [], { FAKELAB_MODE: 'hybrid' }],
  ] as const)('exits 1 for %s without --replay', async (_title, args, env) => {
    const result = await run(['serve', '--port', '0', ...args], env)
    expect(result.code).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toBe('[fakelab] error: --mode needs --replay <cassette...>; without a cassette every request goes to the scenario\n(run with --help for usage and examples)\n')
  })

  it('names the cassette, its exchanges and the mode, without the scenario\'s users in lockdown', async () => {
    await withServer(['--port', '0', '--replay', CASSETTE, '--mode', 'lockdown'], {}, async (server) => {
      const banner = server.stderr()
      expect(banner).toContain(`  Replaying  ${CASSETTE} (44 recorded exchanges)\n  Mode       lockdown: a request no recording answers gets a 501, and stopping exits 2 with the list\n`)
      expect(banner).not.toContain('Users (')
      expect(banner).not.toContain('glpat-root-fakelab')
    })
  })

  it('lists the scenario\'s users too in hybrid mode, where misses go to the scenario', async () => {
    await withServer(['--port', '0', '--replay', CASSETTE, '--mode', 'hybrid'], {}, async (server) => {
      const banner = server.stderr()
      expect(banner).toContain('  Mode       hybrid: a request no recording answers goes to the scenario\n')
      expect(banner).toContain('Users (')
    })
  })
})
