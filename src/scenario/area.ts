/**
 * A resource area as the composition root sees it: a vertical slice with its routes, its store
 * tables and its part of the scenario format. Each folder under `src/resources/` exports one.
 * Source: STYLE.md §2, §4; issue 5.
 * @module
 */
import type { Route } from '../core/route.js'
import type { CascadeRule } from '../db/cascade.js'
import type { Db } from '../db/db.js'
import type { TableDefs, TableName } from '../db/schema.js'
import type { ScenarioFragment } from './fragment.js'
import type { AreaImporter } from './importer.js'

/**
 * One resource area (`src/resources/<name>/index.ts`). Adding an area is a new folder exporting
 * one of these, one line in `src/resources/areas.ts`, and `npm run route-table`, which writes its
 * route keys into the static route table (`src/resources/route-table.ts`).
 *
 * An area costs nothing until used (STYLE.md §4, issue 39 item 4): a start registers its routes
 * from the static table, and its route modules (handlers, services, presenters) run only when
 * {@link load} is first called, on the first request that matches one of its routes. So `index.ts`
 * imports its route modules only inside `load`, through `import()`.
 * @example
 * export const freezePeriods: Area = {
 *   name: 'freeze-periods',
 *   load: async () => ({ api: (await import('./freeze-periods.routes.js')).freezePeriodRoutes }),
 *   tables: { freeze_periods: table<FreezePeriodRecord>(['project_id']) },
 *   scenario: freezePeriodFragment,
 * }
 */
export interface Area {
  /** The folder name, which is the spec's name for the area (`freeze-periods`). */
  readonly name: string
  /**
   * Loads its routes, in the order the static route table lists them; absent for an area that
   * only holds scenario data (authentication). Called once per process (`resources/index.ts`
   * keeps the answer), on the first request that matches one of them.
   */
  readonly load?: () => Promise<AreaRoutes>
  /**
   * Loads its registrations: the modules that, when they run, subscribe to the domain-event
   * channel (`subscribe(...)`, `rules/events.ts`) or fill another area's registry (a noteable,
   * awardable or to-do kind, a git credential check, a project relation, a lookup hook).
   * `resources/index.ts` calls every area's, once per process, one area after the other in area
   * order (so subscribers keep the order a start gave them before), before the first request is
   * answered (any door, the control API too) and before {@link load}s of tools and tests
   * (`loadAllRoutes`); never at start (issue 39 item 4). Each import is awaited in turn, in the
   * order the modules used to be imported in `index.ts`.
   * An area that still imports them statically from `index.ts` (`import './foo.subscribers.js'`)
   * works as before: they then run at every start.
   * @example register: async () => { await import('./issues.kinds.js') }
   */
  readonly register?: () => Promise<unknown>
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
  /**
   * Its delete rules: the foreign keys of its tables that GitLab's column conventions (`<table>_id`,
   * polymorphic `*_type`/`*_id`, `<kind>_ids`) do not show, such as a `container_id`, a column set to
   * null rather than deleted, or a column that moves to the ghost user. The composition root hands
   * every area's to the store (`db.cascade`); `rules/cascade.ts` applies them. Source: gitlab:
   * db/structure.sql (foreign keys).
   */
  readonly cascade?: readonly CascadeRule[]
  /**
   * Where its secrets travel, for the recorder's redaction (`record/redact.ts` adds these to the
   * generic credential rules): the body fields and query parameters that hold them, and the format
   * of the tokens it generates.
   */
  readonly secrets?: AreaSecrets
  /**
   * Lines `fakelab serve` prints about the area once the server is up, after the users and their
   * tokens (each area's in area order): credentials of its own a client needs at once, such as
   * registration tokens. Start with `''` to leave a blank line before a heading.
   */
  readonly startup?: (view: StartupView) => readonly string[]
  /**
   * Its cassette-import hook: the recorded answers it recognises and the section of the imported
   * scenario it builds from them (`verify/import.ts` is the generic driver; see `importer.ts`).
   */
  readonly importer?: AreaImporter
  /**
   * Runs as each API request arrives, before it is routed or a kept answer is looked for, with the
   * store and the clock's now: the area's background work progressing between requests, as
   * GitLab's Sidekiq jobs do (storage moves). A change it makes must be a store write (so the reply
   * memo sees it) and must depend only on the store and `now`; it is not undone when the request fails.
   */
  readonly beforeRequest?: (db: Db, now: Date) => void
}

/** An area's routes, as its {@link Area.load} gives them. */
export interface AreaRoutes {
  /** Its API routes (paths below `/api/v4`). */
  readonly api: readonly Route[]
  /**
   * Routes outside `/api/v4` (keys with paths from the root, e.g. `GET /uploads/-/system/…`): GitLab's
   * web controllers serving what the area's entities link to. They see only the session cookie.
   */
  readonly web?: readonly Route[]
}

/** What an area's {@link Area.startup} lines are made from. */
export interface StartupView {
  /** The loaded store. */
  readonly db: Db
  /** The simulator's clock reading. */
  readonly now: Date
  /** How many rows of one kind to list at most (the rest as `  ... and <n> more`). */
  readonly limit: number
}

/**
 * An area's secrets as the redaction sees them (`Area.secrets`). Names are case-insensitive.
 * @example
 * secrets: { bodyFields: ['runners_token'], patterns: [/\bGR1348941[A-Za-z0-9_-]+/g] }
 */
export interface AreaSecrets {
  /** Request or response headers whose whole value is secret. */
  readonly headers?: readonly string[]
  /** Query parameters whose value is secret. */
  readonly queryParams?: readonly string[]
  /** JSON or form body fields whose string value is secret, at any depth. */
  readonly bodyFields?: readonly string[]
  /** Patterns whose matches are secret wherever they appear (the `g` flag or not; either works). */
  readonly patterns?: readonly RegExp[]
}
