/**
 * Remote mirrors as a store over both doors. Source: gitlab: lib/api/remote_mirrors.rb,
 * lib/api/entities/remote_mirror.rb, app/models/remote_mirror.rb, spec/requests/api/remote_mirrors_spec.rb,
 * doc/api/remote_mirrors.md (13.12).
 *
 * Default scenario: website (20, public) has mirror 1 (credentials in its URL, enabled, protected
 * branches only, finished); api (21, private) has none. Max maintains both; devon is a developer;
 * nora no member; root is admin. Below Maintainer the answer is 401, as the `before` block's `unauthorized!`.
 */
import { expect, it } from 'vitest'
import { contract, paginationHeaders } from '../../support/contract.js'

const FIELDS = ['id', 'enabled', 'url', 'update_status', 'last_update_at', 'last_update_started_at', 'last_successful_update_at', 'last_error', 'only_protected_branches', 'keep_divergent_refs']
const MIRROR_1 = {
  id: 1,
  enabled: true,
  url: 'https://*****:*****@mirror.acme.test/acme/website.git',
  update_status: 'finished',
  last_update_at: '2021-03-31T10:00:05.000Z',
  last_update_started_at: '2021-03-31T10:00:00.000Z',
  last_successful_update_at: '2021-03-31T10:00:05.000Z',
  last_error: null,
  only_protected_branches: true,
  keep_divergent_refs: false,
}
const UNAUTHORIZED = { message: '401 Unauthorized' }

contract('GET /projects/:id/remote_mirrors', {}, ({ api }) => {
  it('lists the mirrors with their credentials masked', async () => {
    const res = await api.get('/projects/20/remote_mirrors', { as: 'max' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual([MIRROR_1])
    expect(Object.keys(res.body[0])).toEqual(FIELDS)
    expect(paginationHeaders(res)).toMatchObject({ 'x-total': '1' })
  })

  it.each([
    ['anonymous', 20, {}, 401, UNAUTHORIZED],
    ['a developer', 20, { as: 'devon' }, 401, UNAUTHORIZED],
    ['a non-member of a public project', 20, { as: 'nora' }, 401, UNAUTHORIZED],
    ['a non-member of a private project', 21, { as: 'nora' }, 404, { message: '404 Project Not Found' }],
    ['anonymous on a private project', 21, {}, 404, { message: '404 Project Not Found' }],
  ])('refuses %s', async (_who, id, options, status, body) => {
    await expect(await api.get(`/projects/${id}/remote_mirrors`, options)).toBeGitLabError(status, body)
  })

  it('lets an administrator in', async () => {
    expect((await api.get('/projects/21/remote_mirrors', { as: 'root' })).body).toEqual([])
  })
})

contract('GET /projects/:id/remote_mirrors/:mirror_id', {}, ({ api }) => {
  it('shows one mirror', async () => {
    const res = await api.get('/projects/20/remote_mirrors/1', { as: 'max' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(MIRROR_1)
  })

  it('answers 404 Not found for an unknown mirror and 401 to a developer', async () => {
    await expect(await api.get('/projects/20/remote_mirrors/2', { as: 'max' })).toBeGitLabError(404, { message: '404 Not found' })
    await expect(await api.get('/projects/20/remote_mirrors/1', { as: 'devon' })).toBeGitLabError(401, UNAUTHORIZED)
  })
})

contract('POST /projects/:id/remote_mirrors', {}, ({ api, sim }) => {
  it('creates a disabled mirror that has never updated (python-gitlab\'s test)', async () => {
    const res = await api.post('/projects/21/remote_mirrors', { as: 'max', body: { url: 'https://gitlab.example.com/root/mirror.git' } })
    expect(res.status).toBe(201)
    expect(Object.keys(res.body)).toEqual(FIELDS)
    expect(res.body).toEqual({
      id: 2,
      enabled: false,
      url: 'https://gitlab.example.com/root/mirror.git',
      update_status: 'none',
      last_update_at: null,
      last_update_started_at: null,
      last_successful_update_at: null,
      last_error: null,
      only_protected_branches: false,
      keep_divergent_refs: false,
    })
  })

  it.each([
    ['user and password', 'https://bot:token@example.com/a.git', 'https://*****:*****@example.com/a.git'],
    ['a user alone', 'https://bot@example.com/a.git', 'https://*****@example.com/a.git'],
    ['the git user of ssh', 'ssh://git@example.com/a.git', 'ssh://git@example.com/a.git'],
  ])('masks %s in the answer and keeps the URL', async (_what, url, shown) => {
    const res = await api.post('/projects/21/remote_mirrors', { as: 'max', body: { url, enabled: true, keep_divergent_refs: true } })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ url: shown, enabled: true, keep_divergent_refs: true })
    expect(sim().db.tables.remote_mirrors.get(res.body.id)!.url).toBe(url)
  })

  it.each([
    ['a blank URL', '', ["can't be blank"]],
    ['a URL that does not parse', 'not a url', ['is blocked: URI is invalid']],
    ['another scheme', 'ftp://example.com/a.git', ['is blocked: Only allowed schemes are ssh, git, http, https']],
    ['localhost', 'http://127.0.0.1/a.git', ['is blocked: Requests to localhost are not allowed']],
    ['the local network', 'http://10.1.2.3/a.git', ['is blocked: Requests to the local network are not allowed']],
    ['a user name starting with a dash', 'ssh://-oProxyCommand@example.com/a.git', ['is blocked: Username needs to start with an alphanumeric character']],
  ])('answers 400 for %s and stores nothing', async (_what, url, messages) => {
    const res = await api.post('/projects/21/remote_mirrors', { as: 'max', body: { url } })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ message: { url: messages } })
    expect(sim().db.tables.remote_mirrors.all()).toHaveLength(1)
  })

  it('answers 400 without url', async () => {
    const res = await api.post('/projects/21/remote_mirrors', { as: 'max', body: {} })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: 'url is missing' })
  })

  it('answers 401 to a developer, before any parameter error', async () => {
    await expect(await api.post('/projects/20/remote_mirrors', { as: 'devon', body: {} })).toBeGitLabError(401, UNAUTHORIZED)
  })
})

contract('PUT /projects/:id/remote_mirrors/:mirror_id', {}, ({ api }) => {
  it('updates the settings and keeps the rest', async () => {
    const res = await api.put('/projects/20/remote_mirrors/1', { as: 'max', body: { enabled: false, only_protected_branches: false, keep_divergent_refs: true } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ...MIRROR_1, enabled: false, only_protected_branches: false, keep_divergent_refs: true })
    expect((await api.get('/projects/20/remote_mirrors', { as: 'max' })).body[0].enabled).toBe(false)
  })

  it('answers 404 Not found for another project\'s or an unknown mirror', async () => {
    await expect(await api.put('/projects/21/remote_mirrors/1', { as: 'max', body: { enabled: true } })).toBeGitLabError(404, { message: '404 Not found' })
    await expect(await api.put('/projects/20/remote_mirrors/99', { as: 'max', body: { enabled: true } })).toBeGitLabError(404, { message: '404 Not found' })
  })

  it('answers 401 to a developer', async () => {
    await expect(await api.put('/projects/20/remote_mirrors/1', { as: 'devon', body: { enabled: false } })).toBeGitLabError(401, UNAUTHORIZED)
  })
})
