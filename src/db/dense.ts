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
   * it, as a bit set. The first ask for a column reads it on every record once and makes the bit
   * sets of all its values (so an unindexed column with few values, such as `state`, costs one
   * pass per version). Do not change the array.
   */
  bitsWhere(column: keyof T, value: unknown): Uint32Array {
    let byValue = this.bitsByColumn.get(column)
    if (!byValue) {
      byValue = new Map()
      const add = (v: unknown, at: number) => {
        let bits = byValue!.get(v)
        if (!bits) byValue!.set(v, (bits = new Uint32Array(this.words)))
        bits[at >>> 5]! |= 1 << (at & 31)
      }
      for (let at = 0; at < this.rows.length; at++) {
        const v = this.rows[at]![column]
        if (Array.isArray(v)) for (const element of v) add(element, at)
        else add(v, at)
      }
      this.bitsByColumn.set(column, byValue)
    }
    return byValue.get(value) ?? (this.none ??= new Uint32Array(this.words))
  }

  /** The number of bits set. */
  count(bits: Uint32Array): number {
    let n = 0
    for (let w = 0; w < bits.length; w++) {
      let word = bits[w]!
      // Population count (Hacker's Delight 5-2).
      word -= (word >>> 1) & 0x55555555
      word = (word & 0x33333333) + ((word >>> 2) & 0x33333333)
      n += (((word + (word >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24
    }
    return n
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
