/**
 * Latency and fault injection: rules that delay matching requests, answer them with a forced
 * status and GitLab's body for it, reset the connection, or send a malformed body; each with a
 * probability and/or for the next N matching requests only. Draws come from a seeded faker, so a
 * run is reproducible. A faulted request never reaches its handler: it changes nothing.
 * Browser-safe. Source: issue 12 "Latency and faults".
 * @module
 */
import type { Faker } from '@faker-js/faker'
import { didYouMean } from './did-you-mean.js'
import { createFaker } from './faker.js'

/** Statuses a rule can force. */
export type FaultStatus = 429 | 500 | 502 | 503

/** One fault rule. Matching fields (all optional, all must match): `route`, `method`, `path`. */
export interface FaultRule {
  /** A route key (`GET /projects/:id/labels`); matches only requests that route answers. */
  route?: string
  /** Upper-case method. */
  method?: string
  /** A regular expression source tested against the request path (`^/api/v4/projects`). */
  path?: string
  /** Delay before answering, in ms: fixed, or uniformly drawn from `[min, max]`. */
  delay?: number | { min: number; max: number }
  /** Answer this status with GitLab's body for it instead of running the route. */
  status?: FaultStatus
  /** `Retry-After` seconds on a forced 429 (default 60). */
  retryAfter?: number
  /** Drop the connection without an answer (node door: socket destroyed; MSW: a network error). */
  reset?: boolean
  /** Send the answer with its body cut in half (invalid JSON). */
  malformed?: boolean
  /** Chance (0..1) that a matching request is affected; default 1. */
  probability?: number
  /** Affect only the next N matching (and drawn) requests, then the rule retires. */
  times?: number
}

/** What to do to one request. */
export interface FaultDecision {
  delayMs: number
  status?: FaultStatus
  retryAfter?: number
  reset?: boolean
  malformed?: boolean
  /** Short text for the journal, e.g. `status 503`, `delay 120ms`. */
  label: string
}

interface LiveRule {
  rule: FaultRule
  pattern: RegExp | undefined
  remaining: number
}

/** The keys a rule may have ({@link FaultRule}'s fields). */
const FAULT_RULE_KEYS: readonly (keyof FaultRule)[] = ['route', 'method', 'path', 'delay', 'status', 'retryAfter', 'reset', 'malformed', 'probability', 'times']

/** A route key is compared without a leading `/api/v4`, which route keys leave out. */
const routeText = (text: string): string => text.toLowerCase().replace(/^(\w+ )?\/api\/v4(?=\/)/, '$1')

/**
 * Checks a rule: its keys (a mistyped `rout` would otherwise be ignored and the rule match every
 * request), its values, and, given the routes served, that `route` names one of them.
 * @param routes the route keys served (`GET /user`, ...); without them `route` is not checked.
 * @throws RangeError `fault <field>: <why>` for the first bad field, with a did-you-mean for an
 *   unknown key or route, e.g. `fault rout: unknown key (did you mean "route"?)`.
 */
export function checkFaultRule(rule: FaultRule, routes?: readonly string[]): void {
  const bad = (field: string, why: string) => {
    throw new RangeError(`fault ${field}: ${why}`)
  }
  if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) bad('rule', 'must be an object')
  for (const key of Object.keys(rule)) {
    if (!(FAULT_RULE_KEYS as readonly string[]).includes(key)) bad(key, `unknown key${didYouMean(key, FAULT_RULE_KEYS)}; a rule has ${FAULT_RULE_KEYS.join(', ')}`)
  }
  for (const key of ['route', 'method', 'path'] as const) {
    if (rule[key] !== undefined && (typeof rule[key] !== 'string' || rule[key] === '')) bad(key, 'must be a non-empty string')
  }
  if (routes !== undefined && rule.route !== undefined && !routes.includes(rule.route)) {
    bad('route', `no route "${rule.route}"${didYouMean(rule.route, routes, routeText)}; a route key is a method and a path below /api/v4, e.g. "GET /projects/:id/labels"`)
  }
  if (rule.status !== undefined && ![429, 500, 502, 503].includes(rule.status)) bad('status', 'must be 429, 500, 502 or 503')
  if (rule.probability !== undefined && !(rule.probability >= 0 && rule.probability <= 1)) bad('probability', 'must be from 0 to 1')
  if (rule.times !== undefined && !(Number.isInteger(rule.times) && rule.times > 0)) bad('times', 'must be a positive integer')
  if (rule.retryAfter !== undefined && !(Number.isInteger(rule.retryAfter) && rule.retryAfter >= 0)) bad('retryAfter', 'must be a non-negative integer')
  if (rule.path !== undefined) {
    try {
      new RegExp(rule.path)
    } catch {
      bad('path', 'must be a regular expression')
    }
  }
  const d = rule.delay
  if (d !== undefined) {
    const ok = typeof d === 'number' ? d >= 0 && Number.isFinite(d) : typeof d === 'object' && d !== null && d.min >= 0 && d.max >= d.min && Number.isFinite(d.max)
    if (!ok) bad('delay', 'must be ms >= 0 or { min, max } with 0 <= min <= max')
  }
  if (d === undefined && rule.status === undefined && !rule.reset && !rule.malformed) bad('rule', 'needs delay, status, reset or malformed')
}

