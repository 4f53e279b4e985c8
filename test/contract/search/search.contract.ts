/**
 * The search API (issue 37 item 8): `GET /search`, `/groups/:id/search` and `/projects/:id/search`
 * in each scope, showing only what the caller may read, over both doors on the default scenario
 * (acme/website 20: issue #2 "Footer links are broken", confidential #4 "Security hole in the
 * contact form" by max, merge request !2 "Repair footer links"; its repository's footer.html and
 * commits "Repair footer links"; acme/platform/api 21 private; nora without memberships).
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

contract('search', {}, ({ api }) => {
  const titles = async (path: string, query: Record<string, string>, as = 'max', key = 'title') => {
    const res = await api.get(path, { as, query })
    expect(res.status).toBe(200)
    return res.body.map((row: any) => row[key])
  }

  it('finds issues, merge requests, milestones, projects and users across the instance', async () => {
    expect(await titles('/search', { scope: 'issues', search: 'footer' })).toEqual(['Footer links are broken'])
    expect(await titles('/search', { scope: 'issues', search: '#2' })).toEqual(['Dark mode', 'Footer links are broken'])
    expect(await titles('/projects/20/search', { scope: 'issues', search: '#2' })).toEqual(['Footer links are broken'])
    expect(await titles('/search', { scope: 'merge_requests', search: 'footer links' })).toEqual(['Repair footer links'])
    expect(await titles('/search', { scope: 'merge_requests', search: 'footer', state: 'opened' })).toEqual([])
    expect(await titles('/search', { scope: 'milestones', search: 'launch' })).toEqual(['website-launch'])
    expect(await titles('/search', { scope: 'milestones', search: 'v1.0' })).toEqual([])
    expect(await titles('/search', { scope: 'projects', search: 'website' }, 'max', 'path_with_namespace')).toEqual(['acme/website'])
    expect(await titles('/search', { scope: 'users', search: 'devon' }, 'max', 'username')).toEqual(['devon'])
    expect(await titles('/search', { scope: 'snippet_titles', search: 'deploy' }, 'max')).toEqual(['Deploy script'])
    expect(await titles('/search', { scope: 'snippet_titles', search: 'aliases' }, 'max')).toEqual([])
    expect(await titles('/search', { scope: 'snippet_titles', search: 'aliases' }, 'nora')).toEqual(['Shell aliases'])
    const first = (await api.get('/search', { as: 'max', query: { scope: 'issues', search: 'footer' } })).body[0]
    expect(Object.keys(first).slice(0, 4)).toEqual(['id', 'iid', 'project_id', 'title'])
  })

  // `GET /groups/:id/(-/)search` and `/projects/:id/(-/)search` are one Grape route each: both paths answer alike.
  it.each([
    ['/groups/11/search', '/groups/11/-/search', 'max', { scope: 'issues', search: 'footer' }],
    ['/projects/20/search', '/projects/20/-/search', 'max', { scope: 'commits', search: 'footer' }],
    ['/projects/21/search', '/projects/21/-/search', 'nora', { scope: 'issues', search: 'x' }],
    ['/groups/11/search', '/groups/11/-/search', 'max', { search: 'x' }],
  ])('%s and %s answer alike', async (plain, dashed, as, query) => {
    const a = await api.get(plain, { as, query: query as Record<string, string> })
    const b = await api.get(dashed, { as, query: query as Record<string, string> })
    expect([b.status, b.body]).toEqual([a.status, a.body])
    expect(b.headers.get('x-total')).toBe(a.headers.get('x-total'))
  })

  it('shows confidential and private records only to whoever may read them', async () => {
    expect(await titles('/search', { scope: 'issues', search: 'security hole' }, 'max')).toEqual(['Security hole in the contact form'])
    expect(await titles('/search', { scope: 'issues', search: 'security hole' }, 'nora')).toEqual([])
    expect(await titles('/search', { scope: 'projects', search: 'api' }, 'max', 'path_with_namespace')).toContain('acme/platform/api')
    expect(await titles('/search', { scope: 'projects', search: 'api' }, 'nora', 'path_with_namespace')).not.toContain('acme/platform/api')
    expect((await api.get('/projects/21/search', { as: 'nora', query: { scope: 'issues', search: 'x' } })).body).toEqual({ message: '404 Project Not Found' })
  })

  it('searches a project’s notes, commits and blobs', async () => {
    expect(await titles('/projects/20/search', { scope: 'notes', search: 'small phones' }, 'max', 'body')).toEqual(['The submit button moves off-screen on small phones.'])
    expect(await titles('/projects/20/search', { scope: 'commits', search: 'footer' })).toEqual(['Merge branch \'fix/footer-links\' into \'main\'', 'Repair footer links', 'Add the footer'])
    expect(await titles('/projects/20/search', { scope: 'commits', search: 'login', ref: 'feature/login' })).toEqual(['Fix the login button', 'Add the login form'])
    const blobs = await api.get('/projects/20/search', { as: 'max', query: { scope: 'blobs', search: 'SUPPORT' } })
    expect(blobs.body).toEqual([
      { basename: 'footer', data: '<footer>\n  <a href="/about">About</a>\n  <a href="/support">Contact</a>\n</footer>\n', path: 'footer.html', filename: 'footer.html', id: null, ref: 'main', startline: 1, project_id: 20 },
    ])
    expect(await titles('/projects/20/search', { scope: 'wiki_blobs', search: 'x' })).toEqual([])
  })

  it('searches a project’s wiki pages as blobs on the wiki’s master', async () => {
    const page = await api.post('/projects/20/wikis', { as: 'max', body: { title: 'ops/Runbook', content: 'one\ntwo\nthree\nCall SUPPORT first\nfive\nsix\nseven\neight\nnine\nten\nask support again' } })
    expect(page.status).toBe(201)
    const found = await api.get('/projects/20/search', { as: 'max', query: { scope: 'wiki_blobs', search: 'support' } })
    expect(found.status).toBe(200)
    expect(found.body).toEqual([
      { basename: 'ops/Runbook', data: 'two\nthree\nCall SUPPORT first\nfive\nsix\n', path: 'ops/Runbook.md', filename: 'ops/Runbook.md', id: null, ref: 'master', startline: 2, project_id: 20 },
      { basename: 'ops/Runbook', data: 'nine\nten\nask support again\n', path: 'ops/Runbook.md', filename: 'ops/Runbook.md', id: null, ref: 'master', startline: 9, project_id: 20 },
    ])
    expect(await titles('/projects/20/search', { scope: 'wiki_blobs', search: 'nowhere' })).toEqual([])
  })

  it('searches a group’s projects and members', async () => {
    expect(await titles('/groups/acme/search', { scope: 'issues', search: 'footer' })).toEqual(['Footer links are broken'])
    expect(await titles('/groups/acme/search', { scope: 'users', search: 'nora' }, 'max', 'username')).toEqual([])
    expect(await titles('/groups/acme/search', { scope: 'users', search: 'olive' }, 'max', 'username')).toEqual(['olive'])
  })

  it.each([
    ['/search', { search: 'x' }, 'scope is missing'],
    ['/search', { scope: 'blobs', search: 'x' }, 'scope does not have a valid value'],
    ['/groups/acme/search', { scope: 'notes', search: 'x' }, 'scope does not have a valid value'],
    ['/projects/20/search', { scope: 'projects', search: 'x' }, 'scope does not have a valid value'],
    ['/projects/20/search', { scope: 'issues' }, 'search is missing'],
  ])('%s with %o answers 400', async (path, query, error) => {
    const res = await api.get(path, { as: 'max', query })
    expect([res.status, res.body]).toEqual([400, { error }])
  })

  it('needs a user', async () => {
    expect((await api.get('/search', { query: { scope: 'issues', search: 'x' } })).status).toBe(401)
  })
})
