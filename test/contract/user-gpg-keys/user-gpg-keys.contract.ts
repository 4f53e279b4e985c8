/**
 * Users' GPG keys over both doors, as python-gitlab's test_current_user_gpg_keys and
 * test_user_gpg_keys use them: the armoured key parsed by openpgp, its fingerprint and key id
 * unique across users, GitLab's 400 texts, revoke (202) and delete.
 * Source: gitlab: lib/api/users.rb, lib/api/entities/gpg_key.rb, app/models/gpg_key.rb (13.12).
 * The keys are test/fixtures/gpg-*.asc (ed25519 keys made for these tests).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

const KEY = readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'gpg-devon.asc'), 'utf8')
const SECOND = readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'gpg-second.asc'), 'utf8')
const ARMOUR = "is invalid. A valid public GPG key begins with '-----BEGIN PGP PUBLIC KEY BLOCK-----' and ends with '-----END PGP PUBLIC KEY BLOCK-----'"

contract('GPG keys', {}, ({ api, sim }) => {
  it('adds, lists, gets and deletes the current user\'s key', async () => {
    const res = await api.post('/user/gpg_keys', { as: 'devon', body: { key: KEY } })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({ id: res.body.id, key: KEY.trim(), created_at: '2021-04-01T12:00:00.000Z' })
    expect(sim().db.tables.gpg_keys.get(res.body.id)).toMatchObject({ user_id: 4, fingerprint: 'CD1C98FA02C4C6BFBB56791EC5EED3BC26C16397', primary_keyid: 'C5EED3BC26C16397' })
    expect((await api.get('/user/gpg_keys', { as: 'devon' })).body).toEqual([res.body])
    expect((await api.get(`/user/gpg_keys/${res.body.id}`, { as: 'devon' })).body).toEqual(res.body)
    expect((await api.get('/users/4/gpg_keys')).body).toEqual([res.body])
    expect((await api.get(`/users/4/gpg_keys/${res.body.id}`)).body).toEqual(res.body)
    expect(await api.get(`/user/gpg_keys/${res.body.id}`, { as: 'max' })).toBeGitLabError(404, { message: '404 GPG Key Not Found' })
    expect((await api.delete(`/user/gpg_keys/${res.body.id}`, { as: 'devon' })).status).toBe(204)
    expect((await api.get('/user/gpg_keys', { as: 'devon' })).body).toEqual([])
  })

  it('refuses the same key for another user, and a key that is not one', async () => {
    await api.post('/user/gpg_keys', { as: 'devon', body: { key: KEY } })
    expect(await api.post('/user/gpg_keys', { as: 'max', body: { key: KEY } })).toBeGitLabError(400, { message: { key: ['has already been taken'] } })
    expect(await api.post('/user/gpg_keys', { as: 'max', body: { key: 'ssh-rsa AAAA' } })).toBeGitLabError(400, { message: { key: [ARMOUR] } })
    const junk = '-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nbm90IGEga2V5\n-----END PGP PUBLIC KEY BLOCK-----\n'
    expect(await api.post('/user/gpg_keys', { as: 'max', body: { key: junk } })).toBeGitLabError(400, { message: { fingerprint: ["can't be blank"], primary_keyid: ["can't be blank"] } })
    expect(await api.post('/user/gpg_keys', { as: 'max', body: {} })).toBeGitLabError(400, { error: 'key is missing' })
    expect(sim().db.tables.gpg_keys.all()).toHaveLength(1)
  })

  it('lets administrators add, revoke and delete a user\'s keys', async () => {
    const add = await api.post('/users/4/gpg_keys', { as: 'root', body: { key: SECOND } })
    expect(add.status).toBe(201)
    expect(await api.post('/users/4/gpg_keys', { as: 'max', body: { key: KEY } })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect(await api.post('/users/4242/gpg_keys', { as: 'root', body: { key: KEY } })).toBeGitLabError(404, { message: '404 User Not Found' })
    const revoke = await api.post(`/users/4/gpg_keys/${add.body.id}/revoke`, { as: 'root' })
    expect(revoke.status).toBe(202)
    expect(revoke.body).toBe(202)
    expect(await api.get(`/users/4/gpg_keys/${add.body.id}`)).toBeGitLabError(404, { message: '404 GPG Key Not Found' })
    const again = await api.post('/user/gpg_keys', { as: 'devon', body: { key: SECOND } })
    expect((await api.post(`/user/gpg_keys/${again.body.id}/revoke`, { as: 'devon' })).status).toBe(202)
    const third = await api.post('/users/4/gpg_keys', { as: 'root', body: { key: KEY } })
    expect((await api.delete(`/users/4/gpg_keys/${third.body.id}`, { as: 'root' })).status).toBe(204)
    expect(sim().db.tables.gpg_keys.all()).toEqual([])
  })
})
