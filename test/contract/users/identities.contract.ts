/**
 * External identities over both doors, as python-gitlab's test_user_identities uses them: `PUT
 * /users/:id` (and `POST /users`) with `provider` and `extern_uid` store one, shown in `identities`;
 * `DELETE /users/:id/identities/:provider` removes it; `GET /users?provider=&extern_uid=` finds its user.
 * Source: gitlab: lib/api/users.rb, lib/api/entities/identity.rb, app/finders/users_finder.rb (13.12).
 */
import { expect, it } from 'vitest'
import { createSimulator } from '../../../src/index.js'
import { contract } from '../../support/contract.js'

contract('user identities', {}, ({ api, sim }) => {
  it('stores, updates, finds and deletes an identity', async () => {
    const put = await api.put('/users/4', { as: 'root', body: { provider: 'test_provider', extern_uid: '1' } })
    expect(put.status).toBe(200)
    expect(put.body.identities).toEqual([{ provider: 'test_provider', extern_uid: '1' }])
    await api.put('/users/4', { as: 'root', body: { provider: 'github', extern_uid: 'devon-gh' } })
    const again = await api.put('/users/4', { as: 'root', body: { provider: 'test_provider', extern_uid: '2' } })
    expect(again.body.identities).toEqual([{ provider: 'test_provider', extern_uid: '2' }, { provider: 'github', extern_uid: 'devon-gh' }])
    expect((await api.get('/user', { as: 'devon' })).body.identities).toEqual(again.body.identities)
    const found = await api.get('/users', { as: 'root', query: { provider: 'github', extern_uid: 'devon-gh' } })
    expect(found.body.map((u: { id: number }) => u.id)).toEqual([4])
    expect((await api.get('/users', { as: 'root', query: { provider: 'github', extern_uid: 'nobody' } })).body).toEqual([])
    expect((await api.delete('/users/4/identities/test_provider', { as: 'root' })).status).toBe(204)
    expect((await api.get('/users/4', { as: 'root' })).body.identities).toEqual([{ provider: 'github', extern_uid: 'devon-gh' }])
    expect(await api.delete('/users/4/identities/test_provider', { as: 'root' })).toBeGitLabError(404, { message: '404 Identity Not Found' })
    expect(await api.delete('/users/4/identities/github', { as: 'max' })).toBeGitLabError(403, { message: '403 Forbidden' })
  })

  it('creates a user with an identity, and leaves out one another user has', async () => {
    await api.put('/users/4', { as: 'root', body: { provider: 'ldapmain', extern_uid: 'uid=devon' } })
    const res = await api.post('/users', { as: 'root', body: { email: 'id@example.com', username: 'ident', name: 'Ident', password: 'secret-pass-1', provider: 'saml', extern_uid: 'ident' } })
    expect(res.body.identities).toEqual([{ provider: 'saml', extern_uid: 'ident' }])
    const taken = await api.put(`/users/${res.body.id}`, { as: 'root', body: { provider: 'ldapmain', extern_uid: 'UID=DEVON' } })
    expect(taken.status).toBe(200)
    expect(taken.body.identities).toEqual([{ provider: 'saml', extern_uid: 'ident' }])
    expect(sim().db.tables.users.get(4)!.identities).toEqual([{ provider: 'ldapmain', extern_uid: 'uid=devon' }])
  })

  it('loads identities from a scenario', () => {
    const loaded = createSimulator({ scenario: { version: 1, users: [{ username: 'root', admin: true, identities: [{ provider: 'ldapmain', extern_uid: 'cn=root' }] }] } })
    expect(loaded.db.tables.users.all()[0]!.identities).toEqual([{ provider: 'ldapmain', extern_uid: 'cn=root' }])
  })
})
