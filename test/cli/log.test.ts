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

/** Starts serve, waits for the banner, runs the requests, and gives the stdout lines after the banner. */
async function logOf(args: string[], requests: [method: string, path: string][], env: Record<string, string> = {}): Promise<string[]> {
  const clean: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('FAKELAB_')) clean[name] = value
  child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], { cwd: ROOT, env: { ...clean, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  await new Promise<void>((resolve, reject) => {
    child!.stdout!.on('data', () => stdout.includes(BANNER_END) && resolve())
    child!.once('close', (code) => reject(new Error(`serve exited (${code})`)))
  })
  const url = stdout.slice(0, stdout.indexOf('\n'))
  for (const [method, path] of requests) {
    await fetch(`${url}${path}`, { method, headers: { 'PRIVATE-TOKEN': 'glpat-root-fakelab' } }).then((res) => res.text())
  }
  // Each line is written before the reply is sent; give the pipe a moment.
  const expected = requests.length
  for (let i = 0; i < 50 && stdout.slice(stdout.indexOf(BANNER_END) + BANNER_END.length).split('\n').length <= expected; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return stdout.slice(stdout.indexOf(BANNER_END) + BANNER_END.length).split('\n').filter(Boolean)
}

describe('serve --log', () => {
  it('prints one JSON journal entry per request when stdout is not a terminal', async () => {
    const lines = await logOf([], [['GET', '/api/v4/user'], ['GET', '/api/v4/nothing/here'], ['PATCH', '/api/v4/user']])
    expect(lines.map((line) => JSON.parse(line))).toMatchObject([
      { method: 'GET', path: '/api/v4/user', route: 'GET /user', status: 200, user: 'root', simulated: true },
      { method: 'GET', path: '/api/v4/nothing/here', route: null, routeMiss: 'path', status: 404, simulated: false },
      { method: 'PATCH', path: '/api/v4/user', route: null, routeMiss: 'method', status: 404, simulated: false },
    ])
  })

  it('prints pretty lines, flagging what is not simulated', async () => {
    const lines = await logOf(['--log', 'pretty'], [['GET', '/api/v4/user'], ['GET', '/api/v4/nothing/here']])
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(/^GET \/api\/v4\/user → 200 \(GET \/user\) as root \d+\.\dms$/)
    expect(lines[1]).toMatch(/^NOT SIMULATED GET \/api\/v4\/nothing\/here → 404 \(not simulated: unknown path\) as anonymous \d+\.\dms$/)
  })

  it('prints nothing with --log off (or FAKELAB_LOG=off)', async () => {
    expect(await logOf(['--log', 'off'], [['GET', '/api/v4/user']])).toEqual([])
    child?.kill('SIGKILL')
    expect(await logOf([], [['GET', '/api/v4/user']], { FAKELAB_LOG: 'off' })).toEqual([])
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
      await until(() => stdout.includes(BANNER_END))
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
      await until(() => stdout.includes(BANNER_END))
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
