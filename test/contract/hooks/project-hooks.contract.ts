/**
 * Project hooks CRUD over both doors (lib/api/project_hooks.rb, 13.12): the `ProjectHook` entity in
 * its field order, the column defaults (push_events on, the rest off, SSL verification on), the
 * token never shown, `Invalid url given` / `Invalid branch filter given` (422), 404 for another
 * project's hook, and the scenario's `hooks:`. Who may call is in test/authz/authorization.test.ts.
 * Default scenario: project 20 acme/website (max maintains it), project 21 (private).
 */
import { expect, it } from 'vitest'
import { parseScenario } from '../../../src/index.js'
import { contract } from '../../support/contract.js'

const NOW = '2021-04-01T12:00:00.000Z'

/** The entity of a fresh hook with `url` and `overrides` over the defaults. */
function entity(id: number, url: string, overrides: Record<string, unknown> = {}) {
  return {
    id, url, created_at: NOW, push_events: true, tag_push_events: false, merge_requests_events: false, repository_update_events: false,
    enable_ssl_verification: true, project_id: 20, issues_events: false, confidential_issues_events: false, note_events: false,
    confidential_note_events: false, pipeline_events: false, wiki_page_events: false, deployment_events: false, job_events: false,
    releases_events: false, push_events_branch_filter: null, ...overrides,
  }
}

contract('project hooks', {}, ({ api, sim }) => {
  it('creates a hook with GitLab\'s defaults, in the entity\'s field order, without its token', async () => {
    const res = await api.post('/projects/20/hooks', { as: 'max', body: { url: 'https://example.com/hook', token: 'secret', issues_events: true } })
    expect(res.status).toBe(201)
    expect(Object.keys(res.body)).toEqual(Object.keys(entity(0, '')))
    expect(res.body).toEqual(entity(res.body.id, 'https://example.com/hook', { issues_events: true }))
    expect(sim().db.tables.project_hooks.get(res.body.id)!.token).toBe('secret')
  })

  it('lists, gets, updates and deletes', async () => {
    const a = (await api.post('/projects/20/hooks', { as: 'max', body: { url: 'https://example.com/a' } })).body
    const b = (await api.post('/projects/20/hooks', { as: 'max', body: { url: 'https://example.com/b', push_events: false, pipeline_events: true } })).body
    await api.post('/projects/21/hooks', { as: 'max', body: { url: 'https://example.com/other' } })
    const list = await api.get('/projects/20/hooks', { as: 'max' })
    expect(list.status).toBe(200)
    expect(list.body).toEqual([a, b])
    expect(list.headers.get('x-total')).toBe('2')
    expect((await api.get(`/projects/20/hooks/${b.id}`, { as: 'max' })).body).toEqual(b)
    const put = await api.put(`/projects/20/hooks/${a.id}`, { as: 'max', body: { url: 'https://example.com/a2', note_events: true, push_events_branch_filter: 'release/*' } })
    expect(put.status).toBe(200)
    expect(put.body).toEqual(entity(a.id, 'https://example.com/a2', { note_events: true, push_events_branch_filter: 'release/*' }))
    expect((await api.delete(`/projects/20/hooks/${a.id}`, { as: 'max' })).status).toBe(204)
    expect((await api.get(`/projects/20/hooks/${a.id}`, { as: 'max' })).body).toEqual({ message: '404 Not found' })
    expect((await api.get('/projects/20/hooks', { as: 'max' })).body).toEqual([b])
  })

  it.each([
    ['a blank url', { url: '' }, 'Invalid url given'],
    ['a url without a scheme', { url: 'example.com/hook' }, 'Invalid url given'],
    ['an ftp url', { url: 'ftp://example.com/hook' }, 'Invalid url given'],
    ['a branch filter with a space', { url: 'https://example.com/h', push_events_branch_filter: 'a b' }, 'Invalid branch filter given'],
    ['a branch filter with ..', { url: 'https://example.com/h', push_events_branch_filter: 'a..b' }, 'Invalid branch filter given'],
  ])('refuses %s with 422 and stores nothing', async (_what, body, message) => {
    const res = await api.post('/projects/20/hooks', { as: 'max', body })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ message })
    expect(sim().db.tables.project_hooks.all()).toEqual([])
  })

  it('answers 400 when url is missing, on POST and PUT', async () => {
    expect((await api.post('/projects/20/hooks', { as: 'max', body: { push_events: true } })).body).toEqual({ error: 'url is missing' })
    const hook = (await api.post('/projects/20/hooks', { as: 'max', body: { url: 'https://example.com/a' } })).body
    const put = await api.put(`/projects/20/hooks/${hook.id}`, { as: 'max', body: { push_events: false } })
    expect([put.status, put.body]).toEqual([400, { error: 'url is missing' }])
  })

  it('keeps an update that fails whole: 422 and the hook unchanged', async () => {
    const hook = (await api.post('/projects/20/hooks', { as: 'max', body: { url: 'https://example.com/a' } })).body
    const res = await api.put(`/projects/20/hooks/${hook.id}`, { as: 'max', body: { url: 'nope', note_events: true } })
    expect([res.status, res.body]).toEqual([422, { message: 'Invalid url given' }])
    expect((await api.get(`/projects/20/hooks/${hook.id}`, { as: 'max' })).body).toEqual(hook)
  })

  it('answers 404 for a hook of another project and for none', async () => {
    const other = (await api.post('/projects/21/hooks', { as: 'max', body: { url: 'https://example.com/o' } })).body
    for (const [method, path] of [['GET', `/projects/20/hooks/${other.id}`], ['PUT', `/projects/20/hooks/${other.id}`], ['DELETE', `/projects/20/hooks/${other.id}`], ['GET', '/projects/20/hooks/999999']]) {
      const res = await api.request(method!, path!, { as: 'max', body: method === 'PUT' ? { url: 'https://example.com/x' } : undefined })
      expect([method, res.status, res.body]).toEqual([method, 404, { message: '404 Not found' }])
    }
  })
})

const SCENARIO = parseScenario(`version: 1
users:
  - { username: max, admin: true, tokens: [{ token: glpat-max-fakelab, name: default, scopes: [api] }] }
projects:
  - path: website
    namespace: max
    hooks:
      - { id: 77, url: "http://127.0.0.1:9/hook", token: t0k, issues_events: true, push_events_branch_filter: main, created_at: "2021-03-01T00:00:00Z" }
`)

contract('project hooks from a scenario', { scenario: SCENARIO }, ({ api }) => {
  it('serves a scenario\'s hooks, without their token', async () => {
    const project = (await api.get('/projects/max%2Fwebsite', { as: 'max' })).body
    const res = await api.get(`/projects/${project.id}/hooks`, { as: 'max' })
    expect(res.body).toEqual([{
      ...entity(77, 'http://127.0.0.1:9/hook', { issues_events: true, push_events_branch_filter: 'main', project_id: project.id }),
      created_at: '2021-03-01T00:00:00.000Z',
    }])
  })
})
