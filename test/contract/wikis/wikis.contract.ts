/**
 * Project wikis over both doors (issue 34 item 4): pages listed (with and without content), read,
 * created (slug from the title, formats), updated (moved by a new title), deleted, attachments
 * uploaded; permissions (reads with the project, Developer+ writes, Maintainer+ deletes, anonymous
 * 403 on a write) and the Wiki Page Hook a project hook receives.
 * Source: gitlab: lib/api/wikis.rb, lib/api/entities/wiki_page*.rb, wiki_attachment.rb,
 * lib/gitlab/data_builder/wiki_page.rb, doc/user/project/integrations/webhooks.md (13.12).
 *
 * Default scenario: project 20 acme/website (public; max maintains, devon develops, gina is guest),
 * 21 acme/platform/api (private); nora is in no group. The wiki pages come from the scenario below.
 */
import { expect, it } from 'vitest'
import { hookDeliveries, pauseHookDelivery } from '../../../src/resources/hooks/hooks.public.js'
import { contract } from '../../support/contract.js'

contract('GET /projects/:id/wikis', {}, ({ api }) => {
  it('lists the pages in path order, with content on request', async () => {
    await api.post('/projects/20/wikis', { as: 'devon', body: { title: 'Zeta page', content: 'z' } })
    await api.post('/projects/20/wikis', { as: 'devon', body: { title: 'docs/Alpha', content: 'a', format: 'rdoc' } })
    const basic = await api.get('/projects/20/wikis')
    expect(basic.status).toBe(200)
    expect(basic.body).toEqual([
      { format: 'markdown', slug: 'Zeta-page', title: 'Zeta page' },
      { format: 'rdoc', slug: 'docs/Alpha', title: 'Alpha' },
    ].sort((a, b) => (a.slug < b.slug ? -1 : 1)))
    const full = await api.get('/projects/20/wikis', { query: { with_content: true } })
    expect(full.body.find((p: any) => p.slug === 'docs/Alpha')).toEqual({ format: 'rdoc', slug: 'docs/Alpha', title: 'Alpha', content: 'a', encoding: 'UTF-8' })
  })

  it('returns 404 for a private project to a non-member', async () => {
    await expect(await api.get('/projects/21/wikis', { as: 'nora' })).toBeGitLabError(404, { message: '404 Project Not Found' })
  })
})

contract('POST /projects/:id/wikis', {}, ({ api }) => {
  it('creates a page whose slug follows the title (python-gitlab test_wikis)', async () => {
    const res = await api.post('/projects/20/wikis', { as: 'devon', body: { title: 'title/subtitle', content: 'test content' } })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({ format: 'markdown', slug: 'title/subtitle', title: 'subtitle', content: 'test content', encoding: 'UTF-8' })
    const read = await api.get('/projects/20/wikis/title%2Fsubtitle', { as: 'gina' })
    expect(read.status).toBe(200)
    expect(read.body.content).toBe('test content')
  })

  it.each([
    ['anonymous', undefined, 403],
    ['a guest', 'gina', 403],
    ['a reporter', 'riley', 403],
    ['a developer', 'devon', 201],
  ])('answers %s with %i', async (_label, as, status) => {
    const res = await api.post('/projects/20/wikis', { ...(as ? { as } : {}), body: { title: 'Page', content: 'x' } })
    expect(res.status).toBe(status)
  })

  it.each([
    ['no content', { title: 'x' }, { error: 'content is missing' }],
    ['an unknown format', { title: 'x', content: 'y', format: 'textile' }, { error: 'format does not have a valid value' }],
    ['a blank title', { title: ' ', content: 'y' }, { message: { title: ["can't be blank"] } }],
  ])('returns 400 for %s', async (_label, body, error) => {
    const res = await api.post('/projects/20/wikis', { as: 'devon', body })
    expect(res.status).toBe(400)
    expect(res.body).toEqual(error)
  })

  it('refuses a second page at the same path', async () => {
    await api.post('/projects/20/wikis', { as: 'devon', body: { title: 'Home', content: 'x' } })
    const res = await api.post('/projects/20/wikis', { as: 'devon', body: { title: 'Home', content: 'y' } })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ message: { base: ['Duplicate page: A page with that title already exists'] } })
  })
})

