/**
 * Users' SSH keys over both doors, and the administrator's look-ups by id and fingerprint (deploy
 * keys included), as python-gitlab's test_keys.py makes them.
 * Source: gitlab: lib/api/users.rb, lib/api/keys.rb, app/finders/keys_finder.rb, app/models/key.rb.
 *
 * Default scenario: devon (4); acme/platform/api (21) has deploy key 35 (Ed25519, can_push);
 * root is admin. Today is 2021-04-01T12:00Z.
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

const RSA = 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQDFdRyjJQh+1niBpXqE2I8dzjGMXFHlRjX9yk/UfOn075IdaockdU58sw2Ai1XIWFpZpfJkW7z+P47ZNSqm1gzeXIrtKa9ZUp8A7SZe8vH4XVn7kh7bwWCUirqtn8El9XdqfkzOs/+FuViriUWoJVpA6WZsDNaqINFKIA5fj/q8XQw+BcS92L09QJg9oVUuH0VVwNYbU2M2IRmSpybgC/guuWTrnCDMmLItksATifLvRZwgdI8dr+q6tbxbZknNcgEPrI2jT0hYN9ZcjNeWuyvrke9IepE7SPBT41C+YtUX4dfDZDmczM1cE0YL/krdUCfuZHMa4ZS2YyNd6slufcvn bar@foo'
const ECDSA = 'ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBE0JSZO0mPmmMBtc1+zYG+JQVx3KlAaqA7gp0K4iKerMCu+vLemxi7ChVhPAFcVIWNEY1BgyLhFw53dvsJkIEgg= user@acme'
const FIELDS = ['id', 'title', 'key', 'created_at', 'expires_at']

contract('SSH keys of the current user', {}, ({ api }) => {
  it('adds, lists, gets and deletes the caller\'s own keys', async () => {
    const res = await api.post('/user/keys', { as: 'devon', body: { title: 'laptop', key: ECDSA } })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({ id: res.body.id, title: 'laptop', key: ECDSA, created_at: '2021-04-01T12:00:00.000Z', expires_at: null })
    expect(Object.keys(res.body)).toEqual(FIELDS)
    expect((await api.get('/user/keys', { as: 'devon' })).body).toEqual([res.body])
    expect((await api.get(`/user/keys/${res.body.id}`, { as: 'devon' })).body).toEqual(res.body)
    expect(await api.get(`/user/keys/${res.body.id}`, { as: 'max' })).toBeGitLabError(404, { message: '404 Key Not Found' })
    expect((await api.get('/users/devon/keys')).body).toEqual([res.body])
    expect((await api.delete(`/user/keys/${res.body.id}`, { as: 'devon' })).status).toBe(204)
    expect((await api.get('/user/keys', { as: 'devon' })).body).toEqual([])
  })

  it.each([
    ['an invalid key', { title: 'x', key: 'ssh-rsa AAAA' }, { fingerprint: ['cannot be generated'] }],
    ['a deploy key\'s fingerprint', { title: 'x', key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIO6D/WyNlhjdwXklkRhmX28qfzspaYDvYj/N0+je3BMn mine' }, { fingerprint: ['has already been taken'] }],
    ['a blank title', { title: '', key: ECDSA }, { title: ["can't be blank"] }],
  ])('answers 400 for %s', async (_t, body, message) => {
    expect(await api.post('/user/keys', { as: 'devon', body })).toBeGitLabError(400, { message })
  })

  it('needs authentication', async () => {
    expect(await api.get('/user/keys')).toBeGitLabError(401, { message: '401 Unauthorized' })
  })
})

contract('SSH keys of any user (administrators)', {}, ({ api }) => {
  it('adds a key for a user, finds it by id and by SHA256 or MD5 fingerprint, deletes it', async () => {
    const res = await api.post('/users/4/keys', { as: 'root', body: { title: 'foo@bar', key: RSA } })
    expect(res.status).toBe(201)
    const byId = await api.get(`/keys/${res.body.id}`, { as: 'root' })
    expect(byId.status).toBe(200)
    expect(Object.keys(byId.body)).toEqual([...FIELDS, 'user'])
    expect(byId.body).toMatchObject({ title: 'foo@bar', key: RSA, user: { id: 4, username: 'devon' } })
    const bySha = await api.get('/keys', { as: 'root', query: { fingerprint: 'SHA256:Q5MYBBPAzVApMGsvRKk7QGrW5vW33GgkUYof7oJU38Q' } })
    expect(bySha.body).toEqual(byId.body)
    expect(await api.get('/keys', { as: 'root', query: { fingerprint: 'SHA256:nope' } })).toBeGitLabError(404, { message: '404 Key Not Found' })
    expect(await api.get('/keys', { as: 'root', query: { fingerprint: 'garbage' } })).toBeGitLabError(400, { message: 'Failed to return the key' })
    expect((await api.delete(`/users/4/keys/${res.body.id}`, { as: 'root' })).status).toBe(204)
    expect(await api.get(`/keys/${res.body.id}`, { as: 'root' })).toBeGitLabError(404, { message: '404 Not found' })
  })

  it('finds a deploy key by fingerprint with its project links', async () => {
    const res = await api.get('/keys', { as: 'root', query: { fingerprint: 'MD5:1b:a1:78:4c:e0:96:1a:fa:25:b3:79:49:31:f7:a5:76' } })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id: 35, title: 'Deploy box', user: null })
    expect(res.body.deploy_keys_projects).toEqual([{ id: expect.any(Number), deploy_key_id: 35, project_id: 21, created_at: '2021-03-12T12:00:00.000Z', updated_at: '2021-03-12T12:00:00.000Z', can_push: true }])
  })

  it('refuses others', async () => {
    expect(await api.get('/keys/35', { as: 'max' })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect(await api.post('/users/4/keys', { as: 'devon', body: { title: 'x', key: RSA } })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect(await api.post('/users/9999/keys', { as: 'root', body: { title: 'x', key: RSA } })).toBeGitLabError(404, { message: '404 User Not Found' })
  })
})
