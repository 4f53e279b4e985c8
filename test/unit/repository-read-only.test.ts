/**
 * core/repository.ts: the read-only window of a repository under a storage move, and the refusal
 * other areas call before writing to a repository. Source: gitlab-behaviour.md §6; gitlab:
 * lib/gitlab/git_access.rb (`read_only` message).
 */
import { describe, expect, it } from 'vitest'
import { ApiError } from '../../src/core/errors.js'
import { assertRepositoryWritable, isRepositoryReadOnly, storageMoveState } from '../../src/core/repository.js'
import type { Ctx } from '../../src/core/route.js'
import { createSimulator } from '../../src/index.js'

const move = { container_id: 20, started_at: '2021-04-01T12:00:05.000Z', finished_at: '2021-04-01T12:01:05.000Z', outcome: 'finished' as const }

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

describe('assertRepositoryWritable', () => {
  const sim = createSimulator({ scenario: 'version: 1\nprojects: [{ path: p, namespace: g }]\ngroups: [{ path: g }]' })
  const id = sim.db.tables.projects.all()[0]!.id
  sim.db.tables.project_repository_storage_moves.insert({
    ...move, container_id: id, source_storage_name: 'default', destination_storage_name: 'default', created_at: '2021-04-01T12:00:00.000Z', updated_at: '2021-04-01T12:00:00.000Z',
  })
  const ctx = (now: string) => ({ db: sim.db, now }) as unknown as Ctx<unknown>

  it('refuses a write while the move is scheduled or started, with GitLab\'s message', () => {
    expect(isRepositoryReadOnly(sim.db, 'project', id, '2021-04-01T12:00:30.000Z')).toBe(true)
    let error: unknown
    try {
      assertRepositoryWritable(ctx('2021-04-01T12:00:00.000Z'), 'project', id)
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ApiError)
    expect([(error as ApiError).status, (error as ApiError).body]).toEqual([400, { message: 'The repository is temporarily read-only. Please try again later.' }])
  })

  it('lets writes through before any move, after it ends, and for other containers', () => {
    expect(() => assertRepositoryWritable(ctx('2021-04-01T12:01:05.000Z'), 'project', id)).not.toThrow()
    expect(() => assertRepositoryWritable(ctx('2021-04-01T12:00:30.000Z'), 'project', id + 1)).not.toThrow()
    expect(() => assertRepositoryWritable(ctx('2021-04-01T12:00:30.000Z'), 'snippet', id)).not.toThrow()
  })
})
