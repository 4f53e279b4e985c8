/**
 * Repository storage moves of projects, groups and snippets over both doors: the eighteen routes,
 * the state machine on the scenario clock, destination by weight, GitLab's validation errors, the
 * read-only window and the 202 bulk schedule. Source: api-spec.md "Repository storage moves";
 * gitlab-behaviour.md §6, §13, §14 items 13 and 14; gitlabhq: lib/api/*_repository_storage_moves.rb.
 *
 * Default scenario: storages `default` (weight 100), `storage-2` (50; moves start after 5 s and run
 * 60 s on the clock) and `broken` (0; moves to it fail); moves progress by API requests too (the
 * first later request finds one `started`, the second `finished`), and the clock-driven state
 * machine is tested on the same scenario with `progress: clock`. Every project and snippet is on `default`; the wiki of
 * group secret-lab (12) is on `storage-2`, the other groups' on `default`. Snippets: 600 (nora's,
 * personal), 601 (acme/website, by devon). root is the administrator; its `glpat-root-readonly`
 * token has `read_api`.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import type { ManualClock } from '../../../src/core/clock.js'
import { contract, paginationHeaders, type RequestOptions } from '../../support/contract.js'
import { schemaErrors } from '../../support/schemas.js'
import { CLOCK_DRIVEN_DEFAULT_SCENARIO } from '../../support/storage-scenarios.js'

const NOW = '2021-04-01T12:00:00.000Z'
const ADMIN: RequestOptions = { as: 'root' }
const UNAUTHORIZED = { message: '401 Unauthorized' }
const FORBIDDEN = { message: '403 Forbidden' }
const NOT_FOUND = { message: '404 Not found' }
const MOVE_FIELDS = ['id', 'created_at', 'state', 'source_storage_name', 'destination_storage_name']

/** One kind of move as the tests see it. */
interface Kind {
  type: 'project' | 'group' | 'snippet'
  collection: string
  /** Path of a container on `default`. */
  container: string
  containerId: number
  missing: string
  missingBody: unknown
  /** The nested object of the container. */
  nested(base: string): Record<string, unknown>
}

const KINDS: Kind[] = [
  {
    type: 'project',
    collection: '/project_repository_storage_moves',
    container: '/projects/20',
    containerId: 20,
    missing: '/projects/999',
    missingBody: { message: '404 Project Not Found' },
    nested: () => ({ id: 20, description: 'The Acme website', name: 'Website', name_with_namespace: 'Acme / Website', path: 'website', path_with_namespace: 'acme/website' }),
  },
  {
    type: 'group',
    collection: '/group_repository_storage_moves',
    container: '/groups/10',
    containerId: 10,
    missing: '/groups/999',
    missingBody: { message: '404 Group Not Found' },
    nested: (base) => ({ id: 10, web_url: `${base}/groups/acme`, name: 'Acme' }),
  },
  {
    type: 'snippet',
    collection: '/snippet_repository_storage_moves',
    container: '/snippets/601',
    containerId: 601,
    missing: '/snippets/999',
    missingBody: { message: '404 Snippet Not Found' },
    nested: (base) => {
      const host = new URL(base).hostname
      return {
        id: 601,
        title: 'Deploy script',
        description: '',
        visibility: 'internal',
        updated_at: '2021-03-01T11:00:00.000Z',
        created_at: '2021-03-01T10:00:00.000Z',
        project_id: 20,
        web_url: `${base}/acme/website/-/snippets/601`,
        raw_url: `${base}/acme/website/-/snippets/601/raw`,
        ssh_url_to_repo: `git@${host}:acme/website/snippets/601.git`,
        http_url_to_repo: `${base}/acme/website/snippets/601.git`,
      }
    },
  },
]