contract('PUT /projects/:id/wikis/:slug', {}, ({ api }) => {
  it('updates the content and moves the page by its new title, keeping its directory', async () => {
    await api.post('/projects/20/wikis', { as: 'devon', body: { title: 'title/subtitle', content: 'test content', format: 'org' } })
    const res = await api.put('/projects/20/wikis/title%2Fsubtitle', { as: 'devon', body: { title: 'renamed page', content: 'update content' } })
    expect(res.status).toBe(200)
    // `format` defaults to markdown on update too (wikis.rb `common_wiki_page_params`).
    expect(res.body).toEqual({ format: 'markdown', slug: 'title/renamed-page', title: 'renamed page', content: 'update content', encoding: 'UTF-8' })
    await expect(await api.get('/projects/20/wikis/title%2Fsubtitle')).toBeGitLabError(404, { message: '404 Wiki Page Not Found' })
  })

  it('returns 404 for a missing page and 403 to a guest', async () => {
    await expect(await api.put('/projects/20/wikis/nope', { as: 'devon', body: { content: 'x' } })).toBeGitLabError(404, { message: '404 Wiki Page Not Found' })
    await expect(await api.put('/projects/20/wikis/nope', { as: 'gina', body: { content: 'x' } })).toBeGitLabError(403, { message: '403 Forbidden' })
  })
})

contract('DELETE /projects/:id/wikis/:slug', {}, ({ api }) => {
  it('lets a maintainer delete a page, not a developer', async () => {
    await api.post('/projects/20/wikis', { as: 'devon', body: { title: 'Gone', content: 'x' } })
    await expect(await api.delete('/projects/20/wikis/Gone', { as: 'devon' })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect((await api.delete('/projects/20/wikis/Gone', { as: 'max' })).status).toBe(204)
    expect((await api.get('/projects/20/wikis')).body).toEqual([])
  })
})

contract('POST /projects/:id/wikis/attachments', {}, ({ api }) => {
  it('commits the file under uploads/<secret>/ and answers its markdown link', async () => {
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' }), 'my logo.png')
    const res = await api.post('/projects/20/wikis/attachments', { as: 'devon', multipart: form })
    expect(res.status).toBe(201)
    expect(Object.keys(res.body)).toEqual(['file_name', 'file_path', 'branch', 'link'])
    expect(res.body.file_name).toBe('my_logo.png')
    expect(res.body.file_path).toMatch(/^uploads\/[0-9a-f]{32}\/my_logo\.png$/)
    expect(res.body.branch).toBe('master')
    expect(res.body.link).toEqual({ url: res.body.file_path, markdown: `![my_logo](${res.body.file_path})` })
  })

  it('links a file that is not embedded without the !, on the branch asked for', async () => {
    const form = new FormData()
    form.append('file', new Blob(['hello']), 'notes.txt')
    form.append('branch', 'docs')
    const res = await api.post('/projects/20/wikis/attachments', { as: 'devon', multipart: form })
    expect(res.body.branch).toBe('docs')
    expect(res.body.link.markdown).toBe(`[notes.txt](${res.body.file_path})`)
  })

  it('returns 400 without a file', async () => {
    const res = await api.post('/projects/20/wikis/attachments', { as: 'devon', body: {} })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: 'file is missing' })
  })
})

contract('wiki page hooks', {}, ({ api, sim }) => {
  it('queues the 13.12 Wiki Page Hook for create, update and delete to hooks with wiki_page_events', async () => {
    pauseHookDelivery(sim().db, true)
    const hook = await api.post('/projects/20/hooks', { as: 'max', body: { url: 'http://127.0.0.1:9/wiki', wiki_page_events: true, push_events: false } })
    expect(hook.status).toBe(201)
    await api.post('/projects/20/wikis', { as: 'devon', body: { title: 'Awesome', content: 'awesome content goes here', message: 'adding an awesome page to the wiki' } })
    await api.put('/projects/20/wikis/Awesome', { as: 'devon', body: { content: 'more' } })
    await api.delete('/projects/20/wikis/Awesome', { as: 'max' })
    const sent = hookDeliveries(sim().db).filter((d) => d.web_hook_id === hook.body.id)
    expect(sent.map((d) => [d.trigger, d.request_headers['X-Gitlab-Event'] ?? d.request_headers['x-gitlab-event'], (d.request_data as any).object_attributes.action]))
      .toEqual([['wiki_page_hooks', 'Wiki Page Hook', 'create'], ['wiki_page_hooks', 'Wiki Page Hook', 'update'], ['wiki_page_hooks', 'Wiki Page Hook', 'delete']])
    const first = sent[0]!.request_data as any
    expect(Object.keys(first)).toEqual(['object_kind', 'user', 'project', 'wiki', 'object_attributes'])
    expect(first.wiki).toEqual({
      web_url: `${api.baseUrl}/acme/website/-/wikis/home`,
      git_ssh_url: `git@${new URL(api.baseUrl).hostname}:acme/website.wiki.git`,
      git_http_url: `${api.baseUrl}/acme/website.wiki.git`,
      path_with_namespace: 'acme/website.wiki',
      default_branch: 'master',
    })
    expect(first.object_attributes).toEqual({
      title: 'Awesome', content: 'awesome content goes here', format: 'markdown', message: 'adding an awesome page to the wiki',
      slug: 'Awesome', url: `${api.baseUrl}/acme/website/-/wikis/Awesome`, action: 'create',
    })
    expect(first.user.username).toBe('devon')
  })
})
