import { describe, expect, it } from 'vitest'
import { DuplicateKeyError } from '../../src/db/collection.js'
import { createDb } from '../../src/simulator.js'

function label(title: string, project_id: number | null = 1) {
  return { title, color: '#FFFFFF', description: null, project_id, group_id: null, created_at: 't', updated_at: 't' }
}

describe('Db', () => {
  it('allocates ids from a sequence that moves past explicit ids', () => {
    const db = createDb()
    expect(db.tables.labels.insert(label('a')).id).toBe(1)
    expect(db.tables.labels.insert({ ...label('b'), id: 10 }).id).toBe(10)
    expect(db.tables.labels.insert(label('c')).id).toBe(11)
    expect(() => db.tables.labels.insert({ ...label('d'), id: 10 })).toThrow(DuplicateKeyError)
  })

  it('keeps hash indexes in step with inserts, updates and deletes', () => {
    const db = createDb()
    const a = db.tables.labels.insert(label('a', 1))
    db.tables.labels.insert(label('b', 2))
    db.tables.labels.update(a.id, { project_id: 2 })
    expect(db.tables.labels.where('project_id', 1)).toEqual([])
    expect(db.tables.labels.where('project_id', 2).map((l) => l.title)).toEqual(['a', 'b'])
    db.tables.labels.delete(a.id)
    expect(db.tables.labels.where('project_id', 2).map((l) => l.title)).toEqual(['b'])
  })

  it('rolls back every write of a failed transaction, sequences included', () => {
    const db = createDb()
    const kept = db.tables.labels.insert(label('kept'))
    const before = db.dump()
    expect(() =>
      db.transaction(() => {
        db.tables.labels.update(kept.id, { title: 'changed' })
        db.tables.labels.insert(label('new'))
        db.tables.labels.delete(kept.id)
        db.nextIid('milestones', 'group', 5)
        throw new Error('boom')
      }),
    ).toThrow('boom')
    expect(db.dump()).toEqual(before)
    expect(db.tables.labels.where('project_id', 1).map((l) => l.title)).toEqual(['kept'])
  })

  it('never reuses an iid, even after the record is gone', () => {
    const db = createDb()
    expect([db.nextIid('issues', 'project', 1), db.nextIid('issues', 'project', 1), db.nextIid('issues', 'project', 2)]).toEqual([1, 2, 1])
    db.bumpIid('issues', 'project', 1, 10)
    expect(db.nextIid('issues', 'project', 1)).toBe(11)
  })

  it('restores a dump exactly', () => {
    const db = createDb()
    db.tables.labels.insert(label('a'))
    const state = db.dump()
    db.tables.labels.insert(label('b'))
    db.load(state)
    expect(db.tables.labels.all().map((l) => l.title)).toEqual(['a'])
    expect(db.tables.labels.insert(label('c')).id).toBe(2)
  })
})