for (const kind of KINDS) {
  describe(`${kind.type} storage moves`, () => {
    contract(`POST ${kind.type === 'project' ? '/projects/:id' : kind.type === 'group' ? '/groups/:id' : '/snippets/:id'}/repository_storage_moves`, {}, ({ api, sim }) => {
      beforeEach(() => (sim().clock as ManualClock).set(NOW))

      it('schedules a move to the named storage: 201, state scheduled, the container nested', async () => {
        const res = await api.post(`${kind.container}/repository_storage_moves`, { ...ADMIN, body: { destination_storage_name: 'storage-2' } })
        expect(res.status).toBe(201)
        expect(Object.keys(res.body)).toEqual([...MOVE_FIELDS, kind.type])
        expect(res.body).toMatchObject({ created_at: NOW, state: 'scheduled', source_storage_name: 'default', destination_storage_name: 'storage-2' })
        expect(res.body[kind.type]).toMatchObject(kind.nested(api.baseUrl))
        expect(Object.keys(res.body[kind.type])).toEqual(Object.keys(kind.nested(api.baseUrl)).concat(kind.type === 'project' ? ['created_at'] : []))
        if (kind.type !== 'group') expect(schemaErrors(`public_api/v4/${kind.type}_repository_storage_move.json`, res.body)).toEqual([])
      })

      it('picks the destination by weight when none is given (never a storage of weight 0)', async () => {
        const destinations = new Set<string>()
        for (let i = 0; i < 12; i++) {
          const res = await api.post(`${kind.container}/repository_storage_moves`, { ...ADMIN, body: {} })
          expect(res.status).toBe(201)
          destinations.add(res.body.destination_storage_name)
          ;(sim().clock as ManualClock).advance(3_600_000) // let it finish before the next one
        }
        expect([...destinations].sort()).toEqual(['default', 'storage-2'])
      })

      it.each([
        ['an unknown storage', { destination_storage_name: 'nope' }, { destination_storage_name: ['is not included in the list'] }],
        ['an empty storage name', { destination_storage_name: '' }, { destination_storage_name: ["can't be blank", 'is not included in the list'] }],
      ])('refuses %s with the model\'s validation error, changing nothing', async (_, body, errors) => {
        const before = sim().snapshot().db
        expect(await api.post(`${kind.container}/repository_storage_moves`, { ...ADMIN, body })).toBeGitLabError(400, { message: errors })
        expect(sim().snapshot().db).toEqual(before)
      })

      it('refuses a second move while the first runs: the container is read only', async () => {
        expect((await api.post(`${kind.container}/repository_storage_moves`, { ...ADMIN, body: { destination_storage_name: 'storage-2' } })).status).toBe(201)
        expect(await api.post(`${kind.container}/repository_storage_moves`, { ...ADMIN, body: { destination_storage_name: 'default' } })).toBeGitLabError(400, { message: { [kind.type]: ['is read only'] } })
        ;(sim().clock as ManualClock).advance(65_000 + 1)
        const again = await api.post(`${kind.container}/repository_storage_moves`, { ...ADMIN, body: { destination_storage_name: 'default' } })
        expect([again.status, again.body.source_storage_name]).toEqual([201, 'storage-2'])
      })

      it('accepts a move onto the storage it is on, which fails as soon as it starts', async () => {
        const res = await api.post(`${kind.container}/repository_storage_moves`, { ...ADMIN, body: { destination_storage_name: 'default' } })
        expect([res.status, res.body.state]).toEqual([201, 'scheduled'])
        ;(sim().clock as ManualClock).advance(5_000)
        expect((await api.get(`${kind.collection}/${res.body.id}`, ADMIN)).body.state).toBe('failed')
      })

      it('answers 404 for a missing container', async () => {
        expect(await api.post(`${kind.missing}/repository_storage_moves`, { ...ADMIN, body: {} })).toBeGitLabError(404, kind.missingBody)
      })

      it.each([
        ['anonymous', {}, 401, UNAUTHORIZED],
        ['a non-administrator, even an owner', { as: 'olive' }, 403, FORBIDDEN],
      ])('refuses %s', async (_, options, status, body) => {
        expect(await api.post(`${kind.container}/repository_storage_moves`, { ...(options as RequestOptions), body: { destination_storage_name: 'storage-2' } })).toBeGitLabError(status, body)
      })

      it('refuses an administrator\'s read_api token with insufficient_scope (the scope list: see the authorization matrix)', async () => {
        const res = await api.post(`${kind.container}/repository_storage_moves`, { token: 'glpat-root-readonly', body: { destination_storage_name: 'storage-2' } })
        expect([res.status, res.body.error]).toEqual([403, 'insufficient_scope'])
      })
    })

    contract(`GET ${kind.collection}/:repository_storage_move_id (state machine on the clock, progress: clock)`, { scenario: CLOCK_DRIVEN_DEFAULT_SCENARIO }, ({ api, sim }) => {
      beforeEach(() => (sim().clock as ManualClock).set(NOW))

      it.each([
        ['scheduled', 0, 'storage-2'],
        ['scheduled', 4_999, 'storage-2'],
        ['started', 5_000, 'storage-2'],
        ['started', 64_999, 'storage-2'],
        ['finished', 65_000, 'storage-2'],
        ['failed', 65_000, 'broken'],
      ])('is %s %i ms after scheduling (to %s)', async (state, ms, destination) => {
        const made = await api.post(`${kind.container}/repository_storage_moves`, { ...ADMIN, body: { destination_storage_name: destination } })
        ;(sim().clock as ManualClock).advance(ms)
        const res = await api.get(`${kind.collection}/${made.body.id}`, ADMIN)
        expect(res.status).toBe(200)
        expect(res.body).toEqual({ ...made.body, state })
        const nested = await api.get(`${kind.container}/repository_storage_moves/${made.body.id}`, ADMIN)
        expect(nested.body).toEqual(res.body)
      })

      it('moves the repository: the next move starts from the new storage; a failed one leaves it', async () => {
        await api.post(`${kind.container}/repository_storage_moves`, { ...ADMIN, body: { destination_storage_name: 'broken' } })
        ;(sim().clock as ManualClock).advance(70_000)
        const second = await api.post(`${kind.container}/repository_storage_moves`, { ...ADMIN, body: { destination_storage_name: 'storage-2' } })
        expect(second.body.source_storage_name).toBe('default')
        ;(sim().clock as ManualClock).advance(70_000)
        const third = await api.post(`${kind.container}/repository_storage_moves`, { ...ADMIN, body: { destination_storage_name: 'default' } })
        expect(third.body.source_storage_name).toBe('storage-2')
      })

      it.each([
        ['an unknown id', `${kind.collection}/999`, 404, NOT_FOUND],
        ['a non-integer id', `${kind.collection}/abc`, 400, { error: 'repository_storage_move_id is invalid' }],
        ['a move of another container', `${kind.type === 'group' ? '/groups/12' : kind.type === 'project' ? '/projects/21' : '/snippets/600'}/repository_storage_moves/1`, 404, NOT_FOUND],
        ['a missing container', `${kind.missing}/repository_storage_moves/1`, 404, kind.missingBody],
      ])('answers %s', async (_, path, status, body) => {
        await api.post(`${kind.container}/repository_storage_moves`, { ...ADMIN, body: { destination_storage_name: 'storage-2' } })
        expect(await api.get(path, ADMIN)).toBeGitLabError(status, body)
      })

      it.each([
        ['anonymous', {}, 401, UNAUTHORIZED],
        ['a non-administrator', { as: 'devon' }, 403, FORBIDDEN],
      ])('refuses %s before looking the move up', async (_, options, status, body) => {
        expect(await api.get(`${kind.collection}/999`, options as RequestOptions)).toBeGitLabError(status, body)
        expect(await api.get(`${kind.container}/repository_storage_moves/999`, options as RequestOptions)).toBeGitLabError(status, body)
      })

      it('lets an administrator read with a read_api token', async () => {
        const made = await api.post(`${kind.container}/repository_storage_moves`, { ...ADMIN, body: { destination_storage_name: 'storage-2' } })
        expect((await api.get(`${kind.collection}/${made.body.id}`, { token: 'glpat-root-readonly' })).status).toBe(200)
      })
    })

    contract(`GET ${kind.collection} and GET per container`, {}, ({ api, sim }) => {
      beforeEach(() => (sim().clock as ManualClock).set(NOW))

      it('lists nothing before any move, with pagination headers', async () => {
        const res = await api.get(kind.collection, ADMIN)
        expect([res.status, res.body]).toEqual([200, []])
        expect(paginationHeaders(res)).toMatchObject({ 'x-page': '1', 'x-per-page': '20', 'x-total': '0', 'x-total-pages': '1', 'x-next-page': '', 'x-prev-page': '' })
      })

      it('lists moves newest first, paginated; the per-container list holds only that container\'s', async () => {
        const ids: number[] = []
        for (let i = 0; i < 3; i++) {
          const res = await api.post(`${kind.container}/repository_storage_moves`, { ...ADMIN, body: { destination_storage_name: i % 2 ? 'default' : 'storage-2' } })
          ids.push(res.body.id)
          ;(sim().clock as ManualClock).advance(100_000)
        }
        const other = kind.type === 'project' ? '/projects/21' : kind.type === 'group' ? '/groups/11' : '/snippets/600'
        await api.post(`${other}/repository_storage_moves`, { ...ADMIN, body: { destination_storage_name: 'storage-2' } })
        const all = await api.get(kind.collection, { ...ADMIN, query: { per_page: 2 } })
        expect(all.body.map((m: { id: number }) => m.id)).toEqual([ids.length + 1, ids[2]])
        expect(paginationHeaders(all)).toMatchObject({ 'x-total': '4', 'x-total-pages': '2', 'x-next-page': '2' })
        const own = await api.get(`${kind.container}/repository_storage_moves`, ADMIN)
        expect(own.body.map((m: { id: number }) => m.id)).toEqual([...ids].reverse())
        expect(own.body.map((m: { state: string }) => m.state)).toEqual(['finished', 'finished', 'finished'])
        if (kind.type !== 'group') expect(schemaErrors(`public_api/v4/${kind.type}_repository_storage_moves.json`, own.body)).toEqual([])
      })

      it.each([
        ['anonymous', {}, 401, UNAUTHORIZED],
        ['a non-administrator', { as: 'olive' }, 403, FORBIDDEN],
      ])('refuses %s', async (_, options, status, body) => {
        expect(await api.get(kind.collection, options as RequestOptions)).toBeGitLabError(status, body)
        expect(await api.get(`${kind.container}/repository_storage_moves`, options as RequestOptions)).toBeGitLabError(status, body)
      })

      it('answers 404 for a missing container', async () => {
        expect(await api.get(`${kind.missing}/repository_storage_moves`, ADMIN)).toBeGitLabError(404, kind.missingBody)
      })
    })

    contract(`POST ${kind.collection} (bulk)`, {}, ({ api, sim }) => {
      beforeEach(() => (sim().clock as ManualClock).set(NOW))

      it('answers 202 Accepted and schedules one move per repository on the source storage', async () => {
        const res = await api.post(kind.collection, { ...ADMIN, body: { source_storage_name: 'default', destination_storage_name: 'storage-2' } })
        expect(res).toBeGitLabError(202, { message: '202 Accepted' })
        const list = await api.get(kind.collection, { ...ADMIN, query: { per_page: 100 } })
        const expected = kind.type === 'project' ? [20, 21, 22, 23, 24, /* issues area: */ 30, 31] : kind.type === 'group' ? [10, 11] : [600, 601]
        const containers = list.body.map((m: Record<string, { id: number }>) => m[kind.type]!.id).sort((a: number, b: number) => a - b)
        expect(containers).toEqual(expected)
        // The list is the first request after the bulk schedule: one tick, so every move has started.
        expect(new Set(list.body.map((m: { state: string; source_storage_name: string; destination_storage_name: string }) => `${m.state} ${m.source_storage_name}→${m.destination_storage_name}`))).toEqual(new Set(['started default→storage-2']))
      })

      it('skips repositories already read-only', async () => {
        await api.post(`${kind.container}/repository_storage_moves`, { ...ADMIN, body: { destination_storage_name: 'storage-2' } })
        await api.post(kind.collection, { ...ADMIN, body: { source_storage_name: 'default', destination_storage_name: 'storage-2' } })
        const own = await api.get(`${kind.container}/repository_storage_moves`, ADMIN)
        expect(own.body).toHaveLength(1)
      })

      it.each([
        ['no source', {}, { error: 'source_storage_name is missing' }],
        ['an unknown source', { source_storage_name: 'nope' }, { error: 'source_storage_name does not have a valid value' }],
        ['an unknown destination', { source_storage_name: 'default', destination_storage_name: 'nope' }, { error: 'destination_storage_name does not have a valid value' }],
        ['both unknown', { source_storage_name: 'x', destination_storage_name: 'y' }, { error: 'source_storage_name does not have a valid value, destination_storage_name does not have a valid value' }],
      ])('refuses %s with Grape\'s error, scheduling nothing', async (_, body, error) => {
        expect(await api.post(kind.collection, { ...ADMIN, body })).toBeGitLabError(400, error)
        expect((await api.get(kind.collection, ADMIN)).body).toEqual([])
      })

      it.each([
        ['anonymous', {}, 401, UNAUTHORIZED],
        ['a non-administrator (before parameter validation)', { as: 'max' }, 403, FORBIDDEN],
      ])('refuses %s', async (_, options, status, body) => {
        expect(await api.post(kind.collection, { ...(options as RequestOptions), body: {} })).toBeGitLabError(status, body)
      })
    })
  })
}

