/**
 * GitLab's health probes, `/-/health`, `/-/readiness` and `/-/liveness`: answered before every
 * other stage, as GitLab answers them before its API (the `BasicHealthCheck` Rack middleware for
 * `/-/health`, `HealthController` for the other two). An in-memory server has no database, Redis
 * or Gitaly to lose, so every check passes once the server listens: a test harness polls
 * `/-/readiness` until it answers 200 to know the server is ready (docs/testing.md).
 *
 * A probe is no request of the simulated GitLab: it takes no request number, no journal entry, no
 * log line and no fault rule, so waiting for a server leaves no trace in what a test asserts.
 * spec-gap: GitLab answers the probes only to clients on its monitoring IP allowlist (by default
 * `127.0.0.0/8` and `::1`) and 404 to others; fakelab answers every client.
 * Source: gitlab (13.12): lib/gitlab/middleware/basic_health_check.rb, app/controllers/health_controller.rb,
 * lib/gitlab/health_checks/probes/collection.rb, lib/gitlab/health_checks/result.rb,
 * spec/requests/health_controller_spec.rb; doc/user/admin_area/monitoring/health_check.md.
 * Browser-safe.
 * @module
 */
import type { CoreReply, CoreRequest } from '../transport.js'

/** The three probe paths. */
export const PROBE_PATHS: readonly string[] = ['/-/health', '/-/readiness', '/-/liveness']

/**
 * The checks `/-/readiness?all=1` reports, in HealthController's order, each as
 * `Probes::Collection` words a passing `Result` (`{status: 'ok'}`, plus `labels` for Gitaly's
 * per-shard check). `master_check` (Puma's cluster master, omnibus's default mode) is the one
 * instance check reported without `all`.
 */
const SERVICE_CHECKS: readonly string[] = ['db_check', 'redis_check', 'cache_check', 'queues_check', 'shared_state_check']

/**
 * Whether a request is one of the probes: `/-/health` for any method (a Rack middleware matching
 * the path alone), `/-/readiness` and `/-/liveness` for `GET` and `HEAD` (Rails' `get` routes;
 * another method is the web 404).
 */
export function isProbe(request: CoreRequest): boolean {
  const path = request.path
  if (path === '/-/health') return true
  return (path === '/-/readiness' || path === '/-/liveness') && (request.method === 'GET' || request.method === 'HEAD')
}

/**
 * The probe's answer: `/-/health` is 200 `GitLab OK` (text/plain); `/-/liveness` is 200
 * `{"status":"ok"}`; `/-/readiness` is 200 `{"status":"ok","master_check":[{"status":"ok"}]}`,
 * and with `all` set (`?all=1`) also each service check, `gitaly_check` labelled with its shard
 * (`default`, the one storage Gitaly serves in fakelab's place).
 */
export function probeReply(request: CoreRequest): CoreReply {
  const head = request.method === 'HEAD'
  if (request.path === '/-/health') return { status: 200, headers: [['content-type', 'text/plain']], body: head ? undefined : 'GitLab OK' }
  const body: Record<string, unknown> = { status: 'ok' }
  if (request.path === '/-/readiness') {
    body.master_check = [{ status: 'ok' }]
    if (wantsAll(request.query)) {
      for (const check of SERVICE_CHECKS) body[check] = [{ status: 'ok' }]
      body.gitaly_check = [{ status: 'ok', labels: { shard: 'default' } }]
    }
  }
  return { status: 200, headers: [['content-type', 'application/json; charset=utf-8']], body: head ? undefined : JSON.stringify(body) }
}

/** Rails' `params[:all]` is set: any value, even empty, given to `all` in the query string. */
function wantsAll(query: string): boolean {
  return new URLSearchParams(query).has('all')
}
