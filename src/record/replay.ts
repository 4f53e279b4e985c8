/**
 * Replay: answers Fetch requests from recorded cassettes, in front of (never inside) the
 * simulator. A {@link Replayer} is a function from a `Request` to either the recorded `Response`
 * or a {@link ReplayMiss} that names the closest recorded requests and how they differ. A
 * {@link ReplayDoor} adds a mode on top: `replay`, `lockdown` (a miss is an error, collected for the
 * end of the run), `hybrid` (a miss goes to the stateful simulator) or `passthrough`.
 * Both doors use it: `createReplayHandlers` in `fakelab/msw`, and `createRecorder` /
 * `fakelab serve --replay` in `fakelab/node`. Browser-safe.
 *
 * Repeated identical requests are answered in recorded order (each recorded exchange is used once,
 * like mswjs/source's `fromTraffic`); when they are used up, the last one answers again, so a
 * polling loop keeps working. Source: issue 11 ("Replay", "Modes"); STYLE.md §9.
 * @module
 */
import type { Entry, Har } from 'har-format'
import { contentBytes, harHeader } from './har.js'
import { describeShape, differences, entryShape, requestShape, type Difference, type MatchOptions, type RequestShape } from './match.js'

/** What a door does with a request. Source: issue 11 ("Modes"), after Polly.js. */
export type ReplayMode = 'replay' | 'record' | 'passthrough' | 'lockdown' | 'hybrid'

/** Every mode, in the order the CLI lists them. */
export const REPLAY_MODES: readonly ReplayMode[] = ['replay', 'record', 'passthrough', 'lockdown', 'hybrid']

/** Options of {@link createReplayer}. */
export interface ReplayerOptions extends MatchOptions {
  /**
   * When every recorded answer to a request has been used: `repeat-last` (default) answers with
   * the last one again; `miss` treats the request as unmatched.
   */
  whenUsedUp?: 'repeat-last' | 'miss'
  /** How many near misses a miss names (default 3). */
  nearMissCount?: number
}

/** A recorded request close to an unmatched one. */
export interface NearMiss {
  /** Position of the entry in the replayer's entries (cassettes concatenated in the order given). */
  index: number
  /** The recorded request as one line, e.g. `GET /projects/20/labels?page=2`. */
  request: string
  /** How it differs from the incoming request; empty when it matched but was used up. */
  differences: Difference[]
}

/** An incoming request no recorded exchange answers. */
export interface ReplayMiss {
  readonly miss: true
  /** The incoming request as one line (`GET /projects/21`). */
  readonly request: string
  /** The incoming URL as received. */
  readonly url: string
  /** The closest recorded requests, closest first (empty for an empty cassette). */
  readonly nearMisses: readonly NearMiss[]
  /** Multi-line report: the request, then each near miss with its differences. */
  readonly message: string
}

/** Answers requests from recordings. */
export interface Replayer {
  /**
   * The recorded response to `request`, or a miss. Reads the body of a clone only when bodies
   * are matched, so `request` itself can still be handed on (hybrid mode).
   */
  replay(request: Request): Promise<Response | ReplayMiss>
  /** Every miss so far, in order (in hybrid mode: the requests the simulator answered). */
  readonly misses: readonly ReplayMiss[]
  /** All recorded entries, cassettes concatenated in the order given. */
  readonly entries: readonly Entry[]
  /** Entries never used for an answer (stale parts of a cassette). */
  unused(): Entry[]
  /** Forgets which entries were used and every miss. */
  reset(): void
}

/** Narrows a replay result to a miss. */
export function isMiss(result: Response | ReplayMiss): result is ReplayMiss {
  return !(result instanceof Response) && (result as ReplayMiss).miss === true
}

// Hop-by-hop and framing headers describe the recorded connection, not the answer: the door in
// use sets its own. `content-encoding` goes because cassettes hold bodies decoded.
const DROPPED_ON_REPLAY = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-encoding', 'content-length', 'proxy-connection', 'upgrade'])

/**
 * The Fetch Response for a recorded entry: recorded status, status text, headers (minus hop-by-hop
 * ones, with `content-length` recomputed for the decoded body when one was recorded) and body.
 * `Link` and `Location` URLs on the recorded host are moved to `origin`, so a client following
 * pagination stays on the replaying door (GitLab builds them from its own URL).
 * @param method the incoming method (HEAD gets no body).
 * @param origin the incoming request's origin (`http://127.0.0.1:3000`); default: keep the recorded one.
 */
