/**
 * The bytes of an uploaded metric image, served at the `file_path` its entity shows (outside
 * `/api/v4`), over both doors: exact bytes and `Content-Type`, GitLab's web answers for a missing
 * image (HTML 404) and for one the caller may not read (404 signed in, a redirect to sign in
 * anonymous), with only the session cookie counting. Source: issue 8; gitlab:
 * app/controllers/uploads_controller.rb (13.x), ee/app/controllers/ee/uploads_controller.rb,
 * app/controllers/concerns/send_file_upload.rb.
 *
 * Default scenario: issue 4 of ivy/tracker (project 30, public) is an incident riley (Reporter) may
 * add images to; project 21 acme/platform/api is private (acme's members; nora is none), issue 404
 * is its issue; ivy/tracker #5 (409) is confidential. Sessions: `session-devon-fakelab` (devon, developer of acme), `session-root-fakelab`.
 */
import { expect, it } from 'vitest'
import { contract, type ApiResponse, type RequestOptions } from '../../support/contract.js'

const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 255, 128, 7])
const DEVON_SESSION: RequestOptions = { headers: { cookie: '_gitlab_session=session-devon-fakelab' } }

function upload(name: string, type: string): FormData {
  const form = new FormData()
  form.append('file', new File([PNG], name, { type }))
  return form
}

function expectHtml404(res: ApiResponse): void {
  expect(res.status).toBe(404)
  expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
  expect(res.text).toContain('<title>Not Found</title>')
}

