/**
 * Reused read answers (src/core/reply-memo.ts), through both doors with the memo on as users run
 * it: a repeated read answers as the route would, and every change an answer depends on is seen by
 * the next read. Each row reads, changes one thing, and reads again.
 * Default scenario: acme (group 10) milestone 201 v2.0 due 2021-06-30, clock at 2021-04-01;
 * secret-lab (group 12) is private with olive its only member; project 20 has labels.
 */
import { expect, it } from 'vitest'
import { contract, type Api, type ApiResponse, type ContractContext } from '../support/contract.js'

/** Everything a client sees but the request id (and `date`, from the clock, which one row moves). */
function seen(res: ApiResponse): unknown {
  const headers = [...res.headers].filter(([name]) => name !== 'x-request-id' && name !== 'date')
  return { status: res.status, headers, text: res.text }
}

interface Row {
  what: string
  read: (api: Api) => Promise<ApiResponse>
  change: (ctx: ContractContext) => Promise<unknown> | unknown
  /** What the read answers after the change (checked on the parsed body). */
  after: (res: ApiResponse) => void
  /** The change returns to the first state, so the read answers as at first again. */
  backToFirst?: true
}

const labels = (api: Api) => api.get('/projects/20/labels', { as: 'max', query: { per_page: 100 } })
const names = (res: ApiResponse) => (res.body as { name: string }[]).map((label) => label.name)

const ROWS: Row[] = [
  {
    what: 'a write through the API',
    read: labels,
    change: ({ api }) => api.post('/projects/20/labels', { as: 'root', body: { name: 'fresh', color: '#123456' } }),
    after: (res) => expect(names(res)).toContain('fresh'),
  },
  {
    what: 'a write straight to the store (sim.db)',
    read: labels,
    change: ({ sim }) => sim().db.tables.labels.update(101, { title: 'renamed' }),
    after: (res) => expect(names(res)).toContain('renamed'),
  },
  {
    what: 'sim.reset() after a write',
    read: labels,
    change: async ({ api, sim }) => {
      await api.post('/projects/20/labels', { as: 'root', body: { name: 'fresh', color: '#123456' } })
      expect(names(await labels(api))).toContain('fresh')
      sim().reset()
    },
    after: (res) => expect(names(res)).not.toContain('fresh'),
    backToFirst: true,
  },
  {
    what: 'the clock passing a due date',
    read: (api) => api.get('/groups/10/milestones/201', { as: 'root' }),
    change: ({ sim }) => sim().setClock('2021-07-01T00:00:00Z'),
    after: (res) => expect(res.body).toMatchObject({ id: 201, expired: true }),
  },
  {
    what: 'a removed membership',
    read: (api) => api.get('/groups/12', { as: 'olive' }),
    change: ({ sim }) => {
      const { members } = sim().db.tables
      for (const member of members.all()) if (member.source_type === 'group' && member.source_id === 12) members.delete(member.id)
    },
    after: (res) => expect(res).toBeGitLabError(404, { message: '404 Group Not Found' }),
  },
]

contract('reused read answers', { replyMemo: 'on' }, (ctx) => {
  const { api, sim } = ctx

  it('answers a read asked again and again as the first, each with a request id and journal entry of its own', async () => {
    sim().journal.clear()
    const answers = [await labels(api), await labels(api), await labels(api)]
    for (const again of answers.slice(1)) expect(seen(again)).toEqual(seen(answers[0]!))
    const ids = answers.map((res) => res.headers.get('x-request-id'))
    expect(new Set(ids).size).toBe(3)
    const entries = sim().journal.all()
    expect(entries.map((e) => [e.route, e.user, e.status, e.requestId])).toEqual(ids.map((id) => ['GET /projects/:id/labels', 'max', 200, id]))
  })

  it.each(ROWS)('sees $what', async (row) => {
    // Asked twice, the answer is kept; asked a third time, reused.
    const before = await row.read(api)
    for (let i = 0; i < 2; i++) expect(seen(await row.read(api))).toEqual(seen(before))
    await row.change(ctx)
    const after = await row.read(api)
    row.after(after)
    if (row.backToFirst) expect(seen(after)).toEqual(seen(before))
    else expect(seen(after)).not.toEqual(seen(before))
  })

  it.each([
    ['another token', { as: 'max' }, { as: 'olive' }],
    ['a Sudo header', { as: 'root' }, { as: 'root', headers: { Sudo: 'devon' } }],
    ['a sudo param', { as: 'root' }, { as: 'root', query: { sudo: 'devon' } }],
    ['no token', { as: 'root' }, {}],
  ])('answers a read with %s for its own caller', async (_, one, other) => {
    const a = await api.get('/user', one)
    const b = await api.get('/user', other)
    expect(seen(await api.get('/user', one))).toEqual(seen(a))
    expect(seen(b)).not.toEqual(seen(a))
    expect(seen(await api.get('/user', other))).toEqual(seen(b))
  })

  it('answers HEAD without a body after a GET of the same path, and GET with one after HEAD', async () => {
    const get = await api.get('/projects/20/labels', { as: 'max' })
    const head = await api.request('HEAD', '/projects/20/labels', { as: 'max' })
    expect([head.status, head.text, head.headers.get('x-total')]).toEqual([200, '', get.headers.get('x-total')])
    expect(seen(await api.get('/projects/20/labels', { as: 'max' }))).toEqual(seen(get))
  })

  it('does not reuse an answer across a failed write, which changes nothing', async () => {
    const before = await labels(api)
    const failed = await api.post('/projects/20/labels', { as: 'root', body: { name: 'bug', color: '#123456' } })
    expect(failed.status).toBe(409)
    expect(seen(await labels(api))).toEqual(seen(before))
  })
})