export function entryResponse(entry: Entry, method = 'GET', origin?: string): Response {
  const { response } = entry
  const recordedOrigin = new URL(entry.request.url).origin
  const headers = new Headers()
  // A body the recorder could not decode keeps its `content-encoding` (see recorder.ts).
  const stillEncoded = (response.content as { _encoded?: boolean })._encoded === true
  for (const { name, value } of response.headers) {
    const lower = name.toLowerCase()
    if (DROPPED_ON_REPLAY.has(lower) && !(stillEncoded && lower === 'content-encoding')) continue
    headers.append(name, origin && (lower === 'link' || lower === 'location') ? rebase(value, recordedOrigin, origin) : value)
  }
  const noBody = method.toUpperCase() === 'HEAD' || [101, 204, 205, 304].includes(response.status)
  const bytes = noBody ? null : contentBytes(response.content)
  if (harHeader(response.headers, 'content-length') !== undefined) headers.set('content-length', String(bytes?.byteLength ?? 0))
  return new Response(bytes && bytes.byteLength > 0 ? bytes : noBody ? null : '', {
    status: response.status,
    statusText: response.statusText,
    headers,
  })
}

/** Replaces `from` (an origin) by `to` in a header value of URLs. */
export function rebase(value: string, from: string, to: string): string {
  return from === to ? value : value.split(from).join(to)
}

interface Slot {
  entry: Entry
  index: number
  shape: RequestShape
  used: boolean
}

function formatMiss(request: string, nearMisses: readonly NearMiss[], total: number): string {
  const lines = [`no recorded response for ${request} (${total} recorded exchange${total === 1 ? '' : 's'})`]
  if (nearMisses.length === 0) return lines.join('\n')
  lines.push('closest recorded requests:')
  for (const near of nearMisses) {
    const why = near.differences.length === 0 ? 'same request, every recorded answer already used' : near.differences.map((d) => d.detail).join('; ')
    lines.push(`  #${near.index} ${near.request}: ${why}`)
  }
  return lines.join('\n')
}

/**
 * Creates a replayer over one or more cassettes.
 * @example
 * const replayer = createReplayer(parseCassette(text), { ignoreQueryKeys: ['_'] })
 * const answer = await replayer.replay(new Request('http://gitlab.test/api/v4/user'))
 * if (isMiss(answer)) console.error(answer.message)
 */
export function createReplayer(cassettes: Har | readonly Har[], options: ReplayerOptions = {}): Replayer {
  const list = Array.isArray(cassettes) ? (cassettes as readonly Har[]) : [cassettes as Har]
  const entries = list.flatMap((har) => har.log.entries)
  const slots: Slot[] = entries.map((entry, index) => ({ entry, index, shape: entryShape(entry, options), used: false }))
  const byRoute = new Map<string, Slot[]>()
  for (const slot of slots) {
    const key = `${slot.shape.method} ${slot.shape.path}`
    byRoute.set(key, [...(byRoute.get(key) ?? []), slot])
  }
  const misses: ReplayMiss[] = []
  const nearMissCount = options.nearMissCount ?? 3

  const miss = (shape: RequestShape, url: string, usedUp: Slot[]): ReplayMiss => {
    const ranked = slots
      .map((slot) => ({ slot, diffs: differences(slot.shape, shape) }))
      .filter((x) => x.diffs.length > 0)
      .map((x) => ({ ...x, weight: x.diffs.reduce((sum, d) => sum + d.weight, 0) }))
      .sort((a, b) => a.weight - b.weight || a.slot.index - b.slot.index)
    const near: NearMiss[] = [
      ...usedUp.slice(-1).map((slot) => ({ index: slot.index, request: describeShape(slot.shape), differences: [] })),
      ...ranked.map((x) => ({ index: x.slot.index, request: describeShape(x.slot.shape), differences: x.diffs })),
    ].slice(0, nearMissCount)
    const request = describeShape(shape)
    const result: ReplayMiss = { miss: true, request, url, nearMisses: near, message: formatMiss(request, near, slots.length) }
    misses.push(result)
    return result
  }

  return {
    async replay(request) {
      const body = options.matchBody && request.body ? await request.clone().text() : undefined
      const shape = requestShape(request.method, request.url, body, request.headers.get('content-type') ?? '', options)
      const origin = new URL(request.url).origin
      const candidates = (byRoute.get(`${shape.method} ${shape.path}`) ?? slots).filter((slot) => differences(slot.shape, shape).length === 0)
      const next = candidates.find((slot) => !slot.used)
      if (next) {
        next.used = true
        return entryResponse(next.entry, request.method, origin)
      }
      if (candidates.length > 0 && options.whenUsedUp !== 'miss') return entryResponse(candidates.at(-1)!.entry, request.method, origin)
      return miss(shape, request.url, candidates)
    },
    get misses() {
      return misses
    },
    entries,
    unused: () => slots.filter((slot) => !slot.used).map((slot) => slot.entry),
    reset() {
      for (const slot of slots) slot.used = false
      misses.length = 0
    },
  }
}