/** The fault rules of one simulator, drawn with a seeded faker. */
export class Faults {
  #rules: LiveRule[] = []
  // Made on first draw: most simulators never set a rule, and building a Faker costs milliseconds
  // at every start (issue 5, cold start). Made then from the seed, it draws as one made up front.
  #faker: Faker | undefined
  readonly #seed: number
  #routes: readonly string[] | (() => readonly string[]) | undefined

  /**
   * @param seed seeds the draws (probability, random delays).
   * @param routes the route keys served, or a function giving them (called once, on the first rule
   *   checked: a start that sets no rule does not list the keys): a rule whose `route` is none of
   *   them is refused.
   */
  constructor(seed: number, routes?: readonly string[] | (() => readonly string[])) {
    this.#seed = seed
    this.#routes = routes
  }

  /** Checks a rule as {@link add} and {@link set} do. @throws RangeError for a bad rule. */
  check(rule: FaultRule): void {
    if (typeof this.#routes === 'function') this.#routes = this.#routes()
    checkFaultRule(rule, this.#routes)
  }

  /** The seeded faker the draws come from. */
  get #draws(): Faker {
    return (this.#faker ??= createFaker(this.#seed))
  }

  /** Whether any rule is set (the engine skips matching otherwise). */
  get active(): boolean {
    return this.#rules.length > 0
  }

  /** Adds a rule after the others. @throws RangeError for a bad rule. */
  add(rule: FaultRule): void {
    this.check(rule)
    this.#rules.push({ rule: { ...rule }, pattern: rule.path !== undefined ? new RegExp(rule.path) : undefined, remaining: rule.times ?? Infinity })
  }

  /** Replaces every rule and reseeds the draws. @throws RangeError for a bad rule; nothing changes then. */
  set(rules: readonly FaultRule[]): void {
    for (const rule of rules) this.check(rule)
    this.clear()
    for (const rule of rules) this.add(rule)
  }

  /** The rules still live (a retired `times` rule is gone), with `times` as what is left. */
  list(): FaultRule[] {
    return this.#rules.map(({ rule, remaining }) => (Number.isFinite(remaining) ? { ...rule, times: remaining } : { ...rule }))
  }

  /** Removes every rule and reseeds the draws. */
  clear(): void {
    this.#rules = []
    this.#faker?.seed(this.#seed)
  }

  /**
   * What to do to a request: the first matching rule that is drawn applies (delays of every
   * drawn rule add up, so a global delay combines with a per-route fault). `undefined`: nothing.
   */
  decide(method: string, path: string, route: string | null): FaultDecision | undefined {
    let decision: FaultDecision | undefined
    for (const live of this.#rules.slice()) {
      const { rule } = live
      if (rule.route !== undefined && rule.route !== route) continue
      if (rule.method !== undefined && rule.method.toUpperCase() !== method) continue
      if (live.pattern && !live.pattern.test(path)) continue
      if (rule.probability !== undefined && rule.probability < 1 && this.#draws.number.float({ min: 0, max: 1 }) >= rule.probability) continue
      live.remaining -= 1
      if (live.remaining <= 0) this.#rules.splice(this.#rules.indexOf(live), 1)
      decision ??= { delayMs: 0, label: '' }
      const parts: string[] = []
      if (rule.delay !== undefined) {
        const ms = typeof rule.delay === 'number' ? rule.delay : this.#draws.number.int({ min: Math.ceil(rule.delay.min), max: Math.floor(rule.delay.max) })
        decision.delayMs += ms
        parts.push(`delay ${ms}ms`)
      }
      const outcome = decision.status !== undefined || decision.reset || decision.malformed
      if (!outcome) {
        if (rule.status !== undefined) {
          decision.status = rule.status
          if (rule.status === 429) decision.retryAfter = rule.retryAfter ?? 60
          parts.push(`status ${rule.status}`)
        } else if (rule.reset) {
          decision.reset = true
          parts.push('reset')
        } else if (rule.malformed) {
          decision.malformed = true
          parts.push('malformed')
        }
      }
      if (parts.length > 0) decision.label = decision.label ? `${decision.label}, ${parts.join(', ')}` : parts.join(', ')
    }
    return decision
  }
}
