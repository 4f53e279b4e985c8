/**
 * `fakelab/msw`: the simulator as MSW request handlers, for `setupServer` (Node) and
 * `setupWorker` (browser). Two catch-all handlers hand every request to the one core; routing
 * stays in the core (one catch-all handler measured ~6,000 calls/s against ~530 with 200 handlers).
 * Only this file imports `msw`. Source: STYLE.md §9.
 * @module
 */
import { http, type HttpHandler } from 'msw'
import type { Simulator } from './simulator.js'

/** Options for {@link createHandlers}. */
export interface HandlerOptions {
  /**
   * The GitLab base URL the code under test talks to, e.g. `https://gitlab.example.com`.
   * Default: any origin (`*`).
   */
  baseUrl?: string
}

/**
 * MSW handlers serving the GitLab API (`/api/v4/*`, the `/api/v3/*` 410s) and fakelab's control
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
  const base = options.baseUrl ? new URL(options.baseUrl) : undefined
  const basePath = base ? base.pathname.replace(/\/$/, '') : ''
  const handle = ({ request }: { request: Request }) => sim.handle(request)
  // A predicate rather than a path pattern: MSW's pattern matching decodes the path and throws on
  // malformed escapes (`/runners/%E9`), answering a 500 with a stack trace; the core decides instead.
  const under = (prefix: string) => ({ request }: { request: Request }): boolean => {
    const url = new URL(request.url)
    return (base === undefined || url.origin === base.origin) && url.pathname.startsWith(`${basePath}${prefix}`)
  }
  return [http.all(under('/api/v4/'), handle), http.all(under('/api/v3/'), handle), http.all(under('/-/fakelab/'), handle)]
}
