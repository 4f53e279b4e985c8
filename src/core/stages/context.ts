/**
 * The request context a handler receives ({@link Ctx}), made once per routed request after
 * authentication and shared by the last stages: the route's `before` block and the declared-params
 * check see it (with the raw params), then the handler (with the validated ones).
 * Source: STYLE.md §3.6.
 * Browser-safe.
 * @module
 */
import type { Faker } from '@faker-js/faker'
import type { Db } from '../../db/db.js'
import { isoDate, timestamp, type Clock } from '../clock.js'
import type { RawParams } from '../params.js'
import type { AuthInfo, Ctx, Method } from '../route.js'
import type { CoreRequest } from '../transport.js'

/** What a {@link RequestContext} is made from. */
export interface ContextFields {
  request: CoreRequest
  routeKey: string
  /** Every parameter as received; also the context's `params` until {@link validate} replaces them. */
  raw: RawParams
  auth: AuthInfo
  db: Db
  clock: Clock
  /** The clock's now as `ctx.today` and `ctx.now` read it (see {@link ClockText}). */
  text: ClockText
  baseUrl: string
  /** The simulator's faker, made on first use. */
  fakerOf: () => Faker
  /** The body's bytes, for a route declared with `rawBody`. */
  body?: Uint8Array | undefined
}

/** What a handler receives ({@link Ctx}); a class, so every request's context has one shape. */
export class RequestContext implements Ctx {
  readonly request: CoreRequest
  readonly method: Method
  readonly routeKey: string
  /** The raw params while the route's `before` block runs, then the declared params, validated (`validate`). */
  params: Record<string, unknown>
  readonly raw: RawParams
  readonly currentUser: AuthInfo['user']
  readonly auth: AuthInfo
  readonly db: Db
  readonly clock: Clock
  readonly today: string
  readonly now: string
  readonly baseUrl: string
  readonly body: Uint8Array | undefined
  /** What the route's `prepare` resolved to, set before the handler runs. */
  prepared: unknown = undefined
  readonly #fakerOf: () => Faker
  #url: URL | undefined

  constructor(fields: ContextFields) {
    this.request = fields.request
    this.method = (fields.request.method === 'HEAD' ? 'GET' : fields.request.method) as Method
    this.routeKey = fields.routeKey
    this.params = fields.raw
    this.raw = fields.raw
    this.currentUser = fields.auth.user
    this.auth = fields.auth
    this.db = fields.db
    this.clock = fields.clock
    this.today = fields.text.today
    this.now = fields.text.now
    this.baseUrl = fields.baseUrl
    this.body = fields.body
    this.#fakerOf = fields.fakerOf
  }

  /** The simulator's faker, made on first use (few requests generate anything). */
  get faker(): Faker {
    return this.#fakerOf()
  }

  /** Built on first use only; handlers rarely need more than `request.path` and `request.query`. */
  get url(): URL {
    const { origin, path, query } = this.request
    return (this.#url ??= new URL(`${origin}${path}${query ? `?${query}` : ''}`))
  }
}

/**
 * The clock's now as handlers read it: `today` (`YYYY-MM-DD`, UTC) and `now` (a GitLab
 * timestamp), worked out again only when the clock has moved (a frozen clock never does). One per engine.
 */
export class ClockText {
  #ms = Number.NaN
  today = ''
  now = ''

  /** Brings the strings to `now`. @returns this. */
  at(now: Date): this {
    if (now.getTime() !== this.#ms) {
      this.#ms = now.getTime()
      this.today = isoDate(now)
      this.now = timestamp(now)
    }
    return this
  }
}
