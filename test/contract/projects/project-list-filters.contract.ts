/**
 * The `GET /projects` filters fixture-arranging suites use (issue 16 part 4): `search`, `owned`,
 * `membership`, `visibility`, `order_by` and `sort`, over both doors.
 * Source: gitlab: lib/api/projects.rb, app/finders/projects_finder.rb (`collection_with_user`,
 * `collection_without_user`), app/models/user.rb (`owned_projects`), app/models/project.rb
 * (`search`: fuzzy over path, name and description), lib/gitlab/sql/pattern.rb.
 *
 * Default scenario: acme (olive owner, max maintainer, devon developer) has website (20, public),
 * handbook (23, internal) and platform/api (21, private); olive owns secret-lab/experiments (24)
 * and her own dotfiles (22); nora is no member anywhere.
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

contract('GET /projects (filters)', {}, ({ api }) => {
  const ids = async (as: string | undefined, query: Record<string, string | number | boolean>): Promise<number[]> => {
    const res = await api.get('/projects', { ...(as ? { as } : {}), query: { order_by: 'id', sort: 'asc', per_page: 100, ...query } })
    expect(res.status).toBe(200)
    return res.body.map((p: { id: number }) => p.id)
  }

  it.each([
    ['owned: personal projects and those of groups the user owns', 'olive', { owned: true }, [20, 21, 22, 23, 24]],
    ['owned: a maintainer owns nothing', 'max', { owned: true }, []],
    ['owned: anonymous gets nothing', undefined, { owned: true }, []],
    ['membership: nothing for a non-member', 'nora', { membership: true }, []],
    ['membership: anonymous gets nothing', undefined, { membership: true }, []],
    ['visibility=internal', 'nora', { visibility: 'internal' }, [23]],
    ['search on the path', 'olive', { search: 'websit' }, [20]],
    ['search with every term in one column (the description)', 'olive', { search: 'acme website' }, [20]],
    ['search with terms spread over two columns', 'olive', { search: 'handbook website' }, []],
    ['search with a term under three characters: exact match only', 'olive', { search: 'we' }, []],
    ['search and owned together', 'olive', { search: 'dotfiles', owned: true }, [22]],
  ])('%s', async (_title, as, query, expected) => {
    expect(await ids(as, query)).toEqual(expected)
  })

  it('orders by name and path either way', async () => {
    const query = { owned: true, order_by: 'name' }
    expect(await ids('olive', { ...query, sort: 'asc' })).toEqual([21, 22, 24, 23, 20])
    expect(await ids('olive', { ...query, sort: 'desc' })).toEqual([20, 23, 24, 22, 21])
    expect(await ids('olive', { owned: true, order_by: 'path', sort: 'asc' })).toEqual([21, 22, 24, 23, 20])
  })

  it('finds a project created through the API by search, owned and membership', async () => {
    const created = await api.post('/projects', { as: 'nora', body: { name: 'Nora Sandbox', visibility: 'public' } })
    expect(await ids('nora', { search: 'sandbox' })).toEqual([created.body.id])
    expect(await ids('nora', { owned: true })).toEqual([created.body.id])
    expect(await ids('nora', { membership: true })).toEqual([created.body.id])
    expect(await ids(undefined, { search: 'sandbox', visibility: 'public' })).toEqual([created.body.id])
  })
})
