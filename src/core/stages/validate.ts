/**
 * Stage 5 of the engine, validate: Grape's order after authentication. The route's `before` block
 * (GitLab's route-wide authorization, e.g. runners.rb `authorize_admin_project`) sees the raw
 * params, then the declared params are validated and coerced, then the defaults a client left out
 * go into the raw params (GitLab's `Link` URLs carry them). Source: STYLE.md §3.7, §4.
 * Browser-safe.
 * @module
 */
import { validateParams } from '../params.js'
import type { Route } from '../route.js'
import type { RequestContext } from './context.js'

/**
 * Runs the route's `before` block on `ctx` (its `params` still the raw ones), then sets
 * `ctx.params` to the declared params, validated, and adds the declared defaults to `ctx.raw`.
 * @throws ApiError what the `before` block throws (403, 404), then 400 `{error: "<p> is missing, ..."}`.
 */
export function validate(route: Route, ctx: RequestContext): void {
  if (route.before) route.before(ctx)
  ctx.params = validateParams(route.params, ctx.raw, route.rules)
  // Defaults go into the merged params in place, after validation has seen what was sent.
  const raw = ctx.raw
  for (const [name, value] of routeDefaults(route)) if (raw[name] === undefined) raw[name] = value
}

/** Declared params that have defaults, per route, worked out once. */
const defaultsOf = new WeakMap<Route, [name: string, value: unknown][]>()

function routeDefaults(route: Route): [string, unknown][] {
  let list = defaultsOf.get(route)
  if (!list) {
    list = Object.entries(route.params).filter(([, spec]) => spec.default !== undefined).map(([name, spec]) => [name, spec.default])
    defaultsOf.set(route, list)
  }
  return list
}
