/**
 * The route fuzz test (issue 6, item 1): seeded, property-based (fast-check) requests to every
 * route in `sim.routes`, through both doors (`startServer` over a real socket, and MSW's `setupServer`),
 * each from the freshly loaded default scenario. Whatever a request holds, fakelab must:
 * - answer below 500, and never call `onError` (no thrown error escapes to the boundary);
 * - answer within 2 s (a slow answer is a quadratic regular expression waiting to happen);
 * - send a JSON body with `Content-Type: application/json` whenever it sends a body, none on
 *   204/304, and only GitLab's error shapes on 4xx (`{"message": string|object}`, `{"error": string}`,
 *   `invalid_token` and `insufficient_scope` bodies); never a stack trace or a function's source;
 * - leave the store exactly as it was after a refused request (4xx) and after any GET.
 * A failure prints the seed, the shrunk request, and one-line reproducers (curl for the node door,
 * fetch for MSW). Source: issue 6; STYLE.md §3, §5; gitlab-behaviour.md §1.2.
 *
 * Each route gets its runs in full: every kind of failure is noted rather than the first ending the
 * run, so a frequent defect cannot hide a rarer one. Each kind is then found again from the same
 * seed and shrunk on its own, within a time budget so that a bad day stays inside CI's limits.
 *
 * Deep fuzzing (issue 13, `deep.ts`): valid requests name records that exist (paths resolved through
 * the simulator's own list routes) and carry values the scenario makes valid for each declared
 * param, so that most of them reach the handlers; each door prints how many answers were 2xx, 4xx,
 * and which routes never answered 2xx.
 *
 * Environment: `FUZZ_SEED` (default: a fresh random seed, printed), `FUZZ_RUNS` (requests per route
 * and door; default 60, or 1000 under `npm run fuzz -- --long`), `FUZZ_TEXT_MAX` (largest repeat count of an
 * adversarial text pattern; default 1000, or 40000 in the long run), `FUZZ_LONG=1` (the long run's
 * sizes and shrinking budget), `FUZZ_SHALLOW=1` (without the deep generators, to compare), `FUZZ_PATH` (with the seed and `-t`, replays one shrunk
 * counterexample), `CONTRACT_TRANSPORT=node|msw`. `npm run fuzz -- --long --runs N --seed S` sets them.
 */
import fc from 'fast-check'
import { request as httpRequest } from 'node:http'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { createSimulator, type Simulator } from '../../src/index.js'
import { loadAllRoutes } from '../../src/resources/index.js'
import { createHandlers } from '../../src/msw.js'
import { loadDefaultScenario, startServer } from '../../src/node.js'
import { deepFixtures } from './deep.js'
import { collectFixtures, encode, fuzzRequests, type Fixtures, type FuzzRequest } from './requests.js'

/** The long run: `npm run fuzz -- --long` (see `run.mjs`). */
const LONG = process.env.FUZZ_LONG === '1'
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31)
const RUNS = Number(process.env.FUZZ_RUNS ?? (LONG ? 1000 : 60))
const TEXT_MAX = Number(process.env.FUZZ_TEXT_MAX ?? (LONG ? 40_000 : 1000))
/** Longest acceptable answer. */
const SLOW_MS = 2000
/** Give up on an answer after this long (it is a failure either way). */
const GIVE_UP_MS = 10_000
const MSW_BASE = 'http://gitlab.test'
/** Time for shrinking one kind of failure, and for all shrinking in one door (CI must stay under a minute). */
const SHRINK_MS = LONG ? 60_000 : 1000
const SHRINK_BUDGET_MS = LONG ? Infinity : 6000
/** Where `fakelab serve` listens by default, for the curl reproducer. */
const SERVE_URL = 'http://127.0.0.1:3000'

const scenario = await loadDefaultScenario()
const ROUTES = (await loadAllRoutes()).api
const DOORS = (['node', 'msw'] as const).filter((door) => !process.env.CONTRACT_TRANSPORT || process.env.CONTRACT_TRANSPORT === door)

console.log(`[fuzz] seed ${SEED}, ${RUNS} requests per route and door; repeat with FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} FUZZ_TEXT_MAX=${TEXT_MAX}`)

// ---- invariants ---------------------------------------------------------------------------------

