/**
 * The package registry: generic packages uploaded and downloaded (the bytes as sent), a project's
 * and a group's packages listed with their filters, a package read and deleted, its files listed;
 * the 13.x path rules and their 400 texts; deploy tokens with package registry scopes.
 * Source: gitlab (13.12): lib/api/generic_packages.rb, project_packages.rb, group_packages.rb,
 * package_files.rb, entities/package.rb, entities/package_file.rb; python-gitlab
 * tests/functional/api/test_packages.py, cli/test_cli_packages.py.
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

const GENERIC = '/projects/20/packages/generic/hello-world/v1.0.0/hello.tar.gz'

contract('package registry', {}, ({ api, sim }) => {
  it('uploads a generic package file and downloads its bytes', async () => {
    const put = await api.put(GENERIC, { as: 'devon', rawBody: 'package content', headers: { 'content-type': 'application/octet-stream' } })
    expect(put.status).toBe(201)
    expect(put.text).toBe('{"message":"201 Created"}')
    const got = await api.get(GENERIC, { as: 'devon' })
    expect(got.status).toBe(200)
    expect(got.text).toBe('package content')
    expect(got.headers.get('content-type')).toBe('application/octet-stream')
    expect(got.headers.get('content-disposition')).toBe('attachment; filename="hello.tar.gz"; filename*=UTF-8\'\'hello.tar.gz')
    // A public project's packages are public: anonymous reads them.
    expect((await api.get(GENERIC)).text).toBe('package content')
    const listed = await api.get('/projects/20/packages', { as: 'devon', query: { package_name: 'hello' } })
    expect(listed.body).toEqual([{
      id: expect.any(Number), name: 'hello-world', version: 'v1.0.0', package_type: 'generic',
      _links: { web_path: `/acme/website/-/packages/${listed.body[0].id}` },
      created_at: '2021-04-01T12:00:00.000Z', tags: [], versions: [],
    }])
  })

  it('answers the package file with select=package_file, and sets the status', async () => {
    const put = await api.put(`${GENERIC}?select=package_file&status=hidden`, { as: 'devon', rawBody: 'abc' })
    expect(put.status).toBe(200)
    expect(put.body).toEqual({
      id: expect.any(Number), package_id: expect.any(Number), created_at: '2021-04-01T12:00:00.000Z', file_name: 'hello.tar.gz', size: 3,
      file_md5: '900150983cd24fb0d6963f7d28e17f72', file_sha1: 'a9993e364706816aba3e25717850c26c9cd0d89d',
    })
    expect(sim().db.tables.packages.get(put.body.package_id)?.status).toBe('hidden')
    // The same file again is another file; the download takes the newest.
    await api.put(GENERIC, { as: 'devon', rawBody: 'newer' })
    expect((await api.get(GENERIC, { as: 'devon' })).text).toBe('newer')
    const files = await api.get(`/projects/20/packages/${put.body.package_id}/package_files`, { as: 'devon' })
    expect(files.body.map((f: { size: number }) => f.size)).toEqual([3, 5])
  })

  it.each([
    ['/projects/20/packages/generic/bad%20name/1.0.0/f.txt', 'package_name is invalid'],
    ['/projects/20/packages/generic/ok/1..0/f.txt', 'package_version is invalid'],
    ['/projects/20/packages/generic/ok/1.0.0/f%24.txt', 'file_name is invalid'],
    ['/projects/20/packages/generic/../1.0.0/f.txt', null],
  ])('refuses %s', async (path, error) => {
    const res = await api.put(path, { as: 'devon', rawBody: 'x' })
    if (error) expect(res).toBeGitLabError(400, { error })
    else expect(res.status).toBe(404)
  })

  it('checks who uploads and downloads', async () => {
    expect(await api.put(GENERIC, { rawBody: 'x' })).toBeGitLabError(401, { message: '401 Unauthorized' })
    expect(await api.put(GENERIC, { as: 'riley', rawBody: 'x' })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect(await api.put(GENERIC, { as: 'devon', rawBody: 'x', query: { status: 'gone' } })).toBeGitLabError(400, { error: 'status does not have a valid value' })
    expect(await api.get('/projects/20/packages/generic/none/1.0.0/x.txt', { as: 'devon' })).toBeGitLabError(404, { message: '404 Not found' })
    expect(await api.get('/projects/21/packages/generic/api-client/2.0.0/client.zip', { as: 'nora' })).toBeGitLabError(404, { message: '404 Project Not Found' })
    expect(await api.get('/projects/21/packages/generic/api-client/2.0.0/client.zip', { as: 'gina' })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect((await api.get('/projects/21/packages/generic/api-client/2.0.0/client.zip', { as: 'riley' })).text).toBe('api client')
  })

  it('takes a deploy token with package registry scopes', async () => {
    sim().db.tables.deploy_tokens.insert({
      name: 'packages', username: null, token: 'fakelab-deploy-packages', scopes: ['read_package_registry'], revoked: false, expires_at: null,
      project_id: 21, group_id: null, created_at: '2021-03-12T10:00:00.000Z',
    } as never)
    const headers = { 'Deploy-Token': 'fakelab-deploy-packages' }
    expect((await api.get('/projects/21/packages/generic/api-client/2.0.0/client.zip', { headers })).text).toBe('api client')
    expect(await api.put('/projects/21/packages/generic/api-client/2.0.0/other.zip', { headers, rawBody: 'x' })).toBeGitLabError(403, { message: '403 Forbidden' })
    // Another project: its own packages only, and a public project's as anyone's.
    expect(await api.get('/projects/24/packages/generic/x/1.0.0/x.txt', { headers })).toBeGitLabError(404, { message: '404 Project Not Found' })
    expect((await api.get('/projects/20/packages/generic/site-bundle/1.0.0/bundle.tar.gz', { headers })).text).toBe('site bundle 1.0.0')
  })

  it('lists, reads and deletes a project\'s packages', async () => {
    const list = await api.get('/projects/20/packages', { as: 'max' })
    expect(list.status).toBe(200)
    expect(list.headers.get('x-total')).toBe('2')
    expect(list.body[0]).toEqual({
      id: 1100, name: 'site-bundle', version: '1.0.0', package_type: 'generic',
      _links: { web_path: '/acme/website/-/packages/1100', delete_api_path: `${api.baseUrl}/api/v4/projects/20/packages/1100` },
      created_at: '2021-03-15T10:00:00.000Z', tags: [],
      versions: [{ id: 1101, version: '1.1.0', created_at: '2021-03-16T10:00:00.000Z', tags: [] }],
    })
    expect((await api.get('/projects/20/packages', { as: 'max', query: { order_by: 'version', sort: 'desc' } })).body.map((p: { id: number }) => p.id)).toEqual([1101, 1100])
    expect((await api.get('/projects/20/packages', { as: 'max', query: { package_type: 'npm' } })).body).toEqual([])
    expect(await api.get('/projects/20/packages', { query: { package_type: 'cargo' } })).toBeGitLabError(400, { error: 'package_type does not have a valid value' })
    expect((await api.get('/projects/20/packages/1101', { as: 'gina' })).body._links).toEqual({ web_path: '/acme/website/-/packages/1101' })
    expect(await api.get('/projects/20/packages/1102', { as: 'max' })).toBeGitLabError(404, { message: '404 Not found' })
    const files = await api.get('/projects/20/packages/1100/package_files', { as: 'max' })
    expect(files.body).toEqual([{ id: expect.any(Number), package_id: 1100, created_at: '2021-03-15T10:00:00.000Z', file_name: 'bundle.tar.gz', size: 17, file_md5: expect.stringMatching(/^[0-9a-f]{32}$/), file_sha1: expect.stringMatching(/^[0-9a-f]{40}$/) }])
    expect(await api.delete('/projects/20/packages/1100', { as: 'devon' })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect((await api.delete('/projects/20/packages/1100', { as: 'max' })).status).toBe(204)
    expect(await api.get('/projects/20/packages/1100', { as: 'max' })).toBeGitLabError(404, { message: '404 Not found' })
    expect(sim().db.tables.package_files.where('package_id', 1100)).toEqual([])
  })

  it('lists a group\'s packages, its subgroups\' unless excluded, each with its project', async () => {
    const all = await api.get('/groups/10/packages', { as: 'max' })
    expect(all.body.map((p: { id: number; project_path: string }) => [p.id, p.project_path])).toEqual([[1100, 'acme/website'], [1102, 'acme/platform/api'], [1101, 'acme/website']])
    expect(all.body[1].project_id).toBe(21)
    const own = await api.get('/groups/10/packages', { as: 'max', query: { exclude_subgroups: true, order_by: 'project_path' } })
    expect(own.body.map((p: { id: number }) => p.id)).toEqual([1100, 1101])
    // Anonymous sees the public group's public project's packages only.
    expect((await api.get('/groups/10/packages')).body.map((p: { id: number }) => p.id)).toEqual([1100, 1101])
    expect(await api.get('/groups/11/packages', { as: 'nora' })).toBeGitLabError(404, { message: '404 Group Not Found' })
  })
})
