/**
 * The node:http door: reads each `IncomingMessage` as the engine's {@link CoreRequest}, hands it to
 * the simulator, and writes the {@link CoreReply} straight to the `ServerResponse`. No Fetch
 * `Request`/`Response` is built on the way, and no API logic lives here. Source: STYLE.md §1.2, §3.1, §9.
 * @module
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { BodyTooLarge, MAX_QUERY_LENGTH, type CoreReply, type CoreRequest, type Simulator } from '../core/engine.js'

/** Options for {@link startServer}. */
export interface ServerOptions {
  /** TCP port; 0 (the default) picks a free one. */
  port?: number
  /** Interface to bind; default `127.0.0.1`. */
  host?: string
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

/**
 * Headers node keeps only once when repeated (its "discard duplicates" list) or joins with `; `
 * (`cookie`): for these the lookup joins every field with `, `, as Fetch `Headers.get` does.
 */
const SINGLE_VALUE_HEADERS = new Set([
  'age', 'authorization', 'content-length', 'content-type', 'etag', 'expires', 'from', 'host',
  'if-modified-since', 'if-unmodified-since', 'last-modified', 'location', 'max-forwards',
  'proxy-authorization', 'referer', 'retry-after', 'server', 'user-agent', 'cookie',
])

/** `http://host` origins by Host header, parsed once each (WHATWG URL rules: case, default port, IDNA). */
const origins = new Map<string, string>()

function originOf(host: string): string {
  let origin = origins.get(host)
  if (origin === undefined) {
    // Throws TypeError for a Host no URL can have; the door answers that with 400.
    origin = new URL(`http://${host}`).origin
    if (origins.size >= 256) origins.clear()
    origins.set(host, origin)
  }
  return origin
}

/**
 * A request target the URL parser would leave as it is: origin-form, only characters that are
 * neither percent-encoded nor dropped by it, and no dot segment to resolve. Anything else goes
 * through `new URL`, so the engine sees exactly the path and query a Fetch client would send.
 */
const PLAIN_TARGET = /^\/[A-Za-z0-9\-_~!$&()*+,;=:@%/?[\]^|]*$/
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|\?|$)/i

/** What {@link readBody} gives for a body it stopped reading past the limit. */
const OVER_LIMIT = Symbol('over the limit')

/** A body as the door read it: its bytes, none, or {@link OVER_LIMIT}. */
type ReadBody = Uint8Array | undefined | typeof OVER_LIMIT

/** A node request seen as a {@link CoreRequest}. A class, so requests share their methods. */
class NodeRequestView implements CoreRequest {
  readonly method: string
  readonly path: string
  readonly query: string
  readonly origin: string
  readonly #req: IncomingMessage
  readonly #body: ReadBody

  constructor(req: IncomingMessage, method: string, path: string, query: string, origin: string, body: ReadBody) {
    this.method = method
    this.path = path
    this.query = query
    this.origin = origin
    this.#req = req
    this.#body = body === OVER_LIMIT || (body && body.length > 0) ? body : undefined
  }

  header(name: string): string | undefined {
    const req = this.#req
    const value = req.headers[name]
    if (value === undefined) return undefined
    if (typeof value !== 'string') return value.join(', ')
    if (!SINGLE_VALUE_HEADERS.has(name)) return value
    const all = req.headersDistinct[name]
    return all && all.length > 1 ? all.join(', ') : value
  }

  body(): Promise<Uint8Array | undefined> {
    // Read before the engine saw the request (see startServer), so there is nothing left to wait for.
    const body = this.#body
    return body === OVER_LIMIT ? Promise.reject(new BodyTooLarge()) : Promise.resolve(body)
  }
}

/**
 * Reads a node request as the engine's request: path and query as the WHATWG URL parser leaves
 * them (what a Fetch `Request` would carry), except that a backslash stays a character of the path
 * (`%5C`), as GitLab's Puma and Rack keep it; headers looked up on demand, the body as read.
 * @throws TypeError for a request target or Host header that no URL can have.
 */
function toCoreRequest(req: IncomingMessage, body: Uint8Array | undefined | typeof OVER_LIMIT): CoreRequest {
  const target = req.url ?? '/'
  let origin = originOf(req.headers.host ?? 'localhost')
  let path: string
  let query: string
  if (PLAIN_TARGET.test(target) && !DOT_SEGMENT.test(target)) {
    const at = target.indexOf('?')
    path = at < 0 ? target : target.slice(0, at)
    query = at < 0 ? '' : target.slice(at + 1)
  } else {
    // An absolute-form target (`GET http://host/path`) brings its own origin. A backslash in an
    // origin-form target stays a character of the path, as Puma and Rack read it (GitLab's router
    // then finds no route: the catch-all 404); the WHATWG parser would read it as `/` (issue 40).
    const url = new URL(target.startsWith('/') ? target.replaceAll('\\', '%5C') : target, `${origin}/`)
    origin = url.origin
    path = url.pathname
    query = url.search.slice(1)
  }
  return new NodeRequestView(req, req.method ?? 'GET', path, query, origin, body)
}

/**
 * Reads a request body whole, up to `limit` bytes: past that it stops reading (nothing more is
 * held) and gives {@link OVER_LIMIT}.
 * @throws the stream's error (a connection that broke mid-body).
 */
