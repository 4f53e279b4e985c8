/**
 * What a storage move does to its container: once it has `finished` on the scenario clock the
 * project, group or snippet is on the destination storage (the project entity shows it to
 * administrators, and later moves and the bulk schedule start from it); a `failed` move leaves it.
 * Source: api-spec.md "Repository storage moves"; gitlab-behaviour.md §6; gitlab:
 * lib/api/entities/project.rb (13.x `expose :repository_storage, if: … :change_repository_storage`),
 * app/services/projects/update_repository_storage_service.rb (and its snippet and group twins).
 *
 * Default scenario: storages `default`, `storage-2` (moves start after 5 s and run 60 s) and
 * `broken` (moves fail); project 20 (acme/website, public) and snippet 601 are on `default`, the
 * wiki of group 10 on `default`. The clock-driven cases run it with `progress: clock`; on the
 * default scenario itself moves progress by API requests as well.
 */
import { beforeEach, expect, it } from 'vitest'
import type { ManualClock } from '../../../src/core/clock.js'
import { contract, type RequestOptions } from '../../support/contract.js'
import { CLOCK_DRIVEN_DEFAULT_SCENARIO } from '../../support/storage-scenarios.js'

const NOW = '2021-04-01T12:00:00.000Z'
const ADMIN: RequestOptions = { as: 'root' }
/** Past the end of a move to `storage-2` or `broken` (5 s + 60 s). */
const AFTER_MOVE = 65_000

contract('GET /projects/:id (repository_storage, progress: clock)', { scenario: CLOCK_DRIVEN_DEFAULT_SCENARIO }, ({ api, sim }) => {
  beforeEach(() => (sim().clock as ManualClock).set(NOW))
  const advance = (ms: number) => (sim().clock as ManualClock).advance(ms)

  it.each([
    ['an administrator', ADMIN, true],
    ['an administrator through sudo as a maintainer', { as: 'root', headers: { sudo: 'max' } }, false],
    ['a maintainer', { as: 'max' }, false],
    ['a developer', { as: 'devon' }, false],
    ['anonymous', {}, false],
  ])('shows repository_storage to %s: %s', async (_, options, shown) => {
    const res = await api.get('/projects/20', options as RequestOptions)
    expect(res.status).toBe(200)
    expect('repository_storage' in res.body).toBe(shown)
    if (shown) {
      const keys = Object.keys(res.body)
      expect(keys.indexOf('repository_storage')).toBe(keys.indexOf('autoclose_referenced_issues') + 1)
      expect(res.body.repository_storage).toBe('default')
    }
  })

  it.each([
    ['scheduled', 0, 'storage-2', 'default'],
    ['started', 5_000, 'storage-2', 'default'],
    ['finished', AFTER_MOVE, 'storage-2', 'storage-2'],
    ['failed', AFTER_MOVE, 'broken', 'default'],
  ])('is on the right storage while the move is %s (%i ms, to %s): %s', async (state, ms, destination, storage) => {
    const made = await api.post('/projects/20/repository_storage_moves', { ...ADMIN, body: { destination_storage_name: destination } })
    expect(made.status).toBe(201)
    advance(ms)
    expect((await api.get(`/project_repository_storage_moves/${made.body.id}`, ADMIN)).body.state).toBe(state)
    expect((await api.get('/projects/20', ADMIN)).body.repository_storage).toBe(storage)
    const list = await api.get('/projects', { ...ADMIN, query: { per_page: 100 } })
    expect(list.body.find((p: { id: number }) => p.id === 20).repository_storage).toBe(storage)
  })

  it('follows a chain of moves: default → storage-2 → default', async () => {
    await api.post('/projects/20/repository_storage_moves', { ...ADMIN, body: { destination_storage_name: 'storage-2' } })
    advance(AFTER_MOVE)
    const back = await api.post('/projects/20/repository_storage_moves', { ...ADMIN, body: { destination_storage_name: 'default' } })
    expect(back.body.source_storage_name).toBe('storage-2')
    expect((await api.get('/projects/20', ADMIN)).body.repository_storage).toBe('storage-2')
    advance(AFTER_MOVE)
    expect((await api.get('/projects/20', ADMIN)).body.repository_storage).toBe('default')
  })
})

