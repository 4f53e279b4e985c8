/**
 * The node:http door: turns each `IncomingMessage` into a Fetch `Request`, hands it to the
 * simulator, and writes the `Response` back. No API logic lives here. Source: STYLE.md §3.1, §9
 * (after mswjs/http-middleware's to-fetch-request / send-fetch-response).
 * @module
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Simulator } from '../simulator.js'

/** Options for {@link startServer}. */
export interface ServerOptions {
  /** TCP port; 0 (the default) picks a free one. */
  port?: number
  /** Interface to bind; default `127.0.0.1`. */
  host?: string
  /** Largest accepted request body in bytes (default 10 MiB); larger ones get 413. */
  maxBodyBytes?: number
}

/** A listening server. */
export interface RunningServer {
  /** `http://host:port`, without trailing slash. */
  readonly url: string
  readonly port: number
  readonly server: http.Server
  /** Stops accepting connections and closes open ones. */
  close(): Promise<void>
}

class BodyTooLarge extends Error {}

async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > limit) throw new BodyTooLarge()
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

/** Builds a Fetch Request from a node request; the path stays percent-encoded. */
export async function toFetchRequest(req: IncomingMessage, limit: number): Promise<Request> {
  const host = req.headers.host ?? 'localhost'
  const url = new URL(req.url ?? '/', `http://${host}`)
  const headers = new Headers()
  for (const [name, values] of Object.entries(req.headersDistinct)) {
    for (const value of values ?? []) headers.append(name, value)
  }
  const method = req.method ?? 'GET'
  const body = method === 'GET' || method === 'HEAD' ? undefined : await readBody(req, limit)
  return new Request(url, { method, headers, body: body && body.length > 0 ? new Uint8Array(body) : undefined })
}

/** Writes a Fetch Response to a node response. */
export async function sendFetchResponse(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status
  for (const [name, value] of response.headers) {
    if (name === 'set-cookie') continue
    res.setHeader(name, value)
  }
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) res.setHeader('set-cookie', cookies)
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined
  res.end(body)
}

function sendPlainError(res: ServerResponse, status: number, body: object): void {
  if (res.headersSent) return void res.end()
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

/** Request line plus headers Node accepts (its default is 16 KiB), so long URLs get the core's 414. */
const MAX_HEADER_BYTES = 1024 * 1024

/**
 * Serves a simulator over node:http.
 * @returns once listening; `url` is ready for clients.
 * @throws the listen error (for example `EADDRINUSE`).
 * @example
 * const { url, close } = await startServer(createSimulator({ scenario }), { port: 0 })
 */
export async function startServer(sim: Simulator, options: ServerOptions = {}): Promise<RunningServer> {
  const limit = options.maxBodyBytes ?? 10 * 1024 * 1024
  // A URL past Node's default 16 KiB header limit must still reach the core, which answers GitLab's
  // 414 for a long query string (Node would answer a bare 400 itself).
  const server = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => {
    void (async () => {
      try {
        const request = await toFetchRequest(req, limit)
        await sendFetchResponse(res, await sim.handle(request))
      } catch (error) {
        if (error instanceof BodyTooLarge) sendPlainError(res, 413, { error: '413 Request Entity Too Large' })
        else if (error instanceof TypeError) sendPlainError(res, 400, { error: '400 Bad Request' })
        else sendPlainError(res, 500, { message: '500 Internal Server Error' })
      }
    })()
  })
  server.on('clientError', (error, socket) => {
    if (!socket.writable) return
    // Requests Node cannot parse never reach the core; they still get a JSON body in Grape's shape.
    const overflow = (error as NodeJS.ErrnoException).code === 'HPE_HEADER_OVERFLOW'
    const [status, reason] = overflow ? [431, 'Request Header Fields Too Large'] : [400, 'Bad Request']
    const body = JSON.stringify({ error: `${status} ${reason}` })
    socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`)
  })
  const host = options.host ?? '127.0.0.1'
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  const shownHost = host.includes(':') ? `[${host}]` : host
  return {
    url: `http://${shownHost}:${port}`,
    port,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeAllConnections()
      }),
  }
}
