// The store's write versions, bulk adoption and dense views: what derived caches (kept issue
// orders, bit sets) rely on to stay right under writes without the handlers' help.
import { describe, expect, it } from 'vitest'
import { DuplicateKeyError } from '../../src/db/collection.js'
import { denseView } from '../../src/db/dense.js'
import { createDb } from '../../src/simulator.js'

function label(title: string, project_id: number | null = 1) {
  return { title, color: '#FFFFFF', description: null, project_id, group_id: null, created_at: 't', updated_at: 't' }
}

describe('Collection.version', () => {
  it('changes on every write, rollback included, and never takes an earlier value again', () => {
    const db = createDb()
    const labels = db.tables.labels
    const seen = new Set<number>([labels.version])
    const step = () => {
      expect(seen.has(labels.version)).toBe(false)
      seen.add(labels.version)
    }
    const a = labels.insert(label('a'))
    step()
    labels.update(a.id, { title: 'b' })
    step()
    expect(() =>
      db.transaction(() => {
        labels.delete(a.id)
        step()
        throw new Error('undo')
      }),
    ).toThrow('undo')
    step() // the undo took a new version, not the one before the delete
    db.load(db.dump())
    step()
    const other = db.tables.milestones.version
    labels.insert(label('c'))
    expect(db.tables.milestones.version).toBe(other)
  })
})

describe('Collection.adoptAll', () => {
  it('stores the rows themselves as one write and undoes them together', () => {
    const db = createDb()
    const rows = [1, 2, 3].map((id) => ({ ...label(`l${id}`), id }))
    expect(() =>
      db.transaction(() => {
        db.tables.labels.adoptAll(rows)
        expect(db.tables.labels.get(2)).toBe(rows[1])
        expect(db.tables.labels.where('project_id', 1)).toHaveLength(3)
        throw new Error('undo')
      }),
    ).toThrow('undo')
    expect(db.tables.labels.size).toBe(0)
    expect(db.tables.labels.where('project_id', 1)).toEqual([])
    expect(db.tables.labels.peekNextId()).toBe(1)
    db.tables.labels.adoptAll(rows)
    expect(db.tables.labels.peekNextId()).toBe(4)
  })

  it('stores nothing when an id is taken or repeated', () => {
    const db = createDb()
    db.tables.labels.insert({ ...label('a'), id: 2 })
    expect(() => db.tables.labels.adoptAll([1, 2].map((id) => ({ ...label('x'), id })))).toThrow(DuplicateKeyError)
    expect(() => db.tables.labels.adoptAll([5, 5].map((id) => ({ ...label('x'), id })))).toThrow(DuplicateKeyError)
    expect(db.tables.labels.size).toBe(1)
  })
})

describe('snapshots', () => {
  it('share the stored records, and a restore copies them, so neither side changes the other', () => {
    const db = createDb()
    const a = db.tables.labels.insert(label('a'))
    const state = db.dump()
    expect(state.labels.rows[0]).toBe(a)
    db.tables.labels.update(a.id, { title: 'changed' })
    expect(state.labels.rows[0]!.title).toBe('a')
    db.load(state)
    expect(db.tables.labels.get(a.id)).not.toBe(a)
    expect(db.tables.labels.get(a.id)!.title).toBe('a')
  })
})

describe('denseView', () => {
  it('is kept while the table is unchanged and made anew after a write', () => {
    const db = createDb()
    db.tables.labels.insert(label('a', 1))
    db.tables.labels.insert(label('b', 2))
    const view = denseView(db.tables.labels)
    expect(denseView(db.tables.labels)).toBe(view)
    const bits = view.bitsOf(db.tables.labels.idsWhere('project_id', 2))
    const positions: number[] = []
    view.forEachSet(bits, (at) => positions.push(at))
    expect(positions.map((at) => view.rows[at]!.title)).toEqual(['b'])
    expect(view.count(view.bitsWhere('title', 'a'))).toBe(1)
    expect(view.count(view.bitsWhere('title', 'none'))).toBe(0)
    db.tables.labels.insert(label('c', 2))
    const next = denseView(db.tables.labels)
    expect(next).not.toBe(view)
    expect(next.count(next.bitsOf(db.tables.labels.idsWhere('project_id', 2)))).toBe(2)
  })
})

describe('DenseView: column positions, rare values, page reads and kept values', () => {
  /** A labels table of `n` rows, `project_id` 1 on every 3rd row and 2 on the first only. */
  function labels(n: number) {
    const db = createDb()
    for (let i = 0; i < n; i++) db.tables.labels.insert(label(`l${i}`, i === 0 ? 2 : i % 3 === 0 ? 1 : 3))
    return db
  }

  it('gives the same positions by bit set (common or rare value) and by list', () => {
    const db = labels(2000)
    const view = denseView(db.tables.labels)
    for (const value of [1, 2, 3, 4]) {
      const listed: number[] = []
      view.forEachSet(view.bitsWhere('project_id', value), (at) => listed.push(at))
      expect(listed).toEqual([...view.positionsWhere('project_id', value)])
      expect(listed.map((at) => view.rows[at]!.project_id).every((p) => p === value)).toBe(true)
    }
    expect(view.positionsWhere('project_id', 2)).toEqual([0])
    expect(view.positionsWhere('project_id', 4)).toEqual([])
  })

  it('reads any stretch of set bits by rank as the whole walk does', () => {
    const view = denseView(labels(1000).tables.labels)
    const bits = view.bitsWhere('project_id', 1)
    const all: number[] = []
    view.forEachSet(bits, (at) => all.push(at))
    for (const [start, end] of [[0, 20], [5, 37], [300, 400], [all.length - 3, all.length + 10], [all.length, all.length + 5]] as const) {
      const got: number[] = []
      view.forEachSetBetween(bits, start, end, (at) => got.push(at))
      expect(got).toEqual(all.slice(start, end))
    }
  })

  it('keeps a memo until the next write, at most 32, the least recently used dropped first', () => {
    const db = labels(10)
    const view = denseView(db.tables.labels)
    let builds = 0
    const value = () => view.memo('k', () => ({ build: ++builds }))
    expect(value()).toBe(value())
    expect(builds).toBe(1)
    for (let i = 0; i < 31; i++) view.memo(`other${i}`, () => i)
    expect(value().build).toBe(1) // asked for last: kept
    for (let i = 31; i < 62; i++) view.memo(`other${i}`, () => i)
    view.memo('one more', () => 0)
    expect(value().build).toBe(2) // the least recently used: dropped
    db.tables.labels.insert(label('new'))
    expect(denseView(db.tables.labels).memo('k', () => ({ build: 99 })).build).toBe(99)
  })
})
