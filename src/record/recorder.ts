/**
 * The Node door of record and replay: one local HTTP server that, by mode, forwards every request
 * to a real GitLab and records the exchange (`record`), only forwards (`passthrough`), or answers
 * from cassettes (`replay`, `lockdown`, `hybrid` with a simulator behind). `fakelab record` and
 * `fakelab serve --replay` both run it; `fakelab/node` exports it as `createRecorder()`.
 *
 * Forwarding is `http-proxy-3` (the only file that imports it), chosen over `http-proxy` 1.18.1 by
 * testing both on Node 20: both proxied, streamed, survived client aborts and reported a dead
 * upstream alike, but `http-proxy` is unmaintained since 2020, calls `url.parse()` (DEP0169,
 * reported under `--pending-deprecation` on Node 20 and at run time on newer Node) and
 * `util._extend` (DEP0060, a run-time warning from Node 22), and needs `@types/http-proxy`;
 * `http-proxy-3` is maintained, typed and warning-free. Its 2.x line requires Node 22, so the 1.x
 * line is pinned while fakelab supports Node 20.
 *
 * Responses stream to the client as they arrive, still compressed if GitLab compressed them;
 * the recorder keeps a copy and stores it decoded (gzip, deflate, br), so cassettes hold readable
 * JSON. Cassettes are redacted when taken (`cassette()`, `save()`), never written raw.
 * Source: issue 11; STYLE.md §9.
 * @module
 */
import { promises as fsp } from 'node:fs'
import { once } from 'node:events'
import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { dirname } from 'node:path'
import { Readable } from 'node:stream'
import zlib from 'node:zlib'
import type { Entry, Har, Header } from 'har-format'
import { createProxyServer } from 'http-proxy-3'
// The node:http door's own conversions, so both servers read requests and write answers alike.
import { sendFetchResponse, toFetchRequest } from '../server/fetch-bridge.js'
import { fromFetchRequest, toFetchResponse } from '../core/transport.js'
import { isProbe, probeReply } from '../core/stages/probe.js'
import { credentialOf, type SentCredential } from './credentials.js'
import { createCassette, parseCassette, serializeCassette, type CassetteCreator, type CassetteCredential } from './har.js'
import { API_ROOT, apiPath } from './match.js'
import { createRedactor, type RedactionRules } from './redact.js'
import {
  createReplayDoor,
  createReplayer,
  rebase,
  type ReplayDoor,
  type ReplayMiss,
  type ReplayMode,
  type Replayer,
  type ReplayerOptions,
  type RequestHandlerLike,
} from './replay.js'

/** What the recorder learnt of one credential (before redaction). */
interface Identity {
  credential: SentCredential
  source: CassetteCredential['source']
  /** Resolved once the user is known (the probe answered, or the session's own GET /user did). */
  ready: Promise<void>
  /** Resolves `ready` for an identity a `GET /user` of the session will show. */
  settle?: () => void
  status?: number
  user?: Record<string, unknown> | null
}

/** Options of {@link createRecorder}. */
export interface RecorderOptions {
  /** `record` (default), `passthrough`, `replay`, `lockdown` or `hybrid`. */
  mode?: ReplayMode
  /** GitLab base URL to forward to (`https://gitlab.example.com`). Required for `record` and `passthrough`. */
  target?: string
  /** Cassettes to answer from (`replay`, `lockdown`, `hybrid`). */
  cassettes?: readonly Har[]
  /** The stateful fallback of `hybrid` mode, usually a `Simulator`. */
  simulator?: RequestHandlerLike
  /** Matching rules for replay (ignored query keys, body matching, used-up behaviour). */
  match?: ReplayerOptions
  /** Extra redaction rules on top of the defaults. */
  redaction?: RedactionRules
  /** TCP port; 0 (default) picks a free one. */
  port?: number
  /** Interface; default `127.0.0.1`. */
  host?: string
  /** Largest accepted request body in bytes (default 10 MiB); larger ones get 413. */
  maxBodyBytes?: number
  /** `log.creator` of written cassettes. Default `{ name: 'fakelab', version: '0' }`. */
  creator?: CassetteCreator
  /**
   * When set, the cassette is also written here (atomically) shortly after each recorded
   * exchange, so a crash loses at most the last half second.
   */
  autosave?: string
  /** Called once per finished exchange (for logs and live counters). */
  onExchange?: (exchange: Exchange) => void
}

