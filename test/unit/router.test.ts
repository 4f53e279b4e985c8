import { describe, expect, it } from 'vitest'
import { ApiError } from '../../src/core/errors.js'
import { noContent } from '../../src/core/respond.js'
import { route } from '../../src/core/route.js'
import { Router } from '../../src/core/router.js'

const handler = () => noContent()
const router = new Router([
  route('GET /runners/:id', { handler }),
  route('GET /runners/all', { handler }),
  route('PUT /projects/:id/labels/:label_id', { handler }),
  route('PUT /projects/:id/labels/promote', { handler }),
  route('GET /projects/:id/labels/:label_id', { handler }),
  route('DELETE /projects/:id/labels/:label_id', { handler }),
])

function failure(method: string, path: string): unknown {
  try {
    router.match(method, path)
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, body: error.body, headers: error.headers }
  }
  return undefined
}

describe('Router', () => {
  it.each([
    ['GET', '/runners/all', 'GET /runners/all', {}],
    ['GET', '/runners/7', 'GET /runners/:id', { id: '7' }],
    ['PUT', '/projects/1/labels/promote', 'PUT /projects/:id/labels/promote', { id: '1' }],
    ['PUT', '/projects/1/labels/bug', 'PUT /projects/:id/labels/:label_id', { id: '1', label_id: 'bug' }],
    ['GET', '/projects/1/labels/promote', 'GET /projects/:id/labels/:label_id', { id: '1', label_id: 'promote' }],
    ['GET', '/projects/acme%2Fwebsite/labels/a%20b%2Fc', 'GET /projects/:id/labels/:label_id', { id: 'acme/website', label_id: 'a b/c' }],
    ['HEAD', '/runners/7', 'GET /runners/:id', { id: '7' }],
  ])('%s %s → %s', (method, path, key, params) => {
    const match = router.match(method, path)
    expect(match.route.key).toBe(key)
    expect(match.pathParams).toEqual(params)
  })

  it('answers 405 with Allow for a known path under another method', () => {
    expect(failure('POST', '/projects/1/labels/bug')).toEqual({
      status: 405,
      body: { error: '405 Not Allowed' },
      headers: { allow: 'DELETE, GET, PUT' },
    })
  })

  it.each([['GET', '/nope'], ['GET', '/projects/acme/website/labels/x/y'], ['GET', '/runners/%E0%A4%A']])('404 for %s %s', (method, path) => {
    expect(failure(method, path)).toEqual({ status: 404, body: { error: '404 Not Found' }, headers: {} })
  })

  it('refuses duplicate route keys', () => {
    expect(() => new Router([route('GET /a', { handler }), route('GET /a', { handler })])).toThrow('duplicate route: GET /a')
  })
})
