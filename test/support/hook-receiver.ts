/**
 * A webhook receiver for a test file: a node:http server on 127.0.0.1, started before the file's
 * tests and closed after them, that keeps every delivery it gets (its path, headers and JSON body)
 * in order, answering 200, and forgets them before each test. The hook contract tests point project
 * and system hooks at it and read what fakelab sent.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach } from 'vitest'

/** One delivery as the receiver got it. */
export interface ReceivedHook {
  /** The request's path (with its query), e.g. `/system`. */
  path: string
  headers: IncomingHttpHeaders
  body: any
}

/** The receiver: `url` (`http://127.0.0.1:<port>`, set once the file's tests start) and what it got. */
export interface HookReceiver {
  readonly url: string
  /** The deliveries since the current test started, oldest first (emptied in place before each test). */
  readonly received: ReceivedHook[]
}

/**
 * Starts a receiver for the calling test file (registers its `beforeAll`, `afterAll` and `beforeEach`).
 * @param options.port a fixed port, for a scenario file that names the receiver's URL (default: any free port).
 * @param options.reply the text body of every answer (default `ok`), which fakelab logs as the response body.
 */
export function hookReceiver(options: { port?: number; reply?: string } = {}): HookReceiver {
  const received: ReceivedHook[] = []
  let url = ''
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) })
      res.writeHead(200, { 'content-type': 'text/plain' }).end(options.reply ?? 'ok')
    })
  })
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))
  beforeEach(() => {
    received.length = 0
  })
  return { get url() { return url }, received }
}
