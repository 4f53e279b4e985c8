/**
 * How a simulator's outgoing webhook requests leave it: the door-specific part of hook delivery,
 * kept per store so the hooks area needs no door. Under MSW in Node, `fetch` is intercepted by the
 * same interceptor that serves fakelab: a delivery must say it is to pass through to the network,
 * which msw 2.x's `bypass()` does with the request header `accept: msw/passthrough` (msw
 * lib/core/bypass.mjs, 2.15; older 2.x releases used `x-msw-intention: bypass`). The MSW door
 * ({@link markMswDoor}, called by `createHandlers`) adds it; the node door sends GitLab's headers only.
 * Browser-safe; imports no area.
 * @module
 */
import type { Db } from '../db/db.js'

/** The extra request headers of one store's deliveries (lower-case names). */
const EXTRA_HEADERS = new WeakMap<Db, Readonly<Record<string, string>>>()

/** Marks `db`'s deliveries as leaving through MSW: they carry msw's pass-through header. */
export function markMswDoor(db: Db): void {
  EXTRA_HEADERS.set(db, { accept: 'msw/passthrough' })
}

/** The extra headers `db`'s deliveries carry besides GitLab's (none outside the MSW door). */
export function deliveryExtraHeaders(db: Db): Readonly<Record<string, string>> {
  return EXTRA_HEADERS.get(db) ?? {}
}
