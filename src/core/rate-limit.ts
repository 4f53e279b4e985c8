/**
 * Optional rate limiting, as GitLab's Rack::Attack throttles do it: a fixed window of
 * `period_seconds` aligned on the epoch, one budget per client (the user a token or session names,
 * else one shared anonymous budget, where GitLab keys on the IP address). Over the budget a request
 * gets 429 with a plain-text `Retry later` body (`errors.ts` `rateLimited`) and the `RateLimit-*` and `Retry-After` headers.
 * Counts live in memory beside the store, so a refused request changes nothing in it.
 * Source: api-spec.md "Errors" (429); gitlab: config/initializers/rack_attack.rb,
 * lib/gitlab/rack_attack.rb `throttled_response_headers` (13.8+), doc/user/admin_area/settings/user_and_ip_rate_limits.md.
 * @module
 */
import type { Db } from '../db/db.js'
import { requestUserId } from './auth.js'
import { parseQuery } from './params.js'
import type { CoreRequest } from './transport.js'

/** A 429 answer: the headers to send with the `Retry later` text. */
export interface Throttled {
  headers: Record<string, string>
}

/** Counts requests per client and window; see the module comment. */
export class RateLimiter {
  private readonly counts = new Map<string, number>()
  private window = -1

  /**
   * Counts one API request and says whether it is over the scenario's limit
   * (`auth_settings.rate_limit_requests` per `rate_limit_period_seconds`).
   * @returns the 429 headers, or undefined when the request may go on (or no limit is set).
   */
  check(db: Db, request: CoreRequest, now: Date): Throttled | undefined {
    const settings = db.tables.auth_settings.get(1)
    const limit = settings?.rate_limit_requests
    if (!settings || limit === null || limit === undefined) return undefined
    const period = settings.rate_limit_period_seconds
    const epoch = Math.floor(now.getTime() / 1000)
    const window = Math.floor(epoch / period)
    if (window !== this.window) {
      this.window = window
      this.counts.clear()
    }
    const userId = requestUserId(db, request, parseQuery(request.query))
    const key = userId === undefined ? 'anonymous' : `user:${userId}`
    const count = (this.counts.get(key) ?? 0) + 1
    this.counts.set(key, count)
    if (count <= limit) return undefined
    const retryAfter = period - (epoch % period)
    const reset = epoch + retryAfter
    return {
      headers: {
        'ratelimit-name': userId === undefined ? 'throttle_unauthenticated' : 'throttle_authenticated_api',
        // The quota per minute, rounded up (GitLab's `rounded_limit`).
        'ratelimit-limit': String(Math.ceil((limit * 60) / period)),
        'ratelimit-observed': String(count),
        'ratelimit-remaining': String(Math.max(limit - count, 0)),
        'ratelimit-reset': String(reset),
        'ratelimit-resettime': new Date(reset * 1000).toUTCString(),
        'retry-after': String(retryAfter),
      },
    }
  }

  /** Forgets every count (the simulator's reset). */
  clear(): void {
    this.counts.clear()
    this.window = -1
  }
}
