/**
 * An area's part of the scenario format: the fields it adds to users, groups and projects (zod
 * shapes), the nested records it stores, the references it checks, and how it loads its records
 * into the store. The scenario machinery composes the fragments of every area into one format;
 * nothing in `src/scenario/` knows a particular area. Source: STYLE.md §10.
 * @module
 */
import type { Faker } from '@faker-js/faker'
import type { z } from 'zod'
import type { Db } from '../db/db.js'
import type { GroupRecord, InternalIdRecord, ProjectRecord, TableName, Tables, UserRecord } from '../db/schema.js'
import type { Entry, Model, RecordKind } from './entries.js'
import type { NameIndex, TitleSpec } from './names.js'
import type { Loc, Report } from './problems.js'
import type { ScenarioGroup, ScenarioProject, ScenarioUser } from './records.js'

/** A zod object shape: field name → schema. */
export type Fields = z.core.$ZodShape

/** The parsed type of a shape, for merging into `ScenarioUser`/`ScenarioGroup`/`ScenarioProject`. */
export type FieldsOutput<S extends Fields> = z.output<z.ZodObject<S>>

/**
 * The input type of a shape (fields with defaults are optional), for merging into
 * `ScenarioUserInput`/`ScenarioGroupInput`/`ScenarioProjectInput`/`ScenarioInput`: what a scenario
 * object written in code may hold before validation.
 */
export type FieldsInput<S extends Fields> = z.input<z.ZodObject<S>>

/**
 * Records nested in a list field of users, groups or projects that go to one store table
 * (`{ table: 'labels', field: 'labels', on: ['group', 'project'] }`). Their explicit `id`s must be
 * unique across the whole scenario; the others get ids past the highest, in loading order.
 */
export interface NestedCollection {
  readonly table: TableName
  readonly field: string
  /** Which records have the field, in loading order. */
  readonly on: readonly RecordKind[]
  /** Set when the records carry an `iid` unique per parent (GitLab `InternalId` usage). */
  readonly iid?: InternalIdRecord['usage']
}

/** What reference checks get: the records, the name index, and a way to report. */
export interface CheckContext {
  readonly model: Model
  readonly index: NameIndex
  readonly report: Report
  /** Reports `unknown user "x"` at `loc` when `value` is a string that names no user. */
  checkUser(loc: Loc, value: unknown): void
  /** The top-level document (root fields such as `runners:`), when there is one. */
  readonly root: Entry | undefined
}

/** The timestamps a scenario record may write (each optional). */
export interface WrittenTimestamps {
  created_at?: string | undefined
  updated_at?: string | undefined
}

/** The group or project whose nested records are being loaded. */
export interface LoadParent {
  readonly type: 'group' | 'project'
  readonly id: number
  /** `group:<full path>` / `project:<full path>`, lower case: the faker key prefix of its records. */
  readonly key: string
  readonly createdAt: string
  /** Its entry in the name index. */
  readonly entry: Entry
}

/** The store row each record kind becomes. */
export interface KindRows {
  user: UserRecord
  group: GroupRecord
  project: ProjectRecord
}

/** What loaders get: the store, the index, generated values and ids. */
export interface LoadContext {
  readonly db: Db
  readonly index: NameIndex
  /** The instant generated timestamps lead up to. */
  readonly referenceDate: Date
  /**
   * The dedicated faker, reseeded for one record from the scenario's seed and `key` (a natural key
   * such as `user:root`), so adding or reordering records never changes another record's values.
   */
  fake(key: string): Faker
  /**
   * The draw in [0, 1) of the faker {@link fake} last returned (its randomizer's `next`, seeded as
   * that faker is), for generators that need millions of values: `f.helpers.arrayElement(list)` is
   * `list[Math.floor(next() * list.length)]` for a list of two or more, without faker's per-call
   * option handling. Drawing here moves the faker on, as its own draws do.
   */
  random(): () => number
  /** A generated instant in the two years before the reference date, as `toISOString()`. */
  past(f: Faker): string
  /** A generated instant between `from` and the reference date (`from` itself when not earlier). */
  between(f: Faker, from: string): string
  /**
   * A record's `created_at` (after `since`, its parent's creation) and `updated_at` (after
   * `created_at`), each kept when the scenario writes it.
   */
  timestamps(f: Faker, written: WrittenTimestamps, since: string): { created_at: string; updated_at: string }
  /** The id of a record of the scenario: its explicit `id`, or the one allocated for it. */
  idOf(record: object): number
  /** The row built for a user, group or project entry. */
  row<K extends RecordKind>(kind: K, entry: Entry): KindRows[K]
  /** The id of the user with this username (case-insensitive). */
  userId(username: string): number
  /** The id of the titled record (`labels`) named `title` in the parent or, for a project, its groups. */
  titleId(field: string, parent: LoadParent, title: string): number
  /**
   * The iids of one parent's records: explicit ones are reserved first, the others allocated in
   * order (GitLab's `InternalId`; never reused).
   */
  iids(usage: InternalIdRecord['usage'], parent: LoadParent, records: readonly { iid?: number | undefined }[]): number[]
  /** Queues a row with its id; rows are inserted in id order when loading ends. */
  stage<K extends TableName>(table: K, row: Tables[K]): void
  /**
   * The rows queued so far for `table` (by areas loaded earlier for the same record: a project's
   * `issues` are staged before its `todos` load), in staging order.
   */
  stagedRows<K extends TableName>(table: K): readonly Tables[K][]
}