contract('GET /uploads/-/system/issuable_metric_image/file/:id/:filename', {}, ({ api, sim }) => {
  /** Stores an image on issue `issueId` straight in the store (any project), returns its file path. */
  function storeImage(issueId: number, filename = 'chart.png'): string {
    const image = sim().db.tables.issuable_metric_images.insert({
      issue_id: issueId,
      filename,
      data: btoa(String.fromCharCode(...PNG)),
      content_type: 'image/png',
      url: null,
      created_at: '2021-04-01T12:00:00.000Z',
    })
    return `/uploads/-/system/issuable_metric_image/file/${image.id}/${encodeURIComponent(filename)}`
  }

  it('serves the uploaded bytes at the file_path the entity shows, to anyone on a public project', async () => {
    const made = await api.post('/projects/30/issues/4/metric_images', { as: 'riley', multipart: upload('graph.png', 'image/png') })
    expect(made.status).toBe(201)
    const res = await api.get(made.body.file_path)
    expect(res.status).toBe(200)
    expect(res.bytes).toEqual(PNG)
    expect(res.headers.get('content-type')).toBe('image/png')
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="graph.png"; filename*=UTF-8''graph.png`)
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    const listed = await api.get('/projects/30/issues/4/metric_images')
    expect(listed.body.map((image: { file_path: string }) => image.file_path)).toContain(made.body.file_path)
  })

  it.each([
    ['chart.jpeg', 'image/jpeg', 'inline'],
    ['clip.webm', 'video/webm', 'inline'],
    ['data.csv', 'application/octet-stream', 'attachment'],
    ['NOTES', 'application/octet-stream', 'attachment'],
  ])('types %s by its extension as GitLab does: %s, %s', async (filename, type, disposition) => {
    const res = await api.get(storeImage(408, filename))
    expect([res.status, res.headers.get('content-type'), res.headers.get('content-disposition')?.split(';')[0]]).toEqual([200, type, disposition])
    expect(res.bytes).toEqual(PNG)
  })

  it('answers HEAD with the headers and no body', async () => {
    const res = await api.request('HEAD', storeImage(408))
    expect([res.status, res.headers.get('content-type'), res.bytes.length]).toEqual([200, 'image/png', 0])
  })

  it.each([
    ['an unknown id', (path: string) => path.replace(/file\/\d+\//, 'file/99999/')],
    ['another filename', (path: string) => path.replace('chart.png', 'other.png')],
    ['a non-numeric id', (path: string) => path.replace(/file\/\d+\//, 'file/abc/')],
  ])('answers %s with GitLab\'s web 404 (HTML)', async (_, change) => {
    expectHtml404(await api.get(change(storeImage(408))))
  })

  it('is gone once the image is deleted', async () => {
    const made = await api.post('/projects/30/issues/4/metric_images', { as: 'riley', multipart: upload('graph.png', 'image/png') })
    expect((await api.delete(`/projects/30/issues/4/metric_images/${made.body.id}`, { as: 'riley' })).status).toBe(204)
    expectHtml404(await api.get(made.body.file_path))
  })

  it.each([
    ['a signed-in member (session cookie)', DEVON_SESSION, 200],
    ['a signed-in administrator', { headers: { cookie: '_gitlab_session=session-root-fakelab' } }, 200],
  ])('serves an image of a private project to %s', async (_, options, status) => {
    const res = await api.get(storeImage(404), options)
    expect([res.status, res.bytes]).toEqual([status, PNG])
  })

  it('answers a signed-in non-member 404 (HTML), as for a missing image', async () => {
    sim().db.tables.user_sessions.insert({ user_id: 7, session_id: 'session-nora-test' })
    expectHtml404(await api.get(storeImage(404), { headers: { cookie: '_gitlab_session=session-nora-test' } }))
  })

  it('keeps an image of a confidential issue from those who may not see the issue', async () => {
    sim().db.tables.user_sessions.insert({ user_id: 7, session_id: 'session-nora-test' })
    const path = storeImage(409) // ivy/tracker #5, confidential, in a public project
    expect((await api.get(path, DEVON_SESSION)).status).toBe(200)
    expectHtml404(await api.get(path, { headers: { cookie: '_gitlab_session=session-nora-test' } }))
    const anonymous = await api.get(path, { redirect: 'manual' })
    expect(anonymous.status).toBe(302)
  })

  it('redirects an anonymous browser to sign in (Devise), for a private project', async () => {
    const res = await api.get(storeImage(404), { redirect: 'manual' })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe(`${api.baseUrl}/users/sign_in`)
  })

  it.each([
    ['a member\'s personal access token', { as: 'devon' }],
    ['an administrator\'s personal access token', { as: 'root' }],
    ['an OAuth token', { headers: { authorization: 'Bearer oauth-devon-fakelab' } }],
    ['an unknown token (no 401: the web ignores tokens)', { token: 'no-such-token' }],
  ])('ignores %s, as GitLab 13.x\'s uploads controller does: anonymous, so a redirect', async (_, options) => {
    const res = await api.get(storeImage(404), { ...(options as RequestOptions), redirect: 'manual' })
    expect([res.status, res.headers.get('location')]).toEqual([302, `${api.baseUrl}/users/sign_in`])
  })

  it.each([
    ['GET', '/uploads/-/system/issuable_metric_image/file/99999999999999999999999/x.png', 404],
    ['GET', '/uploads/-/system/issuable_metric_image/file/-1/x.png', 404],
    ['GET', '/uploads/-/system/issuable_metric_image/file/1/..%2F..%2Fetc%2Fpasswd', 404],
    ['GET', '/uploads/-/system/issuable_metric_image/file/1', 404],
    ['GET', '/uploads/-/system/issuable_metric_image/file/1/a/b', 404],
    ['POST', '/uploads/-/system/issuable_metric_image/file/1/x.png', 404],
    ['DELETE', '/uploads/-/system/issuable_metric_image/file/1/x.png', 404],
    ['GET', '/uploads/-/system/issuable_metric_image/file/1/%FF', 400],
  ])('answers %s %s with %i, never a 5xx', async (method, path, status) => {
    storeImage(408, 'x.png')
    const res = await api.request(method, path)
    expect(res.status).toBe(status)
  })

  it('changes nothing in the store', async () => {
    const path = storeImage(404)
    const before = JSON.stringify(sim().db.dump())
    await api.get(path, DEVON_SESSION)
    await api.get(path, { redirect: 'manual' })
    expect(JSON.stringify(sim().db.dump())).toBe(before)
  })
})
