/**
 * Avatars uploaded with `POST /users` and `PUT /users/:id` (`avatar`, a multipart file), over both
 * doors: `avatar_url` then points at `<host>/uploads/-/system/user/avatar/:id/:filename`, which
 * serves the uploaded bytes to anyone (user avatars are public). Validation as GitLab's
 * `Avatarable`: image extensions only, at most 200 KB. Issue 23 item 22; gitlab (13.x):
 * lib/api/users.rb, app/models/concerns/avatarable.rb, app/uploaders/avatar_uploader.rb,
 * app/controllers/uploads_controller.rb.
 * Default scenario: root is the administrator, nora (7) an ordinary user, max a maintainer.
 */
import { expect, it } from 'vitest'
import { contract, type ApiResponse } from '../../support/contract.js'

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
const FORMATS = 'file format is not supported. Please try one of the following supported formats: png, jpg, jpeg, gif, bmp, tiff, ico, webp'

/** A multipart body with `fields` and an `avatar` file. */
function form(fields: Record<string, string>, filename: string, bytes: Uint8Array<ArrayBuffer> = PNG, type = 'image/png'): FormData {
  const body = new FormData()
  for (const [key, value] of Object.entries(fields)) body.append(key, value)
  body.append('avatar', new File([bytes], filename, { type }))
  return body
}

/** The avatar path of an absolute `avatar_url`. */
const pathOf = (res: ApiResponse) => new URL(res.body.avatar_url).pathname

contract('POST /users and PUT /users/:id with an avatar', {}, ({ api }) => {
  it('creates a user with an uploaded avatar: avatar_url points at the file, served to anyone', async () => {
    const made = await api.post('/users', { as: 'root', multipart: form({ email: 'ava@example.com', name: 'Ava', username: 'ava', password: 'secret-password-1' }, 'face.png') })
    expect(made.status).toBe(201)
    expect(made.body.avatar_url).toBe(`${api.baseUrl}/uploads/-/system/user/avatar/${made.body.id}/face.png`)
    const file = await api.get(pathOf(made))
    expect([file.status, file.headers.get('content-type'), file.headers.get('content-disposition')]).toEqual([200, 'image/png', `inline; filename="face.png"; filename*=UTF-8''face.png`])
    expect(file.bytes).toEqual(PNG)
    // Every user entity shows it: GET /users/:id (User), GET /users (UserBasic).
    expect((await api.get(`/users/${made.body.id}`, { as: 'max' })).body.avatar_url).toBe(made.body.avatar_url)
    expect((await api.get('/users', { as: 'max', query: { username: 'ava' } })).body[0].avatar_url).toBe(made.body.avatar_url)
  })

  it('replaces a user\'s avatar: the new file is served, the old URL is gone', async () => {
    const first = await api.put('/users/7', { as: 'root', multipart: form({}, 'one.png') })
    expect([first.status, pathOf(first)]).toEqual([200, '/uploads/-/system/user/avatar/7/one.png'])
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3])
    const second = await api.put('/users/7', { as: 'root', multipart: form({ bio: 'new bio' }, 'my photo.jpg', jpeg, 'image/jpeg') })
    expect([second.status, second.body.bio, pathOf(second)]).toEqual([200, 'new bio', '/uploads/-/system/user/avatar/7/my_photo.jpg'])
    const served = await api.get(pathOf(second))
    expect([served.status, served.headers.get('content-type'), [...served.bytes]]).toEqual([200, 'image/jpeg', [...jpeg]])
    expect((await api.get(pathOf(first))).status).toBe(404)
  })

  it.each([
    ['a file that is not an image', 'notes.txt', new Uint8Array([104, 105]), { avatar: [FORMATS] }],
    ['an image over 200 KB', 'big.png', new Uint8Array(200 * 1024 + 1), { avatar: ['is too big (should be at most 200 KB)'] }],
  ])('refuses %s with the model error, changing nothing', async (_, filename, bytes, errors) => {
    const res = await api.put('/users/7', { as: 'root', multipart: form({}, filename, bytes) })
    expect([res.status, res.body]).toEqual([400, { message: errors }])
    expect((await api.get('/users/7', { as: 'root' })).body.avatar_url).toBeNull()
  })

  it('reports the avatar error with the other model errors of a create', async () => {
    const res = await api.post('/users', { as: 'root', multipart: form({ email: 'not-an-email', name: 'X', username: 'x-avatar', password: 'secret-password-1' }, 'x.html') })
    expect([res.status, res.body]).toEqual([400, { message: { email: ['is invalid'], avatar: [FORMATS] } }])
  })

  it('refuses non-administrators before looking at the avatar', async () => {
    const res = await api.put('/users/7', { as: 'max', multipart: form({}, 'face.png') })
    expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden' }])
  })

  it.each([
    ['an unknown user', '/uploads/-/system/user/avatar/9999/face.png'],
    ['a user without that upload', '/uploads/-/system/user/avatar/7/face.png'],
  ])('answers 404 for %s', async (_, path) => {
    expect((await api.get(path)).status).toBe(404)
  })
})
