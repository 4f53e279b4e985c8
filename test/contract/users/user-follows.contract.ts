/**
 * Following users over both doors (GitLab 13.12 CE): `POST /users/:id/follow` and `/unfollow`
 * (201 with UserBasic, 304 when nothing changes), `GET /users/:id/followers` and `/following`.
 * Source: gitlab: lib/api/users.rb, app/models/user.rb (`follow`, `unfollow`), doc/api/users.md.
 * Default scenario: devon (4), max (5), nora (7), root (1) administrator.
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

const USER_BASIC_KEYS = ['id', 'name', 'username', 'state', 'avatar_url', 'web_url']
const usernames = (body: { username: string }[]) => body.map((u) => u.username)

contract('following users', {}, ({ api, sim }) => {
  it('follows (201 UserBasic of the followed user), lists both ways, unfollows', async () => {
    const res = await api.post('/users/5/follow', { as: 'devon' })
    expect([res.status, Object.keys(res.body), res.body.username]).toEqual([201, USER_BASIC_KEYS, 'max'])
    expect((await api.post('/users/5/follow', { as: 'nora' })).status).toBe(201)
    expect((await api.post('/users/7/follow', { as: 'devon' })).status).toBe(201)
    expect(usernames((await api.get('/users/5/followers', { as: 'devon' })).body)).toEqual(['devon', 'nora'])
    expect(usernames((await api.get('/users/4/following', { as: 'max' })).body)).toEqual(['max', 'nora'])
    const page = await api.get('/users/4/following', { as: 'max', query: { per_page: 1 } })
    expect([usernames(page.body), page.headers.get('x-total'), page.headers.get('x-next-page')]).toEqual([['max'], '2', '2'])
    expect(Object.keys((await api.get('/users/5/followers')).body[0])).toEqual(USER_BASIC_KEYS)
    const unfollow = await api.post('/users/5/unfollow', { as: 'devon' })
    expect([unfollow.status, unfollow.body.username]).toEqual([201, 'max'])
    expect(usernames((await api.get('/users/5/followers', { as: 'devon' })).body)).toEqual(['nora'])
  })

  it('304 for following twice, following oneself, unfollowing someone not followed; nothing changes', async () => {
    expect((await api.post('/users/5/follow', { as: 'devon' })).status).toBe(201)
    const before = sim().snapshot().db
    for (const [path, as] of [['/users/5/follow', 'devon'], ['/users/4/follow', 'devon'], ['/users/7/unfollow', 'devon'], ['/users/4/unfollow', 'devon']]) {
      const res = await api.post(path!, { as })
      expect([path, res.status, res.text]).toEqual([path, 304, ''])
    }
    expect(sim().snapshot().db).toEqual(before)
  })

  it('404 for an unknown user, 401 anonymous writes; a private profile hides its follows from others', async () => {
    expect(await api.post('/users/999/follow', { as: 'devon' })).toBeGitLabError(404, { message: '404 User Not Found' })
    expect(await api.get('/users/999/followers', { as: 'devon' })).toBeGitLabError(404, { message: '404 User Not Found' })
    expect(await api.post('/users/5/follow')).toBeGitLabError(401, { message: '401 Unauthorized' })
    expect((await api.post('/users/5/follow', { as: 'devon' })).status).toBe(201)
    sim().db.tables.users.update(4, { private_profile: true })
    expect(await api.get('/users/4/following', { as: 'nora' })).toBeGitLabError(404, { message: '404 User Not Found' })
    expect(usernames((await api.get('/users/4/following', { as: 'root' })).body)).toEqual(['max'])
    expect(usernames((await api.get('/users/4/following', { as: 'devon' })).body)).toEqual(['max'])
  })

  it("a deleted user's follows go with them", async () => {
    expect((await api.post('/users/5/follow', { as: 'nora' })).status).toBe(201)
    expect((await api.delete('/users/7', { as: 'root' })).status).toBe(204)
    expect((await api.get('/users/5/followers', { as: 'devon' })).body).toEqual([])
  })
})
