/**
 * Concurrent writers on every area (issue 13): many clients over HTTP change the same resources at
 * once against one `fakelab serve` process (default scenario). Afterwards counts, iids, sequences
 * and derived values (label counts, time totals, member levels) must be exact: no lost write, no
 * duplicated one, exactly one winner where GitLab allows one (a name taken, a move running).
 * Every group of writers is sent with `Promise.all`, so the server has them all in flight together.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serveFakelab, type ServedFakelab } from '../support/serve.js'

let server: ServedFakelab
let sent = 0

beforeAll(async () => {
  server = await serveFakelab()
})
afterAll(async () => {
  console.log(`[concurrency] ${sent} requests sent`)
  await server?.stop()
})

/** One answer: status and parsed body (undefined when empty). */
interface Answer {
  status: number
  body: any
  headers: Headers
}

/** Sends one request as a default-scenario user (`glpat-<user>-fakelab`), JSON body. */
async function call(method: string, path: string, user = 'root', body?: unknown): Promise<Answer> {
  sent += 1
  const res = await fetch(`${server.url}/api/v4${path}`, {
    method,
    headers: { 'PRIVATE-TOKEN': `glpat-${user}-fakelab`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers }
}

/** `n` copies of a request built from its index, all in flight at once. */
function all(n: number, make: (i: number) => Promise<Answer>): Promise<Answer[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => make(i)))
}

/** How many answers had each status: `{201: 1, 409: 9}`. */
function statuses(answers: Answer[]): Record<number, number> {
  const out: Record<number, number> = {}
  for (const { status } of answers) out[status] = (out[status] ?? 0) + 1
  return out
}

/** The `X-Total` of a list (its full count, whatever the page). */
async function total(path: string, user = 'root'): Promise<number> {
  return Number((await call('GET', `${path}${path.includes('?') ? '&' : '?'}per_page=1`, user)).headers.get('x-total'))
}

const N = 40

