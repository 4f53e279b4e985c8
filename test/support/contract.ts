/**
 * The contract harness: one suite, two doors. `contract(title, options, body)` runs `body` once
 * against the node:http server (real `fetch` over loopback) and once against the MSW handlers
 * (`setupServer`, `onUnhandledRequest: 'error'`), each test on a fresh copy of the scenario.
 * `CONTRACT_TRANSPORT=node` (or `msw`) narrows the run.
 */
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, beforeEach, describe } from 'vitest'
import { createSimulator, type Simulator, type SimulatorSnapshot } from '../../src/index.js'
import { createHandlers } from '../../src/msw.js'
import { loadDefaultScenario, startServer } from '../../src/node.js'
import type { ReplyMemoMode } from '../../src/core/reply-memo.js'
import type { Scenario } from '../../src/scenario/index.js'

export type Transport = 'node' | 'msw'

/** A parsed response: status, headers, and the body parsed as JSON when there is one. */
export interface ApiResponse {
  status: number
  headers: Headers
  /** Parsed JSON body; `undefined` for an empty body. */
  body: any
  text: string
  /** The body's bytes as received (an upload a web route serves). */
  bytes: Uint8Array
}

/** Per-request options. */
export interface RequestOptions {
  /** Sign in as this user of the default scenario (`glpat-<username>-fakelab`). */
  as?: string
  /** Explicit token for the `PRIVATE-TOKEN` header. */
  token?: string
  headers?: Record<string, string>
  /** Query string params (appended to the path). */
  query?: Record<string, string | number | boolean | (string | number)[]>
  /** JSON body. */
  body?: unknown
  /** Form body (`application/x-www-form-urlencoded`). */
  form?: Record<string, string>
  /** Multipart body. */
  multipart?: FormData
  /** A body sent as it is (a `ReadableStream` goes chunked, without `Content-Length`); give its `content-type` in `headers`. */
  rawBody?: BodyInit
  /** Fetch's redirect mode; `manual` to see a 302 itself (web routes). Default `follow`. */
  redirect?: RequestRedirect
}

/** A small client bound to one door. Paths are relative to `/api/v4` unless they start with `/-/`, `/api/` or `/uploads/`. */
export interface Api {
  readonly baseUrl: string
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>
  get(path: string, options?: RequestOptions): Promise<ApiResponse>
  post(path: string, options?: RequestOptions): Promise<ApiResponse>
  put(path: string, options?: RequestOptions): Promise<ApiResponse>
  delete(path: string, options?: RequestOptions): Promise<ApiResponse>
}

export interface ContractContext {
  api: Api
  /** The simulator behind the door (for arranging data and checking state). */
  sim: () => Simulator
  transport: Transport
}

export interface ContractOptions {
  /** Default: the embedded default scenario. */
  scenario?: Scenario | string
  /** The simulator's reply memo mode; default: the suite's (`FAKELAB_REPLY_MEMO`, `verify`). */
  replyMemo?: ReplyMemoMode
}

const ALL: Transport[] = ['node', 'msw']

function transports(): Transport[] {
  const only = process.env.CONTRACT_TRANSPORT
  return only ? ALL.filter((t) => t === only) : ALL
}

function makeApi(baseUrl: string): Api {
  async function request(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
    const prefix = path.startsWith('/-/') || path.startsWith('/api/') || path.startsWith('/uploads/') ? '' : '/api/v4'
    let url = `${baseUrl}${prefix}${path}`
    if (options.query) {
      const search = new URLSearchParams()
      for (const [key, value] of Object.entries(options.query)) {
        if (Array.isArray(value)) for (const item of value) search.append(key, String(item))
        else search.append(key, String(value))
      }
      url += (url.includes('?') ? '&' : '?') + search.toString()
    }
    const headers: Record<string, string> = { ...options.headers }
    const token = options.token ?? (options.as ? `glpat-${options.as}-fakelab` : undefined)
    if (token) headers['PRIVATE-TOKEN'] = token
    let body: BodyInit | undefined
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json'
      body = JSON.stringify(options.body)
    } else if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded'
      body = new URLSearchParams(options.form).toString()
    } else if (options.multipart) {
      body = options.multipart
    } else if (options.rawBody !== undefined) {
      body = options.rawBody
    }
    // A stream body goes out chunked, without Content-Length; Fetch wants `duplex` for it.
    const streamed = typeof ReadableStream !== 'undefined' && body instanceof ReadableStream
    const res = await fetch(url, { method, headers, body, ...(streamed ? { duplex: 'half' } : {}), ...(options.redirect ? { redirect: options.redirect } : {}) } as RequestInit)
    const bytes = new Uint8Array(await res.arrayBuffer())
    const text = new TextDecoder().decode(bytes)
    let parsed: unknown
    if (text !== '') {
      try {
        parsed = JSON.parse(text)
      } catch {
        parsed = text
      }
    }
    return { status: res.status, headers: res.headers, body: parsed, text, bytes }
  }
  return {
    baseUrl,
    request,
    get: (path, o) => request('GET', path, o),
    post: (path, o) => request('POST', path, o),
    put: (path, o) => request('PUT', path, o),
    delete: (path, o) => request('DELETE', path, o),
  }
}

let defaultScenario: Promise<Scenario> | undefined

/**
 * Declares a contract suite run over both doors.
 * @example
 * contract('GET /projects/:id/labels', {}, ({ api }) => {
 *   it('lists labels', async () => { expect((await api.get('/projects/20/labels', { as: 'root' })).status).toBe(200) })
 * })
 */
export function contract(title: string, options: ContractOptions, body: (ctx: ContractContext) => void): void {
  describe.each(transports())(`${title} [%s]`, (transport) => {
    let sim: Simulator
    let snapshot: SimulatorSnapshot
    let close: () => Promise<void> | void = () => {}
    const api: Api = {
      baseUrl: '',
      request: (...args) => current.request(...args),
      get: (...args) => current.get(...args),
      post: (...args) => current.post(...args),
      put: (...args) => current.put(...args),
      delete: (...args) => current.delete(...args),
    }
    let current: Api

    beforeAll(async () => {
      const scenario = options.scenario ?? (await (defaultScenario ??= loadDefaultScenario()))
      sim = createSimulator({ scenario, replyMemo: options.replyMemo })
      snapshot = sim.snapshot()
      if (transport === 'node') {
        const server = await startServer(sim, { port: 0 })
        current = makeApi(server.url)
        close = () => server.close()
      } else {
        const server = setupServer(...createHandlers(sim, { baseUrl: 'http://gitlab.test' }))
        server.listen({ onUnhandledRequest: 'error' })
        current = makeApi('http://gitlab.test')
        close = () => server.close()
      }
      Object.defineProperty(api, 'baseUrl', { get: () => current.baseUrl })
    })
    beforeEach(() => sim.restore(snapshot))
    afterAll(() => close())

    body({ api, sim: () => sim, transport })
  })
}

/** The pagination headers of a response, for one `toEqual`. Absent headers read as `undefined`. */
export function paginationHeaders(res: ApiResponse): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {}
  for (const name of ['x-page', 'x-per-page', 'x-next-page', 'x-prev-page', 'x-total', 'x-total-pages', 'link']) {
    out[name] = res.headers.get(name) ?? undefined
  }
  return out
}
