/**
 * `GET /users/:user_id/memberships` over both doors: an administrator reads a user's direct
 * memberships (python-gitlab's `user.memberships`, used by its test_groups).
 * Source: gitlab: lib/api/users.rb (`get ":user_id/memberships"`), lib/api/entities/membership.rb.
 */
import { expect, it } from 'vitest'
import { contract, paginationHeaders } from '../../support/contract.js'

contract('GET /users/:user_id/memberships', {}, ({ api }) => {
  it('lists the user\'s direct memberships as Membership entities, by id', async () => {
    const res = await api.get('/users/6/memberships', { as: 'root' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual([
      { source_id: 10, source_name: 'Acme', source_type: 'Namespace', access_level: 50 },
      { source_id: 12, source_name: 'Secret Lab', source_type: 'Namespace', access_level: 50 },
      { source_id: 22, source_name: 'Dotfiles', source_type: 'Project', access_level: 40 },
    ])
    expect(Object.keys(res.body[0])).toEqual(['source_id', 'source_name', 'source_type', 'access_level'])
  })

  it.each([
    ['Project', [22]],
    ['Namespace', [10, 12]],
  ])('filters by type=%s', async (type, ids) => {
    const res = await api.get('/users/6/memberships', { as: 'root', query: { type } })
    expect(res.body.map((m: { source_id: number }) => m.source_id)).toEqual(ids)
  })

  it('follows a transfer: a membership stays with its source', async () => {
    expect((await api.post('/groups/12/projects/22', { as: 'root' })).status).toBe(201)
    const res = await api.get('/users/6/memberships', { as: 'root', query: { type: 'Project' } })
    expect(res.body).toEqual([{ source_id: 22, source_name: 'Dotfiles', source_type: 'Project', access_level: 40 }])
  })

  it('is paginated with GitLab\'s headers', async () => {
    const res = await api.get('/users/6/memberships', { as: 'root', query: { per_page: 2, page: 2 } })
    const url = (page: number) => `${api.baseUrl}/api/v4/users/6/memberships?page=${page}&per_page=2&user_id=6`
    expect(paginationHeaders(res)).toEqual({
      'x-page': '2',
      'x-per-page': '2',
      'x-next-page': '',
      'x-prev-page': '1',
      'x-total': '3',
      'x-total-pages': '2',
      link: `<${url(1)}>; rel="prev", <${url(1)}>; rel="first", <${url(2)}>; rel="last"`,
    })
  })

  it.each([
    ['a non-administrator', 'olive', '/users/6/memberships', {}, 403, { message: '403 Forbidden' }],
    ['an administrator acting as a user (sudo)', 'root', '/users/6/memberships', { Sudo: 'olive' }, 403, { message: '403 Forbidden' }],
    ['an anonymous caller', undefined, '/users/6/memberships', {}, 401, { message: '401 Unauthorized' }],
    ['an unknown user', 'root', '/users/999/memberships', {}, 404, { message: '404 User Not Found' }],
    ['an invalid type', 'root', '/users/6/memberships?type=Invalid', {}, 400, { error: 'type does not have a valid value' }],
  ])('refuses %s', async (_title, as, path, headers, status, error) => {
    expect(await api.get(path, { as, headers })).toBeGitLabError(status, error)
  })
})