contract('POST /project_repository_storage_moves (after a finished move, progress: clock)', { scenario: CLOCK_DRIVEN_DEFAULT_SCENARIO }, ({ api, sim }) => {
  beforeEach(() => (sim().clock as ManualClock).set(NOW))

  it('schedules from the storage a finished move left the project on, and skips it on the old one', async () => {
    await api.post('/projects/20/repository_storage_moves', { ...ADMIN, body: { destination_storage_name: 'storage-2' } })
    ;(sim().clock as ManualClock).advance(AFTER_MOVE)
    expect((await api.post('/project_repository_storage_moves', { ...ADMIN, body: { source_storage_name: 'storage-2', destination_storage_name: 'default' } })).status).toBe(202)
    const moves = (await api.get('/projects/20/repository_storage_moves', ADMIN)).body
    expect(moves.map((m: { source_storage_name: string; destination_storage_name: string; state: string }) => [m.source_storage_name, m.destination_storage_name, m.state])).toEqual([
      ['storage-2', 'default', 'scheduled'],
      ['default', 'storage-2', 'finished'],
    ])
    // From `default` now, project 20 is not picked up again: it is read-only under the new move anyway,
    // so check another project instead: project 21 moves off `default`, project 20 gets no third move.
    expect((await api.post('/project_repository_storage_moves', { ...ADMIN, body: { source_storage_name: 'default', destination_storage_name: 'storage-2' } })).status).toBe(202)
    expect((await api.get('/projects/20/repository_storage_moves', ADMIN)).body).toHaveLength(2)
    expect((await api.get('/projects/21/repository_storage_moves', ADMIN)).body[0]).toMatchObject({ source_storage_name: 'default', destination_storage_name: 'storage-2' })
  })

  it.each([
    ['group', '/groups/10', '/group_repository_storage_moves'],
    ['snippet', '/snippets/601', '/snippet_repository_storage_moves'],
  ])('moves a %s: the bulk schedule finds it on its new storage', async (_, container, collection) => {
    await api.post(`${container}/repository_storage_moves`, { ...ADMIN, body: { destination_storage_name: 'storage-2' } })
    ;(sim().clock as ManualClock).advance(AFTER_MOVE)
    expect((await api.post(collection, { ...ADMIN, body: { source_storage_name: 'storage-2', destination_storage_name: 'default' } })).status).toBe(202)
    const moves = (await api.get(`${container}/repository_storage_moves`, ADMIN)).body
    expect(moves[0]).toMatchObject({ state: 'scheduled', source_storage_name: 'storage-2', destination_storage_name: 'default' })
  })
})

contract('GET /projects/:id (repository_storage) while a move progresses by requests', {}, ({ api }) => {
  it('shows the old storage while the move has started, the new one from the request that finds it finished', async () => {
    await api.post('/projects/20/repository_storage_moves', { ...ADMIN, body: { destination_storage_name: 'storage-2' } })
    expect((await api.get('/projects/20', ADMIN)).body.repository_storage).toBe('default')
    expect((await api.get('/projects/20', ADMIN)).body.repository_storage).toBe('storage-2')
    const back = await api.post('/projects/20/repository_storage_moves', { ...ADMIN, body: { destination_storage_name: 'default' } })
    expect([back.status, back.body.source_storage_name]).toEqual([201, 'storage-2'])
  })
})

/** A scenario that lists no storages: `archive` is implied by the project on it (issue 23 item 14). */
const IMPLIED = `version: 1
now: "${NOW}"
users:
  - { username: admin, admin: true, tokens: [{ token: t-admin, scopes: [api] }] }
groups: [{ path: g }]
projects:
  - { id: 1, path: old, namespace: g, repository_storage: archive }
  - { id: 2, path: new, namespace: g }
`

contract('storages a scenario implies (no repository_storages: list)', { scenario: IMPLIED }, ({ api }) => {
  const admin: RequestOptions = { token: 't-admin' }

  it('moves a project off the implied storage, and onto it: the storage exists, as a list naming it would say', async () => {
    const off = await api.post('/projects/1/repository_storage_moves', { ...admin, body: { destination_storage_name: 'default' } })
    expect([off.status, off.body.source_storage_name, off.body.destination_storage_name]).toEqual([201, 'archive', 'default'])
    const onto = await api.post('/projects/2/repository_storage_moves', { ...admin, body: { destination_storage_name: 'archive' } })
    expect([onto.status, onto.body.source_storage_name, onto.body.destination_storage_name]).toEqual([201, 'default', 'archive'])
    expect((await api.post('/project_repository_storage_moves', { ...admin, body: { source_storage_name: 'archive' } })).status).toBe(202)
  })

  it('never picks the implied storage (weight 0) for a move without a destination', async () => {
    const res = await api.post('/projects/1/repository_storage_moves', { ...admin, body: {} })
    expect([res.status, res.body.destination_storage_name]).toEqual([201, 'default'])
  })
})
