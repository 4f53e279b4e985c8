/**
 * A query planner for filtered, sorted lists over one table: the finder says where the matches lie
 * (narrowings: unions of index sets or column values, intersected) and which row tests they pass,
 * and the planner picks how to find them. A small table, or a list one narrowing makes small, walks
 * that narrowing's index sets and tests each row; a big table intersects bit sets over a
 * {@link DenseView}, skips the tests the bit sets already stand for, and reads one page of a
 * whole-table order kept between requests. Both plans give the same rows in the same order.
 * Knows no table: the finder (an area's) supplies the narrowings, tests, visibility and order.
 * @module
 */
import type { Collection, Row } from './collection.js'
import { denseView, type DenseView } from './dense.js'

/** A row test. */
export type Predicate<T> = (row: T) => boolean

/**
 * The rows whose `column` holds `value` (or, for an array column, contains it): for columns the
 * table keeps no index on, which a big table's dense view reads once per version instead
 * ({@link DenseView.bitsWhere}).
 */
export interface ColumnValue<T> {
  column: keyof T & string
  value: unknown
}

/** Where some rows lie: an index set (`Collection.idsWhere`, read during the call only) or a column value. */
export type RowSource<T> = ReadonlySet<number> | ColumnValue<T>

/**
 * Where one filter's matches lie: every match is in the intersection of `all`'s groups, each group
 * being a union of {@link RowSource}s. When `exact` is given, the rows in that intersection are
 * exactly those for which `exact` holds, so a big table skips that test (and, negated, removes the
 * intersection's bits).
 */
export interface Narrowing<T> {
  all: readonly (readonly RowSource<T>[])[]
  exact?: Predicate<T>
  /**
   * Given, the narrowing's bit set depends on nothing but the table and these ids (the index sets'
   * values): a big table keeps it with its dense view, so it is dropped at the table's next write.
   * `text` is short (a kind, the ids' count and hash); the ids are compared on a hit.
   */
  key?: { text: string; ids: Int32Array }
}

/**
 * Rows the caller may not see, for the dense plan: those in every narrowing of `where`, except
 * those in `unless` (a union).
 */
export interface Exclusion<T> {
  where: readonly Narrowing<T>[]
  unless: readonly RowSource<T>[]
}

/**
 * A list's order: `sort` sorts rows in place and returns them, in a total order (it ends with a
 * tie-breaker), so that ordering a subset by its rank in the whole table gives what sorting the
 * subset gives.
 */
export interface RowOrder<T> {
  /** Names the order; a big table keeps one whole-table order per name. */
  key: string
  /** The versions (`Collection.version`) of the other tables `sort` reads: a kept order follows them too. */
  reads: string
  sort(rows: T[]): T[]
}

/** What a list asks for: see {@link findRows}. */
export interface RowQuery<T> {
  /**
   * Where the matches lie. A narrowing without `exact` must be enforced by `admits` on the walking
   * plan (the dense plan intersects every narrowing).
   */
  narrow: readonly Narrowing<T>[]
  /** Negated exact narrowings: no match lies in any of them. */
  without: readonly Narrowing<T>[]
  /** Tests every match passes (the exact narrowings' among them). */
  tests: readonly Predicate<T>[]
  /** Tests no match passes (the negated exact narrowings' among them). */
  negativeTests: readonly Predicate<T>[]
  /** For the walking plan, built only there: whether a row is in the list's scope and visible. */
  admits(): Predicate<T>
  /** For the dense plan, built only there: the rows the caller may not see, if any. */
  hidden(): Exclusion<T> | undefined
  order: RowOrder<T>
  /** The plan: dense (bit sets) or walking; default: the planner's choice. Tests set it to compare the two. */
  dense?: boolean
}

/**
 * A found list, filtered and sorted: how many rows there are, and the rows of one stretch of it, so
 * that a page costs the page (the dense plan counts its matches by their bits and reads only the
 * page's ranks).
 */
export interface RowList<T> {
  /** The number of rows in the list. */
  readonly total: number
  /** The rows at indexes `start` to `end - 1` of the list, in its order (fewer past the end). */
  slice(start: number, end: number): T[]
}

/** A {@link RowList} over rows already found and sorted. */
export function rowList<T>(rows: T[]): RowList<T> {
  return { total: rows.length, slice: (start, end) => rows.slice(start, end) }
}

/**
 * The rows of `collection` whose `column` is one of `values`, through its index: a narrowing keyed
 * by the values when there are several, so that a big table ORs thousands of index sets (a global
 * list's projects) once per version and set of values.
 * @param kind names the values in the key (`'projects'`).
 */
