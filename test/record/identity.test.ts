/**
 * Who sent each recorded credential (issue 23 item 20): the recorder notes the user behind each
 * credential the first time it sees it (its own `GET /user` with the credential alone, or the
 * session's own `GET /user`), keeps it in the cassette as `log._fakelab.credentials` beside the
 * placeholder, and replay, `fakelab verify` and `fakelab import` act as that user. A session of
 * labels, group milestones, freeze periods and pagination from @gitbeaker/rest that never calls
 * `GET /user` verifies clean against the default scenario it was recorded from.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Gitlab } from '@gitbeaker/rest'
import type { Har } from 'har-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { cassetteMeta, parseCassette, serializeCassette } from '../../src/record/har.js'
import { importCassette } from '../../src/verify/import.js'
import { createRecorder, loadDefaultScenario, startServer, verifyCassette, type RunningServer } from '../../src/node.js'
import { runCli } from '../verify/support.js'
import { DEFAULT_TOKENS, SESSION_SECRETS } from './support.js'

/**
 * Labels, group milestones, freeze periods and pagination through @gitbeaker/rest, as three users,
 * none of whom ever asks `GET /user`; one sends its token in the query string.
 */
export async function sessionWithoutGetUser(host: string): Promise<void> {
  const root = new Gitlab({ host, token: DEFAULT_TOKENS.root })
  const devon = new Gitlab({ host, token: DEFAULT_TOKENS.devon })
  await root.Projects.all({ perPage: 2, orderBy: 'id', sort: 'asc' })
  await root.ProjectLabels.all(20, { perPage: 2 })
  const label = await root.ProjectLabels.create(20, 'no-user', '#123456', { description: 'recorded without GET /user' })
  await root.ProjectLabels.edit(20, label.id, { color: '#654321' })
  await root.ProjectLabels.remove(20, label.id)
  await root.GroupLabels.all('acme')
  await root.GroupMilestones.all('acme')
  const milestone = await root.GroupMilestones.create('acme', 'v9.0', { description: 'recorded' })
  await root.GroupMilestones.edit('acme', milestone.id, { stateEvent: 'close' })
  await root.GroupMilestones.remove('acme', milestone.id)
  await root.FreezePeriods.all(20)
  const period = await root.FreezePeriods.create(20, '0 1 * * *', '0 2 * * *', { cronTimezone: 'UTC' })
  await root.FreezePeriods.edit(20, period.id, { freezeEnd: '0 3 * * *' })
  await root.FreezePeriods.remove(20, period.id)
  await devon.Projects.show(21)
  await devon.ProjectLabels.all('acme/platform/api')
  await devon.GroupMilestones.all('acme')
  const res = await fetch(`${host}/api/v4/projects?per_page=1&private_token=${DEFAULT_TOKENS.max}`)
  await res.arrayBuffer()
}

let upstream: RunningServer
let cassette: Har
let upstreamRequests: string[]

beforeAll(async () => {
  const sim = createSimulator({ scenario: await loadDefaultScenario() })
  upstreamRequests = []
  sim.journal.subscribe((entry) => upstreamRequests.push(`${entry.method} ${entry.path}`))
  upstream = await startServer(sim, { port: 0 })
  const recorder = await createRecorder({ target: upstream.url })
  try {
    await sessionWithoutGetUser(recorder.url)
    cassette = recorder.cassette()
  } finally {
    await recorder.close()
  }
}, 60_000)
afterAll(() => upstream?.close())

