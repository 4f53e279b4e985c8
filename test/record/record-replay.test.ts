/**
 * Issue 11, the full cycle: record a @gitbeaker/rest session through the recorder against a local
 * upstream (a fakelab server), redact it, and replay it through both doors (the node server of
 * `createRecorder`/`fakelab serve --replay`, and MSW's `setupServer`), expecting what the client
 * saw while recording: the same statuses, bodies and headers.
 */
import { setupServer } from 'msw/node'
import type { Entry, Har } from 'har-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { createReplayHandlers } from '../../src/msw.js'
import { createRecorder, loadDefaultScenario, type Recorder, type RunningServer } from '../../src/node.js'
import { createReplayDoor, createReplayer, isMiss, type ReplayDoor } from '../../src/record/replay.js'
import { gitbeakerSession, SESSION_SECRETS, startUpstream, withoutSecrets, type CallOutcome } from './support.js'

let upstream: RunningServer
let recorded: CallOutcome[]
let cassette: Har

beforeAll(async () => {
  upstream = await startUpstream()
  const recorder = await createRecorder({ target: upstream.url })
  recorded = await gitbeakerSession(recorder.url)
  cassette = recorder.cassette()
  await recorder.close()
})
afterAll(() => upstream.close())

/** Sends a recorded request again to `base` (the same method, path, query, headers and body). */
function resend(entry: Entry, base: string): Promise<Response> {
  const url = new URL(entry.request.url)
  const headers = new Headers()
  for (const h of entry.request.headers) if (!['host', 'content-length', 'connection'].includes(h.name.toLowerCase())) headers.append(h.name, h.value)
  const body = entry.request.postData?.text
  return fetch(`${base}${url.pathname}${url.search}`, { method: entry.request.method, headers, ...(body ? { body } : {}) })
}

/** Response headers a client compares: framing and connection headers are the door's own. */
function comparableHeaders(headers: Headers | Entry['response']['headers']): [string, string][] {
  const pairs = headers instanceof Headers ? [...headers] : headers.map((h) => [h.name.toLowerCase(), h.value] as [string, string])
  return pairs
    .filter(([name]) => !['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'link'].includes(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .reduce<[string, string][]>((out, [name, value]) => {
      // Headers (Fetch) joins repeated headers with ", "; do the same for the recorded list.
      const last = out.at(-1)
      if (last && last[0] === name && name !== 'set-cookie') last[1] = `${last[1]}, ${value}`
      else out.push([name, value])
      return out
    }, [])
}

describe('recording a @gitbeaker/rest session', () => {
  it('records every exchange, at least 30 varied ones', () => {
    expect(recorded.filter((o) => o.error && o.error.status === undefined)).toEqual([])
    const entries = cassette.log.entries
    expect(entries.length).toBeGreaterThanOrEqual(30)
    const routes = new Set(entries.map((e) => `${e.request.method} ${new URL(e.request.url).pathname.replace(/\/\d+/g, '/:id')}`))
    expect(routes.size).toBeGreaterThanOrEqual(20)
    expect(new Set(entries.map((e) => e.request.method))).toEqual(new Set(['GET', 'POST', 'PUT', 'DELETE']))
  })

  it('keeps no secret: tokens become stable placeholders', () => {
    const text = JSON.stringify(cassette)
    for (const secret of SESSION_SECRETS) expect(text).not.toContain(secret)
    const tokens = cassette.log.entries.map((e) => e.request.headers.find((h) => h.name.toLowerCase() === 'private-token')?.value)
    // root's token is the first secret seen; the same token gets the same placeholder throughout.
    expect(tokens[0]).toBe('[REDACTED-1]')
    const headerTokens = new Set(tokens.filter(Boolean))
    expect(headerTokens.size).toBe(3)
    for (const token of headerTokens) expect(token).toMatch(/^\[REDACTED-\d+\]$/)
    // The token in a query string is redacted in the URL and where GitLab echoes it (`Link`).
    const queryTokenEntry = cassette.log.entries.find((e) => e.request.url.includes('/projects?') && e.request.url.includes('private_token='))!
    const placeholder = /private_token=(\[REDACTED-\d+\])/.exec(queryTokenEntry.request.url)![1]!
    expect(headerTokens.has(placeholder)).toBe(false)
    expect(queryTokenEntry.request.queryString).toContainEqual({ name: 'private_token', value: placeholder })
    expect(queryTokenEntry.response.headers.find((h) => h.name.toLowerCase() === 'link')?.value).toContain(`private_token=${placeholder}&`)
    // Runner registration tokens in group answers are secrets too.
    const acme = cassette.log.entries.find((e) => e.request.url.endsWith('/api/v4/groups/acme'))!
    expect(JSON.parse(acme.response.content.text!)).toMatchObject({ runners_token: expect.stringMatching(/^\[REDACTED-\d+\]$/) })
  })
})

