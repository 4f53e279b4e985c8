/**
 * Live mode (issue 15, part 2): `fakelab record --target <url> --verify` against an upstream whose
 * scenario differs from the simulator's (label `frontend` is green there, red in the default
 * scenario). The client gets the real answer; the difference is logged and reported on stop.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { createLiveVerifier, loadCassetteFile, startServer, type RunningServer } from '../../src/node.js'
import { ROOT, SESSION_CASSETTE, upstreamScenario } from './support.js'

const tmp = mkdtempSync(join(tmpdir(), 'fakelab-live-'))
const servers: RunningServer[] = []
const children: ChildProcess[] = []
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
  await Promise.all(servers.map((s) => s.close()))
  rmSync(tmp, { recursive: true, force: true })
})

/** The default scenario with label 110 `frontend` green instead of red. */
function divergentScenario(): string {
  const text = readFileSync(join(ROOT, 'scenarios', 'default.yaml'), 'utf8')
  const changed = text.replace('{ id: 110, name: frontend, color: red, priority: 1 }', '{ id: 110, name: frontend, color: green, priority: 1 }')
  expect(changed).not.toBe(text)
  return changed
}

async function startRecorder(args: string[]): Promise<{ child: ChildProcess; url: string; stderr: () => string; done: Promise<number | null> }> {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('FAKELAB_')) env[name] = value
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'fakelab'), 'record', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
  children.push(child)
  let stdout = ''
  let stderr = ''
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const done = new Promise<number | null>((resolve) => child.once('close', resolve))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL; stderr: ${stderr}`)), 15_000)
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk
      if (stdout.includes('\n')) {
        clearTimeout(timer)
        resolve(stdout.split('\n')[0]!.trim())
      }
    })
  })
  return { child, url, stderr: () => stderr, done }
}

async function until(check: () => boolean): Promise<void> {
  for (let waited = 0; waited < 15_000 && !check(); waited += 25) await new Promise((resolve) => setTimeout(resolve, 25))
}

describe('fakelab record --verify', () => {
  it('logs the exchange whose real answer the simulator would not give, and reports it on stop', async () => {
    const upstream = await startServer(createSimulator({ scenario: divergentScenario() }), { port: 0 })
    servers.push(upstream)
    const out = join(tmp, 'live.har.json')
    const recorder = await startRecorder(['--target', upstream.url, '--port', '0', '--out', out, '--verify', '--scenario', 'scenarios/default.yaml'])
    const headers = { 'PRIVATE-TOKEN': 'glpat-max-fakelab' }
    expect((await fetch(`${recorder.url}/api/v4/user`, { headers })).status).toBe(200)
    const label = (await (await fetch(`${recorder.url}/api/v4/projects/20/labels/110`, { headers })).json()) as { color: string }
    expect(label.color).toBe('#008000') // the client sees the real (upstream) answer
    expect((await fetch(`${recorder.url}/api/v4/projects/20/labels/100`, { headers })).status).toBe(200)
    await until(() => recorder.stderr().includes('[fakelab] verify #1'))
    expect(recorder.stderr()).toContain('[fakelab] verify #1 GET /projects/:id/labels/:label_id: $.color (value): recorded "#008000", simulated "#FF0000"\n')
    expect(recorder.stderr()).not.toContain('verify #0')
    recorder.child.kill('SIGINT')
    expect(await recorder.done).toBe(0)
    expect(recorder.stderr()).toContain(`[fakelab] verify: 2/3 exchanges identical; report in ${out}.verify.txt`)
    const report = readFileSync(`${out}.verify.txt`, 'utf8')
    expect(report).toContain('  GET /projects/:id/labels/:label_id: 1/2 exchanges identical\n    #1 $.color (value): recorded "#008000", simulated "#FF0000"\n')
  })

  it('exits 1 on a bad ignore rule before listening', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'fakelab'), 'record', '--target', 'http://127.0.0.1:9', '--port', '0', '--verify', '--ignore', '$.['], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    children.push(child)
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    expect(await new Promise((resolve) => child.once('close', resolve))).toBe(1)
    expect(stderr).toMatch(/^\[fakelab\] bad ignore rule "\$\.\[": /)
  })
})

describe('createLiveVerifier', () => {
  it('seeded from the answers so far, checks each new exchange of a growing cassette once', async () => {
    const cassette = await loadCassetteFile(SESSION_CASSETTE)
    const live = createLiveVerifier()
    const all = cassette.log.entries
    const first = await live.check({ log: { ...cassette.log, entries: all.slice(0, 12) } })
    expect(first.map((r) => r.index)).toEqual([...Array(12).keys()])
    const rest = await live.check(cassette)
    expect(rest.map((r) => r.index)).toEqual(all.slice(12).map((_, i) => i + 12))
    const report = await live.report()
    expect(report).toMatchObject({ exchanges: all.length, seededFrom: 'cassette' })
    // Seeded from each exchange's own answer, the labels reads all match.
    expect(report.routes.find((r) => r.route === 'GET /projects/:id/labels/:label_id')).toMatchObject({ exchanges: 1, identical: 1 })
  })

  it('seeded from a scenario, matches the upstream that scenario describes', async () => {
    const cassette = await loadCassetteFile(SESSION_CASSETTE)
    const live = createLiveVerifier({ scenario: await upstreamScenario() })
    await live.check(cassette)
    expect((await live.report()).clean).toBe(true)
  })
})
