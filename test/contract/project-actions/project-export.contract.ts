/**
 * Project and group export and import over both doors (lib/api/project_export.rb,
 * project_import.rb, group_export.rb, group_import.rb, 13.12): the export status before and after
 * an export (`_links` only when finished), the download (a tar.gz of fakelab's own export), an
 * import of it into a new project with the same repository, a failed import of a file that is not
 * an export, 404 before any export, and the group export read back by `POST /groups/import`.
 * Default scenario: project 20 acme/website (max maintains it), group 10 acme (olive owns it).
 */
import { gunzipSync } from 'fflate'
import { parseTar } from 'nanotar'
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

function fileForm(bytes: Uint8Array, fields: Record<string, string>): FormData {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) form.append(k, v)
  form.append('file', new Blob([bytes as BlobPart]), 'export.tar.gz')
  return form
}

contract('project export and import', {}, ({ api, transport }) => {
  it('exports a project and imports the download as a new project', async () => {
    expect(await api.get('/projects/20/export/download', { as: 'max' })).toMatchObject({ status: 404, body: { message: '404 Not found or has expired' } })
    const before = await api.get('/projects/20/export', { as: 'max' })
    expect(before.body).toMatchObject({ id: 20, path_with_namespace: 'acme/website', export_status: 'none' })
    expect(before.body._links).toBeUndefined()
    expect(await api.post('/projects/20/export', { as: 'max' })).toMatchObject({ status: 202, body: { message: '202 Accepted' } })
    const status = await api.get('/projects/20/export', { as: 'max' })
    expect(Object.keys(status.body)).toEqual(['id', 'description', 'name', 'name_with_namespace', 'path', 'path_with_namespace', 'created_at', 'export_status', '_links'])
    expect(status.body._links).toEqual({ api_url: `${api.baseUrl}/api/v4/projects/20/export/download`, web_url: `${api.baseUrl}/acme/website/download_export` })

    const file = await api.get('/projects/20/export/download', { as: 'max' })
    expect(file.status).toBe(200)
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="\d{4}-\d\d-\d\d_\d\d-\d\d-\d{3}_acme_website_export\.tar\.gz"/)
    const names = parseTar(gunzipSync(file.bytes)).map((e) => e.name)
    expect(names).toEqual(['VERSION', 'project.json'])

    const imported = await api.post('/projects/import', { as: 'max', multipart: fileForm(file.bytes, { path: `imported-${transport}`, name: 'Imported Project' }) })
    expect(imported.status).toBe(201)
    expect(imported.body).toMatchObject({ path: `imported-${transport}`, name: 'Imported Project', path_with_namespace: `max/imported-${transport}`, import_status: 'finished', failed_relations: [], import_error: null })
    const state = await api.get(`/projects/${imported.body.id}/import`, { as: 'max' })
    expect(state.body).toEqual(imported.body)
    const branches = async (id: number) => (await api.get(`/projects/${id}/repository/branches`, { as: 'max' })).body.map((b: { name: string; commit: { id: string } }) => [b.name, b.commit.id])
    expect(await branches(imported.body.id)).toEqual(await branches(20))
    expect((await api.get(`/projects/${imported.body.id}`, { as: 'max' })).body.import_status).toBe('finished')
  })

  it('marks the import of a file that is no export failed, and refuses a taken path with 400 (the first full message)', async () => {
    const bad = await api.post('/projects/import', { as: 'max', multipart: fileForm(new TextEncoder().encode('not a tarball'), { path: 'broken' }) })
    expect(bad.status).toBe(201)
    expect(bad.body).toMatchObject({ name: 'broken', import_status: 'failed', import_error: 'Unable to decompress the import file' })
    const taken = await api.post('/projects/import', { as: 'max', multipart: fileForm(new Uint8Array([1]), { path: 'broken' }) })
    expect(taken).toMatchObject({ status: 400, body: { message: 'Route path has already been taken' } })
  })

  it('exports a group and imports it under a new path', async () => {
    expect(await api.get('/groups/10/export/download', { as: 'olive' })).toMatchObject({ status: 404, body: { message: '404 Not found or has expired' } })
    expect(await api.post('/groups/10/export', { as: 'max' })).toMatchObject({ status: 403 })
    expect((await api.post('/groups/10/export', { as: 'olive' })).status).toBe(202)
    const file = await api.get('/groups/10/export/download', { as: 'olive' })
    expect(file.status).toBe(200)
    expect(parseTar(gunzipSync(file.bytes)).map((e) => e.name)).toEqual(['VERSION', 'group.json'])
    const res = await api.post('/groups/import', { as: 'root', multipart: fileForm(file.bytes, { path: 'imported_group', name: 'Imported Group' }) })
    expect(res).toMatchObject({ status: 202, body: { message: '202 Accepted' } })
    const group = await api.get('/groups/imported_group', { as: 'root' })
    expect(group.body).toMatchObject({ path: 'imported_group', name: 'Imported Group', visibility: 'private' })
  })
})
