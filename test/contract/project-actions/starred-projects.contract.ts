/**
 * Starred projects over both doors: `GET /users/:user_id/starred_projects` (projects.rb 13.12,
 * StarredProjectsFinder) and `GET /projects?starred=true` (ProjectsFinder `by_starred`), from the
 * stars `POST /projects/:id/star` stores.
 * Default scenario: 20 acme/website (public), 21 acme/platform/api (private; devon develops it,
 * nora belongs nowhere), 30 ivy/tracker (public).
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

const ids = (body: { id: number }[]) => body.map((p) => p.id)

contract('starred projects', {}, ({ api, sim }) => {
  const star = async (as: string, id: number) => expect((await api.post(`/projects/${id}/star`, { as })).status).toBe(201)

  it("lists a user's starred projects the caller can read, newest project (created_at) first, with the list filters", async () => {
    await star('devon', 20)
    await star('devon', 21)
    await star('devon', 30)
    await star('max', 20)
    expect(ids((await api.get('/users/4/starred_projects', { as: 'devon' })).body)).toEqual([30, 20, 21])
    // By username too; the private project is not nora's to see, nor an anonymous caller's.
    expect(ids((await api.get('/users/devon/starred_projects', { as: 'nora' })).body)).toEqual([30, 20])
    const anonymous = await api.get('/users/4/starred_projects')
    expect([anonymous.status, ids(anonymous.body)]).toEqual([200, [30, 20]])
    // Anonymous callers and `simple` get BasicProjectDetails; others the full entity.
    expect('permissions' in anonymous.body[0]).toBe(false)
    expect(Object.keys((await api.get('/users/4/starred_projects', { as: 'devon', query: { simple: true } })).body[0])).toEqual(Object.keys(anonymous.body[0]))
    expect(ids((await api.get('/users/4/starred_projects', { as: 'devon', query: { order_by: 'id', sort: 'asc', search: 'tracker' } })).body)).toEqual([30])
    expect(ids((await api.get('/users/4/starred_projects', { as: 'devon', query: { visibility: 'private' } })).body)).toEqual([21])
    // `starred` narrows to the caller's own stars (ProjectsFinder by_starred).
    expect(ids((await api.get('/users/4/starred_projects', { as: 'max', query: { starred: true } })).body)).toEqual([20])
    const page = await api.get('/users/4/starred_projects', { as: 'devon', query: { per_page: 1, page: 2 } })
    expect([ids(page.body), page.headers.get('x-total'), page.headers.get('x-next-page')]).toEqual([[20], '3', '3'])
    expect((await api.get('/users/7/starred_projects', { as: 'devon' })).body).toEqual([])
  })

  it("hides a private profile's stars from others, not from the user or an administrator", async () => {
    await star('devon', 20)
    sim().db.tables.users.update(4, { private_profile: true })
    expect((await api.get('/users/4/starred_projects', { as: 'nora' })).body).toEqual([])
    expect(ids((await api.get('/users/4/starred_projects', { as: 'devon' })).body)).toEqual([20])
    expect(ids((await api.get('/users/4/starred_projects', { as: 'root' })).body)).toEqual([20])
  })

  it('404 for an unknown user, 400 for a bad filter', async () => {
    expect(await api.get('/users/999/starred_projects', { as: 'devon' })).toBeGitLabError(404, { message: '404 User Not Found' })
    expect(await api.get('/users/nobody-here/starred_projects')).toBeGitLabError(404, { message: '404 User Not Found' })
    expect((await api.get('/users/4/starred_projects', { as: 'devon', query: { order_by: 'stars' } })).status).toBe(400)
  })

  it("GET /projects?starred=true: the caller's starred projects; anonymous callers get the unfiltered list", async () => {
    await star('devon', 30)
    await star('devon', 21)
    expect(ids((await api.get('/projects', { as: 'devon', query: { starred: true } })).body)).toEqual([30, 21])
    expect((await api.get('/projects', { as: 'nora', query: { starred: true } })).body).toEqual([])
    const all = await api.get('/projects')
    expect(ids((await api.get('/projects', { query: { starred: true } })).body)).toEqual(ids(all.body))
    // The user's projects list takes the caller's stars the same way.
    expect((await api.get('/users/ivy/projects', { as: 'devon', query: { starred: true } })).body.map((p: { id: number }) => p.id)).toEqual([30])
  })
})
