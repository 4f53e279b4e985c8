/**
 * `fakelab/msw`: the simulator as MSW request handlers, for `setupServer` (Node) and
 * `setupWorker` (browser). A few catch-all handlers hand every request to the one core; routing
 * stays in the core (one catch-all handler measured ~6,000 calls/s against ~530 with 200 handlers).
 * Only this file imports `msw`. Source: STYLE.md §9.
 * @module
 */
import { http, HttpHandler, passthrough } from 'msw'
import { fromFetchRequest, toFetchResponse, type CoreRequest } from './core/transport.js'
import type { Simulator } from './simulator.js'
import type { ReplayDoor } from './record/replay.js'
import { markMswDoor } from './rules/webhook-transport.js'

// Record and replay (issue 11): the browser-safe API that createReplayHandlers needs, named one
// by one so that the public surface changes only here (issue 24, item 7).
export {
  /** Thrown by `parseCassette` when a cassette is not valid JSON or not a usable HAR 1.2 log; `problems` lists every problem. */
  CassetteError,
  /** The zod schema a cassette satisfies: a HAR 1.2 `log` with the fields replay reads. */
  cassetteSchema,
  /** Builds a HAR 1.2 log from entries, sorted by `startedDateTime` (stable for equal instants). */
  createCassette,
  /** Formats a cassette problem as `file:line:col message`. */
  formatCassetteProblem,
  /** Parses and validates a cassette's text; throws `CassetteError` with every problem located. */
  parseCassette,
  /** A cassette as stable text: keys in HAR order, two-space indentation, a final newline. */
  serializeCassette,
  /** Creates a redactor (the default rules plus yours) for tokens and secrets in a cassette. */
  createRedactor,
  /** What is redacted with no configuration: credential headers and params, token body fields, GitLab's token prefixes. */
  DEFAULT_REDACTION,
  /** True when a value contains a redaction placeholder. */
  isRedacted,
  /** Puts a mode (`replay`, `lockdown`, `hybrid`, `passthrough`) in front of a replayer: what `createReplayHandlers` takes. */
  createReplayDoor,
  /** Creates a replayer answering requests from one or more cassettes. */
  createReplayer,
  /** The Fetch Response for a recorded entry, its `Link` and `Location` URLs moved to the replaying origin. */
  entryResponse,
  /** Narrows a replay result to a miss. */
  isMiss,
  /** The diagnostic 501 answer (`x-fakelab-replay: miss`, a JSON report) to a request no recording answers. */
  missResponse,
  /** Every replay mode, in the order the CLI lists them. */
  REPLAY_MODES,
} from './record/index.js'
export type {
  /** Who wrote a cassette (`log.creator`). */
  CassetteCreator,
  /** One problem of a cassette file, located like a compiler message. */
  CassetteProblem,
  /** One recorded exchange (a HAR 1.2 entry). */
  HarEntry,
  /** A cassette: a HAR 1.2 document. */
  Har,
  /** Extra redaction rules, added to `DEFAULT_REDACTION`; names are case-insensitive. */
  RedactionRules,
  /** Redacts whole cassettes; one instance numbers the placeholders of one cassette. */
  Redactor,
  /** One way in which a recorded request differs from an incoming one. */
  Difference,
  /** How requests are compared with recordings. */
  MatchOptions,
  /** A recorded request close to an unmatched one. */
  NearMiss,
  /** A door's view of replay: a request becomes a Response, or `undefined` to go to the network. */
  ReplayDoor,
  /** Options of `createReplayDoor`. */
  ReplayDoorOptions,
  /** An incoming request no recorded exchange answers. */
  ReplayMiss,
  /** What a door does with a request: `replay`, `lockdown`, `hybrid` or `passthrough`. */
  ReplayMode,
  /** Answers requests from recordings. */
  Replayer,
  /** Options of `createReplayer`. */
  ReplayerOptions,
  /** Anything that answers Fetch requests like a simulator (`sim.handle`). */
  RequestHandlerLike,
} from './record/index.js'
// Cassette → scenario (issue 11): from its module, not verify's barrel, so this entry loads no
// more of src/verify/ than the import's own self-check needs.
export {
  /** Turns a cassette into a scenario (the records its answers show). */
  importCassette,
} from './verify/import.js'
export type {
  /** Options of `importCassette`. */
  ImportOptions,
  /** What `importCassette` produced. */
  ImportResult,
} from './verify/import.js'

/** Options for {@link createHandlers}. */
export interface HandlerOptions {
  /**
   * The GitLab base URL the code under test talks to, e.g. `https://gitlab.example.com`.
   * A `*` stands for any run of characters within the origin. Default: any origin (`*`).
   */
  baseUrl?: string
  /**
   * What to do with a request under `/api/v4` that no fakelab route answers (a GitLab route fakelab
   * does not simulate, or one GitLab lacks too; the journal marks it `simulated: false` either way):
   * `'answer'` (default) answers GitLab's catch-all 404 `{"error":"404 Not Found"}`;
   * `'passthrough'` leaves it to the next handler and then to MSW's `onUnhandledRequest`, so a
   * test run with `onUnhandledRequest: 'error'` names the route fakelab lacks.
   */
  onUnimplemented?: 'answer' | 'passthrough'
}

/**
 * A URL pattern for everything at and below `root` on `base`. A regular expression without
 * capture groups, not an MSW path: MSW percent-decodes the parameters of a path pattern with
 * `decodeURIComponent` and answers its own 500 when a malformed escape (`%ZZ`, `%E9`) makes that
 * throw; the engine must see such paths to answer them as GitLab does. `end` is what must follow
 * `root`: by default a slash or the end of the URL.
 */
