/**
 * `GET /version` as GitLab 13.x answers it (lib/api/version.rb), and `GET /metadata`, which 13.x
 * does not have (15.2+): the catch-all 404.
 */
import { expect, it } from 'vitest'
import { contract } from '../support/contract.js'

contract('GET /version', {}, ({ api }) => {
  it('answers version and revision to a signed-in user, in that order', async () => {
    const res = await api.get('/version', { as: 'nora' })
    expect(res.status).toBe(200)
    expect(res.text).toBe('{"version":"13.12.15","revision":"f4d1fa3b1d6"}')
  })

  it.each([
    ['anonymous', undefined, 401, { message: '401 Unauthorized' }],
    ['a read_api token', 'glpat-root-readonly', 200, { version: '13.12.15', revision: 'f4d1fa3b1d6' }],
  ])('answers %s', async (_, token, status, body) => {
    const res = await api.get('/version', token ? { token } : {})
    expect(res).toBeGitLabError(status, body)
  })
})

contract('GET /metadata', {}, ({ api }) => {
  it('is not a 13.x route: the catch-all 404', async () => {
    const res = await api.get('/metadata', { as: 'root' })
    expect(res).toBeGitLabError(404, { error: '404 Not Found' })
  })
})
