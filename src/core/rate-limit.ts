/**
 * Rate limiting, as GitLab's Rack::Attack throttles do it: a fixed window of `period` seconds
 * aligned on the epoch, one budget per throttle and client (the user a token or session names,
 * else one shared anonymous budget, where GitLab keys on the IP address). Over a budget a request
 * gets 429 with a plain-text `Retry later` body (`errors.ts` `rateLimited`) and the `RateLimit-*`
 * and `Retry-After` headers. Counts live in memory beside the store, so a refused request changes
 * nothing in it.
 *
 * Two sources set the throttles: the scenario's `rate_limit` (`auth_settings`), which stands for
 * `throttle_unauthenticated` and `throttle_authenticated_api` with one limit on API paths, and the
 * instance's application settings (`throttle_*_enabled`, `_requests_per_period`,
 * `_period_in_seconds`), which a {@link ThrottleSource} registered by the application-settings area
 * reads; an enabled setting takes the throttle's place of the scenario's.
 *
 * Windows follow the simulator's clock. A frozen clock would never end a window, so a client that
 * obeys `Retry-After` (python-gitlab, @gitbeaker's retries) would wait for ever: a 429's
 * `Retry-After` is kept in real time instead. Once that many real seconds have passed with the
 * clock still where it was, the limiter's time moves on to the window's end; any move of the
 * clock itself (`set`, `advance`, a running clock) puts the limiter's time back on the clock.
 * Source: api-spec.md "Errors" (429); gitlab: config/initializers/rack_attack.rb,
 * lib/gitlab/rack_attack.rb (`configure_throttles`, `throttled_response_headers`, 13.8+),
 * lib/gitlab/rack_attack/request.rb (`api_request?`, `web_request?`, `unauthenticated?`),
 * doc/user/admin_area/settings/user_and_ip_rate_limits.md.
 * @module
 */
import type { Db } from '../db/db.js'
import { requestUserId } from './auth.js'
import { monotonicMs } from './clock.js'
import { parseQuery } from './params.js'
import type { CoreRequest } from './transport.js'

/** A 429 answer: the headers to send with the `Retry later` text. */
export interface Throttled {
  headers: Record<string, string>
}

/** The Rack::Attack throttles fakelab simulates (13.12's names). */
export type ThrottleName = 'throttle_unauthenticated' | 'throttle_authenticated_api' | 'throttle_authenticated_web'

/** One enabled throttle: `requests` per `periodSeconds` (both positive integers). */
export interface ThrottleLimit {
  requests: number
  periodSeconds: number
}

/**
 * Reads the throttles an area enables from the store: by throttle name, the limit, or nothing for
 * a throttle it leaves off. Registered at start with {@link registerThrottleSource}.
 */
export type ThrottleSource = (db: Db) => Partial<Record<ThrottleName, ThrottleLimit>>

const sources: ThrottleSource[] = []

/**
 * Adds a source of throttles (the application settings' `throttle_*` fields). Sources registered
 * later override earlier ones throttle by throttle; every source overrides the scenario's `rate_limit`.
 */
export function registerThrottleSource(source: ThrottleSource): void {
  sources.push(source)
}

/** Where a request goes, as the throttles tell requests apart (`classify`'s zones). */
export type ThrottledZone = 'api' | 'web'

/** The window and counts of one throttle. */
interface Budget {
  /** `"<period>:<window>"`: Rack::Attack's cache key carries both, so a new period starts afresh. */
  window: string
  counts: Map<string, number>
}

/** Counts requests per throttle, client and window; see the module comment. */
export class RateLimiter {
  private readonly budgets = new Map<ThrottleName, Budget>()
  /** What the limiter's time is ahead of a clock that has not moved, in ms (see the module comment). */
  private skewMs = 0
  /** The clock's instant at the last check, in ms since the epoch. */
  private lastClockMs = Number.NaN
  /** The last 429's promise: real time (`monotonicMs`) it was given at, and its `Retry-After` in ms. */
  private promise: { realMs: number; waitMs: number } | undefined

  /** The limiter's time for a check at the clock's `now`, in ms since the epoch. */
  private time(now: Date): number {
    const clockMs = now.getTime()
    if (clockMs !== this.lastClockMs) {
      this.lastClockMs = clockMs
      this.skewMs = 0
      this.promise = undefined
    } else if (this.promise && monotonicMs() - this.promise.realMs >= this.promise.waitMs) {
      this.skewMs += this.promise.waitMs
      this.promise = undefined
    }
    return clockMs + this.skewMs
  }

  /**
   * Counts one request against the throttle that applies to it and says whether it is over that
   * throttle's limit. `zone` `api` for `/api/` paths (the scenario's `rate_limit` counts those
   * only), `web` for the rest of GitLab's routes.
   * @returns the 429 headers, or undefined when the request may go on (or no throttle applies).
   */
  check(db: Db, request: CoreRequest, now: Date, zone: ThrottledZone = 'api'): Throttled | undefined {
    const throttles = this.throttles(db, zone)
    if (!throttles) return undefined
    const userId = requestUserId(db, request, parseQuery(request.query))
    // gitlab: unauthenticated requests (any path) count against throttle_unauthenticated; a user's
    // against the API or the web throttle by path.
    const name: ThrottleName = userId === undefined ? 'throttle_unauthenticated' : zone === 'api' ? 'throttle_authenticated_api' : 'throttle_authenticated_web'
    const limit = throttles[name]
    if (!limit) return undefined
    const { requests, periodSeconds: period } = limit
    const epoch = Math.floor(this.time(now) / 1000)
    const window = `${period}:${Math.floor(epoch / period)}`
    let budget = this.budgets.get(name)
    if (!budget || budget.window !== window) {
      budget = { window, counts: new Map() }
      this.budgets.set(name, budget)
    }
    const key = userId === undefined ? 'anonymous' : `user:${userId}`
    const count = (budget.counts.get(key) ?? 0) + 1
    budget.counts.set(key, count)
    if (count <= requests) return undefined
    const retryAfter = period - (epoch % period)
    const reset = epoch + retryAfter
    this.promise = { realMs: monotonicMs(), waitMs: retryAfter * 1000 }
    return {
      headers: {
        'ratelimit-name': name,
        // The quota per minute, rounded up (GitLab's `rounded_limit`).
        'ratelimit-limit': String(Math.ceil((requests * 60) / period)),
        'ratelimit-observed': String(count),
        'ratelimit-remaining': String(Math.max(requests - count, 0)),
        'ratelimit-reset': String(reset),
        'ratelimit-resettime': new Date(reset * 1000).toUTCString(),
        'retry-after': String(retryAfter),
      },
    }
  }

  /** The throttles in force for `zone`, or undefined when none is. */
  private throttles(db: Db, zone: ThrottledZone): Partial<Record<ThrottleName, ThrottleLimit>> | undefined {
    let throttles: Partial<Record<ThrottleName, ThrottleLimit>> | undefined
    const settings = db.tables.auth_settings.get(1)
    const requests = settings?.rate_limit_requests
    if (zone === 'api' && settings && requests !== null && requests !== undefined) {
      const limit = { requests, periodSeconds: settings.rate_limit_period_seconds }
      throttles = { throttle_unauthenticated: limit, throttle_authenticated_api: limit }
    }
    for (const source of sources) {
      const set = source(db)
      for (const name of Object.keys(set) as ThrottleName[]) (throttles ??= {})[name] = set[name]!
    }
    return throttles
  }

  /** Forgets every count (the simulator's reset). */
  clear(): void {
    this.budgets.clear()
    this.skewMs = 0
    this.lastClockMs = Number.NaN
    this.promise = undefined
  }
}
