/**
 * `GET /namespaces/:id` and `/namespaces/:namespace/exists` over both doors.
 * Source: gitlab: lib/api/namespaces.rb, lib/api/helpers.rb (`find_namespace!`), python-gitlab's
 * test_gitlab.py `test_namespaces`.
 *
 * Default scenario: acme (10, public; gina…olive members), acme/platform (11, private), secret-lab
 * (12, olive only); devon (4), nora (7, no member); root is admin.
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

const NOT_FOUND = { message: '404 Namespace Not Found' }

contract('GET /namespaces/:id', {}, ({ api }) => {
  it('gets the caller\'s own personal namespace by username, as python-gitlab does', async () => {
    const res = await api.get('/namespaces/devon', { as: 'devon' })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id: 4, name: 'Devon Developer', path: 'devon', kind: 'user', full_path: 'devon', parent_id: null })
  })

  it('gets a group by id or full path to a member, with members_count_with_descendants for its owner', async () => {
    expect((await api.get('/namespaces/acme%2Fplatform', { as: 'devon' })).body).toMatchObject({ id: 11, kind: 'group', full_path: 'acme/platform' })
    const owner = await api.get('/namespaces/10', { as: 'olive' })
    expect(owner.body).toMatchObject({ id: 10, kind: 'group', full_path: 'acme' })
    expect(owner.body.members_count_with_descendants).toEqual(expect.any(Number))
    expect((await api.get('/namespaces/10', { as: 'devon' })).body.members_count_with_descendants).toBeUndefined()
  })

  it.each([
    ['another user\'s personal namespace', 'max', 'nora'],
    ['a group the caller is no member of', 'secret-lab', 'nora'],
    ['a public group the caller is no member of', 'acme', 'nora'],
    ['an unknown path', 'nobody-here', 'root'],
  ])('answers 404 for %s', async (_t, id, as) => {
    expect(await api.get(`/namespaces/${id}`, { as })).toBeGitLabError(404, NOT_FOUND)
  })

  it('lets an administrator read any namespace', async () => {
    expect((await api.get('/namespaces/nora', { as: 'root' })).body).toMatchObject({ kind: 'user', path: 'nora' })
    expect((await api.get('/namespaces/secret-lab', { as: 'root' })).body).toMatchObject({ kind: 'group', path: 'secret-lab' })
  })

  it('needs authentication', async () => {
    expect(await api.get('/namespaces/acme')).toBeGitLabError(401, { message: '401 Unauthorized' })
  })
})

contract('GET /namespaces/:namespace/exists', {}, ({ api }) => {
  it.each([
    ['a top-level group', 'acme', {}, { exists: true, suggests: ['acme1'] }],
    ['a username, case-insensitively', 'Devon', {}, { exists: true, suggests: ['Devon1'] }],
    ['a subgroup under its parent', 'platform', { parent_id: 10 }, { exists: true, suggests: ['platform1'] }],
    ['a subgroup at the top level', 'platform', {}, { exists: false, suggests: [] }],
    ['a free path', 'brand-new', {}, { exists: false, suggests: [] }],
  ])('answers %s', async (_t, path, query, body) => {
    const res = await api.get(`/namespaces/${path}/exists`, { as: 'nora', query })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(body)
  })
})
