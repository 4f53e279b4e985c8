/**
 * A resource area as the composition root sees it: a vertical slice with its routes, its store
 * tables and its part of the scenario format. Each folder under `src/resources/` exports one.
 * Source: STYLE.md §2, §4; issue 5.
 * @module
 */
import type { Route } from '../core/route.js'
import type { Db } from '../db/db.js'
import type { TableDefs } from '../db/schema.js'
import type { ScenarioFragment } from './fragment.js'

/**
 * One resource area (`src/resources/<name>/index.ts`). Adding an area is a new folder exporting
 * one of these, and one line in `src/resources/areas.ts`.
 * @example
 * export const freezePeriods: Area = {
 *   name: 'freeze-periods',
 *   routes: freezePeriodRoutes,
 *   tables: { freeze_periods: table<FreezePeriodRecord>(['project_id']) },
 *   scenario: freezePeriodFragment,
 * }
 */
export interface Area {
  /** The folder name, which is the spec's name for the area (`freeze-periods`). */
  readonly name: string
  /** Its routes; empty for an area that so far only holds scenario data (issues, members). */
  readonly routes: readonly Route[]
  /**
   * Routes outside `/api/v4` (keys with paths from the root, e.g. `GET /uploads/-/system/…`): GitLab's
   * web controllers serving what the area's entities link to. They see only the session cookie.
   */
  readonly webRoutes?: readonly Route[]
  /** The store tables it owns and their indexes; their record types merge into `Tables`. */
  readonly tables?: Partial<TableDefs>
  /** Its part of the scenario format. */
  readonly scenario?: ScenarioFragment
  /**
   * Runs as each API request arrives, before it is routed or a kept answer is looked for, with the
   * store and the clock's now: the area's background work progressing between requests, as
   * GitLab's Sidekiq jobs do (storage moves). A change it makes must be a store write (so the reply
   * memo sees it) and must depend only on the store and `now`; it is not undone when the request fails.
   */
  readonly beforeRequest?: (db: Db, now: Date) => void
}
