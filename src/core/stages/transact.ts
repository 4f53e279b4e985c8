/**
 * Stage 6 of the engine, transact: the route's handler runs inside one store transaction, so a
 * handler that throws leaves no half-made change behind. Source: STYLE.md §3.8, §5.
 * Browser-safe.
 * @module
 */
import type { Db } from '../../db/db.js'
import type { Ctx, Reply, Route } from '../route.js'

/**
 * Runs `route`'s handler on `ctx` in a transaction of `db`.
 * @returns the handler's reply.
 * @throws what the handler throws (an `ApiError`, usually), after the store is rolled back.
 */
export function transact(db: Db, route: Route, ctx: Ctx): Reply {
  return db.transaction(() => route.handler(ctx))
}
