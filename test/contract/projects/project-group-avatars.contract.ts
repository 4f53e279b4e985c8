/**
 * Project and group avatars uploaded with `POST /projects`, `PUT /projects/:id`, `POST /groups` and
 * `PUT /groups/:id` (`avatar`, a multipart file), over both doors: `avatar_url` then points at
 * `<host>/uploads/-/system/<project|group>/avatar/:id/:filename`, which serves the bytes to whoever
 * may read the project or group (an anonymous browser is sent to sign in, a signed-in non-reader
 * gets the web 404). Validation as GitLab's `Avatarable`: image extensions only, at most 200 KB,
 * a refused upload changing nothing. Issue 34 item 1; gitlab (13.12): lib/api/projects.rb,
 * lib/api/groups.rb, app/models/concerns/avatarable.rb, app/uploaders/avatar_uploader.rb,
 * app/controllers/uploads_controller.rb (`authorize_access!`).
 * Default scenario: acme (10, public) with acme/website (20, public), acme/platform/api (21,
 * private), secret-lab (12, private, olive owns it); olive owner of acme, max maintainer, devon a
 * developer with a browser session, nora without memberships.
 */
import { expect, it } from 'vitest'
import { contract, type ApiResponse, type RequestOptions } from '../../support/contract.js'

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
const GIF = new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0])
const FORMATS = 'file format is not supported. Please try one of the following supported formats: png, jpg, jpeg, gif, bmp, tiff, ico, webp'
const TOO_BIG = 'is too big (should be at most 200 KB)'
const DEVON_SESSION: RequestOptions = { headers: { cookie: '_gitlab_session=session-devon-fakelab' } }

/** A multipart body with `fields` and an `avatar` file. */
function form(fields: Record<string, string>, filename: string, bytes: Uint8Array<ArrayBuffer> = PNG, type = 'image/png'): FormData {
  const body = new FormData()
  for (const [key, value] of Object.entries(fields)) body.append(key, value)
  body.append('avatar', new File([bytes], filename, { type }))
  return body
}

/** The avatar path of an absolute `avatar_url`. */
const pathOf = (res: ApiResponse) => new URL(res.body.avatar_url).pathname

contract('project avatars', {}, ({ api }) => {
  it('creates a project with an avatar: avatar_url points at the file, served with its type', async () => {
    const made = await api.post('/projects', { as: 'max', multipart: form({ name: 'Pictured', visibility: 'public' }, 'logo.png') })
    expect(made.status).toBe(201)
    expect(made.body.avatar_url).toBe(`${api.baseUrl}/uploads/-/system/project/avatar/${made.body.id}/logo.png`)
    const file = await api.get(pathOf(made))
    expect([file.status, file.headers.get('content-type'), file.headers.get('content-disposition')]).toEqual([200, 'image/png', `inline; filename="logo.png"; filename*=UTF-8''logo.png`])
    expect(file.bytes).toEqual(PNG)
    // The project entities show it: GET /projects/:id (Project), GET /projects?simple=true (BasicProjectDetails).
    expect((await api.get(`/projects/${made.body.id}`, { as: 'max' })).body.avatar_url).toBe(made.body.avatar_url)
    const simple = await api.get('/projects', { as: 'max', query: { simple: 'true', search: 'Pictured' } })
    expect(simple.body.map((p: { avatar_url: string }) => p.avatar_url)).toEqual([made.body.avatar_url])
  })

  it('takes an avatar on POST /projects/user/:user_id too', async () => {
    const made = await api.post('/projects/user/7', { as: 'root', multipart: form({ name: 'Noras', visibility: 'public' }, 'n.jpg', new Uint8Array([0xff, 0xd8, 0xff]), 'image/jpeg') })
    expect([made.status, pathOf(made)]).toEqual([201, `/uploads/-/system/project/avatar/${made.body.id}/n.jpg`])
    expect((await api.get(pathOf(made))).headers.get('content-type')).toBe('image/jpeg')
    const bad = await api.post('/projects/user/7', { as: 'root', multipart: form({ name: 'Noras2' }, 'n.svg') })
    expect([bad.status, bad.body]).toEqual([400, { message: { avatar: [FORMATS], base: [`Unable to save project. Error: Avatar ${FORMATS}`] } }])
  })

  it('replaces a project\'s avatar with PUT: the new file is served, the old URL is gone', async () => {
    const first = await api.put('/projects/20', { as: 'max', multipart: form({}, 'one.png') })
    expect([first.status, pathOf(first)]).toEqual([200, '/uploads/-/system/project/avatar/20/one.png'])
    const second = await api.put('/projects/20', { as: 'max', multipart: form({ description: 'New' }, 'my logo.gif', GIF, 'image/gif') })
    expect([second.status, second.body.description, pathOf(second)]).toEqual([200, 'New', '/uploads/-/system/project/avatar/20/my_logo.gif'])
    const served = await api.get(pathOf(second))
    expect([served.status, served.headers.get('content-type'), [...served.bytes]]).toEqual([200, 'image/gif', [...GIF]])
    expect((await api.get(pathOf(first))).status).toBe(404)
  })

  it.each([
    ['a file that is not an image', 'notes.txt', new Uint8Array([104, 105]), { avatar: [FORMATS] }],
    ['an image over 200 KB', 'big.png', new Uint8Array(200 * 1024 + 1), { avatar: [TOO_BIG] }],
  ])('refuses %s on PUT with the model error, changing nothing', async (_, filename, bytes, errors) => {
    const res = await api.put('/projects/20', { as: 'max', multipart: form({ description: 'Changed' }, filename, bytes) })
    expect([res.status, res.body]).toEqual([400, { message: errors }])
    const after = (await api.get('/projects/20', { as: 'max' })).body
    expect([after.avatar_url, after.description]).toEqual([null, 'The Acme website'])
  })

  it('refuses a bad avatar on POST with the other model errors and the base message, creating nothing', async () => {
    const res = await api.post('/projects', { as: 'max', multipart: form({ name: 'Broken' }, 'x.html') })
    expect([res.status, res.body]).toEqual([400, { message: { avatar: [FORMATS], base: [`Unable to save project. Error: Avatar ${FORMATS}`], limit_reached: [] } }])
    expect((await api.get('/projects', { as: 'max', query: { search: 'Broken' } })).body).toEqual([])
  })

  it('serves a private project\'s avatar to its readers only', async () => {
    const put = await api.put('/projects/21', { as: 'olive', multipart: form({}, 'api.png') })
    expect(put.status).toBe(200)
    expect((await api.get(pathOf(put), DEVON_SESSION)).status).toBe(200)
    const anonymous = await api.get(pathOf(put), { redirect: 'manual' })
    expect([anonymous.status, anonymous.headers.get('location')]).toEqual([302, `${api.baseUrl}/users/sign_in`])
  })

  it.each([
    ['an unknown project', '/uploads/-/system/project/avatar/9999/logo.png'],
    ['a project without that upload', '/uploads/-/system/project/avatar/20/logo.png'],
  ])('answers 404 for %s', async (_, path) => {
    const res = await api.get(path)
    expect([res.status, res.headers.get('content-type')]).toEqual([404, 'text/html; charset=utf-8'])
  })
})