contract('GET /snippets/:id/repository_storage_moves (:id is a String, cast by ActiveRecord)', {}, ({ api }) => {
  it.each([
    ['a leading number', '/snippets/601abc/repository_storage_moves', 200],
    ['no number', '/snippets/abc/repository_storage_moves', 404],
  ])('reads %s', async (_, path, status) => {
    const res = await api.get(path, ADMIN)
    if (status === 404) expect(res).toBeGitLabError(404, { message: '404 Snippet Not Found' })
    else expect(res.status).toBe(status)
  })
})

/**
 * Moves on a frozen clock progress by API requests (issue 23 item 15): each API request made after
 * a move was scheduled is one tick of it, before the request is routed; the first finds it
 * `started`, the second `finished` (or `failed`), and the repository is writable again.
 */
for (const kind of KINDS) {
  contract(`${kind.type} storage moves progress by API requests on a frozen clock`, {}, ({ api }) => {
    const poll = async (id: number) => (await api.get(`${kind.collection}/${id}`, ADMIN)).body.state

    it.each([
      ['storage-2', ['started', 'finished', 'finished']],
      ['broken', ['started', 'failed', 'failed']],
      ['default', ['failed', 'failed', 'failed']], // onto the storage it is on: fails as it starts
    ])('a client polling a move to %s sees scheduled (the POST), then %j', async (destination, states) => {
      const made = await api.post(`${kind.container}/repository_storage_moves`, { ...ADMIN, body: { destination_storage_name: destination } })
      expect([made.status, made.body.state]).toEqual([201, 'scheduled'])
      const seen = []
      for (let i = 0; i < states.length; i++) seen.push(await poll(made.body.id))
      expect(seen).toEqual(states)
      // The per-container route and the lists agree, and the container is writable again.
      expect((await api.get(`${kind.container}/repository_storage_moves/${made.body.id}`, ADMIN)).body.state).toBe(states[2])
      const next = await api.post(`${kind.container}/repository_storage_moves`, { ...ADMIN, body: { destination_storage_name: 'default' } })
      expect([next.status, next.body.source_storage_name]).toEqual([201, destination === 'storage-2' ? 'storage-2' : 'default'])
    })

    it('lets a second client schedule a move after a first client\'s calls, as GitLab (whose moves finish within seconds) does', async () => {
      // Client one: schedule, read it back.
      const first = await api.post(`${kind.container}/repository_storage_moves`, { ...ADMIN, body: { destination_storage_name: 'storage-2' } })
      expect((await api.get(`${kind.collection}/${first.body.id}`, ADMIN)).body.state).toBe('started')
      // Client two, same server: its first call is the second tick, so the first move has finished.
      const second = await api.post(`${kind.container}/repository_storage_moves`, { ...ADMIN, body: { destination_storage_name: 'default' } })
      expect([second.status, second.body.state, second.body.source_storage_name]).toEqual([201, 'scheduled', 'storage-2'])
    })
  })
}

