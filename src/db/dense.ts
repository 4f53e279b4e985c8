/**
 * A dense, read-only view of one table at one version: its records numbered 0…n-1 (their
 * *positions*), and bit sets over those positions made from the table's index sets, so that a
 * list filtering a big table by several indexed values intersects a few thousand machine words
 * instead of looking up tens of thousands of ids.
 * A view is built on first use and kept while the table's `version` is unchanged; any write to the
 * table (and the undo of one) changes the version, so the next `denseView` builds anew. No handler
 * has to maintain it.
 * @module
 */
import type { Collection, Row } from './collection.js'

/** A table's records at one version, by position, with bit sets over the positions. */
export class DenseView<T extends Row> {
  /** The `Collection.version` this view shows. */
  readonly version: number
  /** The records, by position (id order of the table's `all()`). */
  readonly rows: readonly T[]
  private readonly positions: Map<number, number>
  private readonly bitsBySet = new WeakMap<ReadonlySet<number>, Uint32Array>()
  private readonly bitsByColumn = new Map<keyof T, Map<unknown, Uint32Array>>()
  private readonly positionsOfColumn = new Map<keyof T, Map<unknown, number[]>>()
  private readonly memos = new Map<string, unknown>()
  /** The empty bit set, for a value no record holds. */
  private none: Uint32Array | undefined

  constructor(collection: Collection<T>) {
    this.version = collection.version
    this.rows = collection.all()
    this.positions = new Map()
    for (let i = 0; i < this.rows.length; i++) this.positions.set(this.rows[i]!.id, i)
  }

  /** Words in a bit set of this view: one bit per position. */
  get words(): number {
    return (this.rows.length + 31) >>> 5
  }

  /** The position of the record with this id, or undefined. */
  positionOf(id: number): number | undefined {
    return this.positions.get(id)
  }

  /**
   * The positions of the ids in `ids` (an index set from `Collection.idsWhere` of the same
   * version), as a bit set; kept for as long as the set object lives, which is no longer than
   * the version. Do not change the array.
   */
  bitsOf(ids: ReadonlySet<number>): Uint32Array {
    let bits = this.bitsBySet.get(ids)
    if (!bits) {
      bits = new Uint32Array(this.words)
      for (const id of ids) {
        const at = this.positions.get(id)
        if (at !== undefined) bits[at >>> 5]! |= 1 << (at & 31)
      }
      this.bitsBySet.set(ids, bits)
    }
    return bits
  }

  /**
   * The positions of the records whose `column` equals `value` or, for an array column, contains
   * it, as a bit set. The first ask for a column reads it on every record once and groups the
   * positions by value (so an unindexed column costs one pass per version). The bit set of a value
   * held by many records is kept; that of a rarer value (an author's issues) is made from its
   * positions at each ask, so that a column of thousands of values (`author_id`) does not keep
   * thousands of bit sets. Do not change the array.
   */
  bitsWhere(column: keyof T, value: unknown): Uint32Array {
    let byValue = this.bitsByColumn.get(column)
    if (!byValue) {
      const positions = this.positionsByColumn(column)
      byValue = new Map()
      // Kept: at most 8 × 32 values of a column hold more positions than a bit set has words.
      for (const [v, at] of positions) if (at.length > this.words >>> 3) byValue.set(v, this.bitsAt(at))
      this.bitsByColumn.set(column, byValue)
    }
    const kept = byValue.get(value)
    if (kept) return kept
    const at = this.positionsByColumn(column).get(value)
    return at ? this.bitsAt(at) : (this.none ??= new Uint32Array(this.words))
  }

  /**
   * The positions of the records whose `column` equals `value` or, for an array column, contains
   * it, ascending (the column read once per version, as {@link bitsWhere} reads it). Do not change the array.
   */
  positionsWhere(column: keyof T, value: unknown): readonly number[] {
    return this.positionsByColumn(column).get(value) ?? NO_POSITIONS
  }

