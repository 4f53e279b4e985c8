/**
 * `fakelab/msw`: the simulator as MSW request handlers, for `setupServer` (Node) and
 * `setupWorker` (browser). Two catch-all handlers hand every request to the one core; routing
 * stays in the core (one catch-all handler measured ~6,000 calls/s against ~530 with 200 handlers).
 * Only this file imports `msw`. Source: STYLE.md §9.
 * @module
 */
import { http, passthrough, type HttpHandler } from 'msw'
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
 * MSW handlers serving the GitLab API (`/api/v4`, and the `/api/v3` 410s) and fakelab's control
 * namespace (`/-/fakelab/*`). Prepend your own handlers with `server.use(...)` to override one endpoint.
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
  return [http.all(urlPattern(base, 'api/v[34]'), handle), http.all(urlPattern(base, '-/fakelab'), handle)]
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
