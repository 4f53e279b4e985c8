/**
 * The MSW handlers claim the uploads fakelab serves (metric images' `file_path`, uploaded user,
 * project and group avatars' `avatar_url`) and no other path
 * under `/uploads`: an app's own upload requests still reach `onUnhandledRequest`.
 */
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { createHandlers } from '../../src/msw.js'

const unhandled: string[] = []
const server = setupServer(...createHandlers(createSimulator({ scenario: 'version: 1\n' }), { baseUrl: 'http://gitlab.test' }))
beforeAll(() => server.listen({ onUnhandledRequest: (request) => void unhandled.push(new URL(request.url).pathname) }))
afterAll(() => server.close())

it('answers under /uploads/-/system/issuable_metric_image/ and /uploads/-/system/{user,project,group}/avatar/, and leaves the rest of /uploads alone', async () => {
  const ours = await fetch('http://gitlab.test/uploads/-/system/issuable_metric_image/file/1/a.png')
  expect([ours.status, ours.headers.get('content-type')]).toEqual([404, 'text/html; charset=utf-8'])
  const avatar = await fetch('http://gitlab.test/uploads/-/system/user/avatar/1/a.png')
  expect([avatar.status, avatar.headers.get('content-type')]).toEqual([404, 'text/html; charset=utf-8'])
  for (const kind of ['project', 'group']) {
    const other = await fetch(`http://gitlab.test/uploads/-/system/${kind}/avatar/1/a.png`)
    expect([other.status, other.headers.get('content-type')]).toEqual([404, 'text/html; charset=utf-8'])
  }
  await fetch('http://gitlab.test/uploads/-/system/namespace/avatar/1/a.png').catch(() => undefined)
  await fetch('http://gitlab.test/acme/website/uploads/abc/a.png').catch(() => undefined)
  expect(unhandled).toEqual(['/uploads/-/system/namespace/avatar/1/a.png', '/acme/website/uploads/abc/a.png'])
})
