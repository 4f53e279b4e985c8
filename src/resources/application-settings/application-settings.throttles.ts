/**
 * Registers the instance's Rack::Attack throttles with the engine's rate limiter at start: the
 * enabled `throttle_unauthenticated_*`, `throttle_authenticated_api_*` and
 * `throttle_authenticated_web_*` settings take effect on the next request (GitLab reads them
 * through `Gitlab::Throttle.settings`, the current application settings).
 * gitlab: lib/gitlab/throttle.rb (`unauthenticated_options`, `authenticated_api_options`,
 * `authenticated_web_options`), lib/gitlab/rack_attack.rb (13.12).
 * @module
 */
import { registerThrottleSource, type ThrottleLimit, type ThrottleName } from '../../core/rate-limit.js'
import type { Db } from '../../db/db.js'

/** The settings' prefix of each throttle, and its 13.12 defaults (`requests`, `period`). */
const THROTTLES: readonly [ThrottleName, string, number, number][] = [
  ['throttle_unauthenticated', 'throttle_unauthenticated', 3600, 3600],
  ['throttle_authenticated_api', 'throttle_authenticated_api', 7200, 3600],
  ['throttle_authenticated_web', 'throttle_authenticated_web', 7200, 3600],
]

/**
 * The enabled throttles of the stored settings row (none before the first write: every throttle
 * is off by default). Reads the row's fields only, so it costs little on every request.
 */
function settingsThrottles(db: Db): Partial<Record<ThrottleName, ThrottleLimit>> {
  const values = db.tables.application_setting_values.get(1)?.values
  if (!values) return {}
  const throttles: Partial<Record<ThrottleName, ThrottleLimit>> = {}
  for (const [name, prefix, requests, period] of THROTTLES) {
    if (values[`${prefix}_enabled`] !== true) continue
    const perPeriod = values[`${prefix}_requests_per_period`]
    const seconds = values[`${prefix}_period_in_seconds`]
    throttles[name] = {
      requests: typeof perPeriod === 'number' ? perPeriod : requests,
      periodSeconds: typeof seconds === 'number' && seconds > 0 ? seconds : period,
    }
  }
  return throttles
}

registerThrottleSource(settingsThrottles)