describe('the recorder notes who sent each credential', () => {
  it('asks GET /user once per credential, before its first request, and keeps the user beside the placeholder', () => {
    expect(cassette.log.entries.some((e) => new URL(e.request.url).pathname === '/api/v4/user')).toBe(false)
    const probes = upstreamRequests.filter((r) => r.startsWith('GET /api/v4/user'))
    expect(probes).toHaveLength(3)
    expect(upstreamRequests[0]).toBe('GET /api/v4/user')
    const credentials = cassetteMeta(cassette).credentials!
    expect(credentials.map((c) => [c.placeholder, c.sent_as, c.status, c.source, c.user?.username, c.user?.id])).toEqual([
      ['[REDACTED-1]', 'PRIVATE-TOKEN', 200, 'probe', 'root', 1],
      ['[REDACTED-2]', 'PRIVATE-TOKEN', 200, 'probe', 'devon', 4],
      ['[REDACTED-3]', 'private_token=', 200, 'probe', 'max', expect.any(Number)],
    ])
  })

  it('writes a valid HAR 1.2 cassette with the notes under log._fakelab and no secret', () => {
    const text = serializeCassette(cassette)
    for (const secret of SESSION_SECRETS) expect(text).not.toContain(secret)
    const parsed = parseCassette(text, 'identity.har.json')
    expect(Object.keys(parsed.log)).toEqual(['version', 'creator', 'entries', '_fakelab'])
    expect(cassetteMeta(parsed)).toEqual(cassetteMeta(cassette))
  })

  it('takes the user from the session’s own GET /user instead of asking', async () => {
    const recorder = await createRecorder({ target: upstream.url })
    const before = upstreamRequests.length
    try {
      await fetch(`${recorder.url}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': DEFAULT_TOKENS.nora } }).then((r) => r.arrayBuffer())
      await fetch(`${recorder.url}/api/v4/projects/20`, { headers: { 'PRIVATE-TOKEN': DEFAULT_TOKENS.nora } }).then((r) => r.arrayBuffer())
      await fetch(`${recorder.url}/api/v4/projects/20`, { headers: { 'PRIVATE-TOKEN': 'glpat-nobody-knows-this' } }).then((r) => r.arrayBuffer())
      expect(upstreamRequests.slice(before)).toEqual(['GET /api/v4/user', 'GET /api/v4/projects/20', 'GET /api/v4/user', 'GET /api/v4/projects/20'])
      expect(cassetteMeta(recorder.cassette()).credentials!.map((c) => [c.placeholder, c.source, c.status, c.user?.username ?? null])).toEqual([
        ['[REDACTED-1]', 'answer', 200, 'nora'],
        ['[REDACTED-2]', 'probe', 401, null],
      ])
    } finally {
      await recorder.close()
    }
  })
})

describe('verify and import act as the recorded users', () => {
  it('verifies clean against the default scenario it was recorded from', async () => {
    const report = await verifyCassette(cassette, { scenario: await loadDefaultScenario(), source: 'identity.har.json' })
    const differing = report.results.filter((r) => r.differences.length > 0).map((r) => `#${r.index} ${r.route}: ${JSON.stringify(r.differences[0])}`)
    expect(differing).toEqual([])
    expect(report.results.every((r) => r.simulatedStatus !== 401)).toBe(true)
    expect(report).toMatchObject({ clean: true, exchanges: cassette.log.entries.length })
    // Without the recorder's notes (a cassette of before issue 23) nothing says whose the tokens are.
    const { _fakelab: _notes, ...log } = cassette.log as Har['log'] & { _fakelab?: unknown }
    const bare = await verifyCassette({ log }, { scenario: await loadDefaultScenario() })
    expect(bare.results.filter((r) => r.simulatedStatus === 401)).toHaveLength(cassette.log.entries.length)
  })

  it('fakelab verify --scenario scenarios/default.yaml exits 0 on it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fakelab-identity-'))
    try {
      const file = join(dir, 'no-get-user.har.json')
      writeFileSync(file, serializeCassette(cassette))
      const { code, stdout } = await runCli(['verify', file, '--scenario', 'scenarios/default.yaml'])
      const total = stdout.split('\n').find((line) => line.startsWith('Total:'))
      console.log(`fakelab verify exit ${code}: ${total}`)
      expect(total).toBe(`Total: ${cassette.log.entries.length}/${cassette.log.entries.length} exchanges identical after normalisation (100%)`)
      expect(code).toBe(0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('verifies clean seeded from the cassette itself', async () => {
    const report = await verifyCassette(cassette, { source: 'identity.har.json' })
    expect(report.results.filter((r) => r.simulatedStatus === 401)).toEqual([])
  })

  it('imports each credential as a token of its user, glpat-imported-<n>, never the placeholder', async () => {
    const result = await importCassette(cassette, { source: 'identity.har.json' })
    expect(result.tokens).toEqual([
      { placeholder: '[REDACTED-1]', username: 'root', token: 'glpat-imported-1', given: false, sentAs: 'PRIVATE-TOKEN' },
      { placeholder: '[REDACTED-2]', username: 'devon', token: 'glpat-imported-2', given: false, sentAs: 'PRIVATE-TOKEN' },
      { placeholder: '[REDACTED-3]', username: 'max', token: 'glpat-imported-3', given: false, sentAs: 'private_token=' },
    ])
    expect(result.yaml).not.toMatch(/token: .*REDACTED/)
    expect(result.notReproduced.filter((n) => /status \d+ recorded, 401/.test(n) || n.includes('not authenticated'))).toEqual([])
    const sim = createSimulator({ scenario: result.yaml })
    const me = await sim.handle(new Request('http://gitlab.test/api/v4/user', { headers: { 'PRIVATE-TOKEN': 'glpat-imported-1' } }))
    expect(me.status).toBe(200)
    expect(((await me.json()) as { username: string }).username).toBe('root')
  })

  it('gives the user the client’s own token when it is passed (by username or placeholder)', async () => {
    const result = await importCassette(cassette, { verify: false, tokens: new Map([['root', DEFAULT_TOKENS.root], ['[REDACTED-2]', DEFAULT_TOKENS.devon]]) })
    expect(result.tokens.map((t) => [t.username, t.token, t.given])).toEqual([
      ['root', DEFAULT_TOKENS.root, true],
      ['devon', DEFAULT_TOKENS.devon, true],
      ['max', 'glpat-imported-3', false],
    ])
    // The client re-run unchanged, with its own token, against the imported scenario.
    const server = await startServer(createSimulator({ scenario: result.yaml }), { port: 0 })
    try {
      const labels = await new Gitlab({ host: server.url, token: DEFAULT_TOKENS.root }).ProjectLabels.all(20)
      expect(labels.length).toBeGreaterThan(0)
      expect((await new Gitlab({ host: server.url, token: DEFAULT_TOKENS.devon }).Users.showCurrentUser()).username).toBe('devon')
    } finally {
      await server.close()
    }
  })
})