function readBody(req: IncomingMessage, limit: number): Promise<ReadBody> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const stop = () => {
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', reject)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= limit) return void chunks.push(chunk)
      stop()
      req.pause()
      chunks.length = 0
      resolve(OVER_LIMIT)
    }
    const onEnd = () => {
      stop()
      resolve(size === 0 ? undefined : chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size))
    }
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', reject)
  })
}

/** A response as node makes it: `_contentLength` is what `end(body)` counts the body into. */
type CountedResponse = ServerResponse & { _contentLength?: number | null }

/**
 * Writes a reply. The head is written at once from the header list with `writeHead`, which checks
 * each field as `setHeader` would without keeping them in node's header map first (measured: 6% of
 * a first request's CPU). The body's length is counted into `_contentLength`, as `end(body)` counts
 * it, so that node still writes `Connection`, `Keep-Alive` and then `Content-Length` after the
 * reply's fields, byte for byte as before (`npm run golden`); every node from 0.x to 24 has that
 * field, initialised to `null`. On a node without it, the documented way: `setHeader`, `end`.
 */
function sendReply(res: CountedResponse, reply: CoreReply): void {
  // An injected connection reset: the client sees the socket close without an answer.
  if (reply.fault === 'reset') return void res.socket?.destroy()
  const body = reply.body
  if (!('_contentLength' in res)) {
    res.statusCode = reply.status
    for (const [name, value] of reply.headers) res.setHeader(name, value)
    return void res.end(body)
  }
  // What `end(body)` counts: the bytes of a non-empty body, else 0.
  res._contentLength = body ? (typeof body === 'string' ? Buffer.byteLength(body) : body.length) : 0
  res.writeHead(reply.status, reply.headers as [string, string][])
  res.end(body)
}

function sendPlainError(res: ServerResponse, status: number, body: object): void {
  if (res.headersSent) return void res.end()
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

/** Length of the request line in what node had read of a refused head (all of it when no line ended). */
function requestLineLength(packet: Buffer | undefined): number {
  if (!packet) return 0
  const end = packet.indexOf('\r\n')
  return end < 0 ? packet.length : end
}

/**
 * The answer to a request head node's parser refuses, written to the socket as it is (there is no
 * request to answer through the engine): 414 `{"error":"414 Request-URI Too Large"}` when the head is
 * over node's limit (`maxHeaderSize`, 16 KiB by default) and its request line alone is longer than
 * the query limit, as the engine answers a shorter long query; 408 when the head never arrived;
 * otherwise a JSON 400, for a raw space, non-ASCII or control byte in the target, a malformed line
 * or headers over the limit. The answer to a `HEAD` has the same head and no body: a body there
 * would be read as the start of the next answer (RFC 9110 §9.3.2).
 * (Puma answers these with an empty 400 or 414; the JSON keeps clients that always parse JSON working.)
 */
function clientErrorAnswer(error: NodeJS.ErrnoException & { rawPacket?: Buffer }): string {
  let status = '400 Bad Request'
  let body = '{"error":"400 Bad Request"}'
  if (error.code === 'HPE_HEADER_OVERFLOW' && requestLineLength(error.rawPacket) > MAX_QUERY_LENGTH) {
    status = '414 URI Too Long'
    body = '{"error":"414 Request-URI Too Large"}'
  } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = '408 Request Timeout'
    body = '{"error":"408 Request Timeout"}'
  }
  const head = `HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`
  return isHead(error.rawPacket) ? head : `${head}${body}`
}

/** Whether the refused request, as node had read it, is a `HEAD` (its request line, after any blank lines, starts so). */
function isHead(packet: Buffer | undefined): boolean {
  if (!packet) return false
  let start = 0
  while (packet[start] === 0x0d || packet[start] === 0x0a) start++
  return packet.toString('latin1', start, start + 5) === 'HEAD '
}

/**
 * Serves a simulator over node:http.
 * @returns once listening; `url` is ready for clients.
 * @throws the listen error (for example `EADDRINUSE`).
 * @example
 * const { url, close } = await startServer(createSimulator({ scenario }), { port: 0 })
 */
export async function startServer(sim: Simulator, options: ServerOptions = {}): Promise<RunningServer> {
  function answer(req: IncomingMessage, res: ServerResponse, body: ReadBody): void {
    let request: CoreRequest
    try {
      request = toCoreRequest(req, body)
    } catch {
      return sendPlainError(res, 400, { error: '400 Bad Request' })
    }
    sim.dispatch(request).then(
      (reply) => {
        // The rest of a body left unread is not worth reading: the connection ends after the answer.
        if (body === OVER_LIMIT) res.shouldKeepAlive = false
        sendReply(res, reply)
      },
      () => sendPlainError(res, 500, { message: '500 Internal Server Error' }),
    )
  }

  const server = http.createServer((req, res) => {
    // GET and HEAD bodies are ignored, as Fetch cannot carry them; other bodies are read first, up
    // to the simulator's one limit: a body over it (by its Content-Length, or as it arrives) is read
    // no further, and the engine answers it (nginx's 413) as it does on every door.
    if (req.method === 'GET' || req.method === 'HEAD') return answer(req, res, undefined)
    const limit = sim.maxBodyBytes
    const declared = req.headers['content-length']
    if (declared !== undefined && Number(declared) > limit) return answer(req, res, OVER_LIMIT)
    readBody(req, limit).then(
      (body) => answer(req, res, body),
      () => sendPlainError(res, 400, { error: '400 Bad Request' }),
    )
  })
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy()
    socket.end(clientErrorAnswer(error))
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