contract('storage moves: what counts as a tick', {}, ({ api, sim }) => {
  const schedule = async () => (await api.post('/projects/20/repository_storage_moves', { ...ADMIN, body: { destination_storage_name: 'storage-2' } })).body.id as number
  const state = async (id: number) => (await api.get(`/project_repository_storage_moves/${id}`, ADMIN)).body.state

  it('counts any API request, whoever sends it and whatever the answer (404, 401, another route)', async () => {
    const id = await schedule()
    expect((await api.get('/projects/999', { as: 'max' })).status).toBe(404)
    expect((await api.get('/user', { token: 'not-a-token' })).status).toBe(401)
    expect(await state(id)).toBe('finished')
  })

  it('does not count control requests (/-/fakelab/…) or paths outside the API', async () => {
    const id = await schedule()
    expect((await api.get('/-/fakelab/journal')).status).toBe(200)
    expect((await api.get('/uploads/-/system/issuable_metric_image/file/99999999999999999999999/x.png')).status).toBe(404)
    expect(await state(id)).toBe('started')
  })

  it('never reuses a kept answer across a tick, and keeps answers again once the move has ended', async () => {
    const id = await schedule()
    const states = []
    for (let i = 0; i < 4; i++) states.push(await state(id))
    expect(states).toEqual(['started', 'finished', 'finished', 'finished'])
    const writes = sim().db.writes
    await state(id)
    expect(sim().db.writes).toBe(writes)
  })

  it('ends a move by the clock when the clock gets there first', async () => {
    const id = await schedule()
    ;(sim().clock as ManualClock).advance(65_000)
    expect(await state(id)).toBe('finished')
  })

  it('restores the moves as they were with the rest of the state (reset)', async () => {
    const id = await schedule()
    expect(await state(id)).toBe('started')
    expect((await api.post('/-/fakelab/reset')).status).toBe(204)
    expect(await api.get(`/project_repository_storage_moves/${id}`, ADMIN)).toBeGitLabError(404, NOT_FOUND)
  })
})

