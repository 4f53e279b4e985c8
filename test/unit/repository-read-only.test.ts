/**
 * rules/repository.ts: a storage move's state on the clock, the read-only window of the repository
 * it moves, and the storage the repository is on once a move has finished. Source:
 * gitlab-behaviour.md §6; gitlab: app/models/concerns/repository_storage_movable.rb.
 */
import { describe, expect, it } from 'vitest'
import { isRepositoryReadOnly, repositoryStorage, storageMoveState, tickStorageMoves } from '../../src/rules/repository.js'
import { createSimulator } from '../../src/index.js'

const byClock = { ticks: 0, start_ticks: null, end_ticks: null, ticking: false }
const move = { container_id: 20, started_at: '2021-04-01T12:00:05.000Z', finished_at: '2021-04-01T12:01:05.000Z', outcome: 'finished' as const, ...byClock }

describe('storage move state on the clock', () => {
  it.each([
    ['2021-04-01T12:00:00.000Z', 'scheduled'],
    ['2021-04-01T12:00:05.000Z', 'started'],
    ['2021-04-01T12:01:04.999Z', 'started'],
    ['2021-04-01T12:01:05.000Z', 'finished'],
  ])('at %s is %s', (now, state) => {
    expect(storageMoveState(move, now)).toBe(state)
  })
})

describe('isRepositoryReadOnly and repositoryStorage', () => {
  const sim = createSimulator({ scenario: 'version: 1\nprojects: [{ path: p, namespace: g }]\ngroups: [{ path: g }]' })
  const id = sim.db.tables.projects.all()[0]!.id
  const stamps = { created_at: '2021-04-01T12:00:00.000Z', updated_at: '2021-04-01T12:00:00.000Z' }
  sim.db.tables.project_repository_storage_moves.insert({ ...move, container_id: id, source_storage_name: 'default', destination_storage_name: 'storage-2', ...stamps })
  const later = { started_at: '2021-04-01T12:02:00.000Z', finished_at: '2021-04-01T12:03:00.000Z', outcome: 'failed' as const, ...byClock }
  sim.db.tables.project_repository_storage_moves.insert({ ...later, container_id: id, source_storage_name: 'storage-2', destination_storage_name: 'broken', ...stamps })

  it.each([
    ['2021-04-01T12:00:00.000Z', true, 'default'],
    ['2021-04-01T12:00:30.000Z', true, 'default'],
    ['2021-04-01T12:01:05.000Z', true, 'storage-2'], // the first finished, the second is scheduled
    ['2021-04-01T12:02:30.000Z', true, 'storage-2'],
    ['2021-04-01T12:03:00.000Z', false, 'storage-2'],
  ])('at %s: read-only %s, on %s (a failed move leaves it)', (now, readOnly, storage) => {
    expect(isRepositoryReadOnly(sim.db, 'project', id, now)).toBe(readOnly)
    expect(repositoryStorage(sim.db, 'project', id, 'default', now)).toBe(storage)
  })

  it('holds only the container moved', () => {
    expect(isRepositoryReadOnly(sim.db, 'project', id + 1, '2021-04-01T12:00:30.000Z')).toBe(false)
    expect(isRepositoryReadOnly(sim.db, 'snippet', id, '2021-04-01T12:00:30.000Z')).toBe(false)
    expect(repositoryStorage(sim.db, 'snippet', id, 'default', '2021-04-01T12:05:00.000Z')).toBe('default')
  })
})

describe('storage moves by requests (tickStorageMoves)', () => {
  const NOW = new Date('2021-04-01T12:00:00.000Z')
  const byRequests = { ...move, started_at: '2021-04-01T12:00:05.000Z', finished_at: '2021-04-01T12:01:05.000Z', ticks: 0, start_ticks: 1, end_ticks: 2, ticking: true }

  it.each([
    [0, 'scheduled'],
    [1, 'started'],
    [2, 'finished'],
  ])('after %i ticks is %s on a frozen clock', (ticks, state) => {
    expect(storageMoveState({ ...byRequests, ticks }, NOW.toISOString())).toBe(state)
  })

  it('counts one tick per call, stops counting once the move has ended, and writes nothing without a move in progress', () => {
    const sim = createSimulator({ scenario: 'version: 1\nprojects: [{ path: p, namespace: g }]\ngroups: [{ path: g }]' })
    const writes = sim.db.writes
    tickStorageMoves(sim.db, NOW)
    expect(sim.db.writes).toBe(writes)
    const stamps = { created_at: NOW.toISOString(), updated_at: NOW.toISOString(), source_storage_name: 'default', destination_storage_name: 'default' }
    const id = sim.db.tables.project_repository_storage_moves.insert({ ...byRequests, ...stamps }).id
    const seen = []
    for (let i = 0; i < 3; i++) {
      tickStorageMoves(sim.db, NOW)
      const row = sim.db.tables.project_repository_storage_moves.get(id)!
      seen.push([row.ticks, row.ticking, storageMoveState(row, NOW.toISOString())])
    }
    expect(seen).toEqual([[1, true, 'started'], [2, false, 'finished'], [2, false, 'finished']])
  })
})