  /** The positions of each value of `column` (each element of an array column), ascending; read once per version. */
  private positionsByColumn(column: keyof T): Map<unknown, number[]> {
    let positions = this.positionsOfColumn.get(column)
    if (!positions) {
      positions = new Map()
      const add = (v: unknown, at: number) => {
        const list = positions!.get(v)
        if (list) {
          // An array column may hold a value twice: a position is listed once.
          if (list[list.length - 1] !== at) list.push(at)
        } else positions!.set(v, [at])
      }
      for (let at = 0; at < this.rows.length; at++) {
        const v = this.rows[at]![column]
        if (Array.isArray(v)) for (const element of v) add(element, at)
        else add(v, at)
      }
      this.positionsOfColumn.set(column, positions)
    }
    return positions
  }

  /** A new bit set with the bits of `positions`. */
  private bitsAt(positions: readonly number[]): Uint32Array {
    const bits = new Uint32Array(this.words)
    for (const at of positions) bits[at >>> 5]! |= 1 << (at & 31)
    return bits
  }

  /**
   * A value derived from this view and `key` alone, made by `build` on the first ask and kept
   * with the view (so dropped at the table's next write); at most {@link MEMO_ENTRIES} are kept,
   * the least recently asked for dropped first. `key` must name everything besides this table's
   * rows that the value depends on.
   */
  memo<V>(key: string, build: () => V): V {
    if (this.memos.has(key)) {
      const value = this.memos.get(key) as V
      // Most recently asked for last.
      this.memos.delete(key)
      this.memos.set(key, value)
      return value
    }
    const value = build()
    if (this.memos.size >= MEMO_ENTRIES) this.memos.delete(this.memos.keys().next().value!)
    this.memos.set(key, value)
    return value
  }

  /** The number of bits set. */
  count(bits: Uint32Array): number {
    let n = 0
    for (let w = 0; w < bits.length; w++) n += popcount(bits[w]!)
    return n
  }

  /**
   * Calls `visit` with the positions of the set bits of ranks `start` to `end - 1` (the first set
   * bit has rank 0), in ascending order: whole words before `start` are skipped by their bit count,
   * so a page costs the words before it plus the page, not every set bit.
   */
  forEachSetBetween(bits: Uint32Array, start: number, end: number, visit: (position: number) => void): void {
    let seen = 0
    for (let w = 0; w < bits.length && seen < end; w++) {
      let word = bits[w]!
      if (word === 0) continue
      const inWord = popcount(word)
      if (seen + inWord <= start) {
        seen += inWord
        continue
      }
      while (word !== 0 && seen < end) {
        const low = word & -word
        if (seen >= start) visit((w << 5) + 31 - Math.clz32(low))
        seen++
        word ^= low
      }
    }
  }

  /** Calls `visit` with each position whose bit is set, in ascending order. */
  forEachSet(bits: Uint32Array, visit: (position: number) => void): void {
    for (let w = 0; w < bits.length; w++) {
      let word = bits[w]!
      while (word !== 0) {
        const low = word & -word
        visit((w << 5) + 31 - Math.clz32(low))
        word ^= low
      }
    }
  }
}

/** The bits set in a 32-bit word (Hacker's Delight 5-2). */
function popcount(word: number): number {
  word -= (word >>> 1) & 0x55555555
  word = (word & 0x33333333) + ((word >>> 2) & 0x33333333)
  return (((word + (word >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24
}

/** The positions of a value no record holds. */
const NO_POSITIONS: readonly number[] = Object.freeze([])

/** How many {@link DenseView.memo} values a view keeps. */
const MEMO_ENTRIES = 32

/** The views built so far, per collection: one per collection, replaced when its version moves. */
const views = new WeakMap<Collection<Row>, DenseView<Row>>()

/**
 * The dense view of a table at its current version: the one built before if the table has not
 * been written since, else a new one (O(rows) to build).
 */
export function denseView<T extends Row>(collection: Collection<T>): DenseView<T> {
  const key = collection as unknown as Collection<Row>
  const view = views.get(key)
  if (view && view.version === collection.version) return view as unknown as DenseView<T>
  const built = new DenseView(collection)
  views.set(key, built as unknown as DenseView<Row>)
  return built
}
