/**
 * The system hooks store over both doors, as python-gitlab's test_hooks makes it: add, list, test
 * (the sample payload, and the `system_hook_test` fact for the delivery), delete.
 * Source: gitlab: lib/api/system_hooks.rb, lib/api/entities/hook.rb, app/models/hooks/system_hook.rb.
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'
import { subscribe } from '../../../src/rules/events.js'
import { systemHooks, type SystemHookRecord } from '../../../src/resources/system-hooks/system-hooks.public.js'

const FIELDS = ['id', 'url', 'created_at', 'push_events', 'tag_push_events', 'merge_requests_events', 'repository_update_events', 'enable_ssl_verification']

contract('system hooks', {}, ({ api, sim }) => {
  it('adds a hook with SystemHook\'s defaults, lists, tests and deletes it', async () => {
    const res = await api.post('/hooks', { as: 'root', body: { url: 'http://whatever.com', token: 's3cret', merge_requests_events: true } })
    expect(res.status).toBe(201)
    expect(Object.keys(res.body)).toEqual(FIELDS)
    expect(res.body).toEqual({ id: res.body.id, url: 'http://whatever.com', created_at: '2021-04-01T12:00:00.000Z', push_events: false, tag_push_events: false, merge_requests_events: true, repository_update_events: true, enable_ssl_verification: true })
    expect((await api.get('/hooks', { as: 'root' })).body).toEqual([res.body])
    expect(systemHooks(sim().db, 'merge_requests_events').map((h: SystemHookRecord) => h.token)).toEqual(['s3cret'])
    expect(systemHooks(sim().db, 'push_events')).toEqual([])

    const seen: unknown[] = []
    const off = subscribe('system_hook_test', (_db, event) => seen.push([event.hook.id, event.data.event_name]))
    try {
      const test = await api.get(`/hooks/${res.body.id}`, { as: 'root' })
      expect(test.status).toBe(200)
      expect(test.body).toEqual({ event_name: 'project_create', name: 'Ruby', path: 'ruby', project_id: 1, owner_name: 'Someone', owner_email: 'example@gitlabhq.com' })
    } finally {
      off()
    }
    expect(seen).toEqual([[res.body.id, 'project_create']])

    expect((await api.delete(`/hooks/${res.body.id}`, { as: 'root' })).status).toBe(204)
    expect((await api.get('/hooks', { as: 'root' })).body).toEqual([])
    expect(await api.delete(`/hooks/${res.body.id}`, { as: 'root' })).toBeGitLabError(404, { message: '404 System hook Not Found' })
    expect(await api.get(`/hooks/${res.body.id}`, { as: 'root' })).toBeGitLabError(404, { message: '404 Not found' })
  })

  it.each([
    ['a URL that does not parse', 'not a url', 'is blocked: URI is invalid'],
    ['another scheme', 'ftp://example.com', 'is blocked: Only allowed schemes are http, https'],
  ])('refuses %s', async (_t, url, message) => {
    expect(await api.post('/hooks', { as: 'root', body: { url } })).toBeGitLabError(400, { message: { url: [message] } })
  })

  it('is for administrators only', async () => {
    expect(await api.get('/hooks', { as: 'olive' })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect(await api.get('/hooks')).toBeGitLabError(401, { message: '401 Unauthorized' })
  })
})