/** One finished exchange, as reported to {@link RecorderOptions.onExchange}. */
export interface Exchange {
  /** 1-based count of exchanges handled. */
  readonly sequence: number
  /** The request method. */
  readonly method: string
  /** Path and query as received. */
  readonly path: string
  /** Status sent to the client (502 when the target was unreachable). */
  readonly status: number
  /** Who answered: the target (forwarded), a cassette, the simulator (hybrid) or nobody (a miss). */
  readonly source: 'target' | 'cassette' | 'simulator' | 'miss'
  /** Whether the exchange went into the cassette. */
  readonly recorded: boolean
  /** Milliseconds from request to the end of the response. */
  readonly durationMs: number
  /** The miss report, for `source: 'miss'` and `'simulator'`. */
  readonly miss?: ReplayMiss
  /** The forwarding error, when the target could not be reached. */
  readonly error?: Error
}

/** A running recorder (also a replay server). Shaped like `RunningServer` of `startServer`. */
export interface Recorder {
  /** `http://host:port`, without trailing slash; point clients here instead of at GitLab. */
  readonly url: string
  /** The TCP port listened on. */
  readonly port: number
  /** The underlying node:http server. */
  readonly server: http.Server
  /** The mode it runs in. */
  readonly mode: ReplayMode
  /** The replayer of the replay modes (undefined in `record` and `passthrough`). */
  readonly replayer: Replayer | undefined
  /** Exchanges recorded so far. */
  readonly recordedCount: number
  /** Misses so far (replay modes). */
  readonly misses: readonly ReplayMiss[]
  /** The recorded exchanges as a redacted cassette (entries sorted by start time). */
  cassette(): Har
  /** Writes {@link cassette} to `path` atomically (a temporary file, then a rename). */
  save(path: string): Promise<void>
  /**
   * Stops accepting connections and closes open ones.
   * @throws LockdownError in `lockdown` mode when any request had no recorded answer.
   */
  close(): Promise<void>
}

/** Thrown by `close()` of a `lockdown` recorder that saw misses; `misses` lists them in order. */
export class LockdownError extends Error {
  /** The unmatched requests, in order. */
  readonly misses: readonly ReplayMiss[]

  /** @param misses the unmatched requests (at least one). */
  constructor(misses: readonly ReplayMiss[]) {
    const list = misses.map((miss) => `  ${miss.message.split('\n').join('\n  ')}`).join('\n')
    super(`lockdown: ${misses.length} request${misses.length === 1 ? '' : 's'} had no recorded response:\n${list}`)
    this.name = 'LockdownError'
    this.misses = misses
  }
}

/**
 * Reads and validates a cassette file.
 * @throws CassetteError listing every problem as `file:line:col message`.
 * @throws the file system error when the file cannot be read.
 */
export async function loadCassetteFile(path: string): Promise<Har> {
  return parseCassette(await fsp.readFile(path, 'utf8'), path)
}

/**
 * Writes a cassette atomically: the text goes to a temporary file beside `path`, which is then
 * renamed over it, so a reader (or a crash) never sees half a cassette. Creates missing folders.
 */
export async function writeCassetteFile(path: string, har: Har): Promise<void> {
  await fsp.mkdir(dirname(path), { recursive: true })
  const temp = `${path}.${process.pid}.${Date.now()}.tmp`
  try {
    await fsp.writeFile(temp, serializeCassette(har), 'utf8')
    await fsp.rename(temp, path)
  } catch (error) {
    await fsp.rm(temp, { force: true })
    throw error
  }
}

function rawHeaderList(raw: readonly string[]): Header[] {
  const out: Header[] = []
  for (let i = 0; i + 1 < raw.length; i += 2) out.push({ name: raw[i]!, value: raw[i + 1]! })
  return out
}

const TEXTUAL = /json|^text\/|xml|javascript|x-www-form-urlencoded|yaml|csv|graphql/i

/** Decodes a body per its `content-encoding`; undefined when the encoding is unknown or broken. */
function decode(raw: Buffer, encoding: string | undefined): Buffer | undefined {
  const codings = (encoding ?? '').split(',').map((c) => c.trim().toLowerCase()).filter((c) => c !== '' && c !== 'identity')
  try {
    return codings.reduceRight((body, coding) => {
      if (coding === 'gzip' || coding === 'x-gzip') return zlib.gunzipSync(body)
      if (coding === 'br') return zlib.brotliDecompressSync(body)
      if (coding === 'deflate') {
        // Servers send both zlib-wrapped and raw deflate under this name.
        try {
          return zlib.inflateSync(body)
        } catch {
          return zlib.inflateRawSync(body)
        }
      }
      throw new Error(`unsupported content-encoding ${coding}`)
    }, raw)
  } catch {
    return undefined
  }
}

