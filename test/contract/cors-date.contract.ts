/**
 * CORS on `/api/*` as GitLab answers it (config/application.rb's two Rack::Cors blocks) and the
 * `Date` header following the scenario clock, on both doors (issue 12 "What a newcomer meets first").
 */
import { expect, it } from 'vitest'
import { contract, type ApiResponse } from '../support/contract.js'

function cors(res: ApiResponse): Record<string, string | null> {
  const out: Record<string, string | null> = {}
  for (const name of ['access-control-allow-origin', 'access-control-allow-methods', 'access-control-expose-headers', 'access-control-max-age', 'access-control-allow-credentials', 'access-control-allow-headers']) {
    out[name] = res.headers.get(name)
  }
  return out
}

const ANY_ORIGIN = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
  'access-control-expose-headers': 'Link, X-Total, X-Total-Pages, X-Per-Page, X-Page, X-Next-Page, X-Prev-Page',
  'access-control-max-age': '7200',
  'access-control-allow-credentials': null,
  'access-control-allow-headers': null,
}

contract('CORS on /api/*', {}, ({ api }) => {
  it('answers a request from another origin with Access-Control-Allow-Origin: *', async () => {
    const res = await api.get('/projects', { headers: { origin: 'https://app.example' } })
    expect(res.status).toBe(200)
    expect(cors(res)).toEqual(ANY_ORIGIN)
    expect(res.headers.get('vary')).toBe('Origin')
  })

  it('answers errors with CORS headers too', async () => {
    const res = await api.get('/user', { headers: { origin: 'https://app.example' } })
    expect([res.status, res.headers.get('access-control-allow-origin')]).toEqual([401, '*'])
  })

  it('answers a preflight with 200, an empty body and the requested headers allowed', async () => {
    const res = await api.request('OPTIONS', '/projects/20/labels', {
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'private-token,content-type' },
    })
    expect([res.status, res.text]).toEqual([200, ''])
    expect(cors(res)).toEqual({ ...ANY_ORIGIN, 'access-control-allow-headers': 'private-token,content-type' })
  })

  it('gives the instance\'s own origin credentials', async () => {
    const origin = new URL(api.baseUrl).origin
    const res = await api.get('/projects', { headers: { origin } })
    expect([res.headers.get('access-control-allow-origin'), res.headers.get('access-control-allow-credentials')]).toEqual([origin, 'true'])
  })

  it('sends no CORS headers without Origin, and OPTIONS without a preflight is the catch-all 404', async () => {
    const res = await api.get('/projects')
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    const options = await api.request('OPTIONS', '/projects')
    expect(options).toBeGitLabError(404, { error: '404 Not Found' })
  })
})

contract('Date header', {}, ({ api, sim }) => {
  it('follows the scenario clock', async () => {
    const now = sim().clock.now()
    expect((await api.get('/projects')).headers.get('date')).toBe(now.toUTCString())
    sim().advanceClock(86_400_000)
    expect((await api.get('/projects')).headers.get('date')).toBe(new Date(now.getTime() + 86_400_000).toUTCString())
    sim().setClock(now)
  })
})
