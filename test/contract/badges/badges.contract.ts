/**
 * Project and group badges over both doors: python-gitlab's create, list, edit, get, delete; the
 * placeholders rendered per project; a project's list with its groups' badges (`kind`); render's
 * preview; validation; permissions. Source: gitlab: lib/api/badges.rb, app/models/badge.rb,
 * lib/api/entities/badge.rb, spec/requests/api/badges_spec.rb (13.12).
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

const FIELDS = ['name', 'link_url', 'image_url', 'rendered_link_url', 'rendered_image_url', 'id', 'kind']
/** acme/website's main. */
const MAIN = 'fd7d40d21b67d3419c468f3cd80559f888c6ff31'
const LINK = 'https://ci.example.com/%{project_path}/-/commits/%{default_branch}'
const IMAGE = 'https://ci.example.com/%{project_id}/%{commit_sha}/badge.svg'

contract('badges', {}, ({ api }) => {
  it('adds, lists, edits, gets and deletes a project badge (python-gitlab test_project_badges)', async () => {
    const res = await api.post('/projects/20/badges', { as: 'max', body: { link_url: 'http://example/img.svg', image_url: 'http://example.com' } })
    expect(res.status).toBe(201)
    expect(Object.keys(res.body)).toEqual(FIELDS)
    expect(res.body).toEqual({ name: null, link_url: 'http://example/img.svg', image_url: 'http://example.com', rendered_link_url: 'http://example/img.svg', rendered_image_url: 'http://example.com', id: res.body.id, kind: 'project' })
    expect((await api.get('/projects/20/badges', { as: 'max' })).body).toEqual([res.body])

    const put = await api.put(`/projects/20/badges/${res.body.id}`, { as: 'max', body: { image_url: 'http://another.example.com' } })
    expect(put.status).toBe(200)
    expect(put.body.image_url).toBe('http://another.example.com')
    expect((await api.get(`/projects/20/badges/${res.body.id}`, { as: 'gina' })).body.image_url).toBe('http://another.example.com')

    expect((await api.delete(`/projects/20/badges/${res.body.id}`, { as: 'max' })).status).toBe(204)
    expect((await api.get('/projects/20/badges', { as: 'max' })).body).toEqual([])
    expect(await api.get(`/projects/20/badges/${res.body.id}`, { as: 'max' })).toBeGitLabError(404, { message: '404 Not found' })
  })

  it('renders the placeholders for the project, and a group\'s badges for its newest project', async () => {
    const mine = await api.post('/projects/20/badges', { as: 'max', body: { link_url: LINK, image_url: IMAGE, name: 'pipeline' } })
    expect(mine.body.rendered_link_url).toBe('https://ci.example.com/acme/website/-/commits/main')
    expect(mine.body.rendered_image_url).toBe(`https://ci.example.com/20/${MAIN}/badge.svg`)

    const group = await api.post('/groups/10/badges', { as: 'olive', body: { link_url: LINK, image_url: 'https://ci.example.com/plain.svg' } })
    expect(group.status).toBe(201)
    expect(group.body.kind).toBe('group')
    const groupProjects = (await api.get('/groups/10/projects', { as: 'olive', query: { order_by: 'id' } })).body as { id: number; path_with_namespace: string; default_branch: string }[]
    const newest = groupProjects.sort((a, b) => b.id - a.id)[0]!
    expect(group.body.rendered_link_url).toBe(`https://ci.example.com/${newest.path_with_namespace}/-/commits/${newest.default_branch}`)

    const list = await api.get('/projects/20/badges', { as: 'gina' })
    expect(list.body.map((b: { id: number; kind: string }) => [b.id, b.kind])).toEqual([[mine.body.id, 'project'], [group.body.id, 'group']])
    // A group badge seen through the project is rendered for the project.
    expect(list.body[1].rendered_link_url).toBe('https://ci.example.com/acme/website/-/commits/main')
    expect((await api.get('/groups/10/badges', { as: 'gina' })).body.map((b: { id: number }) => b.id)).toEqual([group.body.id])
    expect((await api.get('/projects/20/badges', { as: 'gina', query: { name: 'pipeline' } })).body.map((b: { id: number }) => b.id)).toEqual([mine.body.id])
  })

  it('previews a badge without storing it', async () => {
    const res = await api.get('/projects/20/badges/render', { as: 'max', query: { link_url: LINK, image_url: IMAGE } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ name: null, link_url: LINK, image_url: IMAGE, rendered_link_url: 'https://ci.example.com/acme/website/-/commits/main', rendered_image_url: `https://ci.example.com/20/${MAIN}/badge.svg` })
    expect((await api.get('/projects/20/badges', { as: 'max' })).body).toEqual([])
    expect(await api.get('/projects/20/badges/render', { as: 'max', query: { link_url: LINK } })).toBeGitLabError(400, { error: 'image_url is missing' })
    expect(await api.get('/projects/20/badges/render', { as: 'max', query: { link_url: 'ftp://x.example.com', image_url: IMAGE } })).toBeGitLabError(400, { message: { link_url: ['is blocked: Only allowed schemes are http, https'] } })
  })

  it.each([
    ['a URL that does not parse', { link_url: 'not a url', image_url: 'http://example.com' }, { link_url: ['is blocked: URI is invalid'] }],
    ['another scheme', { link_url: 'http://example.com', image_url: 'ftp://example.com/a.svg' }, { image_url: ['is blocked: Only allowed schemes are http, https'] }],
  ])('refuses %s and stores nothing', async (_t, body, message) => {
    expect(await api.post('/projects/20/badges', { as: 'max', body })).toBeGitLabError(400, { message })
    expect((await api.get('/projects/20/badges', { as: 'max' })).body).toEqual([])
  })

  it('lets Maintainers write project badges and Owners group badges; readers read', async () => {
    const body = { link_url: 'http://example.com', image_url: 'http://example.com/a.svg' }
    expect(await api.post('/projects/20/badges', { as: 'devon', body })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect(await api.post('/groups/10/badges', { as: 'max', body })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect(await api.post('/projects/21/badges', { as: 'nora', body })).toBeGitLabError(404, { message: '404 Project Not Found' })
    expect((await api.get('/projects/20/badges')).status).toBe(200)
    expect(await api.get('/projects/20/badges/render', { query: body })).toBeGitLabError(401, { message: '401 Unauthorized' })
  })
})