describe.each(['node', 'msw'] as const)('replaying the session through the %s door', (doorName) => {
  let base: string
  let door: ReplayDoor
  let stop: () => Promise<void>

  beforeAll(async () => {
    if (doorName === 'node') {
      const server: Recorder = await createRecorder({ mode: 'replay', cassettes: [cassette] })
      base = server.url
      door = createReplayDoor(server.replayer!)
      stop = () => server.close()
    } else {
      base = 'http://gitlab.test'
      door = createReplayDoor(createReplayer(cassette))
      const msw = setupServer(...createReplayHandlers(door, { baseUrl: base }))
      msw.listen({ onUnhandledRequest: 'error' })
      stop = async () => msw.close()
    }
  })
  afterAll(() => stop())

  it('gives the client the same outcome for every call', async () => {
    door.replayer.reset()
    expect(withoutSecrets(await gitbeakerSession(base))).toEqual(withoutSecrets(recorded))
    expect(door.replayer.misses).toEqual([])
    expect(door.replayer.unused()).toEqual([])
  })

  it('answers each recorded request with its recorded status, body and headers, in recorded order', async () => {
    door.replayer.reset()
    for (const entry of cassette.log.entries) {
      const res = await resend(entry, base)
      expect(res.status, entry.request.url).toBe(entry.response.status)
      expect(await res.text()).toBe(entry.response.content.text ?? '')
      expect(comparableHeaders(res.headers)).toEqual(comparableHeaders(entry.response.headers))
    }
  })
})

describe('ordered repeats', () => {
  it('answers identical requests with the recorded answers in order, then repeats the last', async () => {
    const replayer = createReplayer(cassette)
    const labelLists = cassette.log.entries.filter((e) => e.request.method === 'GET' && new URL(e.request.url).pathname === '/api/v4/projects/20/labels')
    expect(labelLists).toHaveLength(3)
    const names = async () => {
      const res = await replayer.replay(new Request('http://gitlab.test/api/v4/projects/20/labels', { headers: { 'PRIVATE-TOKEN': 'anything' } }))
      if (isMiss(res)) throw new Error(res.message)
      return ((await res.json()) as { name: string }[]).map((l) => l.name)
    }
    const first = await names()
    const second = await names()
    const third = await names()
    expect(first).not.toContain('recorded')
    expect(second).toContain('recorded')
    expect(third).toEqual(first)
    expect(await names()).toEqual(third)
  })

  it('can treat a used-up request as a miss', async () => {
    const replayer = createReplayer(cassette, { whenUsedUp: 'miss' })
    const get = () => replayer.replay(new Request('http://gitlab.test/api/v4/projects/20/freeze_periods/300'))
    expect(isMiss(await get())).toBe(false)
    const again = await get()
    expect(isMiss(again) && again.message).toContain('every recorded answer already used')
  })
})

describe('matching', () => {
  it('ignores host, token, header order and query order', async () => {
    const replayer = createReplayer(cassette)
    const res = await replayer.replay(
      new Request('https://elsewhere.example/api/v4/projects?sort=asc&per_page=2&order_by=id', { headers: { Accept: 'text/plain', 'PRIVATE-TOKEN': 'other' } }),
    )
    expect(isMiss(res)).toBe(false)
  })

  it('matches a redacted query value with any value', async () => {
    const replayer = createReplayer(cassette)
    const res = await replayer.replay(new Request('http://gitlab.test/api/v4/groups/acme%2Fplatform?private_token=something-else'))
    expect(isMiss(res)).toBe(false)
  })

  it('can ignore query keys and match bodies', async () => {
    const loose = createReplayer(cassette, { ignoreQueryKeys: ['per_page', 'page', 'order_by', 'sort'] })
    expect(isMiss(await loose.replay(new Request('http://gitlab.test/api/v4/projects?per_page=50')))).toBe(false)

    const strict = createReplayer(cassette, { matchBody: true })
    const post = (body: object) =>
      strict.replay(new Request('http://gitlab.test/api/v4/projects/20/freeze_periods', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }))
    expect(isMiss(await post({ freeze_end: '0 2 * * *', freeze_start: '0 1 * * *', cron_timezone: 'Europe/Berlin' }))).toBe(false)
    const wrong = await post({ freeze_start: '0 1 * * *', freeze_end: '0 9 * * *', cron_timezone: 'Europe/Berlin' })
    expect(isMiss(wrong) && wrong.message).toContain('body field `freeze_end`: recorded "0 2 * * *", got "0 9 * * *"')
  })
})

