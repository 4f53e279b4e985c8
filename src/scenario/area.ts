/**
 * A resource area as the composition root sees it: a vertical slice with its routes, its store
 * tables and its part of the scenario format. Each folder under `src/resources/` exports one.
 * Source: STYLE.md §2, §4; issue 5.
 * @module
 */
import type { Route } from '../core/route.js'
import type { TableDefs, TableName } from '../db/schema.js'
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
  /**
   * The store tables it owns and their indexes; their record types merge into `Tables`. Every area
   * table is declared by exactly one area, and only that area's files name it (`db.tables.<name>`):
   * other areas read it through the owner's exported finders (`<area>.public.ts`).
   */
  readonly tables?: Partial<TableDefs>
  /**
   * Tables of other areas this area writes rows into itself (its scenario loader or a service
   * that copies rows, as GitLab's services write across models), besides its own. Its files may
   * then name those tables; every other cross-area access goes through the owner's finders.
   * The boundary test (test/unit/boundaries.test.ts) holds the areas to it.
   * @example writes: ['award_emoji'] // the issues area loads a scenario issue's award emoji
   */
  readonly writes?: readonly TableName[]
  /** Its part of the scenario format. */
  readonly scenario?: ScenarioFragment
}
