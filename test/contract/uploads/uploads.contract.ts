/**
 * Project uploads over both doors: `POST /projects/:id/uploads` answers 13.12's
 * `Entities::ProjectUpload` (`alt`, `url`, `full_path`, `markdown`, in that order), the file is served
 * back at `/<namespace>/<project>/uploads/:secret/:filename` typed by its content as Workhorse does;
 * images to anyone, other files to readers of the project only. The size limit applies only with
 * `enforce_max_attachment_size_upload_api` (off in 13.12), with Workhorse's plain 413.
 * @semantic-release/gitlab's asset upload: upload, link the file into a release, fetch it.
 * Issue 34 item 1; gitlab (13.12): lib/api/projects.rb, lib/api/entities/project_upload.rb,
 * app/uploaders/file_uploader.rb, app/controllers/concerns/uploads_actions.rb.
 * Default scenario: 20 acme/website (public), 21 acme/platform/api (private, acme's members read it),
 * devon a developer of acme, nora nobody.
 */
import { expect, it } from 'vitest'
import { contract, type RequestOptions } from '../../support/contract.js'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
const DEVON_SESSION: RequestOptions = { headers: { cookie: '_gitlab_session=session-devon-fakelab' } }

/** A multipart body with one `file`. */
function fileForm(name: string, bytes: Uint8Array<ArrayBuffer> | string, type = 'application/octet-stream'): FormData {
  const body = new FormData()
  body.append('file', new File([bytes], name, { type }))
  return body
}

contract('POST /projects/:id/uploads', {}, ({ api }) => {
  it('stores an image and answers alt, url, full_path and markdown in that order; anyone may fetch it', async () => {
    const res = await api.post('/projects/20/uploads', { as: 'devon', multipart: fileForm('dk.png', PNG, 'image/png') })
    expect(res.status).toBe(201)
    expect(Object.keys(res.body)).toEqual(['alt', 'url', 'full_path', 'markdown'])
    const secret = /^\/uploads\/([0-9a-f]{32})\/dk\.png$/.exec(res.body.url)?.[1]
    expect(secret).toBeDefined()
    expect(res.body).toEqual({ alt: 'dk', url: `/uploads/${secret}/dk.png`, full_path: `/acme/website/uploads/${secret}/dk.png`, markdown: `![dk](/uploads/${secret}/dk.png)` })
    const served = await fetch(`${api.baseUrl}${res.body.full_path}`)
    expect([served.status, served.headers.get('content-type'), served.headers.get('content-disposition'), served.headers.get('cache-control')])
      .toEqual([200, 'image/png', `inline; filename="dk.png"; filename*=UTF-8''dk.png`, 'max-age=0, private, must-revalidate'])
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG)
  })

  it('names a file that is no image by its whole name and links it without !; two uploads get different secrets', async () => {
    const first = await api.post('/projects/20/uploads', { as: 'devon', multipart: fileForm('notes [draft].txt', 'hello\n') })
    const second = await api.post('/projects/20/uploads', { as: 'devon', multipart: fileForm('notes [draft].txt', 'hello\n') })
    expect([first.status, second.status]).toEqual([201, 201])
    expect(first.body.alt).toBe('notes__draft_.txt')
    expect(first.body.markdown).toBe(`[notes__draft_.txt](${first.body.url})`)
    expect(first.body.url).not.toBe(second.body.url)
  })

  it('escapes ] in alt and keeps Markdown image links for SVG (dangerous, so never embedded)', async () => {
    const res = await api.post('/projects/20/uploads', { as: 'devon', multipart: fileForm('logo.svg', '<svg xmlns="http://www.w3.org/2000/svg"></svg>') })
    expect([res.body.alt, res.body.markdown]).toEqual(['logo.svg', `![logo.svg](${res.body.url})`])
    const served = await fetch(`${api.baseUrl}${res.body.full_path}`)
    expect([served.status, served.headers.get('content-type'), served.headers.get('content-disposition')])
      .toEqual([200, 'image/svg+xml', `attachment; filename="logo.svg"; filename*=UTF-8''logo.svg`])
  })

  it('serves text as plain text and an archive by its content, both as attachments', async () => {
    const html = await api.post('/projects/20/uploads', { as: 'devon', multipart: fileForm('page.html', '<html><script>alert(1)</script></html>') })
    const zip = await api.post('/projects/20/uploads', { as: 'devon', multipart: fileForm('dist.zip', new Uint8Array([0x50, 0x4b, 3, 4, 20, 0, 0, 0])) })
    const page = await fetch(`${api.baseUrl}${html.body.full_path}`)
    expect([page.status, page.headers.get('content-type'), page.headers.get('content-disposition')])
      .toEqual([200, 'text/plain; charset=utf-8', `attachment; filename="page.html"; filename*=UTF-8''page.html`])
    const archive = await fetch(`${api.baseUrl}${zip.body.full_path}`)
    expect([archive.status, archive.headers.get('content-type'), archive.headers.get('content-disposition')])
      .toEqual([200, 'application/zip', `attachment; filename="dist.zip"; filename*=UTF-8''dist.zip`])
  })

  it('keeps a private project\'s files that are no images to its readers; its images go to anyone', async () => {
    const text = await api.post('/projects/21/uploads', { as: 'devon', multipart: fileForm('secret.txt', 'classified') })
    const image = await api.post('/projects/21/uploads', { as: 'devon', multipart: fileForm('shot.png', PNG) })
    expect([text.status, text.body.full_path]).toEqual([201, expect.stringMatching(/^\/acme\/platform\/api\/uploads\/[0-9a-f]{32}\/secret\.txt$/)])
    const url = `${api.baseUrl}${text.body.full_path}`
    const member = await fetch(url, { headers: DEVON_SESSION.headers })
    expect([member.status, await member.text()]).toEqual([200, 'classified'])
    // A token does not count on the web side: only the session cookie.
    const anonymous = await fetch(url, { headers: { 'PRIVATE-TOKEN': 'glpat-devon-fakelab' }, redirect: 'manual' })
    expect([anonymous.status, anonymous.headers.get('location')]).toEqual([302, `${api.baseUrl}/users/sign_in`])
    const picture = await fetch(`${api.baseUrl}${image.body.full_path}`)
    expect([picture.status, picture.headers.get('content-type')]).toEqual([200, 'image/png'])
  })

  it('answers the HTML 404 for an unknown secret or file name', async () => {
    const res = await api.post('/projects/20/uploads', { as: 'devon', multipart: fileForm('a.txt', 'a') })
    for (const path of [res.body.full_path.replace(/[0-9a-f]{32}/, '0'.repeat(32)), res.body.full_path.replace('a.txt', 'b.txt'), `/acme/nothing${res.body.url}`]) {
      const served = await fetch(`${api.baseUrl}${path}`, { headers: DEVON_SESSION.headers })
      expect([path, served.status]).toEqual([path, 404])
    }
  })

  it.each([
    ['anonymous', {}, 401, { message: '401 Unauthorized' }],
    ['a non-member of a private project', { as: 'nora' }, 404, { message: '404 Project Not Found' }],
  ])('refuses %s', async (_, who, status, body) => {
    const res = await api.post('/projects/21/uploads', { ...who, multipart: fileForm('a.txt', 'a') })
    expect([res.status, res.body]).toEqual([status, body])
  })

  it('lets any reader upload: 13.12 asks no more than user_project (a non-member of a public project)', async () => {
    expect((await api.post('/projects/20/uploads', { as: 'nora', multipart: fileForm('a.txt', 'a') })).status).toBe(201)
  })

  it.each([
    ['no file', new FormData(), { error: 'file is missing' }],
    ['a field where the file should be', (() => { const f = new FormData(); f.append('file', 'text'); return f })(), { error: 'file is invalid' }],
  ])('answers 400 for %s', async (_, multipart, body) => {
    const res = await api.post('/projects/20/uploads', { as: 'devon', multipart })
    expect([res.status, res.body]).toEqual([400, body])
  })

  it('takes a file over max_attachment_size while enforce_max_attachment_size_upload_api is off (13.12\'s default)', async () => {
    const res = await api.post('/projects/20/uploads', { as: 'devon', multipart: fileForm('big.bin', new Uint8Array(10 * 1024 * 1024 + 1)) })
    expect(res.status).toBe(201)
  })
})

