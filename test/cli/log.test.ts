/**
 * `fakelab serve --log pretty|json|off`: one stdout line per request after the banner (issue 12
 * "Request journal"). Runs `node bin/fakelab` (dist/, built by `npm test`) with `--port 0`; each
 * child is killed afterwards. Piped stdout is not a TTY, so the default is json.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const BIN = join(ROOT, 'bin', 'fakelab')
const BANNER_END = 'Press Ctrl+C to stop.\n'

let child: ChildProcess | undefined
afterEach(() => void child?.kill('SIGKILL'))

/** A request to send: method, path, and headers (default: root's `api` token). */
type Sent = [method: string, path: string, headers?: Record<string, string>]

/** Starts serve, waits for the banner, runs the requests, and gives the stdout lines after the banner. */
async function logOf(args: string[], requests: Sent[], env: Record<string, string> = {}): Promise<string[]> {
  const clean: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('FAKELAB_')) clean[name] = value
  child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], { cwd: ROOT, env: { ...clean, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  // Off a terminal the banner goes to stderr; stdout is the URL line and the request lines.
  await new Promise<void>((resolve, reject) => {
    child!.stderr!.on('data', () => stderr.includes(BANNER_END) && resolve())
    child!.once('close', (code) => reject(new Error(`serve exited (${code})`)))
  })
  const url = stdout.slice(0, stdout.indexOf('\n'))
  const rest = () => stdout.slice(url.length + 1)
  for (const [method, path, headers = { 'PRIVATE-TOKEN': 'glpat-root-fakelab' }] of requests) {
    await fetch(`${url}${path}`, { method, headers }).then((res) => res.text())
  }
  // Each line is written before the reply is sent; give the pipe a moment.
  const expected = requests.length
  for (let i = 0; i < 50 && rest().split('\n').length <= expected; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return rest().split('\n').filter(Boolean)
}

describe('serve --log', () => {
  it('prints one JSON journal entry per request when stdout is not a terminal', async () => {
    const lines = await logOf([], [['GET', '/api/v4/user'], ['GET', '/api/v4/nothing/here'], ['PATCH', '/api/v4/user']])
    expect(lines.map((line) => JSON.parse(line))).toMatchObject([
      { method: 'GET', path: '/api/v4/user', route: 'GET /user', status: 200, user: 'root', simulated: true },
      { method: 'GET', path: '/api/v4/nothing/here', route: null, routeMiss: 'path', status: 404, user: 'root', simulated: false },
      { method: 'PATCH', path: '/api/v4/user', route: null, routeMiss: 'method', status: 404, user: 'root', simulated: false },
    ])
  })

  it('prints pretty lines, flagging what is not simulated', async () => {
    const lines = await logOf(['--log', 'pretty'], [['GET', '/api/v4/user'], ['GET', '/api/v4/nothing/here']])
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(/^GET \/api\/v4\/user → 200 \(GET \/user\) as root \d+\.\dms$/)
    expect(lines[1]).toMatch(/^NOT SIMULATED GET \/api\/v4\/nothing\/here → 404 \(not simulated: unknown path\) as root \d+\.\dms$/)
  })

  it('prints nothing with --log off (or FAKELAB_LOG=off)', async () => {
    expect(await logOf(['--log', 'off'], [['GET', '/api/v4/user']])).toEqual([])
    child?.kill('SIGKILL')
    expect(await logOf([], [['GET', '/api/v4/user']], { FAKELAB_LOG: 'off' })).toEqual([])
  })
})

/** Pretty lines with the duration (the one varying part) as `<ms>`. */
const steady = (lines: string[]) => lines.map((line) => line.replace(/ \d+\.\dms/, ' <ms>'))
/** JSON lines without the fields that vary from run to run (`at`, `durationMs`). */
const steadyJson = (lines: string[]) => lines.map((line) => {
  const { at, durationMs, ...rest } = JSON.parse(line) as Record<string, unknown>
  expect([typeof at, typeof durationMs]).toEqual(['string', 'number'])
  return rest
})

// Issue 28 item 6: every request has its line, and each line says who sent it and what answered.
describe('serve --log: a complete request log (issue 28)', () => {
  const ROOT_TOKEN = { 'PRIVATE-TOKEN': 'glpat-root-fakelab' }
  const requests: Sent[] = [
    // A valid token without the route's scope: refused, but the log names its user.
    ['POST', '/api/v4/projects/20/labels', { 'PRIVATE-TOKEN': 'glpat-root-readonly' }],
    // An expired token is no user at all.
    ['GET', '/api/v4/user', { 'PRIVATE-TOKEN': 'glpat-nora-expired' }],
    // Unsimulated, sent with a token: marked, and the token's user shown.
    ['GET', '/api/v4/nothing/here', ROOT_TOKEN],
    // A session, by header and by path prefix.
    ['GET', '/api/v4/user', { ...ROOT_TOKEN, 'X-Fakelab-Session': 'alpha' }],
    ['GET', '/-/fakelab/sessions/beta/api/v4/projects/999', ROOT_TOKEN],
    ['GET', '/-/fakelab/sessions/beta/api/v4/nothing', ROOT_TOKEN],
  ]

  it('pretty: sessions, refused scopes and unsimulated routes, each line exactly', async () => {
    expect(steady(await logOf(['--log', 'pretty'], requests))).toEqual([
      'POST /api/v4/projects/20/labels → 403 (POST /projects/:id/labels) as root <ms>',
      'GET /api/v4/user → 401 (GET /user) as anonymous <ms>',
      'NOT SIMULATED GET /api/v4/nothing/here → 404 (not simulated: unknown path) as root <ms>',
      'GET /api/v4/user → 200 (GET /user) as root <ms> [session alpha]',
      'GET /api/v4/projects/999 → 404 (GET /projects/:id) as root <ms> [session beta]',
      'NOT SIMULATED GET /api/v4/nothing → 404 (not simulated: unknown path) as root <ms> [session beta]',
    ])
  })

  it('json: the same, as journal entries with "session"', async () => {
    const id = (seq: number) => `01FAKELAB${String(seq).padStart(17, '0')}`
    expect(steadyJson(await logOf(['--log', 'json'], requests))).toEqual([
      { seq: 1, requestId: id(1), method: 'POST', path: '/api/v4/projects/20/labels', query: '', route: 'POST /projects/:id/labels', simulated: true, status: 403, user: 'root' },
      { seq: 2, requestId: id(2), method: 'GET', path: '/api/v4/user', query: '', route: 'GET /user', simulated: true, status: 401, user: null },
      { seq: 3, requestId: id(3), method: 'GET', path: '/api/v4/nothing/here', query: '', route: null, routeMiss: 'path', simulated: false, status: 404, user: 'root' },
      // A session counts its own requests.
      { seq: 1, requestId: id(1), method: 'GET', path: '/api/v4/user', query: '', route: 'GET /user', simulated: true, status: 200, user: 'root', session: 'alpha' },
      { seq: 1, requestId: id(1), method: 'GET', path: '/api/v4/projects/999', query: '', route: 'GET /projects/:id', simulated: true, status: 404, user: 'root', session: 'beta' },
      { seq: 2, requestId: id(2), method: 'GET', path: '/api/v4/nothing', query: '', route: null, routeMiss: 'path', simulated: false, status: 404, user: 'root', session: 'beta' },
    ])
  })

  const CASSETTE = join(ROOT, 'fixtures', 'cassettes', 'gitbeaker-session.har.json')
  const replayed: Sent[] = [
    ['GET', '/api/v4/projects/20/freeze_periods/300', {}],
    ['GET', '/api/v4/projects/20/freeze_periods/301', {}],
  ]

  it('pretty: replay hits marked replayed, misses marked as such', async () => {
    expect(steady(await logOf(['--log', 'pretty', '--replay', CASSETTE], replayed))).toEqual([
      'GET /api/v4/projects/20/freeze_periods/300 → 200 (replayed) <ms>',
      'REPLAY MISS GET /api/v4/projects/20/freeze_periods/301 → 501 (no recording) <ms>',
    ])
  })

  it('json: replay hits with "replayed": true; hybrid misses are the simulator\'s journal entries', async () => {
    expect(steadyJson(await logOf(['--log', 'json', '--replay', CASSETTE, '--mode', 'hybrid'], [...replayed.slice(0, 1), ['GET', '/api/v4/projects/20/freeze_periods/301', ROOT_TOKEN]]))).toEqual([
      { seq: 1, method: 'GET', path: '/api/v4/projects/20/freeze_periods/300', query: '', status: 200, replayed: true },
      { seq: 1, requestId: '01FAKELAB00000000000000001', method: 'GET', path: '/api/v4/projects/20/freeze_periods/301', query: '', route: 'GET /projects/:id/freeze_periods/:freeze_period_id', simulated: true, status: 200, user: 'root' },
    ])
  })
})

describe('serve --fault and --delay', () => {
  it('injects the faults given on the command line', async () => {
    const lines = await logOf(['--delay', '5-10', '--fault', '{"route":"GET /user","status":503,"times":1}'], [['GET', '/api/v4/user'], ['GET', '/api/v4/user']])
    const entries = lines.map((line) => JSON.parse(line))
    expect(entries.map((e) => e.status)).toEqual([503, 200])
    expect(entries[0].fault).toMatch(/^delay ([5-9]|10)ms, status 503$/)
  })
})

describe('serve --watch', () => {
  it('reloads a changed scenario, and keeps the last good state on a broken edit', async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const dir = mkdtempSync(join(tmpdir(), 'fakelab-watch-'))
    const file = join(dir, 'watched.yaml')
    const scenario = (name: string) => `version: 1\nusers:\n  - username: ${name}\n    tokens: [{ token: glpat-w, scopes: [api] }]\n`
    writeFileSync(file, scenario('first'))
    try {
      child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--log', 'off', '--watch', '--scenario', file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
      let stdout = ''
      let stderr = ''
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
      const until = async (check: () => boolean) => {
        for (let i = 0; i < 150 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 20))
        expect(check()).toBe(true)
      }
      await until(() => stderr.includes(BANNER_END))
      const url = stdout.slice(0, stdout.indexOf('\n'))
      const me = async () => (await (await fetch(`${url}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': 'glpat-w' } })).json()).username
      expect(await me()).toBe('first')
      writeFileSync(file, scenario('second'))
      await until(() => stderr.includes(`[fakelab] reloaded ${file}`))
      expect(await me()).toBe('second')
      writeFileSync(file, `${scenario('third')}    admin: maybe\n`)
      await until(() => stderr.includes('has problems; keeping the last good state'))
      expect(stderr).toContain(`${file}:5:12 `)
      expect(await me()).toBe('second')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('serve --watch on a scenario with includes (issue 28)', () => {
  it('reloads when an included file changes, and follows includes added by an edit, even missing ones', async () => {
    const { mkdirSync, mkdtempSync, writeFileSync, rmSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const dir = mkdtempSync(join(tmpdir(), 'fakelab-watch-include-'))
    const file = join(dir, 'main.yaml')
    const users = join(dir, 'parts', 'users.yaml')
    const deeper = join(dir, 'parts', 'deeper.yaml')
    mkdirSync(join(dir, 'parts'))
    const user = (name: string) => `users:\n  - username: ${name}\n    tokens: [{ token: glpat-w, scopes: [api] }]\n`
    writeFileSync(file, 'version: 1\ninclude: [parts/users.yaml]\n')
    writeFileSync(users, user('first'))
    try {
      child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--log', 'off', '--watch', '--scenario', file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
      let stdout = ''
      let stderr = ''
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
      const until = async (check: () => boolean) => {
        for (let i = 0; i < 250 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 20))
        expect(check(), stderr).toBe(true)
      }
      const reloads = () => stderr.split(`[fakelab] reloaded ${file}\n`).length - 1
      await until(() => stderr.includes(BANNER_END))
      const url = stdout.slice(0, stdout.indexOf('\n'))
      const get = async (path: string) => (await fetch(`${url}/api/v4${path}`, { headers: { 'PRIVATE-TOKEN': 'glpat-w' } })).json()
      expect((await get('/user')).username).toBe('first')

      // The included file, not the one given to --scenario.
      writeFileSync(users, user('second'))
      await until(() => reloads() === 1)
      expect((await get('/user')).username).toBe('second')

      // An include of a file that does not exist yet: a problem, the last good state stays...
      writeFileSync(users, 'include: [deeper.yaml]\n')
      await until(() => stderr.includes('has problems; keeping the last good state'))
      expect(stderr).toContain(`cannot include "deeper.yaml"`)
      expect((await get('/user')).username).toBe('second')
      // ...and creating it reloads, because the missing file was watched too.
      writeFileSync(deeper, user('third'))
      await until(() => reloads() === 2)
      expect((await get('/user')).username).toBe('third')
      // The file two includes down is watched as well.
      writeFileSync(deeper, user('fourth'))
      await until(() => reloads() === 3)
      expect((await get('/user')).username).toBe('fourth')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

// Issue 39 item 3: the log waits in a buffer for up to 10 ms; a stop by signal writes what waits.
describe('serve --log json to a file: no line lost on a stop', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s right after the last answer: every request has its line', async (signal) => {
    const { mkdtempSync, openSync, closeSync, readFileSync, rmSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const dir = mkdtempSync(join(tmpdir(), 'fakelab-log-stop-'))
    const file = join(dir, 'stdout')
    const fd = openSync(file, 'w')
    try {
      child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--quiet', '--log', 'json'], { cwd: ROOT, stdio: ['ignore', fd, 'pipe'] })
      const stopped = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)))
      let url = ''
      for (let i = 0; i < 250 && !url; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20))
        const text = readFileSync(file, 'utf8')
        if (text.includes('\n')) url = text.slice(0, text.indexOf('\n'))
      }
      const sent = 40
      await Promise.all(Array.from({ length: sent }, (_, i) => fetch(`${url}/api/v4/projects/20/labels?n=${i}`, { headers: { 'PRIVATE-TOKEN': 'glpat-root-fakelab' } }).then((res) => res.text())))
      child.kill(signal)
      expect(await stopped).toBe(0)
      const lines = readFileSync(file, 'utf8').split('\n').slice(1).filter(Boolean)
      expect(lines).toHaveLength(sent)
      expect(lines.map((line) => (JSON.parse(line) as { query: string }).query).sort()).toEqual(Array.from({ length: sent }, (_, i) => `n=${i}`).sort())
    } finally {
      closeSync(fd)
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
