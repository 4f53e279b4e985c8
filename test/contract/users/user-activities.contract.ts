/**
 * `GET /user/activities` (issue 37 item 6): administrators list the users active since `from`
 * (six months before today by default), as `Entities::UserActivity`, over both doors on the default
 * scenario (frozen at 2021-04-01; elena last active 2021-03-31, xavier 2021-02-15, the others on
 * days the seeded faker gives, which `GET /users` shows).
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

contract('GET /user/activities', {}, ({ api }) => {
  it.each([
    ['the last six months by default', {}, '2020-10-01'],
    ['from a day', { from: '2021-03-01' }, '2021-03-01'],
    ['from a later day', { from: '2021-04-02' }, '2021-04-02'],
  ])('lists %s', async (_what, query, from) => {
    const users = (await api.get('/users', { as: 'root', query: { per_page: 100 } })).body as { id: number; username: string; last_activity_on: string | null }[]
    const expected = users
      .filter((user) => user.last_activity_on !== null && user.last_activity_on >= from)
      .sort((a, b) => a.id - b.id)
      .map((user) => ({ username: user.username, last_activity_on: user.last_activity_on, last_activity_at: user.last_activity_on }))
    const res = await api.get('/user/activities', { as: 'root', query: { ...query, per_page: 100 } })
    expect([res.status, res.body]).toEqual([200, expected])
    if (from === '2021-03-01') expect(res.body).toContainEqual({ username: 'elena', last_activity_on: '2021-03-31', last_activity_at: '2021-03-31' })
    if (from === '2021-03-01') expect(res.body.map((row: { username: string }) => row.username)).not.toContain('xavier')
  })

  it('is for administrators, and checks from', async () => {
    expect((await api.get('/user/activities', { as: 'max' })).status).toBe(403)
    expect((await api.get('/user/activities')).status).toBe(401)
    const bad = await api.get('/user/activities', { as: 'root', query: { from: 'yesterday' } })
    expect([bad.status, bad.body]).toEqual([400, { error: 'from is invalid' }])
  })
})