const DEFAULT_YAML = readFileSync(join(import.meta.dirname, '..', '..', '..', 'scenarios', 'default.yaml'), 'utf8')
const ENFORCED = DEFAULT_YAML.replace('impersonation_enabled: true', 'impersonation_enabled: true\nmax_attachment_size: 1\nenforce_max_attachment_size_upload_api: true')

contract('POST /projects/:id/uploads with the attachment limit enforced', { scenario: ENFORCED }, ({ api, sim }) => {
  it('cuts off a file over max_attachment_size with Workhorse\'s 413 and stores nothing; one at the limit passes', async () => {
    const over = await api.post('/projects/20/uploads', { as: 'devon', multipart: fileForm('big.bin', new Uint8Array(1024 * 1024 + 1)) })
    expect([over.status, over.headers.get('content-type'), over.text]).toEqual([413, 'text/plain; charset=utf-8', 'Request Entity Too Large\n'])
    expect(sim().db.tables.project_uploads.all()).toHaveLength(0)
    const at = await api.post('/projects/20/uploads', { as: 'devon', multipart: fileForm('fits.bin', new Uint8Array(1024 * 1024)) })
    expect(at.status).toBe(201)
  })
})

contract('@semantic-release/gitlab: an uploaded asset linked into a release', {}, ({ api }) => {
  it('uploads the asset, creates the release with a link to it, and the link serves the file', async () => {
    // What the plugin does: POST the file, then join the GitLab URL, the project path and `url`
    // (later versions: the GitLab URL and `full_path`) into the release's assets links.
    const upload = await api.post(`/projects/${encodeURIComponent('acme/website')}/uploads`, { as: 'devon', multipart: fileForm('dist.tar.gz', new Uint8Array([0x1f, 0x8b, 8, 0, 1, 2]), 'application/gzip') })
    expect(upload.status).toBe(201)
    const link = `${api.baseUrl}/acme/website${upload.body.url}`
    expect(link).toBe(`${api.baseUrl}${upload.body.full_path}`)
    const release = await api.post('/projects/20/releases', {
      as: 'devon',
      body: { tag_name: 'v3.0.0', ref: 'main', name: 'v3.0.0', description: 'Release', assets: { links: [{ name: upload.body.alt, url: link, link_type: 'package' }] } },
    })
    expect(release.status).toBe(201)
    expect(release.body.assets.links).toEqual([expect.objectContaining({ name: 'dist.tar.gz', url: link, external: false, link_type: 'package' })])
    const got = await api.get('/projects/20/releases/v3.0.0', { as: 'devon' })
    const served = await fetch(got.body.assets.links[0].url)
    expect([served.status, served.headers.get('content-type'), served.headers.get('content-disposition')])
      .toEqual([200, 'application/x-gzip', `attachment; filename="dist.tar.gz"; filename*=UTF-8''dist.tar.gz`])
    expect([...new Uint8Array(await served.arrayBuffer())]).toEqual([0x1f, 0x8b, 8, 0, 1, 2])
  })
})
