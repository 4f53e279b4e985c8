/**
 * A resource area as the composition root sees it: a vertical slice with its routes, its store
 * tables and its part of the scenario format. Each folder under `src/resources/` exports one.
 * Source: STYLE.md §2, §4; issue 5.
 * @module
 */
import type { Route } from '../core/route.js'
import type { CascadeRule } from '../db/cascade.js'
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
   * Its delete rules: the foreign keys of its tables that GitLab's column conventions (`<table>_id`,
   * polymorphic `*_type`/`*_id`, `<kind>_ids`) do not show, such as a `container_id`, a column set to
   * null rather than deleted, or a column that moves to the ghost user. The composition root hands
   * every area's to the store (`db.cascade`); `rules/cascade.ts` applies them. Source: gitlab:
   * db/structure.sql (foreign keys).
   */
  readonly cascade?: readonly CascadeRule[]
}
