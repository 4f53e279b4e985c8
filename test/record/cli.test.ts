/**
 * `fakelab record`, `fakelab serve --replay` and `fakelab import` as a user runs them: `node
 * bin/fakelab ...` in a child process (dist/ is built by `npm test` first), against a local
 * upstream. Every child is bounded by a timeout; servers use `--port 0`.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseScenario } from '../../src/index.js'
import { loadCassetteFile, type RunningServer } from '../../src/node.js'
import { ROOT, SESSION_CASSETTE, startUpstream } from './support.js'

const BIN = join(ROOT, 'bin', 'fakelab')
const CHILD_TIMEOUT_MS = 15_000

interface Child {
  child: ChildProcess
  stdout: () => string
  stderr: () => string
  done: Promise<{ code: number | null; stdout: string; stderr: string }>
}

const children = new Set<ChildProcess>()

function start(args: string[]): Child {
  const env: NodeJS.ProcessEnv = { NO_COLOR: '1' }
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('FAKELAB_')) env[name] = value
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
  children.add(child)
  let stdout = ''
  let stderr = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS)
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    child.once('close', (code) => {
      clearTimeout(timer)
      children.delete(child)
      resolve({ code, stdout, stderr })
    })
  })
  return { child, stdout: () => stdout, stderr: () => stderr, done }
}

/** The URL a server prints as its first stdout line. */
async function urlOf(running: Child): Promise<string> {
  for (let waited = 0; waited < CHILD_TIMEOUT_MS; waited += 20) {
    const line = running.stdout().split('\n')[0]
    if (running.stdout().includes('\n') && line) return line
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error(`no URL printed; stderr: ${running.stderr()}`)
}

async function until(check: () => boolean): Promise<void> {
  for (let waited = 0; waited < CHILD_TIMEOUT_MS && !check(); waited += 20) await new Promise((resolve) => setTimeout(resolve, 20))
}

let upstream: RunningServer
let dir: string

beforeAll(async () => {
  upstream = await startUpstream()
  dir = mkdtempSync(join(tmpdir(), 'fakelab-record-'))
})
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL')
  await upstream.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('fakelab record', () => {
  it('prints its URL, logs one line per exchange, and writes the cassette atomically on SIGINT (exit 0)', async () => {
    const out = join(dir, 'cli.har.json')
    const recorder = start(['record', '--target', upstream.url, '--port', '0', '--out', out])
    const url = await urlOf(recorder)
    await fetch(`${url}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': 'glpat-root-fakelab' } })
    await fetch(`${url}/api/v4/projects/20/labels?private_token=glpat-devon-fakelab`)
    await fetch(`${url}/api/v4/projects/9999`, { headers: { 'PRIVATE-TOKEN': 'glpat-root-fakelab' } })
    await until(() => recorder.stderr().includes('#3 '))
    recorder.child.kill('SIGINT')
    const { code, stderr } = await recorder.done
    expect(code).toBe(0)
    expect(stderr).toMatch(/\[fakelab\] #1 200 GET \/api\/v4\/user \d+ ms\n/)
    expect(stderr).toMatch(/\[fakelab\] #3 404 GET \/api\/v4\/projects\/9999 \d+ ms\n/)
    expect(stderr).toContain(`[fakelab] wrote 3 exchanges to ${out}`)
    const text = readFileSync(out, 'utf8')
    expect(text).not.toContain('glpat-')
    expect((await loadCassetteFile(out)).log.entries.map((e) => e.response.status)).toEqual([200, 200, 404])
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([])
  })

  it('refuses to start without a target (exit 1)', async () => {
    const { code, stderr } = await start(['record', '--port', '0']).done
    expect(code).toBe(1)
    expect(stderr).toContain("[fakelab] error: required option '-t, --target <url>' not specified")
  })
})

describe('fakelab serve --replay', () => {
  it('lockdown: answers from the cassette, logs each miss, and exits 2 listing the misses', async () => {
    const server = start(['serve', '--port', '0', '--replay', SESSION_CASSETTE, '--mode', 'lockdown'])
    const url = await urlOf(server)
    const hit = await fetch(`${url}/api/v4/projects/20/freeze_periods/300`)
    expect(hit.status).toBe(200)
    const miss = await fetch(`${url}/api/v4/projects/20/freeze_periods/301`)
    expect(miss.status).toBe(501)
    await until(() => server.stderr().includes('replay miss'))
    server.child.kill('SIGINT')
    const { code, stderr } = await server.done
    expect(code).toBe(2)
    expect(stderr).toContain('[fakelab] replay miss: no recorded response for GET /projects/20/freeze_periods/301')
    expect(stderr).toContain('path: recorded /projects/20/freeze_periods/300, got /projects/20/freeze_periods/301')
    expect(stderr).toContain('lockdown: 1 request had no recorded response:')
  })

  it('hybrid: the scenario answers what the cassette lacks', async () => {
    const server = start(['serve', '--port', '0', '--replay', SESSION_CASSETTE, '--mode', 'hybrid'])
    const url = await urlOf(server)
    const res = await fetch(`${url}/api/v4/projects/20/freeze_periods/301`, { headers: { 'PRIVATE-TOKEN': 'glpat-root-fakelab' } })
    expect(res.status).toBe(200)
    server.child.kill('SIGINT')
    expect((await server.done).code).toBe(0)
  })

  it('refuses a broken cassette with file:line:col messages (exit 1)', async () => {
    const broken = join(dir, 'broken.har.json')
    writeFileSync(broken, '{\n  "log": {\n    "version": "1.2",\n    "creator": { "name": "x", "version": "1" },\n    "entries": [ { "time": "soon" } ]\n  }\n}\n')
    const { code, stderr } = await start(['serve', '--port', '0', '--replay', broken]).done
    expect(code).toBe(1)
    expect(stderr).toContain(`${broken}:5:20 log.entries[0].startedDateTime: Invalid input: expected string, received undefined`)
    expect(stderr).toContain(`${broken}:5:28 log.entries[0].time: Invalid input: expected number, received string`)
  })
})

describe('fakelab import', () => {
  it('writes a scenario that validates and lists what it does not reproduce', async () => {
    const out = join(dir, 'imported.yaml')
    const { code, stderr } = await start(['import', SESSION_CASSETTE, '--out', out, '--now', '2021-04-01T12:00:00Z']).done
    expect(code).toBe(0)
    expect(stderr).toContain(`[fakelab] imported 6 users, 3 groups, 5 projects, 8 labels, 3 milestones, 2 freeze periods, 2 issues, 1 merge requests, 3 members into ${out}`)
    expect(stderr).toContain('[fakelab] not reproduced:\n  - token scopes: not recorded')
    const yaml = readFileSync(out, 'utf8')
    expect(yaml).toMatch(/^# Imported by fakelab from .*gitbeaker-session\.har\.json \(\d+ recorded exchanges\)\./)
    expect(() => parseScenario(yaml)).not.toThrow()
    const validated = await start(['validate', out]).done
    expect(validated.code).toBe(0)
  })

  it('exits 1 for a broken cassette and 2 for a missing one', async () => {
    const broken = join(dir, 'not-json.har.json')
    writeFileSync(broken, '{ "log": [1, 2,, 3] }')
    const invalid = await start(['import', broken]).done
    expect(invalid.code).toBe(1)
    expect(invalid.stderr).toMatch(new RegExp(`${broken.replace(/[.]/g, '\\.')}:1:\\d+ invalid JSON`))
    const missing = await start(['import', join(dir, 'nope.har.json')]).done
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('[fakelab] cannot read')
  })
})
