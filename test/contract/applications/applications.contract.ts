/**
 * OAuth applications (issue 37; lib/api/applications.rb, 13.12) over both doors: an administrator
 * registers one (201, `ApplicationWithSecret`: the secret once), lists the instance-wide ones
 * (`Application`, no secret) and deletes one (204), after which the tokens issued to it no longer
 * authenticate; Doorkeeper's validations and `validate_redirect_uri`; anyone else 403, anonymous 401.
 * Default scenario: application 1 "Fakelab CI dashboard" (uid fakelab-dashboard-client-id,
 * http://127.0.0.1:8080/callback), root's OAuth token oauth-root-fakelab issued to it.
 * Source: gitlab: lib/api/applications.rb, lib/api/entities/application.rb,
 * application_with_secret.rb, app/finders/applications_finder.rb (13.12), doc/api/applications.md.
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

const DASHBOARD = { id: 1, application_id: 'fakelab-dashboard-client-id', application_name: 'Fakelab CI dashboard', callback_url: 'http://127.0.0.1:8080/callback', confidential: true }

contract('OAuth applications', {}, ({ api }) => {
  it('registers an application with its secret, then lists it without', async () => {
    const res = await api.post('/applications', { as: 'root', body: { name: 'MyApplication', redirect_uri: 'https://redirect.uri/cb', scopes: 'api read_user', confidential: false } })
    expect(res.status).toBe(201)
    expect(Object.keys(res.body)).toEqual(['id', 'application_id', 'application_name', 'callback_url', 'confidential', 'secret'])
    expect(res.body).toMatchObject({ application_name: 'MyApplication', callback_url: 'https://redirect.uri/cb', confidential: false })
    expect(res.body.application_id).toMatch(/^[0-9a-f]{64}$/)
    expect(res.body.secret).toMatch(/^[0-9a-f]{64}$/)
    const list = await api.get('/applications', { as: 'root' })
    expect([list.status, list.body]).toEqual([200, [DASHBOARD, { id: res.body.id, application_id: res.body.application_id, application_name: 'MyApplication', callback_url: 'https://redirect.uri/cb', confidential: false }]])
    expect((await api.post('/applications', { as: 'root', body: { name: 'Default', redirect_uri: 'app://callback', scopes: 'api' } })).body.confidential).toBe(true)
  })

  it('validates as Doorkeeper and validate_redirect_uri do', async () => {
    const post = (body: Record<string, unknown>) => api.post('/applications', { as: 'root', body })
    expect(await post({ name: 'x', redirect_uri: 'http://', scopes: 'api' })).toBeGitLabError(400, { message: { redirect_uri: ['must be an absolute URI.'] } })
    expect(await post({ name: '', redirect_uri: 'https://a.example/cb#frag', scopes: 'api' })).toBeGitLabError(400, { message: { name: ["can't be blank"], redirect_uri: ['cannot contain a fragment.'] } })
    expect(await post({ name: 'x', redirect_uri: 'no-scheme', scopes: 'api' })).toBeGitLabError(400, { message: { redirect_uri: ['must be an absolute URI.'] } })
    expect(await post({ name: 'x', redirect_uri: 'https://a.example/cb', scopes: 'api admin_everything' })).toBeGitLabError(400, { message: { scopes: ["doesn't match configured on the server."] } })
    expect(await post({ name: 'x', redirect_uri: 'https://a.example/cb' })).toBeGitLabError(400, { error: 'scopes is missing' })
    expect((await api.get('/applications', { as: 'root' })).body).toEqual([DASHBOARD])
  })

  it('deletes an application and the tokens issued to it', async () => {
    expect((await api.get('/user', { headers: { authorization: 'Bearer oauth-root-fakelab' } })).status).toBe(200)
    const res = await api.delete('/applications/1', { as: 'root' })
    expect([res.status, res.text]).toEqual([204, ''])
    expect((await api.get('/applications', { as: 'root' })).body).toEqual([])
    expect(await api.get('/user', { headers: { authorization: 'Bearer oauth-root-fakelab' } })).toBeGitLabError(401, { message: '401 Unauthorized' })
    expect(await api.delete('/applications/1', { as: 'root' })).toBeGitLabError(404, { message: '404 Not found' })
  })

  it('is for administrators only', async () => {
    for (const [method, path] of [['GET', '/applications'], ['POST', '/applications'], ['DELETE', '/applications/1']] as const) {
      expect(await api.request(method, path)).toBeGitLabError(401, { message: '401 Unauthorized' })
      expect(await api.request(method, path, { as: 'devon' })).toBeGitLabError(403, { message: '403 Forbidden' })
    }
  })
})