/** HAR `content` for a body: UTF-8 text when textual and valid, else base64. */
function harContent(raw: Buffer, headers: Header[]): Entry['response']['content'] {
  const type = headers.find((h) => h.name.toLowerCase() === 'content-type')?.value ?? ''
  const encoding = headers.find((h) => h.name.toLowerCase() === 'content-encoding')?.value
  const decoded = decode(raw, encoding)
  const body = decoded ?? raw
  const mimeType = type || 'x-unknown'
  const base = { size: body.length, ...(decoded && decoded.length !== raw.length ? { compression: decoded.length - raw.length } : {}), mimeType }
  if (!decoded) return { ...base, text: raw.toString('base64'), encoding: 'base64', _encoded: true } as Entry['response']['content']
  if (body.length === 0) return { ...base, text: '' }
  if (TEXTUAL.test(type)) {
    try {
      return { ...base, text: new TextDecoder('utf-8', { fatal: true }).decode(body) }
    } catch {
      // Not UTF-8 after all: base64 below.
    }
  }
  return { ...base, text: body.toString('base64'), encoding: 'base64' }
}

interface PendingRequest {
  startedAt: number
  method: string
  url: string
  httpVersion: string
  headers: Header[]
  body: Buffer
}

function harEntry(request: PendingRequest, response: IncomingMessage, raw: Buffer, firstByteAt: number, endAt: number): Entry {
  const url = new URL(request.url)
  const mimeType = request.headers.find((h) => h.name.toLowerCase() === 'content-type')?.value ?? 'application/octet-stream'
  const responseHeaders = rawHeaderList(response.rawHeaders)
  const location = responseHeaders.find((h) => h.name.toLowerCase() === 'location')?.value ?? ''
  return {
    startedDateTime: new Date(request.startedAt).toISOString(),
    time: endAt - request.startedAt,
    request: {
      method: request.method,
      url: request.url,
      httpVersion: `HTTP/${request.httpVersion}`,
      cookies: [],
      headers: request.headers,
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      ...(request.body.length > 0 ? { postData: { mimeType, text: request.body.toString('utf8') } } : {}),
      headersSize: -1,
      bodySize: request.body.length,
    },
    response: {
      status: response.statusCode ?? 0,
      statusText: response.statusMessage ?? '',
      httpVersion: `HTTP/${response.httpVersion}`,
      cookies: [],
      headers: responseHeaders,
      content: harContent(raw, responseHeaders),
      redirectURL: location,
      headersSize: -1,
      bodySize: raw.length,
    },
    cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, send: 0, wait: firstByteAt - request.startedAt, receive: endAt - firstByteAt, ssl: -1 },
  }
}

/** The number of a placeholder (`[REDACTED-12]` → 12). */
function placeholderNumber(placeholder: string): number {
  return Number(/\d+/.exec(placeholder)?.[0] ?? 0)
}

/** A `GET /user` answer as a user (an object with `id` and `username`), else null. */
function parseUser(body: Buffer | undefined): Record<string, unknown> | null {
  try {
    const value = JSON.parse(body?.toString('utf8') ?? '') as unknown
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && typeof (value as { id?: unknown }).id === 'number' && typeof (value as { username?: unknown }).username === 'string') {
      return value as Record<string, unknown>
    }
  } catch {
    // Not JSON: no user.
  }
  return null
}

/** The header or query parameter a credential goes in, as its `sentAs` names it. */
function credentialPlace(sentAs: string): { header?: string; query?: string } {
  return sentAs.endsWith('=') ? { query: sentAs.slice(0, -1) } : sentAs.startsWith('Authorization') ? { header: 'Authorization' } : { header: sentAs }
}

/**
 * Asks the target who a credential belongs to: `GET /api/v4/user` with the credential alone, sent
 * as the session sent it (no sudo). A target that cannot be reached gives status 0 and no user.
 */
async function probeUser(target: URL, credential: SentCredential): Promise<{ status: number; user: Record<string, unknown> | null }> {
  const url = new URL(`${target.pathname.replace(/\/$/, '')}${API_ROOT}/user`, target.origin)
  const place = credentialPlace(credential.sentAs)
  if (place.query) url.searchParams.set(place.query, credential.value)
  const headers: Record<string, string> = {}
  if (place.header) headers[place.header] = place.header === 'Authorization' ? `Bearer ${credential.value}` : credential.value
  try {
    const response = await fetch(url, { headers })
    const body = Buffer.from(await response.arrayBuffer())
    return { status: response.status, user: response.status === 200 ? parseUser(body) : null }
  } catch {
    return { status: 0, user: null }
  }
}

