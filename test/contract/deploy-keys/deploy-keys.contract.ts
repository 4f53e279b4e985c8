/**
 * Deploy keys over both doors: the instance list, a project's keys (Maintainer+), adding a new or
 * an already usable key, enabling, updating and removing one, with GitLab's validation of the key.
 * Source: gitlab: lib/api/deploy_keys.rb, app/models/key.rb, app/models/deploy_keys_project.rb,
 * app/services/projects/enable_deploy_key_service.rb; python-gitlab's test_deploy_keys.py.
 *
 * Default scenario: acme/platform/api (21, private) has deploy key 35 "Deploy box" (Ed25519,
 * can_push); max maintains 20 and 21 through acme, devon is a developer, nora no member.
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

const KEY35 = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIO6D/WyNlhjdwXklkRhmX28qfzspaYDvYj/N0+je3BMn deploy@acme'
const NEW_KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILNigsw2fh76tOaYwARUKw5qhIhHKgvLpt8qmRxpXM7L ci@acme'
const RSA = 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQDFdRyjJQh+1niBpXqE2I8dzjGMXFHlRjX9yk/UfOn075IdaockdU58sw2Ai1XIWFpZpfJkW7z+P47ZNSqm1gzeXIrtKa9ZUp8A7SZe8vH4XVn7kh7bwWCUirqtn8El9XdqfkzOs/+FuViriUWoJVpA6WZsDNaqINFKIA5fj/q8XQw+BcS92L09QJg9oVUuH0VVwNYbU2M2IRmSpybgC/guuWTrnCDMmLItksATifLvRZwgdI8dr+q6tbxbZknNcgEPrI2jT0hYN9ZcjNeWuyvrke9IepE7SPBT41C+YtUX4dfDZDmczM1cE0YL/krdUCfuZHMa4ZS2YyNd6slufcvn bar@foo'
const D35 = { id: 35, title: 'Deploy box', key: KEY35, created_at: '2021-03-12T12:00:00.000Z', expires_at: null, can_push: true }
const FIELDS = ['id', 'title', 'key', 'created_at', 'expires_at', 'can_push']
const FORBIDDEN = { message: '403 Forbidden' }

contract('GET /deploy_keys', {}, ({ api }) => {
  it('lists the instance\'s deploy keys to an administrator only', async () => {
    const res = await api.get('/deploy_keys', { as: 'root' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual([{ id: 35, title: 'Deploy box', key: KEY35, created_at: '2021-03-12T12:00:00.000Z', expires_at: null }])
    expect(await api.get('/deploy_keys', { as: 'max' })).toBeGitLabError(403, FORBIDDEN)
  })
})

contract('GET /projects/:id/deploy_keys', {}, ({ api }) => {
  it('lists the project\'s keys with can_push', async () => {
    const res = await api.get('/projects/21/deploy_keys', { as: 'max' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual([D35])
    expect(Object.keys(res.body[0])).toEqual(FIELDS)
    expect((await api.get('/projects/21/deploy_keys/35', { as: 'max' })).body).toEqual(D35)
  })

  it.each([
    ['a developer', 21, 'devon', 403, FORBIDDEN],
    ['a non-member of a public project', 20, 'nora', 403, FORBIDDEN],
    ['a non-member of a private project', 21, 'nora', 404, { message: '404 Project Not Found' }],
  ])('answers %s as GitLab does', async (_t, project, as, status, body) => {
    expect(await api.get(`/projects/${project}/deploy_keys`, { as })).toBeGitLabError(status, body)
  })

  it('answers 404 Not found for a key the project does not have', async () => {
    expect(await api.get('/projects/20/deploy_keys/35', { as: 'max' })).toBeGitLabError(404, { message: '404 Not found' })
  })
})

contract('POST /projects/:id/deploy_keys', {}, ({ api, sim }) => {
  it('adds a new key, fingerprinted (MD5 and SHA256) as ssh-keygen does', async () => {
    const res = await api.post('/projects/20/deploy_keys', { as: 'max', body: { title: 'foo@bar', key: `  ${RSA}\n`, can_push: true } })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({ id: res.body.id, title: 'foo@bar', key: RSA, created_at: '2021-04-01T12:00:00.000Z', expires_at: null, can_push: true })
    expect(sim().db.tables.keys.get(res.body.id)).toMatchObject({ type: 'DeployKey', user_id: 5, fingerprint_sha256: 'Q5MYBBPAzVApMGsvRKk7QGrW5vW33GgkUYof7oJU38Q' })
  })

  it('answers the project\'s own link for a key it already has, and links a key the maintainer may use elsewhere', async () => {
    const again = await api.post('/projects/21/deploy_keys', { as: 'max', body: { title: 'other', key: KEY35 } })
    expect(again.status).toBe(201)
    expect(again.body).toEqual(D35)
    const linked = await api.post('/projects/20/deploy_keys', { as: 'max', body: { title: 'ignored', key: KEY35 } })
    expect(linked.status).toBe(201)
    expect(linked.body).toEqual({ ...D35, can_push: false })
    expect(sim().db.tables.keys.size).toBe(1)
  })

  it.each([
    ['an invalid key', { title: 'x', key: 'ssh-rsa AAAA' }, { 'deploy_key.fingerprint': ['cannot be generated'] }],
    ['no key at all', { title: 'x', key: 'not a key' }, { 'deploy_key.key': ['is invalid'], 'deploy_key.fingerprint': ['cannot be generated'] }],
    ['a blank title', { title: ' ', key: NEW_KEY }, { 'deploy_key.title': ["can't be blank"] }],
  ])('answers 400 for %s and adds nothing', async (_t, body, message) => {
    expect(await api.post('/projects/20/deploy_keys', { as: 'max', body })).toBeGitLabError(400, { message })
    expect(sim().db.tables.keys.size).toBe(1)
  })

  it('refuses a new key whose fingerprint a stored key has (the same blob, another comment)', async () => {
    const res = await api.post('/projects/20/deploy_keys', { as: 'max', body: { title: 'x', key: `${KEY35.split(' ').slice(0, 2).join(' ')} other` } })
    expect(res).toBeGitLabError(400, { message: { 'deploy_key.fingerprint': ['has already been taken'] } })
  })

  it('answers title is missing without a title', async () => {
    expect(await api.post('/projects/20/deploy_keys', { as: 'max', body: { key: NEW_KEY } })).toBeGitLabError(400, { error: 'title is missing' })
  })
})

contract('POST /projects/:id/deploy_keys/:key_id/enable', {}, ({ api }) => {
  it('enables a key the maintainer may use in another project, as python-gitlab\'s test does', async () => {
    const res = await api.post('/projects/20/deploy_keys/35/enable', { as: 'max' })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({ id: 35, title: 'Deploy box', key: KEY35, created_at: '2021-03-12T12:00:00.000Z', expires_at: null })
    expect((await api.get('/projects/20/deploy_keys', { as: 'max' })).body).toEqual([{ ...D35, can_push: false }])
  })

  it('answers 404 Deploy Key Not Found for a key the caller may not use', async () => {
    expect(await api.post('/projects/20/deploy_keys/999/enable', { as: 'max' })).toBeGitLabError(404, { message: '404 Deploy Key Not Found' })
  })
})

contract('PUT /projects/:id/deploy_keys/:key_id', {}, ({ api }) => {
  it('updates the title and can_push', async () => {
    const res = await api.put('/projects/21/deploy_keys/35', { as: 'max', body: { title: 'Renamed', can_push: false } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ...D35, title: 'Renamed', can_push: false })
  })

  it('needs title or can_push', async () => {
    expect(await api.put('/projects/21/deploy_keys/35', { as: 'max', body: {} })).toBeGitLabError(400, { error: 'title, can_push are missing, at least one parameter must be provided' })
  })
})

contract('DELETE /projects/:id/deploy_keys/:key_id', {}, ({ api, sim }) => {
  it('removes the key from the project; a key no project uses is destroyed', async () => {
    await api.post('/projects/20/deploy_keys/35/enable', { as: 'max' })
    expect((await api.delete('/projects/21/deploy_keys/35', { as: 'max' })).status).toBe(204)
    expect(sim().db.tables.keys.get(35)).toBeDefined()
    expect((await api.delete('/projects/20/deploy_keys/35', { as: 'max' })).status).toBe(204)
    expect(sim().db.tables.keys.get(35)).toBeUndefined()
  })

  it('answers 404 Deploy Key Not Found for a key the project does not have', async () => {
    expect(await api.delete('/projects/20/deploy_keys/35', { as: 'max' })).toBeGitLabError(404, { message: '404 Deploy Key Not Found' })
  })

  it('destroys the keys of a deleted project that no other project uses', async () => {
    expect((await api.delete('/projects/21', { as: 'root' })).status).toBe(202)
    await api.get('/version', { as: 'root' })
    expect(sim().db.tables.keys.get(35)).toBeUndefined()
  })
})