/**
 * Why a fragment must run for a scenario that has none of its own fields (issue 39 item 4): a
 * scenario composes and runs only the fragments whose fields it holds, plus these. Decided by an
 * audit of the fragment's hooks, and proved by test/unit/scenario-areas.test.ts (the store is the
 * same with only the needed fragments as with all of them).
 */
export interface FragmentNeed {
  /**
   * Set when the fragment runs for every scenario, whatever it holds: its `build` makes the rows of
   * a record kind, or a `load.*`, `check` or a default makes rows or problems without any of its
   * fields (the text says which).
   */
  readonly always?: string
  /**
   * Fields of other areas (`project.merge_requests`, `root.runners`) whose presence makes it run:
   * its `check` reports problems in them, or its `load` makes rows from them.
   */
  readonly with?: { readonly fields: readonly `${RecordKind | 'root'}.${string}`[]; readonly why: string }
}

/** See the module comment. Hooks are optional; every area has at most one fragment. */
export interface ScenarioFragment {
  /**
   * When it runs although the scenario holds none of its fields (see {@link FragmentNeed}); absent:
   * only for a scenario that holds one of them. Read by `npm run route-table` into the static
   * scenario table (`src/resources/scenario-table.ts`), so a start knows it without loading the area.
   */
  readonly need?: FragmentNeed
  /** Fields added to each kind of record. A field name belongs to one fragment only. */
  readonly fields?: { readonly [K in RecordKind]?: Fields }
  /**
   * Top-level fields of the scenario (besides `users`, `groups`, `projects`), such as the instance
   * runner registration token. Only the including file's values count; an included fixture file
   * may not set them.
   */
  readonly root?: Fields
  /** Nested records stored in tables, for id checks and allocation (see {@link NestedCollection}). */
  readonly collections?: readonly NestedCollection[]
  /** Titled nested records the name index keeps (see {@link TitleSpec}). */
  readonly titles?: readonly TitleSpec[]
  /** Texts for fields that arrive as null, by field name (see `zod-issues.ts` `NullHints`). */
  readonly nullHints?: Readonly<Record<string, string>>
  /** Reference checks beyond names and ids; run on every document and before every load. */
  check?(ctx: CheckContext): void
  /**
   * Builds the store row of a top-level record. Exactly one fragment builds each kind (the users,
   * groups and projects areas). Groups are built after users, projects after every group's nested
   * records are loaded (so a project can find its group's members).
   */
  readonly build?: {
    user?(ctx: LoadContext, user: ScenarioUser, entry: Entry): UserRecord
    group?(ctx: LoadContext, group: ScenarioGroup, entry: Entry): GroupRecord
    project?(ctx: LoadContext, project: ScenarioProject, entry: Entry): ProjectRecord
  }
  /** Loads the records nested in one user, group or project, after its row is built. */
  readonly load?: {
    user?(ctx: LoadContext, user: ScenarioUser, row: UserRecord): void
    group?(ctx: LoadContext, group: ScenarioGroup, parent: LoadParent): void
    project?(ctx: LoadContext, project: ScenarioProject, parent: LoadParent): void
    /**
     * Loads what the scenario's own top-level fields hold, after every user, group and project
     * (and what they hold) is in the store; rows go straight into `ctx.db` (not staged). `scenario` is the parsed document, with defaults applied.
     */
    root?(ctx: LoadContext, scenario: Readonly<Record<string, unknown>>): void
  }
}
