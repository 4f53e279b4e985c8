import { describe, expect, it } from 'vitest'
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
  route('GET /:id/odd', { handler }),
])

describe('Router', () => {
  it.each([
    ['GET', '/runners/all', 'GET /runners/all', {}],
    ['GET', '/runners/7', 'GET /runners/:id', { id: '7' }],
    ['GET', '/runners/7/', 'GET /runners/:id', { id: '7' }],
    ['GET', '/RUNNERS/7', 'GET /runners/:id', { id: '7' }],
    ['PUT', '/projects/1/labels/promote', 'PUT /projects/:id/labels/promote', { id: '1' }],
    ['PUT', '/projects/1/labels/bug', 'PUT /projects/:id/labels/:label_id', { id: '1', label_id: 'bug' }],
    ['GET', '/projects/1/labels/promote', 'GET /projects/:id/labels/:label_id', { id: '1', label_id: 'promote' }],
    ['GET', '/projects/acme%2Fwebsite/labels/a%20b%2Fc', 'GET /projects/:id/labels/:label_id', { id: 'acme/website', label_id: 'a b/c' }],
    ['HEAD', '/runners/7', 'GET /runners/:id', { id: '7' }],
    ['GET', '/anything/odd', 'GET /:id/odd', { id: 'anything' }],
  ])('%s %s → %s', (method, path, key, params) => {
    const match = router.match(method, path)
    expect(match.route?.key).toBe(key)
    expect(match.miss ? undefined : match.pathParams).toEqual(params)
  })

  // gitlab-behaviour.md §1.2 "Wrong method on an existing path": GitLab answers the catch-all 404,
  // so the router only reports the kind of miss (and the methods the path has) for logs and journals.
  it('reports a known path under another method as a method miss, with the methods it has', () => {
    expect(router.match('POST', '/projects/1/labels/bug')).toEqual({ miss: 'method', allowed: ['DELETE', 'GET', 'PUT'] })
    expect(router.match('PATCH', '/runners/all')).toEqual({ miss: 'method', allowed: ['GET'] })
  })

  it.each([['GET', '/nope'], ['GET', '/projects/acme/website/labels/x/y'], ['GET', '/runners/%E0%A4%A'], ['GET', '/'], ['POST', '/runners']])(
    'reports %s %s as a path miss',
    (method, path) => {
      expect(router.match(method, path)).toEqual({ miss: 'path', allowed: [] })
    },
  )

  it('refuses duplicate route keys', () => {
    expect(() => new Router([route('GET /a', { handler }), route('GET /a', { handler })])).toThrow('duplicate route: GET /a')
  })
})