describe('near misses', () => {
  it('names the closest recorded requests and how they differ', async () => {
    const replayer = createReplayer(cassette)
    const miss = await replayer.replay(new Request('http://gitlab.test/api/v4/projects/20/freeze_periods/399'))
    expect(isMiss(miss)).toBe(true)
    if (!isMiss(miss)) return
    expect(miss.request).toBe('GET /projects/20/freeze_periods/399')
    expect(miss.nearMisses[0]).toMatchObject({ request: 'GET /projects/20/freeze_periods/300' })
    expect(miss.message).toContain('path: recorded /projects/20/freeze_periods/300, got /projects/20/freeze_periods/399')

    const query = await replayer.replay(new Request('http://gitlab.test/api/v4/projects?per_page=3&order_by=id&sort=asc'))
    expect(isMiss(query) && query.message).toContain('query `per_page`: recorded "2", got "3"')
    const method = await replayer.replay(new Request('http://gitlab.test/api/v4/groups/acme', { method: 'DELETE' }))
    expect(isMiss(method) && method.message).toContain('method: recorded GET, got DELETE')
  })

  it('answers a miss with a 501 diagnostic through both doors', async () => {
    const door = createReplayDoor(createReplayer(cassette))
    const msw = setupServer(...createReplayHandlers(door, { baseUrl: 'http://gitlab.test' }))
    msw.listen({ onUnhandledRequest: 'error' })
    try {
      const res = await fetch('http://gitlab.test/api/v4/projects/20/freeze_periods/399')
      expect(res.status).toBe(501)
      expect(res.headers.get('x-fakelab-replay')).toBe('miss')
      const body = (await res.json()) as { near_misses: { request: string; differences: string[] }[] }
      expect(body.near_misses[0]).toEqual({
        index: expect.any(Number),
        request: 'GET /projects/20/freeze_periods/300',
        differences: ['path: recorded /projects/20/freeze_periods/300, got /projects/20/freeze_periods/399'],
      })
    } finally {
      msw.close()
    }
    const server = await createRecorder({ mode: 'replay', cassettes: [cassette] })
    try {
      const res = await fetch(`${server.url}/api/v4/projects/20/freeze_periods/399`)
      expect(res.status).toBe(501)
    } finally {
      await server.close()
    }
  })
})

describe('modes', () => {
  it('lockdown: close() fails and lists every miss', async () => {
    const server = await createRecorder({ mode: 'lockdown', cassettes: [cassette] })
    await fetch(`${server.url}/api/v4/projects/20`)
    await fetch(`${server.url}/api/v4/projects/77`)
    await fetch(`${server.url}/api/v4/users/99`)
    await expect(server.close()).rejects.toThrow(/lockdown: 2 requests had no recorded response:\n {2}no recorded response for GET \/projects\/77[\s\S]*GET \/users\/99/)
  })

  it('hybrid: the simulator answers what the cassette lacks, through both doors', async () => {
    const sim = createSimulator({ scenario: await loadDefaultScenario() })
    const server = await createRecorder({ mode: 'hybrid', cassettes: [cassette], simulator: sim })
    try {
      const recordedUser = await fetch(`${server.url}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': 'x' } })
      expect(((await recordedUser.json()) as { username: string }).username).toBe('root')
      const fromSim = await fetch(`${server.url}/api/v4/users/7`, { headers: { 'PRIVATE-TOKEN': 'glpat-root-fakelab' } })
      expect(fromSim.status).toBe(200)
      expect(((await fromSim.json()) as { username: string }).username).toBe('nora')
    } finally {
      await server.close()
    }
    const msw = setupServer(...createReplayHandlers(createReplayDoor(createReplayer(cassette), { mode: 'hybrid', simulator: sim }), { baseUrl: 'http://gitlab.test' }))
    msw.listen({ onUnhandledRequest: 'error' })
    try {
      const res = await fetch('http://gitlab.test/api/v4/users/7', { headers: { 'PRIVATE-TOKEN': 'glpat-root-fakelab' } })
      expect(((await res.json()) as { username: string }).username).toBe('nora')
    } finally {
      msw.close()
    }
  })

  it('passthrough: forwards and records nothing', async () => {
    const recorder = await createRecorder({ mode: 'passthrough', target: upstream.url })
    try {
      const res = await fetch(`${recorder.url}/api/v4/projects/20`, { headers: { 'PRIVATE-TOKEN': 'glpat-root-fakelab' } })
      expect(res.status).toBe(200)
      expect(recorder.recordedCount).toBe(0)
      expect(recorder.cassette().log.entries).toEqual([])
    } finally {
      await recorder.close()
    }
  })
})
