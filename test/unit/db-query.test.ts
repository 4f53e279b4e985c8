/**
 * The store's query planner (src/db/query.ts) on a table it knows nothing about: the walking plan
 * and the dense plan (bit sets, kept orders) give the same rows in the same order, for narrowings
 * by index and by column, negated narrowings, leftover tests, hidden rows and a page of a kept order.
 * test/unit/issues-dense.test.ts checks the same through the issue finder.
 */
import { describe, expect, it } from 'vitest'
import { Collection } from '../../src/db/collection.js'
import { findRows, indexedAnyOf, type Narrowing, type RowQuery } from '../../src/db/query.js'

interface Book {
  id: number
  shelf_id: number
  genre: 'novel' | 'essay' | 'poetry'
  tags: number[]
  secret: boolean
  owner_id: number
  title: string
}

/** 6,000 books on 30 shelves: big enough for the dense plan's kept orders. */
function library(): Collection<Book> {
  const books = new Collection<Book>('books', ['shelf_id'], () => undefined)
  for (let i = 0; i < 6000; i++) {
    books.insert({
      shelf_id: i % 30,
      genre: (['novel', 'essay', 'poetry'] as const)[i % 3]!,
      tags: i % 7 === 0 ? [1, 2] : [i % 5],
      secret: i % 11 === 0,
      owner_id: i % 400,
      title: `t${(i * 7919) % 6000}`,
    })
  }
  return books
}

const byTitle = { key: 'title', reads: '', sort: (rows: Book[]) => rows.sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : a.id - b.id)) }

/** A query over shelves 0–19 for reader 7, who may not see other owners' secret books on shelves 0–9. */
function query(extra: { narrow?: Narrowing<Book>[]; without?: Narrowing<Book>[]; tests?: ((b: Book) => boolean)[]; negativeTests?: ((b: Book) => boolean)[] }): Omit<RowQuery<Book>, 'dense'> {
  return {
    narrow: extra.narrow ?? [],
    without: extra.without ?? [],
    tests: extra.tests ?? [],
    negativeTests: extra.negativeTests ?? [],
    admits: () => (b) => b.shelf_id < 20 && !(b.secret && b.shelf_id < 10 && b.owner_id !== 7),
    hidden: () => ({
      where: [{ all: [[{ column: 'secret', value: true }]] }, { all: [Array.from({ length: 10 }, (_, s) => books.idsWhere('shelf_id', s))] }],
      unless: [{ column: 'owner_id', value: 7 }],
    }),
    order: byTitle,
  }
}

let books: Collection<Book>

describe('findRows', () => {
  books = library()
  const shelves = () => indexedAnyOf(books, 'shelf_id', Array.from({ length: 20 }, (_, s) => s), 'shelves')
  const essay = (b: Book) => b.genre === 'essay'
  const tagged = (b: Book) => b.tags.includes(2)
  const cases: [string, () => Omit<RowQuery<Book>, 'dense'>][] = [
    ['the narrowing alone', () => query({ narrow: [shelves()] })],
    ['an exact column narrowing', () => query({ narrow: [shelves(), { all: [[{ column: 'genre', value: 'essay' }]], exact: essay }], tests: [essay] })],
    ['an array column, negated', () => query({ narrow: [shelves()], without: [{ all: [[{ column: 'tags', value: 2 }]], exact: tagged }], negativeTests: [tagged] })],
    ['a rare column value (one owner)', () => query({ narrow: [shelves(), { all: [[{ column: 'owner_id', value: 7 }]], exact: (b) => b.owner_id === 7 }], tests: [(b) => b.owner_id === 7] })],
    ['a leftover test', () => query({ narrow: [shelves()], tests: [(b) => b.title.endsWith('3')] })],
  ]
  it.each(cases)('%s: both plans agree, twice (the second from a kept order)', (_, make) => {
    const walked = findRows(books, { ...make(), dense: false })
    const expected = walked.slice(0, walked.total).map((b) => b.id)
    expect(expected.length).toBeGreaterThan(0)
    for (let ask = 0; ask < 2; ask++) {
      const dense = findRows(books, { ...make(), dense: true })
      expect(dense.total).toBe(expected.length)
      expect(dense.slice(0, dense.total).map((b) => b.id)).toEqual(expected)
      expect(dense.slice(20, 40).map((b) => b.id)).toEqual(expected.slice(20, 40))
    }
  })

  it('follows a write: the kept order and bit sets are rebuilt at the next version', () => {
    const make = () => query({ narrow: [shelves()] })
    findRows(books, { ...make(), dense: true })
    findRows(books, { ...make(), dense: true })
    books.update(2, { title: 'a-first' })
    const walked = findRows(books, { ...make(), dense: false })
    const dense = findRows(books, { ...make(), dense: true })
    expect(dense.slice(0, 3).map((b) => b.id)).toEqual(walked.slice(0, 3).map((b) => b.id))
    expect(dense.slice(0, 1)[0]!.title).toBe('a-first')
  })
})