/** An identity as one `GET /user` exchange, for the redactor (never written as an entry). */
function identityEntry(identity: Identity, target: URL): Entry {
  const url = new URL(`${target.pathname.replace(/\/$/, '')}${API_ROOT}/user`, target.origin)
  const place = credentialPlace(identity.credential.sentAs)
  if (place.query) url.searchParams.set(place.query, identity.credential.value)
  const headers = place.header ? [{ name: place.header, value: place.header === 'Authorization' ? `Bearer ${identity.credential.value}` : identity.credential.value }] : []
  const text = JSON.stringify(identity.user ?? null)
  return {
    startedDateTime: new Date(0).toISOString(),
    time: 0,
    request: { method: 'GET', url: url.href, httpVersion: 'HTTP/1.1', cookies: [], headers, queryString: [], headersSize: -1, bodySize: 0 },
    response: { status: identity.status ?? 0, statusText: '', httpVersion: 'HTTP/1.1', cookies: [], headers: [], content: { size: text.length, mimeType: 'application/json', text }, redirectURL: '', headersSize: -1, bodySize: -1 },
    cache: {},
    timings: { send: 0, wait: 0, receive: 0 },
  }
}

function sendError(res: ServerResponse, status: number, body: object): void {
  if (res.headersSent) return void res.destroy()
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

// Connection-level headers of the target's answer are not passed on: node:http manages the
// client connection itself.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'upgrade'])

/**
 * Starts a recorder (or replay server) on a local port.
 * @throws TypeError for a missing or invalid `target` in `record`/`passthrough`, or `hybrid`
 *   without `simulator`.
 * @throws the listen error (for example `EADDRINUSE`).
 * @example
 * import { createRecorder } from 'fakelab/node'
 * const recorder = await createRecorder({ target: 'https://gitlab.example.com' })
 * // point the client at recorder.url, run the session, then:
 * await recorder.save('fixtures/cassettes/session.har.json')
 * await recorder.close()
 */
export async function createRecorder(options: RecorderOptions = {}): Promise<Recorder> {
  const mode = options.mode ?? 'record'
  const forwards = mode === 'record' || mode === 'passthrough'
  const target = options.target
  if (forwards && (!target || !URL.canParse(target))) throw new TypeError(`${mode} mode needs a target URL such as https://gitlab.example.com`)
  const targetUrl = target ? new URL(target) : undefined
  const limit = options.maxBodyBytes ?? 10 * 1024 * 1024
  const recorded: Entry[] = []
  const creator = options.creator ?? { name: 'fakelab', version: '0' }
  let sequence = 0
  const report = (exchange: Omit<Exchange, 'sequence'>): void => options.onExchange?.({ sequence: ++sequence, ...exchange })

  const replayer = forwards ? undefined : createReplayer(options.cassettes ?? [], options.match)
  const door: ReplayDoor | undefined = replayer
    ? createReplayDoor(replayer, { mode: mode as 'replay' | 'lockdown' | 'hybrid', ...(options.simulator ? { simulator: options.simulator } : {}) })
    : undefined

  // Credential → the user behind it, noted the first time each credential is seen (issue 23 item
  // 20): a cassette whose session never called `GET /user` still says who sent each token.
  const identities = new Map<string, Identity>()
  const cassette = (): Har => {
    const known = [...identities.values()].filter((identity) => identity.status !== undefined)
    // Each identity is redacted as one more exchange (`GET /user` with the credential), so its
    // credential gets the placeholder the entries use and its answer loses its secrets alike.
    const probes = known.map((identity) => identityEntry(identity, targetUrl ?? new URL('http://gitlab.invalid')))
    const redacted = createRedactor(options.redaction).entries([...recorded, ...probes])
    const credentials = redacted
      .slice(recorded.length)
      .map((entry, i): CassetteCredential => {
        const identity = known[i]!
        const placeholder = credentialOf(entry.request.headers, new URL(entry.request.url))?.value ?? ''
        const user = identity.user ? (JSON.parse(entry.response.content.text ?? 'null') as CassetteCredential['user']) : null
        return { placeholder, sent_as: identity.credential.sentAs, status: identity.status!, source: identity.source, user }
      })
      .filter((c) => /^\[REDACTED-\d+\]$/.test(c.placeholder))
      .sort((a, b) => placeholderNumber(a.placeholder) - placeholderNumber(b.placeholder))
    return createCassette(redacted.slice(0, recorded.length), creator, { credentials })
  }
  let saveTimer: NodeJS.Timeout | undefined
  let saving: Promise<void> = Promise.resolve()
  const save = (path: string): Promise<void> => {
    // Saves run one after another, so an older snapshot never renames over a newer one.
    saving = saving.catch(() => undefined).then(() => writeCassetteFile(path, cassette()))
    return saving
  }
  const scheduleAutosave = (): void => {
    if (!options.autosave || saveTimer) return
    saveTimer = setTimeout(() => {
      saveTimer = undefined
      save(options.autosave!).catch(() => undefined)
    }, 500)
  }

  // `selfHandleResponse`: the recorder writes the answer itself, so it can keep a copy while the
  // bytes stream through. `changeOrigin`: GitLab routes on the Host header.
  const proxy = targetUrl ? createProxyServer({ target: targetUrl.href, changeOrigin: true, selfHandleResponse: true, xfwd: false }) : undefined
  const pending = new WeakMap<IncomingMessage, PendingRequest>()
  proxy?.on('proxyRes', (proxyRes, req, res) => {
    const request = pending.get(req)!
    const firstByteAt = Date.now()
    const headers: string[] = []
    // GitLab builds `Link` and `Location` from its own URL; pointing them at the recorder keeps a
    // client that follows pagination inside the recording. The cassette keeps GitLab's original.
    const ownOrigin = `http://${req.headers.host ?? 'localhost'}`
    for (let i = 0; i + 1 < proxyRes.rawHeaders.length; i += 2) {
      const name = proxyRes.rawHeaders[i]!
      const lower = name.toLowerCase()
      if (HOP_BY_HOP.has(lower)) continue
      const value = proxyRes.rawHeaders[i + 1]!
      headers.push(name, lower === 'link' || lower === 'location' ? rebase(value, targetUrl!.origin, ownOrigin) : value)
    }
    res.writeHead(proxyRes.statusCode ?? 502, proxyRes.statusMessage, headers)
    const chunks: Buffer[] = []
    if (mode === 'record') proxyRes.on('data', (chunk: Buffer) => chunks.push(chunk))
    proxyRes.on('end', () => {
      const endAt = Date.now()
      if (mode === 'record') {
        if (request.method === 'GET' && apiPath(new URL(request.url).pathname) === '/user') {
          noteOwnUser(request, proxyRes.statusCode ?? 0, Buffer.concat(chunks), proxyRes.headers['content-encoding'])
        }
        recorded.push(harEntry(request, proxyRes, Buffer.concat(chunks), firstByteAt, endAt))
        scheduleAutosave()
      }
      report({ method: request.method, path: req.url ?? '/', status: proxyRes.statusCode ?? 0, source: 'target', recorded: mode === 'record', durationMs: endAt - request.startedAt })
    })
    proxyRes.pipe(res)
  })
  proxy?.on('error', (error, req, res) => {
    const request = pending.get(req)
    // A session GET /user that never got an answer shows no user: the credential's next request asks.
    const credential = request ? credentialOf(request.headers, new URL(request.url)) : undefined
    const identity = credential ? identities.get(credential.value) : undefined
    if (identity?.source === 'answer' && identity.status === undefined) {
      identities.delete(credential!.value)
      identity.settle?.()
    }
    if ('writeHead' in res) sendError(res, 502, { error: `502 Bad Gateway: fakelab could not reach ${targetUrl!.origin}: ${error.message}` })
    report({ method: req.method ?? 'GET', path: req.url ?? '/', status: 502, source: 'target', recorded: false, durationMs: Date.now() - (request?.startedAt ?? Date.now()), error })
  })

  /**
   * Notes the credential of a request about to be forwarded, the first time it is seen: a
   * `GET /user` without sudo will show its user itself; any other request waits for the
   * recorder's own `GET /user` with the credential alone, sent first so the target sees the same
   * order every time.
   */
  const noteCredential = async (method: string, url: URL, headers: Header[]): Promise<void> => {
    if (mode !== 'record') return
    const credential = credentialOf(headers, url)
    if (!credential) return
    let identity = identities.get(credential.value)
    if (!identity) {
      const showsItself = method === 'GET' && apiPath(url.pathname) === '/user' && !url.searchParams.has('sudo') && !headers.some((h) => h.name.toLowerCase() === 'sudo')
      if (showsItself) {
        const shown: Identity = { credential, source: 'answer', ready: Promise.resolve() }
        shown.ready = new Promise<void>((resolve) => (shown.settle = resolve))
        identities.set(credential.value, shown)
        return
      }
      const probing: Identity = { credential, source: 'probe', ready: Promise.resolve() }
      probing.ready = probeUser(targetUrl!, credential).then(({ status, user }) => {
        probing.status = status
        probing.user = user
      })
      identities.set(credential.value, probing)
      identity = probing
    }
    if (identity.source === 'probe') await identity.ready
  }

  /** The session's own `GET /user` answered: the user of its credential, if still unknown. */
  const noteOwnUser = (request: PendingRequest, status: number, raw: Buffer, encoding: string | undefined): void => {
    const credential = credentialOf(request.headers, new URL(request.url))
    const identity = credential ? identities.get(credential.value) : undefined
    if (!identity || identity.source !== 'answer' || identity.status !== undefined) return
    identity.status = status
    identity.user = status === 200 ? parseUser(decode(raw, encoding)) : null
    identity.settle?.()
  }

  const forward = async (req: IncomingMessage, res: ServerResponse, body: Buffer, startedAt: number): Promise<void> => {
    // http-proxy prepends the target's path (a GitLab under a relative URL root), so the record does too.
    const url = new URL(`${targetUrl!.pathname.replace(/\/$/, '')}${req.url ?? '/'}`, targetUrl!.origin)
    // Record the request as the target saw it: its Host, not the recorder's.
    const headers = rawHeaderList(req.rawHeaders).map((h) => (h.name.toLowerCase() === 'host' ? { ...h, value: url.host } : h))
    await noteCredential(req.method ?? 'GET', url, headers)
    pending.set(req, { startedAt, method: req.method ?? 'GET', url: url.href, httpVersion: req.httpVersion, headers, body })
    proxy!.web(req, res, { buffer: Readable.from(body.length > 0 ? [body] : []) })
  }

  const answer = async (req: IncomingMessage, res: ServerResponse, request: Request, startedAt: number): Promise<void> => {
    const before = replayer!.misses.length
    const response = (await door!(request))!
    const missed = replayer!.misses.length > before ? replayer!.misses.at(-1) : undefined
    await sendFetchResponse(res, response)
    const source = !missed ? 'cassette' : mode === 'hybrid' ? 'simulator' : 'miss'
    report({ method: request.method, path: req.url ?? '/', status: response.status, source, recorded: false, durationMs: Date.now() - startedAt, ...(missed ? { miss: missed } : {}) })
  }

  const server = http.createServer((req, res) => {
    const startedAt = Date.now()
    void (async () => {
      let request: Request
      try {
        request = await toFetchRequest(req, limit)
      } catch (error) {
        // toFetchRequest fails with a TypeError for a URL it cannot parse, else for a body over the limit.
        if (error instanceof TypeError) sendError(res, 400, { error: '400 Bad Request' })
        else sendError(res, 413, { error: '413 Request Entity Too Large' })
        return
      }
      try {
        // GitLab's health probes tell that the recorder listens: answered here in every mode, never
        // forwarded, replayed, recorded nor logged (issue 38 item 4: the way to wait for a server).
        const view = fromFetchRequest(request)
        if (isProbe(view)) return await sendFetchResponse(res, toFetchResponse(probeReply(view)))
        if (forwards) await forward(req, res, Buffer.from(await request.arrayBuffer()), startedAt)
        else await answer(req, res, request, startedAt)
      } catch {
        sendError(res, 500, { message: '500 Internal Server Error' })
      }
    })()
  })
  const host = options.host ?? '127.0.0.1'
  // `once` rejects with the listen error (EADDRINUSE, ...).
  await once(server.listen(options.port ?? 0, host), 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    server,
    mode,
    replayer,
    get recordedCount() {
      return recorded.length
    },
    get misses() {
      return replayer?.misses ?? []
    },
    cassette,
    save,
    async close() {
      // A pending autosave is dropped (callers save explicitly when stopping); one in flight finishes.
      clearTimeout(saveTimer)
      saveTimer = undefined
      await saving.catch(() => undefined)
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeAllConnections()
      })
      proxy?.close()
      if (mode === 'lockdown' && replayer && replayer.misses.length > 0) throw new LockdownError(replayer.misses)
    },
  }
}
