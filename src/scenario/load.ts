/**
 * The loader driver: a checked scenario → store rows, through the fragments' `build` and `load`
 * hooks. It allocates every id up front (explicit ids kept, the others past the highest), builds
 * users, then groups and what they hold, then projects and what they hold, and inserts each table's
 * rows in id order. Values the scenario leaves out come from one dedicated faker, reseeded per
 * record, so the same scenario and seed give the same rows, byte for byte.
 * Source: STYLE.md §7 (ids, iids), §10 (faker fills only what the scenario leaves out).
 * @module
 */
import type { Faker, Randomizer } from '@faker-js/faker'
import { faker as englishFaker } from '@faker-js/faker/locale/en'
import type { Db } from '../db/db.js'
import type { Row } from '../db/collection.js'
import type { InternalIdRecord, TableName, Tables } from '../db/schema.js'
import { KIND_COLLECTIONS, pushRecords, RECORD_KINDS, type Entry, type Model, type Rec, type RecordKind } from './entries.js'
import type { KindRows, LoadContext, LoadParent, ScenarioFragment, WrittenTimestamps } from './fragment.js'
import { mersenne53 } from './mersenne.js'
import type { NameIndex } from './names.js'
import type { ScenarioRecords } from './records.js'

/** Options of a load. */
export interface LoadOptions {
  /** Faker seed (callers usually pass `scenario.seed`, which defaults to 1). */
  seed: number
  /**
   * The instant generated timestamps lead up to (`created_at` in the past of it, and so on);
   * usually the scenario's `now:` or the simulator's reference date. Explicit values are kept.
   */
  referenceDate: Date
  /**
   * Adds records to a store that already holds a scenario (`sim.arrange()`): the loaders of the
   * top-level fields (instance settings such as the runner registration token) do not run, since
   * the store has them already.
   */
  recordsOnly?: boolean
  /**
   * Users, groups and projects of the scenario that stand for rows already in the store, by their
   * record (`sim.arrange()` lists the store's users and groups so its records may refer to them):
   * their rows are taken from the store, not built, and nothing they hold is loaded. Their records
   * carry the rows' ids.
   */
  existing?: ReadonlyMap<object, Row>
}