/**
 * The diagnostic answer to a miss: status 501 (a client or test cannot mistake it for a GitLab
 * 404), header `x-fakelab-replay: miss`, and a JSON body with the report.
 * spec-gap: GitLab has no such answer; 501 was chosen because no GitLab endpoint answers it.
 */
export function missResponse(miss: ReplayMiss): Response {
  const body = {
    error: 'fakelab replay: no recorded response',
    request: miss.request,
    near_misses: miss.nearMisses.map((near) => ({
      index: near.index,
      request: near.request,
      differences: near.differences.length === 0 ? ['every recorded answer already used'] : near.differences.map((d) => d.detail),
    })),
  }
  return new Response(JSON.stringify(body, null, 2), {
    status: 501,
    statusText: 'Not Implemented',
    headers: { 'content-type': 'application/json', 'x-fakelab-replay': 'miss' },
  })
}

/** Anything that answers Fetch requests like a simulator (`sim.handle`). */
export interface RequestHandlerLike {
  handle(request: Request): Promise<Response>
}

/** Options of {@link createReplayDoor}. */
export interface ReplayDoorOptions {
  /** `replay` (default), `lockdown`, `hybrid` or `passthrough`; `record` needs a proxy (`createRecorder`). */
  mode?: Exclude<ReplayMode, 'record'>
  /** The stateful fallback of `hybrid` mode (a `Simulator`). Required for `hybrid`. */
  simulator?: RequestHandlerLike
  /** Called for every miss (all modes but passthrough), e.g. to log `miss.message`. */
  onMiss?: (miss: ReplayMiss) => void
}

/**
 * A door's view of replay: a request becomes a Response, or `undefined` when the request should
 * go out to the network unchanged (passthrough; MSW's `passthrough()`).
 */
export type ReplayDoor = ((request: Request) => Promise<Response | undefined>) & {
  /** The replayer behind the door. */
  readonly replayer: Replayer
  /** The door's mode. */
  readonly mode: Exclude<ReplayMode, 'record'>
}

/**
 * Puts a mode in front of a replayer.
 * - `replay`: recorded answer, else the 501 diagnostic.
 * - `lockdown`: the same, and every miss stays in `replayer.misses` for the end of the run.
 * - `hybrid`: recorded answer, else `simulator.handle(request)`.
 * - `passthrough`: always `undefined` (the caller forwards).
 * @throws TypeError when `hybrid` has no simulator.
 */
export function createReplayDoor(replayer: Replayer, options: ReplayDoorOptions = {}): ReplayDoor {
  const mode = options.mode ?? 'replay'
  const simulator = options.simulator
  if (mode === 'hybrid' && !simulator) throw new TypeError('hybrid mode needs a simulator to fall back to')
  const door = async (request: Request): Promise<Response | undefined> => {
    if (mode === 'passthrough') return undefined
    const answer = await replayer.replay(request)
    if (!isMiss(answer)) return answer
    // In hybrid mode the simulator's answer is the intended one; the miss stays in
    // `replayer.misses` only as a record of what the cassette lacked.
    if (mode === 'hybrid') return simulator!.handle(request)
    options.onMiss?.(answer)
    return missResponse(answer)
  }
  return Object.assign(door, { replayer, mode })
}