export function indexedAnyOf<T extends Row>(collection: Collection<T>, column: keyof T, values: readonly number[], kind: string): Narrowing<T> {
  return {
    // Read to size the narrowing and when the kept bit set is not there: no copy.
    get all() {
      return [values.map((value) => collection.idsWhere(column, value))]
    },
    key: values.length > 1 ? idsKey(kind, values) : undefined,
  }
}

/** A {@link Narrowing.key} for `ids`: their count and FNV-1a hash, and the ids. */
function idsKey(kind: string, values: readonly number[]): { text: string; ids: Int32Array } {
  const ids = new Int32Array(values.length)
  let hash = 0x811c9dc5
  for (let i = 0; i < values.length; i++) {
    ids[i] = values[i]!
    hash = Math.imul(hash ^ ids[i]!, 0x01000193)
  }
  return { text: `${kind}:${ids.length}:${hash >>> 0}`, ids }
}

/** Whether two id lists are the same. */
function sameIds(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/**
 * A list whose smallest narrowing (a union of index sets, such as one project's issues) holds at
 * most this many rows walks those rows even in a big table: a few hundred row tests and a direct
 * sort cost less than the {@link DenseView}'s passes over a word per 32 rows of the table.
 */
const DIRECT_WALK_IDS = 1024

/** From this many rows in the table on, lists are found through its {@link DenseView}. */
const DENSE_STORE_ROWS = 4096

/**
 * The rows of `collection` that `query` asks for, filtered and sorted, as a {@link RowList}: a page
 * of it is read without materialising the rest. The same rows in the same order whichever plan
 * runs.
 */
export function findRows<T extends Row>(collection: Collection<T>, query: RowQuery<T>): RowList<T> {
  const { narrow, without, tests, negativeTests } = query
  const { group: smallest, size: smallestSize } = smallestGroup(narrow)
  // A big table intersects bit sets, unless one narrowing holds only a few rows: then testing those
  // few costs less than a pass over every word of the table's bit sets.
  if (query.dense ?? (collection.size >= DENSE_STORE_ROWS && smallestSize > DIRECT_WALK_IDS)) {
    // The bit sets hold exactly the rows of each exact narrowing: its test is skipped.
    const implied = new Set([...narrow, ...without].map((n) => n.exact))
    const rest = tests.filter((t) => !implied.has(t))
    const restNegative = negativeTests.filter((t) => !implied.has(t))
    const check = rest.length === 0 && restNegative.length === 0 ? undefined : matcher(rest, restNegative)
    return findDense(collection, narrow, without.filter((n) => n.exact), check, query.hidden(), query.order)
  }
  const admits = query.admits()
  const passes = matcher(tests, negativeTests)
  // Walk the smallest group of a narrowing; the others are tested by their predicates.
  const rows: T[] = []
  const seen = smallest.length > 1 ? new Set<number>() : undefined
  for (const set of smallest as readonly ReadonlySet<number>[]) {
    for (const id of set) {
      if (seen) {
        if (seen.has(id)) continue
        seen.add(id)
      }
      const row = collection.get(id)!
      if (admits(row) && passes(row)) rows.push(row)
    }
  }
  return rowList(query.order.sort(rows))
}

/** A row passes every test of `tests` and none of `negativeTests`. */
function matcher<T>(tests: readonly Predicate<T>[], negativeTests: readonly Predicate<T>[]): Predicate<T> {
  return (row) => {
    for (const t of tests) if (!t(row)) return false
    for (const t of negativeTests) if (t(row)) return false
    return true
  }
}

/**
 * The group of row sources, among every narrowing's groups, holding the fewest rows (a column
 * value counts as every row: it has no index set to walk), and its size.
 */
function smallestGroup<T>(narrow: readonly Narrowing<T>[]): { group: Narrowing<T>['all'][number]; size: number } {
  let group = narrow[0]!.all[0]!
  let size = Infinity
  for (const n of narrow) {
    for (const candidate of n.all) {
      let total = 0
      for (const set of candidate) total += 'column' in set ? Infinity : set.size
      if (total < size) [group, size] = [candidate, total]
    }
  }
  return { group, size }
}

/**
 * {@link findRows} over a big table: the narrowings become bit sets over the rows' positions
 * (built once per version; a keyed narrowing's kept with the view) and are intersected word by
 * word, less the bits of the negated exact narrowings and of the `hidden` rows; the rows left are
 * tested by `check` (the tests no exact narrowing stands for; none when nothing is left to test),
 * then ordered by {@link sortMatches}.
 */
function findDense<T extends Row>(
  collection: Collection<T>,
  narrow: readonly Narrowing<T>[],
  without: readonly Narrowing<T>[],
  check: Predicate<T> | undefined,
  hidden: Exclusion<T> | undefined,
  order: RowOrder<T>,
): RowList<T> {
  const view = denseView(collection)
  const bits = new Uint32Array(view.words).fill(0xffffffff)
  const bitsOf = (source: RowSource<T>) => ('column' in source ? view.bitsWhere(source.column, source.value) : view.bitsOf(source))
  const groupBits = (group: readonly RowSource<T>[]) => {
    if (group.length === 1) return bitsOf(group[0]!)
    const out = new Uint32Array(view.words)
    for (const source of group) {
      const bits = bitsOf(source)
      for (let w = 0; w < out.length; w++) out[w]! |= bits[w]!
    }
    return out
  }
  const narrowingBits = (n: Narrowing<T>) => {
    const all = n.all
    if (all.length === 1) return groupBits(all[0]!)
    const out = new Uint32Array(view.words).fill(0xffffffff)
    for (const group of all) andInto(out, groupBits(group))
    return out
  }
  const keptBits = (n: Narrowing<T>) => {
    const key = n.key
    if (key === undefined) return narrowingBits(n)
    const kept = view.memo(key.text, () => ({ ids: key.ids, bits: narrowingBits(n) }))
    // Another list of ids with the same count and hash: found anew, not kept.
    return sameIds(kept.ids, key.ids) ? kept.bits : narrowingBits(n)
  }
  const rare = rareColumn(view, narrow)
  if (rare) return sortMatches(collection, view, rareMatches(view, rare, narrow, without, check, hidden, keptBits, narrowingBits, groupBits), order)
  for (const n of narrow) andInto(bits, keptBits(n))
  for (const n of without) {
    // The negated filter holds where every group has a bit: remove that intersection.
    const hit = narrowingBits(n)
    for (let w = 0; w < bits.length; w++) bits[w]! &= ~hit[w]!
  }
  if (check) view.forEachSet(bits, (at) => {
    if (!check(view.rows[at]!)) bits[at >>> 5]! &= ~(1 << (at & 31))
  })
  if (hidden) {
    const where = hidden.where.map(keptBits)
    const unless = hidden.unless.length === 0 ? undefined : groupBits(hidden.unless)
    for (let w = 0; w < bits.length; w++) {
      let gone = unless ? ~unless[w]! : 0xffffffff
      for (const b of where) gone &= b[w]!
      bits[w]! &= ~gone
    }
  }
  return sortMatches(collection, view, bits, order)
}

/**
 * The narrowing by one rare column value (the caller's own rows, one author's), if any: at most
 * one position per 256 rows, so testing its positions one by one costs less than a pass over
 * every word.
 */
function rareColumn<T extends Row>(view: DenseView<T>, narrow: readonly Narrowing<T>[]): { narrowing: Narrowing<T>; positions: readonly number[] } | undefined {
  let best: { narrowing: Narrowing<T>; positions: readonly number[] } | undefined
  for (const n of narrow) {
    // A kept narrowing (several values through an index) is never one column value: its sets are not read.
    if (n.key !== undefined) continue
    const all = n.all
    const source = all.length === 1 && all[0]!.length === 1 ? all[0]![0]! : undefined
    if (!source || !('column' in source)) continue
    const positions = view.positionsWhere(source.column, source.value)
    if (positions.length <= view.words >>> 3 && (!best || positions.length < best.positions.length)) best = { narrowing: n, positions }
  }
  return best
}

/**
 * {@link findDense}'s matches from a rare narrowing's positions, as a bit set: each position is
 * tested against the other narrowings' bits, the negated ones', the hidden rows and `check`.
 */
function rareMatches<T extends Row>(
  view: DenseView<T>,
  rare: { narrowing: Narrowing<T>; positions: readonly number[] },
  narrow: readonly Narrowing<T>[],
  without: readonly Narrowing<T>[],
  check: Predicate<T> | undefined,
  hidden: Exclusion<T> | undefined,
  keptBits: (n: Narrowing<T>) => Uint32Array,
  narrowingBits: (n: Narrowing<T>) => Uint32Array,
  groupBits: (group: readonly RowSource<T>[]) => Uint32Array,
): Uint32Array {
  const has = (bits: Uint32Array, at: number) => (bits[at >>> 5]! & (1 << (at & 31))) !== 0
  const others = narrow.filter((n) => n !== rare.narrowing).map(keptBits)
  const withouts = without.map(narrowingBits)
  const hiddenWhere = hidden?.where.map(keptBits)
  const hiddenUnless = hidden && hidden.unless.length > 0 ? groupBits(hidden.unless) : undefined
  const bits = new Uint32Array(view.words)
  positions: for (const at of rare.positions) {
    for (const b of others) if (!has(b, at)) continue positions
    for (const b of withouts) if (has(b, at)) continue positions
    if (hiddenWhere && hiddenWhere.every((b) => has(b, at)) && !(hiddenUnless && has(hiddenUnless, at))) continue
    if (check && !check(view.rows[at]!)) continue
    bits[at >>> 5]! |= 1 << (at & 31)
  }
  return bits
}

/** `into &= bits`, word by word. */
function andInto(into: Uint32Array, bits: Uint32Array): void {
  for (let w = 0; w < into.length; w++) into[w]! &= bits[w]!
}

/**
 * All rows of a table in one order, as positions of a {@link DenseView}, with each position's
 * rank: kept while the tables the order reads are unchanged.
 */
interface SortedRows {
  /** The table's version and the order's {@link RowOrder.reads} it was built at. */
  version: string
  /** Rank by position. */
  rank: Int32Array
  /** Position by rank. */
  order: Int32Array
}

/**
 * Per table: the sorted orders by {@link RowOrder.key}, and the version each order was last asked
 * for at without being kept (see {@link sortMatches}).
 */
const sortedOrders = new WeakMap<Collection<Row>, { kept: Map<string, SortedRows>; asked: Map<string, string> }>()

/** Lists shorter than this are sorted directly: sorting a few hundred rows costs less than a lookup table. */
const DIRECT_SORT_ROWS = 1024
/** A list needs at least 1/64 of the table's rows before a whole-table order is built for it. */
const STORE_ORDER_SHARE = 64

/**
 * `sortBy.sort` of a big table's matches, given as positions of `view`. A long list asked for a
 * second time at the same version takes the order of every row, sorted once and kept while the
 * table and the tables the order reads are unchanged (any write to them changes their `version`),
 * and reads a stretch of the list by rank instead of by thousands of key comparisons per request:
 * walking the kept order and testing each position's bit when the matches are dense enough for the
 * stretch to be found soon, else setting the matches' ranks as bits and reading the stretch's back.
 */
function sortMatches<T extends Row>(collection: Collection<T>, view: DenseView<T>, bits: Uint32Array, sortBy: RowOrder<T>): RowList<T> {
  const n = view.rows.length
  const count = view.count(bits)
  if (count < DIRECT_SORT_ROWS || count * STORE_ORDER_SHARE < n) return rowList(sortBy.sort(rowsAt(view, bits)))
  const table = collection as unknown as Collection<Row>
  let orders = sortedOrders.get(table)
  if (!orders) sortedOrders.set(table, (orders = { kept: new Map(), asked: new Map() }))
  const version = `${view.version}:${sortBy.reads}`
  const key = sortBy.key
  let sorted = orders.kept.get(key)
  if (sorted?.version !== version) {
    // Sorting the whole table costs more than sorting one list: it pays only when the same order
    // is asked for again before the next write. The first ask at a version sorts the list itself,
    // so a test that writes before every list never sorts the whole table.
    if (orders.asked.get(key) !== version) {
      orders.asked.set(key, version)
      return rowList(sortBy.sort(rowsAt(view, bits)))
    }
    const byOrder = sortBy.sort(view.rows.slice())
    const order = new Int32Array(n)
    const rank = new Int32Array(n)
    for (let r = 0; r < n; r++) {
      const at = view.positionOf(byOrder[r]!.id)!
      order[r] = at
      rank[at] = r
    }
    orders.kept.set(key, (sorted = { version, rank, order }))
  }
  const { rank, order } = sorted
  let ranked: Uint32Array | undefined
  return {
    total: count,
    slice(start, end) {
      const out: T[] = []
      end = Math.min(end, count)
      if (start >= end) return out
      // Walking the order meets about `end × n / count` positions before the stretch is read;
      // setting every match's rank costs `count`.
      if (!ranked && end * n < count * count) {
        let seen = 0
        for (let r = 0; r < n && seen < end; r++) {
          const at = order[r]!
          if ((bits[at >>> 5]! & (1 << (at & 31))) === 0) continue
          if (seen >= start) out.push(view.rows[at]!)
          seen++
        }
        return out
      }
      if (!ranked) {
        // The matches' ranks as bits, read back in rank order: no comparison sort at all.
        ranked = new Uint32Array(view.words)
        const bitsOfRanks = ranked
        view.forEachSet(bits, (at) => {
          const r = rank[at]!
          bitsOfRanks[r >>> 5]! |= 1 << (r & 31)
        })
      }
      view.forEachSetBetween(ranked, start, end, (r) => out.push(view.rows[order[r]!]!))
      return out
    },
  }
}

/** The rows at the set bits' positions, in position order. */
function rowsAt<T extends Row>(view: DenseView<T>, bits: Uint32Array): T[] {
  const rows: T[] = []
  view.forEachSet(bits, (at) => rows.push(view.rows[at]!))
  return rows
}