/** 32-bit FNV-1a: a stable number per natural key, mixed into the faker seed. */
function hash(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/**
 * A faker of its own with the English locale, as `new Faker({ locale: [en, base] })` makes it,
 * but from the `locale/en` entry point: the package root loads every locale (about 270 ms).
 */
function newFaker(randomizer: Randomizer): Faker {
  const FakerClass = englishFaker.constructor as new (options: { locale: typeof englishFaker.rawDefinitions; randomizer: Randomizer }) => Faker
  return new FakerClass({ locale: englishFaker.rawDefinitions, randomizer })
}

/** The next ids for records without one: past every explicit id and every id already in the table. */
function assignIds(table: { peekNextId(): number }, records: readonly { id?: unknown }[]): number[] {
  // A loop, not Math.max(...ids): spreading 100,000 ids overflows the stack.
  let next = table.peekNextId() - 1
  for (const r of records) if (typeof r.id === 'number' && r.id > next) next = r.id
  return records.map((r) => (typeof r.id === 'number' ? r.id : ++next))
}

/** Loads one checked scenario model into `db` (see the module comment). */
export class ScenarioLoader implements LoadContext {
  private faker: Faker | undefined
  /** The faker's generator: faker's own, on a typed-array state (the same values, seeded faster). */
  private readonly randomizer = mersenne53()
  /**
   * The faker handed out by {@link fake}: the dedicated faker behind a proxy that applies the
   * last requested seed on first use. Seeding costs about 70 µs (Mersenne Twister state), and most
   * records of a large scenario give every value themselves, so most seeds were never used: a
   * scenario of 100,000 records spent seconds on them (issue 13). Values are exactly the eager
   * ones: every use of the faker after `fake(key)` still sees `key`'s seed first.
   */
  private lazyFaker: Faker | undefined
  /** The key `fake()` was last asked for, while no use has applied its seed yet (hashed on use). */
  private pendingKey: string | undefined
  private readonly seed: number
  private readonly ids = new Map<object, number>()
  private readonly rows = new Map<Entry, Row>()
  private readonly staged = new Map<TableName, Row[]>()
  private readonly model: Model
  private readonly fragments: readonly ScenarioFragment[]
  private readonly recordsOnly: boolean
  private readonly existing: ReadonlyMap<object, Row>
  readonly db: Db
  readonly index: NameIndex
  readonly referenceDate: Date

  constructor(db: Db, index: NameIndex, model: Model, fragments: readonly ScenarioFragment[], options: LoadOptions) {
    this.db = db
    this.index = index
    this.model = model
    this.fragments = fragments
    this.seed = options.seed >>> 0
    this.referenceDate = options.referenceDate
    this.recordsOnly = options.recordsOnly ?? false
    this.existing = options.existing ?? new Map()
  }

  /** Runs the load; the caller wraps it in a transaction. */
  run(): void {
    this.allocateIds()
    const fresh = (entries: readonly Entry[]) => entries.filter((entry) => !this.existing.has(entry.value))
    for (const kind of RECORD_KINDS) {
      for (const entry of this.model[kind]) {
        const row = this.existing.get(entry.value)
        if (row) this.rows.set(entry, row)
      }
    }
    for (const entry of fresh(this.model.user)) this.build('user', entry)
    for (const entry of fresh(this.model.user)) {
      const user = entry.value as unknown as ScenarioRecords['user']
      for (const fragment of this.fragments) fragment.load?.user?.(this, user, this.row('user', entry))
    }
    for (const entry of fresh(this.model.group)) this.build('group', entry)
    for (const entry of fresh(this.model.group)) {
      const parent = this.parent('group', entry)
      for (const fragment of this.fragments) fragment.load?.group?.(this, entry.value as unknown as ScenarioRecords['group'], parent)
    }
    for (const entry of fresh(this.model.project)) this.build('project', entry)
    for (const entry of fresh(this.model.project)) {
      const parent = this.parent('project', entry)
      for (const fragment of this.fragments) fragment.load?.project?.(this, entry.value as unknown as ScenarioRecords['project'], parent)
    }
    for (const [table, rows] of this.staged) {
      // The staged rows are this load's own objects: the table keeps them rather than copies.
      const collection = this.db.tables[table] as unknown as { adoptAll(rows: readonly Row[]): void }
      collection.adoptAll(rows.sort((a, b) => a.id - b.id))
    }
    // Top-level fields last, once every nested row is in the store.
    if (this.recordsOnly) return
    const root = this.model.root?.value ?? {}
    for (const fragment of this.fragments) fragment.load?.root?.(this, root)
  }

  fake(key: string): Faker {
    this.pendingKey = key
    if (!this.lazyFaker) {
      const real = (this.faker ??= newFaker(this.randomizer))
      this.lazyFaker = new Proxy(real, {
        get: (target, property) => {
          this.applyPendingSeed()
          const value: unknown = Reflect.get(target, property, target)
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value
        },
      })
    }
    return this.lazyFaker
  }

  random(): () => number {
    this.applyPendingSeed()
    return this.randomizer.next
  }

  /** Seeds the faker (and so its randomizer) for the key `fake()` was last asked for, if not done yet. */
  private applyPendingSeed(): void {
    if (this.pendingKey === undefined) return
    this.randomizer.seed([this.seed, hash(this.pendingKey)])
    this.pendingKey = undefined
  }

  past(f: Faker): string {
    return f.date.past({ years: 2, refDate: this.referenceDate }).toISOString()
  }

  between(f: Faker, from: string): string {
    const start = new Date(from)
    if (start.getTime() >= this.referenceDate.getTime()) return start.toISOString()
    return f.date.between({ from: start, to: this.referenceDate }).toISOString()
  }

  timestamps(f: Faker, written: WrittenTimestamps, since: string): { created_at: string; updated_at: string } {
    const created_at = written.created_at ?? this.between(f, since)
    return { created_at, updated_at: written.updated_at ?? this.between(f, created_at) }
  }

  idOf(record: object): number {
    const id = this.ids.get(record)
    if (id === undefined) throw new Error('scenario: a record without an allocated id (not part of the loaded scenario)')
    return id
  }

  row<K extends RecordKind>(kind: K, entry: Entry): KindRows[K] {
    const row = this.rows.get(entry)
    if (!row) throw new Error(`scenario: the ${kind} at ${entry.path.join('.')} is not built yet`)
    return row as KindRows[K]
  }

  userId(username: string): number {
    const user = this.index.users.get(username.toLowerCase())
    if (!user) throw new Error(`scenario: unknown user "${username}"`)
    return this.idOf(user.value)
  }

  titleId(field: string, parent: LoadParent, title: string): number {
    const scopes = [parent.entry, ...(this.index.namespace(parent.entry)?.groups ?? [])]
    const found = this.index.findTitle(field, parent.type === 'project' ? scopes : [parent.entry], title)
    if (!found) throw new Error(`scenario: unknown ${field} "${title}" in ${parent.key}`)
    return this.idOf(found.value)
  }

  iids(usage: InternalIdRecord['usage'], parent: LoadParent, records: readonly { iid?: number | undefined }[]): number[] {
    for (const r of records) if (r.iid !== undefined) this.db.bumpIid(usage, parent.type, parent.id, r.iid)
    const missing = records.reduce((n, r) => (r.iid === undefined ? n + 1 : n), 0)
    let next = this.db.nextIids(usage, parent.type, parent.id, missing)
    return records.map((r) => r.iid ?? next++)
  }

  stage<K extends TableName>(table: K, row: Tables[K]): void {
    const rows = this.staged.get(table)
    if (rows) rows.push(row)
    else this.staged.set(table, [row])
  }

  stagedRows<K extends TableName>(table: K): readonly Tables[K][] {
    return (this.staged.get(table) ?? []) as unknown as Tables[K][]
  }

  /** Every id, before any row is built: a reference may point forward in the file. */
  private allocateIds(): void {
    for (const kind of RECORD_KINDS) {
      const entries = this.model[kind]
      const ids = assignIds(this.db.tables[KIND_COLLECTIONS[kind]], entries.map((e) => e.value))
      entries.forEach((entry, i) => this.ids.set(entry.value, ids[i]!))
    }
    for (const spec of this.fragments.flatMap((fragment) => fragment.collections ?? [])) {
      const records: Rec[] = []
      for (const kind of spec.on) for (const owner of this.model[kind]) pushRecords(records, owner.value[spec.field])
      const ids = assignIds(this.db.tables[spec.table], records)
      records.forEach((record, i) => this.ids.set(record, ids[i]!))
    }
  }

  private build(kind: RecordKind, entry: Entry): void {
    const builder = this.fragments.find((fragment) => fragment.build?.[kind])?.build?.[kind]
    if (!builder) throw new Error(`scenario: no area builds ${KIND_COLLECTIONS[kind]}`)
    const row = (builder as (ctx: LoadContext, record: unknown, entry: Entry) => Row)(this, entry.value, entry)
    this.rows.set(entry, row)
    this.stage(KIND_COLLECTIONS[kind], row as Tables[(typeof KIND_COLLECTIONS)[typeof kind]])
  }

  private parent(type: 'group' | 'project', entry: Entry): LoadParent {
    const fullPath = this.index.fullPath(entry)!.toLowerCase()
    const row = this.row(type, entry)
    return { type, id: row.id, key: `${type}:${fullPath}`, createdAt: row.created_at, entry }
  }
}