function urlPattern(base: string, root: string, end = '(?:/|$)'): RegExp {
  const origin = base === '*'
    ? '[a-z][a-z0-9+.-]*://[^/]+'
    : base.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')
  return new RegExp(`^${origin}/${root}${end}`, 'i')
}

/**
 * The API handler when unimplemented routes pass through: it does not match a request no route
 * answers, so MSW tries the next handler and then `onUnhandledRequest`. A handler that matches and
 * answers nothing would not do: MSW counts it as handled and sends the request to the network.
 * `predicate` is MSW's public `RequestHandler` API (2.x); MSW hands the resolver the request it
 * asked the predicate about, so the engine's view of it (routed already) is kept for the answer.
 */
class UnimplementedPassthrough extends HttpHandler {
  readonly #sim: Simulator
  readonly #views: WeakMap<Request, CoreRequest>

  constructor(sim: Simulator, path: RegExp) {
    const views = new WeakMap<Request, CoreRequest>()
    const resolver = async ({ request }: { request: Request }) => toFetchResponse(await sim.dispatch(views.get(request) ?? fromFetchRequest(request)))
    // `http.all` matches methods with this same pattern.
    super(/.+/, path, resolver as never)
    this.#sim = sim
    this.#views = views
  }

  override async predicate(args: Parameters<HttpHandler['predicate']>[0]): Promise<boolean> {
    if (!(await super.predicate(args))) return false
    const view = fromFetchRequest(args.request)
    if (this.#sim.passUnsimulated(view)) return false
    this.#views.set(args.request, view)
    return true
  }
}

/**
 * MSW handlers serving the GitLab API (`/api/v4`, and the `/api/v3` 410s), fakelab's control
 * namespace (`/-/fakelab/*`), the uploads API entities link to (metric images under
 * `/uploads/-/system/issuable_metric_image/`, uploaded user, project and group avatars under `/uploads/-/system/{user,project,group}/avatar/`),
 * GitLab's health probes (`/-/health`, `/-/readiness`, `/-/liveness`), git's smart HTTP
 * (`/<namespace>/<project>.git/info/refs`, `git-upload-pack`, `git-receive-pack`) and project
 * uploads (`/<namespace>/<project>/uploads/<32 hex secret>/<filename>`). Prepend your own handlers with `server.use(...)` to override one endpoint.
 * @example
 * import { setupServer } from 'msw/node'
 * import { createSimulator } from 'fakelab'
 * import { createHandlers } from 'fakelab/msw'
 * const sim = createSimulator({ scenario })
 * const server = setupServer(...createHandlers(sim, { baseUrl: 'https://gitlab.test' }))
 * server.listen({ onUnhandledRequest: 'error' })
 */
export function createHandlers(sim: Simulator, options: HandlerOptions = {}): HttpHandler[] {
  const base = (options.baseUrl ?? '*').replace(/\/$/, '')
  const handle = ({ request }: { request: Request }) => sim.handle(request)
  // Webhook deliveries made through these handlers pass msw's interceptor on to the network.
  markMswDoor(sim.db)
  const api = options.onUnimplemented === 'passthrough'
    ? new UnimplementedPassthrough(sim, urlPattern(base, 'api/v[34]'))
    : http.all(urlPattern(base, 'api/v[34]'), handle)
  // The web paths API entities link to (a metric image's `file_path`): only the upload folders
  // fakelab serves, so an app's other requests under `/uploads` still reach the network.
  const uploads = http.all(urlPattern(base, 'uploads/-/system/(?:issuable_metric_image|(?:user|project|group)/avatar)'), handle)
  // GitLab's health probes (`/-/health`, `/-/readiness`, `/-/liveness`: src/core/stages/probe.ts).
  const probes = http.all(urlPattern(base, '-/(?:health|readiness|liveness)'), handle)
  // git's smart HTTP (issue 35): a repository path of any depth, then one of git's three endpoints.
  const git = http.all(urlPattern(base, '[^?#]+/(?:info/refs|git-upload-pack|git-receive-pack)', '(?:[?#]|$)'), handle)
  // Project uploads (issue 34): a project path of any depth, `uploads`, a 32-hex secret, a file name.
  const projectUploads = http.all(urlPattern(base, '[^?#]+/uploads/[0-9a-f]{32}/[^/?#]+', '(?:[?#]|$)'), handle)
  return [api, http.all(urlPattern(base, '-/fakelab'), handle), uploads, probes, git, projectUploads]
}

/**
 * MSW handlers answering from recorded cassettes, through a door made by `createReplayDoor` (its
 * mode decides a miss: the 501 diagnostic in `replay`/`lockdown`, the simulator in `hybrid`, the
 * network in `passthrough`). Source: issue 11.
 * @example
 * import { createReplayDoor, createReplayer, parseCassette } from 'fakelab/msw'
 * const door = createReplayDoor(createReplayer(parseCassette(text)), { mode: 'hybrid', simulator: sim })
 * const server = setupServer(...createReplayHandlers(door, { baseUrl: 'https://gitlab.test' }))
 */
export function createReplayHandlers(door: ReplayDoor, options: HandlerOptions = {}): HttpHandler[] {
  const base = (options.baseUrl ?? '*').replace(/\/$/, '')
  const handle = async ({ request }: { request: Request }) => (await door(request)) ?? passthrough()
  return [http.all(`${base}/api/*`, handle), http.all(`${base}/-/fakelab/*`, handle)]
}