contract('group avatars', {}, ({ api }) => {
  it('creates a group with an avatar: avatar_url points at the file, served with its type', async () => {
    const made = await api.post('/groups', { as: 'root', multipart: form({ name: 'Pictured', path: 'pictured', visibility: 'public' }, 'badge.png') })
    expect(made.status).toBe(201)
    expect(made.body.avatar_url).toBe(`${api.baseUrl}/uploads/-/system/group/avatar/${made.body.id}/badge.png`)
    const file = await api.get(pathOf(made))
    expect([file.status, file.headers.get('content-type'), file.headers.get('content-disposition')]).toEqual([200, 'image/png', `inline; filename="badge.png"; filename*=UTF-8''badge.png`])
    expect(file.bytes).toEqual(PNG)
    expect((await api.get('/groups', { as: 'root', query: { search: 'pictured' } })).body[0].avatar_url).toBe(made.body.avatar_url)
  })

  it('replaces a group\'s avatar with PUT; its projects\' namespace shows it', async () => {
    const first = await api.put('/groups/10', { as: 'olive', multipart: form({}, 'one.png') })
    expect([first.status, pathOf(first)]).toEqual([200, '/uploads/-/system/group/avatar/10/one.png'])
    const second = await api.put('/groups/10', { as: 'olive', multipart: form({ description: 'Pictured' }, 'two.gif', GIF, 'image/gif') })
    expect([second.status, second.body.description, pathOf(second)]).toEqual([200, 'Pictured', '/uploads/-/system/group/avatar/10/two.gif'])
    const served = await api.get(pathOf(second))
    expect([served.status, served.headers.get('content-type'), [...served.bytes]]).toEqual([200, 'image/gif', [...GIF]])
    expect((await api.get(pathOf(first))).status).toBe(404)
    expect((await api.get('/projects/20')).body.namespace.avatar_url).toBe(second.body.avatar_url)
  })

  it.each([
    ['a file that is not an image', 'notes.txt', new Uint8Array([104, 105]), { avatar: [FORMATS] }],
    ['an image over 200 KB', 'big.png', new Uint8Array(200 * 1024 + 1), { avatar: [TOO_BIG] }],
  ])('refuses %s on PUT with the model error, changing nothing', async (_, filename, bytes, errors) => {
    const before = (await api.get('/groups/10', { as: 'olive' })).body.description
    const res = await api.put('/groups/10', { as: 'olive', multipart: form({ description: 'Changed' }, filename, bytes) })
    expect([res.status, res.body]).toEqual([400, { message: errors }])
    const after = (await api.get('/groups/10', { as: 'olive' })).body
    expect([after.avatar_url, after.description]).toEqual([null, before])
    expect(before).not.toBe('Changed')
  })

  it('refuses a bad avatar on POST with Groups::CreateService\'s message, creating nothing', async () => {
    const res = await api.post('/groups', { as: 'root', multipart: form({ name: 'Broken', path: 'broken' }, 'x.html') })
    expect([res.status, res.body]).toEqual([400, { message: `Failed to save group {:avatar=>["${FORMATS}"]}` }])
    expect((await api.get('/groups/broken', { as: 'root' })).status).toBe(404)
  })

  it('refuses non-owners before looking at the avatar', async () => {
    const res = await api.put('/groups/10', { as: 'max', multipart: form({}, 'x.html') })
    expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden' }])
  })

  it('serves a private group\'s avatar to its readers only', async () => {
    const put = await api.put('/groups/12', { as: 'olive', multipart: form({}, 'lab.png') })
    expect(put.status).toBe(200)
    const devon = await api.get(pathOf(put), DEVON_SESSION)
    expect([devon.status, devon.headers.get('content-type')]).toEqual([404, 'text/html; charset=utf-8'])
    const anonymous = await api.get(pathOf(put), { redirect: 'manual' })
    expect([anonymous.status, anonymous.headers.get('location')]).toEqual([302, `${api.baseUrl}/users/sign_in`])
    const admin = await api.get(pathOf(put), { headers: { cookie: '_gitlab_session=session-root-fakelab' } })
    expect([admin.status, [...admin.bytes]]).toEqual([200, [...PNG]])
  })
})