describe('concurrent writers', () => {
  it('labels: distinct names all land; one name taken by many lands once; contested renames and deletes land once', async () => {
    const before = await total('/projects/20/labels?include_ancestor_groups=false')
    const created = await all(N, (i) => call('POST', '/projects/20/labels', 'max', { name: `concurrent-${i}`, color: '#00ff00' }))
    expect(statuses(created)).toEqual({ 201: N })
    expect(new Set(created.map((a) => a.body.id)).size).toBe(N)
    expect(await total('/projects/20/labels?include_ancestor_groups=false')).toBe(before + N)

    const same = await all(N, () => call('POST', '/projects/20/labels', 'max', { name: 'contested', color: '#ff0000' }))
    expect(statuses(same)).toEqual({ 201: 1, 409: N - 1 })
    expect(await total('/projects/20/labels?include_ancestor_groups=false')).toBe(before + N + 1)

    // Renaming one label from many clients: one name wins, and the label is still one label.
    const renames = await all(10, (i) => call('PUT', `/projects/20/labels/concurrent-0`, 'max', { new_name: `renamed-${i}` }))
    expect(statuses(renames)[200]).toBe(1)
    expect(await total('/projects/20/labels?include_ancestor_groups=false')).toBe(before + N + 1)

    // Deleting the same label from many clients: one 204, the rest 404.
    const deletes = await all(10, () => call('DELETE', '/projects/20/labels/concurrent-1', 'max'))
    expect(statuses(deletes)).toEqual({ 204: 1, 404: 9 })
    expect(await total('/projects/20/labels?include_ancestor_groups=false')).toBe(before + N)
  })

  it('group milestones: iids are a gapless sequence, one per created milestone', async () => {
    const existing = (await call('GET', '/groups/10/milestones?per_page=100')).body as { iid: number }[]
    const last = Math.max(0, ...existing.map((m) => m.iid))
    const created = await all(N, (i) => call('POST', '/groups/10/milestones', 'max', { title: `sprint ${i}` }))
    expect(statuses(created)).toEqual({ 201: N })
    expect(created.map((a) => a.body.iid).sort((a, b) => a - b)).toEqual(Array.from({ length: N }, (_, i) => last + 1 + i))
    const same = await all(10, () => call('POST', '/groups/10/milestones', 'max', { title: 'contested milestone' }))
    expect(statuses(same)).toEqual({ 201: 1, 400: 9 })
    expect(await total('/groups/10/milestones')).toBe(existing.length + N + 1)
  })

  it('members: each user added once, a contested add lands once, a contested level ends as one of the levels sent', async () => {
    const before = await total('/projects/20/members')
    const users = [7, 8, 60]
    const adds = await Promise.all(users.flatMap((id) => Array.from({ length: 10 }, () => call('POST', '/projects/20/members', 'max', { user_id: id, access_level: 30 }))))
    expect(statuses(adds)).toEqual({ 201: users.length, 409: users.length * 9 })
    expect(await total('/projects/20/members')).toBe(before + users.length)

    const levels = [10, 20, 30, 40]
    const updates = await all(N, (i) => call('PUT', '/projects/20/members/8', 'max', { access_level: levels[i % levels.length] }))
    expect(statuses(updates)).toEqual({ 200: N })
    const final = (await call('GET', '/projects/20/members/8')).body.access_level
    expect(levels).toContain(final)
    expect((await call('GET', '/projects/20/members/all/8')).body.access_level).toBe(final)

    const removals = await all(10, () => call('DELETE', '/projects/20/members/60', 'max'))
    expect(statuses(removals)).toEqual({ 204: 1, 404: 9 })
    expect(await total('/projects/20/members')).toBe(before + users.length - 1)
  })

  it('runners: concurrent registrations each get their own runner and token; concurrent tag edits never mix', async () => {
    const before = await total('/runners/all')
    const registered = await all(N, (i) => call('POST', '/runners', 'root', { token: 'fakelab-instance-registration-token', description: `worker-${i}` }))
    expect(statuses(registered)).toEqual({ 201: N })
    expect(new Set(registered.map((a) => a.body.id)).size).toBe(N)
    expect(new Set(registered.map((a) => a.body.token)).size).toBe(N)
    expect(await total('/runners/all')).toBe(before + N)

    const tagLists = [['a'], ['b', 'c'], ['d', 'e', 'f'], []]
    const edits = await all(N, (i) => call('PUT', '/runners/1', 'root', { tag_list: tagLists[i % tagLists.length] }))
    expect(statuses(edits)).toEqual({ 200: N })
    const tags = (await call('GET', '/runners/1')).body.tag_list as string[]
    expect(tagLists.map((list) => [...list].sort().join(','))).toContain([...tags].sort().join(','))

    // Deleting the new runners by their tokens, each from several clients: each goes once.
    const tokens = registered.slice(0, 10).map((a) => a.body.token as string)
    const deletes = await Promise.all(tokens.flatMap((token) => [0, 1, 2].map(() => call('DELETE', '/runners', 'root', { token }))))
    expect(statuses(deletes)).toEqual({ 204: 10, 403: 20 })
    expect(await total('/runners/all')).toBe(before + N - 10)
  })

  it('time tracking: every addition counts, to the second', async () => {
    const start = (await call('GET', '/projects/20/issues/1/time_stats')).body.total_time_spent as number
    const adds = await all(N, (i) => call('POST', '/projects/20/issues/1/add_spent_time', 'max', { duration: i % 4 === 3 ? '-30m' : '1h' }))
    expect(statuses(adds)).toEqual({ 201: N })
    const positive = Array.from({ length: N }, (_, i) => i).filter((i) => i % 4 !== 3).length
    const expected = start + positive * 3600 - (N - positive) * 1800
    const stats = (await call('GET', '/projects/20/issues/1/time_stats')).body
    expect(stats.total_time_spent).toBe(expected)
    // The answer to the last addition applied holds the final total (totals seen are all distinct).
    expect(new Set(adds.map((a) => a.body.total_time_spent)).size).toBe(N)
    expect(Math.max(...adds.map((a) => a.body.total_time_spent))).toBeGreaterThanOrEqual(expected)

    const estimates = ['1h', '2h', '3h', '4h']
    await all(N, (i) => call('POST', '/projects/20/issues/1/time_estimate', 'max', { duration: estimates[i % 4] }))
    expect([3600, 7200, 10800, 14400]).toContain((await call('GET', '/projects/20/issues/1/time_stats')).body.time_estimate)
  })

  it('to-dos: one pending to-do per user and issue, however many clients ask; marking all done leaves none', async () => {
    const users = ['gina', 'riley', 'devon', 'max']
    const before = await Promise.all(users.map((user) => total('/todos', user)))
    const marks = await Promise.all(users.flatMap((user) => Array.from({ length: 10 }, () => call('POST', '/projects/20/issues/2/todo', user))))
    const perUser = users.map((user, u) => statuses(marks.slice(u * 10, u * 10 + 10)))
    for (const counts of perUser) expect(counts[201]).toBeLessThanOrEqual(1)
    const after = await Promise.all(users.map((user) => total('/todos', user)))
    for (const [u, counts] of perUser.entries()) expect(after[u]).toBe(before[u]! + (counts[201] ?? 0))

    const done = await all(10, () => call('POST', '/todos/mark_as_done', 'devon'))
    expect(statuses(done)).toEqual({ 204: 10 })
    expect(await total('/todos', 'devon')).toBe(0)
  })

  it('project access tokens: each creation makes its own token and bot user', async () => {
    const before = await total('/projects/20/access_tokens')
    const created = await all(20, (i) => call('POST', '/projects/20/access_tokens', 'max', { name: `bot-${i}`, scopes: ['api'] }))
    expect(statuses(created)).toEqual({ 201: 20 })
    expect(new Set(created.map((a) => a.body.id)).size).toBe(20)
    expect(new Set(created.map((a) => a.body.token)).size).toBe(20)
    expect(new Set(created.map((a) => a.body.user_id)).size).toBe(20)
    const listed = (await call('GET', '/projects/20/access_tokens?per_page=100', 'max')).body as unknown[]
    expect(listed.length).toBe(before + 20)
    const revokes = await all(10, () => call('DELETE', `/projects/20/access_tokens/${created[0]!.body.id}`, 'max'))
    expect(statuses(revokes)[204]).toBe(1)
  })

  it('repository storage moves: one move per project at a time, however many clients start one', async () => {
    const before = await total('/project_repository_storage_moves')
    const moves = await all(20, () => call('POST', '/projects/23/repository_storage_moves', 'root', { destination_storage_name: 'storage-2' }))
    // Each API request is a tick of a move in progress (the second after it ends it), so a later
    // request may start another once the first has ended: how many depends on the interleaving.
    // Never two at once: each later move starts from storage-2, where the one before left it.
    const made = statuses(moves)
    expect(made[201]).toBeGreaterThanOrEqual(1)
    expect((made[201] ?? 0) + (made[400] ?? 0)).toBe(20)
    const own = (await call('GET', '/projects/23/repository_storage_moves?per_page=100')).body as { source_storage_name: string }[]
    expect(own.length).toBe(made[201])
    expect(own.map((m) => m.source_storage_name).reverse()).toEqual(['default', ...Array(own.length - 1).fill('storage-2')])
    // Distinct projects at once: all start, each its own move.
    const distinct = await Promise.all([21, 22, 24].map((id) => call('POST', `/projects/${id}/repository_storage_moves`, 'root', { destination_storage_name: 'storage-2' })))
    expect(statuses(distinct)).toEqual({ 201: 3 })
    expect(await total('/project_repository_storage_moves')).toBe(before + made[201]! + 3)
  })

  it('issues: iids are a gapless sequence per project', async () => {
    const probe = await call('POST', '/projects/20/issues', 'max', { title: 'probe' })
    expect(probe.status).toBe(201)
    const created = await all(N, (i) => call('POST', '/projects/20/issues', 'devon', { title: `concurrent issue ${i}` }))
    expect(statuses(created)).toEqual({ 201: N })
    const iids = created.map((a) => a.body.iid as number).sort((a, b) => a - b)
    expect(iids).toEqual(Array.from({ length: N }, (_, i) => probe.body.iid + 1 + i))
    expect(new Set(created.map((a) => a.body.id)).size).toBe(N)
  })

  it('issues: labels added to one issue by many clients at once all stay, and label counts follow', async () => {
    const probe = await call('PUT', '/projects/20/issues/1', 'max', { add_labels: 'docs' })
    expect(probe.status).toBe(200)
    const names = Array.from({ length: 20 }, (_, i) => `stacked-${i}`)
    expect(statuses(await all(names.length, (i) => call('POST', '/projects/20/labels', 'max', { name: names[i], color: '#123456' })))).toEqual({ 201: names.length })
    const edits = await all(names.length, (i) => call('PUT', '/projects/20/issues/1', 'max', { add_labels: names[i] }))
    expect(statuses(edits)).toEqual({ 200: names.length })
    const labels = (await call('GET', '/projects/20/issues/1')).body.labels as string[]
    for (const name of names) expect(labels).toContain(name)
    const counted = (await call('GET', '/projects/20/labels?with_counts=true&per_page=100&search=stacked-')).body as { name: string; open_issues_count: number }[]
    const state = (await call('GET', '/projects/20/issues/1')).body.state
    for (const label of counted) expect(label.open_issues_count, label.name).toBe(state === 'opened' ? 1 : 0)
  })
})
