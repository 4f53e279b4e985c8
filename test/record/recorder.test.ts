/**
 * The recorder as a proxy (issue 11, "Recording"): compressed answers reach the client as they
 * stream, still compressed, and land in the cassette decoded; binary bodies are kept as base64;
 * an unreachable target is a 502; the cassette is checkpointed while recording.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRecorder, loadCassetteFile, type Recorder } from '../../src/node.js'
import { createReplayer, isMiss } from '../../src/record/replay.js'

const JSON_BODY = JSON.stringify({ id: 1, name: 'compressed label' })
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0x00, 0xfe])

let target: http.Server
let targetUrl: string
let recorder: Recorder
let dir: string
let releaseStream: () => void = () => undefined

beforeAll(async () => {
  target = http.createServer((req, res) => {
    const path = req.url ?? ''
    if (path.startsWith('/api/v4/gzip')) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
      res.end(zlib.gzipSync(JSON_BODY))
    } else if (path.startsWith('/api/v4/br')) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br' })
      res.end(zlib.brotliCompressSync(JSON_BODY))
    } else if (path.startsWith('/api/v4/stream')) {
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.write('first;')
      releaseStream = () => res.end('second')
    } else if (path.startsWith('/api/v4/avatar')) {
      res.writeHead(200, { 'content-type': 'image/png' })
      res.end(PNG)
    } else {
      res.writeHead(404, { 'content-type': 'application/json' })
      res.end('{"error":"404 Not Found"}')
    }
  })
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve))
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`
  dir = mkdtempSync(join(tmpdir(), 'fakelab-recorder-'))
  recorder = await createRecorder({ target: targetUrl, autosave: join(dir, 'autosave.har.json') })
})
afterAll(async () => {
  await recorder.close()
  target.closeAllConnections()
  await new Promise((resolve) => target.close(resolve))
  rmSync(dir, { recursive: true, force: true })
})

/** A raw GET (no automatic decompression), resolving with the head and the raw body. */
function rawGet(url: string): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get(url, { headers: { 'accept-encoding': 'gzip, br' } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }))
    }).on('error', reject)
  })
}

describe('createRecorder in record mode', () => {
  it.each([
    ['gzip', (b: Buffer) => zlib.gunzipSync(b)],
    ['br', (b: Buffer) => zlib.brotliDecompressSync(b)],
  ] as const)('passes a %s answer on compressed and stores it decoded', async (encoding, decode) => {
    const { headers, body } = await rawGet(`${recorder.url}/api/v4/${encoding}`)
    expect(headers['content-encoding']).toBe(encoding)
    expect(decode(body).toString()).toBe(JSON_BODY)
    const entry = recorder.cassette().log.entries.find((e) => e.request.url.endsWith(`/${encoding}`))!
    expect(entry.response.content).toMatchObject({ text: JSON_BODY, size: JSON_BODY.length, mimeType: 'application/json' })
    expect(entry.response.content.encoding).toBeUndefined()
    expect(entry.response.bodySize).toBe(body.length)

    const replayed = await createReplayer(recorder.cassette()).replay(new Request(`http://gitlab.test/api/v4/${encoding}`))
    if (isMiss(replayed)) throw new Error(replayed.message)
    expect(replayed.headers.get('content-encoding')).toBeNull()
    expect(await replayed.text()).toBe(JSON_BODY)
  })

  it('streams: the client reads the first chunk before the target has finished', async () => {
    const res = await fetch(`${recorder.url}/api/v4/stream`)
    const reader = res.body!.getReader()
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('first;')
    releaseStream()
    while (!(await reader.read()).done);
    const entry = recorder.cassette().log.entries.find((e) => e.request.url.endsWith('/stream'))!
    expect(entry.response.content.text).toBe('first;second')
  })

  it('keeps binary bodies as base64 and replays their bytes', async () => {
    await fetch(`${recorder.url}/api/v4/avatar`).then((r) => r.arrayBuffer())
    const entry = recorder.cassette().log.entries.find((e) => e.request.url.endsWith('/avatar'))!
    expect(entry.response.content).toMatchObject({ encoding: 'base64', text: PNG.toString('base64') })
    const replayed = await createReplayer(recorder.cassette()).replay(new Request('http://gitlab.test/api/v4/avatar'))
    if (isMiss(replayed)) throw new Error(replayed.message)
    expect(Buffer.from(await replayed.arrayBuffer())).toEqual(PNG)
  })

  it('checkpoints the cassette shortly after each exchange', async () => {
    await fetch(`${recorder.url}/api/v4/gzip`).then((r) => r.text())
    const file = join(dir, 'autosave.har.json')
    for (let waited = 0; waited < 3_000 && !existsSync(file); waited += 50) await new Promise((resolve) => setTimeout(resolve, 50))
    expect((await loadCassetteFile(file)).log.entries.length).toBeGreaterThan(0)
  })

  it('answers 502 when the target cannot be reached, and records nothing', async () => {
    const errors: string[] = []
    // A port just freed may be handed straight to the recorder's own listen(0), which would then
    // proxy to itself: draw again until the recorder's port is not the target's.
    let dead: Awaited<ReturnType<typeof createRecorder>>
    for (;;) {
      const closed = http.createServer()
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
      const port = (closed.address() as AddressInfo).port
      await new Promise((resolve) => closed.close(resolve))
      dead = await createRecorder({ target: `http://127.0.0.1:${port}`, onExchange: (x) => errors.push(x.error?.message ?? '') })
      if (new URL(dead.url).port !== String(port)) break
      await dead.close()
    }
    try {
      const res = await fetch(`${dead.url}/api/v4/user`)
      expect(res.status).toBe(502)
      expect(((await res.json()) as { error: string }).error).toContain('fakelab could not reach')
      expect(dead.recordedCount).toBe(0)
      expect(errors[0]).toMatch(/ECONNREFUSED/)
    } finally {
      await dead.close()
    }
  })

  it('refuses record mode without a target', async () => {
    await expect(createRecorder({ mode: 'record' })).rejects.toThrow('record mode needs a target URL')
  })
})

// Issue 38 item 4: the recorder, in every mode, answers GitLab's health probes itself (the way to
// wait for it), without forwarding, replaying, recording or counting a miss.
describe('health probes on the recorder', () => {
  it('answers them in record mode without forwarding or recording', async () => {
    const before = recorder.cassette().log.entries.length
    const ready = await fetch(`${recorder.url}/-/readiness`)
    expect([ready.status, await ready.json()]).toEqual([200, { status: 'ok', master_check: [{ status: 'ok' }] }])
    const health = await fetch(`${recorder.url}/-/health`)
    expect([health.status, await health.text()]).toEqual([200, 'GitLab OK'])
    expect(recorder.cassette().log.entries.length).toBe(before)
  })

  it('answers them in lockdown without a miss', async () => {
    const locked = await createRecorder({ mode: 'lockdown', cassettes: [recorder.cassette()] })
    try {
      const live = await fetch(`${locked.url}/-/liveness`)
      expect([live.status, await live.json()]).toEqual([200, { status: 'ok' }])
      expect(locked.misses).toEqual([])
    } finally {
      await locked.close()
    }
  })
})