/** What came back. */
interface Answer {
  status: number
  contentType: string | null
  text: string
  ms: number
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Whether a 4xx body has one of GitLab's shapes: `{"message": string | {attr: [...]}}` (GitLab's
 * helpers), `{"message": [string, ...]}` (`render_api_error!(errors[:attr], …)`, as the merge
 * request writes answer a branch conflict: gitlab lib/api/merge_requests.rb
 * `handle_merge_request_errors!`), `{"error": string}` (Grape), or the rack-oauth2 bodies
 * `invalid_token` and `insufficient_scope`. Source: gitlab-behaviour.md §1.2, §1.5.
 */
function isGitLabErrorBody(body: unknown): boolean {
  if (!isPlainObject(body)) return false
  const keys = Object.keys(body).sort().join(',')
  const { message, error, error_description: description, scope } = body
  if (keys === 'message') return typeof message === 'string' || isPlainObject(message) || (Array.isArray(message) && message.every((m) => typeof m === 'string'))
  if (keys === 'error') return typeof error === 'string'
  if (keys === 'error,error_description') return error === 'invalid_token' && typeof description === 'string'
  if (keys === 'error,error_description,scope') return error === 'insufficient_scope' && typeof description === 'string' && typeof scope === 'string'
  return false
}

/** Every invariant the answer breaks; empty when it keeps them all. */
function broken(answer: Answer, errors: unknown[], storeChanged: boolean, key = '', method = ''): string[] {
  const problems: string[] = []
  if (answer.status >= 500) problems.push(`status ${answer.status}`)
  for (const error of errors) problems.push(`onError called with ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`)
  if (answer.ms > SLOW_MS) problems.push(`answered in ${Math.round(answer.ms)} ms (limit ${SLOW_MS} ms)`)
  if (answer.status === 204 || answer.status === 304 || method === 'HEAD') {
    // No answer to HEAD has a body (RFC 9110 §9.3.2): Rack drops what the route renders.
    if (answer.text !== '') problems.push(`a body on ${method === 'HEAD' ? 'HEAD' : answer.status}`)
  } else if (answer.status === 200 && key.endsWith('/jobs/:job_id/trace')) {
    // A job log is sent as text/plain as it is, "" when there is none (pipelines, issue 25 item 3:
    // jobs.rb `content_type 'text/plain'`, `env['api.format'] = :binary`).
    if (answer.contentType !== 'text/plain') problems.push(`Content-Type ${answer.contentType ?? '(none)'}, not text/plain`)
  } else if (answer.text === '') {
    problems.push('no body')
  } else if (answer.status === 200 && (key.endsWith('/raw') || key.includes('/repository/archive') || key.endsWith('/snapshot'))) {
    // A raw file or blob is sent as it is (repository area, issue 26: files.rb and repositories.rb
    // `send_git_blob`), and so is an archive (`send_git_archive`) and a snapshot (`send_git_snapshot`).
  } else if (answer.status === 400 && answer.contentType === 'text/plain' && answer.text === 'Bad Request') {
    // GitLab's HandleMalformedStrings middleware answers before the API, in plain text
    // (gitlab: lib/gitlab/middleware/handle_malformed_strings.rb; issue 6 defect 8).
  } else {
    if (answer.contentType !== 'application/json') problems.push(`Content-Type ${answer.contentType ?? '(none)'}, not application/json`)
    let body: unknown
    try {
      body = JSON.parse(answer.text)
    } catch {
      problems.push('a body that is not JSON')
    }
    if (answer.status >= 400 && body !== undefined && !isGitLabErrorBody(body)) problems.push("an error body in none of GitLab's shapes")
  }
  // A stack frame (`at fn (/path/file.js:1:2)`, also inside a JSON string) or a function's source.
  if (/\[native code\]|\bat [^\n"]*\.(?:[cm]?js|ts):\d+:\d+/.test(answer.text)) problems.push("a stack trace or a function's source in the body")
  if (storeChanged) problems.push(answer.status >= 400 ? `the store changed although the request was refused (${answer.status})` : `the store changed on a ${method || 'GET'}`)
  return problems
}

// ---- reproducers --------------------------------------------------------------------------------

/** Shell-quotes `text` (`'...'`, or `$'...'` with byte escapes when it holds anything unprintable). */
function shellQuote(text: string, latin1 = false): string {
  if (/^[\x20-\x7e]*$/.test(text)) return `'${text.replace(/'/g, `'\\''`)}'`
  const bytes = Buffer.from(text, latin1 ? 'latin1' : 'utf8')
  let out = ''
  for (const byte of bytes) {
    const char = String.fromCharCode(byte)
    out += byte >= 0x20 && byte < 0x7f && char !== "'" && char !== '\\' ? char : `\\x${byte.toString(16).padStart(2, '0')}`
  }
  return `$'${out}'`
}

/**
 * The request target as it goes on the wire: as generated, except that characters HTTP does not
 * allow raw in a request line (controls, spaces, non-ASCII) are percent-encoded, as fetch and curl
 * users must. Malformed escapes such as `%ZZ` stay as they are.
 */
function target(request: FuzzRequest): string {
  const raw = `/api/v4${request.path}${request.query === '' ? '' : `?${request.query}`}`
  return raw.replace(/[^\x21-\x7e]+/g, encode)
}

function urlOf(base: string, request: FuzzRequest): string {
  return `${base}${target(request)}`
}

function bodyBytes(request: FuzzRequest): Buffer | undefined {
  return request.body === undefined ? undefined : Buffer.from(request.body.text, request.body.latin1 ? 'latin1' : 'utf8')
}

/** One curl command line that sends exactly this request to `fakelab serve`. */
function curlCommand(request: FuzzRequest, base = SERVE_URL): string {
  const parts = ['curl', '-sS', '-i', '--globoff', '--path-as-is', '-X', request.method]
  for (const [name, value] of request.headers) parts.push('-H', shellQuote(`${name}: ${value}`))
  if (request.body) {
    // --data-binary adds a form Content-Type unless one is given; an empty `Content-Type:` removes it.
    if (!request.headers.some(([name]) => name.toLowerCase() === 'content-type')) parts.push('-H', "'Content-Type:'")
    parts.push('--data-binary', shellQuote(request.body.text, request.body.latin1))
  }
  parts.push(shellQuote(urlOf(base, request)))
  return parts.join(' ')
}

/** One `fetch` line that sends this request through MSW handlers mounted on {@link MSW_BASE}. */
function fetchLine(request: FuzzRequest): string {
  const body = request.body ? `, body: Buffer.from(${JSON.stringify(request.body.text)}, '${request.body.latin1 ? 'latin1' : 'utf8'}')` : ''
  return `await fetch(${JSON.stringify(urlOf(MSW_BASE, request))}, { method: '${request.method}', headers: ${JSON.stringify(request.headers)}${body} })`
}

/** A broken invariant: what kind it is (to tell defects apart) and the full report. */
interface Failure {
  /** The problems with numbers blanked out, plus the start of a 5xx body: one per defect, roughly. */
  kind: string
  message: string
}

/** Thrown inside a property so that fast-check shrinks the request; carries the failure. */
class FuzzFailure extends Error {
  readonly failure: Failure
  constructor(failure: Failure) {
    super(failure.message)
    this.failure = failure
  }
}

/** How to replay a shrunk counterexample, from fast-check's run details. */
function replayLine(details: fc.RunDetails<[FuzzRequest]>): string {
  return `fast-check: seed ${details.seed}, path "${details.counterexamplePath}" (FUZZ_PATH replays it with -t), found after ${details.numRuns} runs, shrunk ${details.numShrinks} times`
}

/** The message of a failed run: our own report (with reproducers) when we threw it, fast-check's otherwise. */
function failedRun(details: fc.RunDetails<[FuzzRequest]>): string {
  const cause = details.errorInstance
  const message = cause instanceof FuzzFailure ? cause.message : (fc.defaultReportMessage(details) ?? 'property failed')
  return `${message}\n  ${replayLine(details)}`
}

// ---- the doors ----------------------------------------------------------------------------------

/** Sends one request; undefined when the client refuses to send it (a header it cannot encode). */
type Send = (request: FuzzRequest) => Promise<Answer> | undefined

/** A door with a fresh simulator behind it. */
interface OpenDoor {
  sim: Simulator
  send: Send
  /** Errors the simulator passed to `onError` since the last request. */
  errors: unknown[]
  close(): Promise<void> | void
}

/** What came back when nothing usable did: counted as status 599, which fails the 5xx invariant. */
function noAnswer(started: number, why: unknown): Answer {
  return { status: 599, contentType: null, text: `no answer: ${String(why)}`, ms: performance.now() - started }
}

/**
 * The node door through `node:http` rather than fetch: the request line carries exactly the
 * generated bytes (no URL normalisation of `..` or escapes), and the client accepts response heads
 * of any size (GitLab's `Link` header repeats the query, so a 5 KB query makes a 20 KB head).
 */
function sendToNode(base: string): Send {
  const { hostname, port } = new URL(base)
  return (request) => {
    const body = bodyBytes(request)
    const started = performance.now()
    let client: ReturnType<typeof httpRequest>
    try {
      // Content-Length always: node sends none for a DELETE body otherwise, and the body would
      // then read as the start of a second request.
      const headers = { ...Object.fromEntries(request.headers), ...(body ? { 'Content-Length': String(body.length) } : {}) }
      client = httpRequest({ host: hostname, port, method: request.method, path: target(request), headers, maxHeaderSize: 1 << 24, agent: false })
    } catch {
      return undefined
    }
    return new Promise<Answer>((resolve) => {
      client.setTimeout(GIVE_UP_MS, () => client.destroy(new Error(`no answer within ${GIVE_UP_MS} ms`)))
      client.on('error', (error) => resolve(noAnswer(started, error)))
      client.on('response', (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('error', (error) => resolve(noAnswer(started, error)))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'] ?? null, text: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started }),
        )
      })
      client.end(body)
    })
  }
}

/** The MSW door: fetch, which `setupServer` intercepts in-process. */
function sendThroughMsw(request: FuzzRequest): Promise<Answer> | undefined {
  let fetchRequest: Request
  const bytes = bodyBytes(request)
  try {
    fetchRequest = new Request(urlOf(MSW_BASE, request), { method: request.method, headers: request.headers, body: bytes && new Uint8Array(bytes), signal: AbortSignal.timeout(GIVE_UP_MS) })
  } catch {
    return undefined
  }
  const started = performance.now()
  return fetch(fetchRequest).then(
    async (res) => ({ status: res.status, contentType: res.headers.get('content-type'), text: await res.text(), ms: performance.now() - started }),
    (error: unknown) => noAnswer(started, error),
  )
}

async function openDoor(door: 'node' | 'msw'): Promise<OpenDoor> {
  const errors: unknown[] = []
  const sim = createSimulator({ scenario, onError: (error) => void errors.push(error) })
  if (door === 'node') {
    const server = await startServer(sim, { port: 0 })
    return { sim, send: sendToNode(server.url), errors, close: () => server.close() }
  }
  const server = setupServer(...createHandlers(sim, { baseUrl: MSW_BASE }))
  server.listen({ onUnhandledRequest: 'error' })
  return { sim, send: sendThroughMsw, errors, close: () => server.close() }
}

describe.each(DOORS)('fuzz [%s]', (door) => {
  let open: OpenDoor
  let fixtures: Fixtures
  let initial: string
  let sent = 0
  let shrinkBudget = SHRINK_BUDGET_MS
  /** Answers by status class (`2xx`, `4xx`, ...), and the routes that answered 2xx at least once. */
  const classes: Record<string, number> = {}
  const reached = new Set<string>()

  beforeAll(async () => {
    open = await openDoor(door)
    // FUZZ_SHALLOW=1: the generators as they were before deep fuzzing, to compare how far requests get.
    fixtures = process.env.FUZZ_SHALLOW === '1' ? await collectFixtures(open.sim, MSW_BASE) : await deepFixtures(open.sim, MSW_BASE)
    open.sim.reset()
    initial = JSON.stringify(open.sim.db.dump())
  })
  afterAll(async () => {
    const missed = ROUTES.filter((route) => !reached.has(route.key)).map((route) => route.key)
    console.log(`[fuzz] ${door} door: ${sent} requests (seed ${SEED}); answers ${JSON.stringify(classes)}; ${reached.size}/${ROUTES.length} routes answered 2xx${missed.length ? `; never 2xx: ${missed.join(', ')}` : ''}`)
    await open?.close()
  })

  /** Sends one request from the freshly loaded scenario; the failure, with reproducers, if it breaks an invariant. */
  async function probe(key: string, request: FuzzRequest): Promise<Failure | undefined> {
    open.sim.reset()
    open.errors.length = 0
    const sending = open.send(request)
    fc.pre(sending !== undefined)
    sent += 1
    const answer = await sending
    const statusClass = `${Math.floor(answer.status / 100)}xx`
    classes[statusClass] = (classes[statusClass] ?? 0) + 1
    if (answer.status < 300) reached.add(key)
    const storeChanged = (answer.status >= 400 || request.method === 'GET' || request.method === 'HEAD') && JSON.stringify(open.sim.db.dump()) !== initial
    const problems = broken(answer, open.errors, storeChanged, key, request.method)
    // A read asked again answers the same. The reply memo keeps the answer of a read asked a second
    // time and reuses it from the third; the suite runs it in 'verify' mode, so that reused answer
    // is also checked against the route's fresh one (src/core/reply-memo.ts).
    if (request.method === 'GET' && answer.status < 500 && !storeChanged) {
      const before = open.errors.length
      for (let i = 0; i < 2; i++) {
        const again = await open.send(request)
        if (again && (again.status !== answer.status || again.text !== answer.text)) problems.push(`asked again, answered ${again.status} ${again.text.slice(0, 60)}`)
      }
      for (const error of open.errors.slice(before)) problems.push(`onError called on the read asked again: ${error instanceof Error ? error.message : String(error)}`)
    }
    if (problems.length === 0) return undefined
    const kind = `${problems.join('; ')}${answer.status >= 500 ? ` [${answer.text.slice(0, 60)}]` : ''}`.replace(/\d+/g, 'N')
    const message = [
      `[fuzz] ${door} door, ${key}: ${problems.join('; ')}`,
      `  answer: ${answer.status} ${answer.text.slice(0, 300)}`,
      `  reproduce (node door, against \`fakelab serve\`): ${curlCommand(request)}`,
      `  reproduce (MSW door, under setupServer(...createHandlers(sim, { baseUrl: '${MSW_BASE}' }))): ${fetchLine(request)}`,
      `  repeat the run: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} FUZZ_TEXT_MAX=${TEXT_MAX} CONTRACT_TRANSPORT=${door} npx vitest run test/fuzz -t '${door}.*${key}$'`,
    ].join('\n')
    return { kind, message }
  }

  /**
   * One route: RUNS requests, noting the first failure of every kind instead of stopping at the
   * first failure; then each kind is found again from the same seed and shrunk on its own (within
   * the door's shrinking budget), and all of them are reported together.
   */
  it.each(ROUTES.map((route) => [route.key, route] as const))('%s', async (key, route) => {
    const requests = fuzzRequests(route, fixtures, { textMax: TEXT_MAX })
    const failing = (only?: string) =>
      fc.asyncProperty(requests, async (request) => {
        const failure = await probe(key, request)
        if (failure && (only === undefined || failure.kind === only)) throw new FuzzFailure(failure)
      })
    if (process.env.FUZZ_PATH) {
      const details = await fc.check(failing(), { seed: SEED, numRuns: RUNS, path: process.env.FUZZ_PATH })
      if (details.failed) throw new Error(failedRun(details))
      return
    }
    const found = new Map<string, Failure>()
    const sentBefore = sent
    await fc.assert(
      fc.asyncProperty(requests, async (request) => {
        const failure = await probe(key, request)
        if (failure && !found.has(failure.kind)) found.set(failure.kind, failure)
      }),
      { seed: SEED, numRuns: RUNS },
    )
    // The long run reports as it goes, so that an interrupted run still says how far it got.
    if (LONG) console.log(`[fuzz] ${door} ${key}: ${sent - sentBefore} requests, ${found.size} kind(s) of failure; ${sent} so far`)
    if (found.size === 0) return
    const reports: string[] = []
    for (const [kind, first] of found) {
      if (shrinkBudget <= 0) {
        reports.push(`${first.message}\n  (not shrunk: the door's shrinking budget is spent)`)
        continue
      }
      const started = performance.now()
      const details = await fc.check(failing(kind), { seed: SEED, numRuns: RUNS, interruptAfterTimeLimit: Math.min(SHRINK_MS, shrinkBudget) })
      shrinkBudget -= performance.now() - started
      reports.push(details.failed ? failedRun(details) : `${first.message}\n  (did not recur when replayed)`)
    }
    throw new Error(`${found.size} kind(s) of failure, seed ${SEED}:\n\n${reports.join('\n\n')}`)
  }, LONG ? 0 : Math.max(20_000, RUNS * 300))
})
