/**
 * `fakelab/msw`: the simulator as MSW request handlers, for `setupServer` (Node) and
 * `setupWorker` (browser). A few catch-all handlers hand every request to the one core; routing
 * stays in the core (one catch-all handler measured ~6,000 calls/s against ~530 with 200 handlers).
 * Only this file imports `msw`. Source: STYLE.md §9.
 * @module
 */
import { http, HttpHandler, passthrough, type DefaultBodyType, type ResponseResolver } from 'msw'
import { fromFetchRequest } from './core/transport.js'
import type { Simulator } from './simulator.js'
import type { ReplayDoor } from './record/replay.js'

// Record and replay (issue 11): the browser-safe API that createReplayHandlers needs.
export * from './record/index.js'

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
 * throw; the engine must see such paths to answer them as GitLab does.
 */
function urlPattern(base: string, root: string): RegExp {
  const origin = base === '*'
    ? '[a-z][a-z0-9+.-]*://[^/]+'
    : base.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')
  return new RegExp(`^${origin}/${root}(?:/|$)`, 'i')
}

/**
 * The API handler when unimplemented routes pass through: it does not match a request no route
 * answers, so MSW tries the next handler and then `onUnhandledRequest`. A handler that matches and
 * answers nothing would not do: MSW counts it as handled and sends the request to the network.
 * `predicate` is MSW's public `RequestHandler` API (2.x).
 */
class UnimplementedPassthrough extends HttpHandler {
  readonly #sim: Simulator

  constructor(sim: Simulator, path: RegExp, resolver: ResponseResolver<Record<string, never>, DefaultBodyType, DefaultBodyType>) {
    // `http.all` matches methods with this same pattern.
    super(/.+/, path, resolver as never)
    this.#sim = sim
  }

  override async predicate(args: Parameters<HttpHandler['predicate']>[0]): Promise<boolean> {
    if (!(await super.predicate(args))) return false
    return !this.#sim.passUnsimulated(fromFetchRequest(args.request))
  }
}

/**
 * MSW handlers serving the GitLab API (`/api/v4`, and the `/api/v3` 410s), fakelab's control
 * namespace (`/-/fakelab/*`) and the uploads API entities link to (metric images under
 * `/uploads/-/system/issuable_metric_image/`, uploaded user avatars under `/uploads/-/system/user/avatar/`). Prepend your own handlers with `server.use(...)` to override one endpoint.
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
  const api = options.onUnimplemented === 'passthrough'
    ? new UnimplementedPassthrough(sim, urlPattern(base, 'api/v[34]'), handle)
    : http.all(urlPattern(base, 'api/v[34]'), handle)
  // The web paths API entities link to (a metric image's `file_path`): only the upload folders
  // fakelab serves, so an app's other requests under `/uploads` still reach the network.
  const uploads = http.all(urlPattern(base, 'uploads/-/system/(?:issuable_metric_image|user/avatar)'), handle)
  return [api, http.all(urlPattern(base, '-/fakelab'), handle), uploads]
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