contract('storage moves: the reply memo on, a poll never sees a stale state', { replyMemo: 'on' }, ({ api }) => {
  it('answers the same GET with each state in turn', async () => {
    const made = await api.post('/projects/20/repository_storage_moves', { ...ADMIN, body: { destination_storage_name: 'storage-2' } })
    const states = []
    for (let i = 0; i < 5; i++) states.push((await api.get(`/project_repository_storage_moves/${made.body.id}`, ADMIN)).body.state)
    expect(states).toEqual(['started', 'finished', 'finished', 'finished', 'finished'])
    expect((await api.get('/projects/20', ADMIN)).body.repository_storage).toBe('storage-2')
  })
})

contract('storage moves to a storage with progress: clock hold their state while the clock is frozen', { scenario: CLOCK_DRIVEN_DEFAULT_SCENARIO }, ({ api, sim }) => {
  it('stays scheduled however many requests come, then moves with the clock', async () => {
    const made = await api.post('/projects/20/repository_storage_moves', { ...ADMIN, body: { destination_storage_name: 'storage-2' } })
    const states = []
    for (let i = 0; i < 4; i++) states.push((await api.get(`/project_repository_storage_moves/${made.body.id}`, ADMIN)).body.state)
    expect(states).toEqual(['scheduled', 'scheduled', 'scheduled', 'scheduled'])
    expect(await api.post('/projects/20/repository_storage_moves', { ...ADMIN, body: { destination_storage_name: 'default' } })).toBeGitLabError(400, { message: { project: ['is read only'] } })
    ;(sim().clock as ManualClock).advance(5_000)
    expect((await api.get(`/project_repository_storage_moves/${made.body.id}`, ADMIN)).body.state).toBe('started')
  })
})
