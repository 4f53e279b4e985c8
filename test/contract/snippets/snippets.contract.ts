/**
 * Personal and project snippets over both doors (issue 34 item 3): lists, get, create (13.x
 * `files` and the older `file_name` + `content`), update (file actions), delete, raw content, a
 * file's raw content at a ref, user agent detail, visibility, permissions and GitLab's 400 texts;
 * notes, discussions and award emoji on project snippets.
 * Source: gitlab: lib/api/snippets.rb, lib/api/project_snippets.rb, lib/api/helpers/snippets_helpers.rb,
 * lib/api/entities/snippet.rb (13.12), spec/requests/api/snippets_spec.rb, project_snippets_spec.rb.
 *
 * Default scenario: snippet 600 (nora's, personal, private, aliases.sh) and 601 (acme/website,
 * project 20, public; devon's, internal, deploy.sh). Project 21 acme/api is private (max maintains
 * it, gina is guest of acme); root is admin; nora is in no group.
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

const SNIPPET_FIELDS = ['id', 'title', 'description', 'visibility', 'author', 'updated_at', 'created_at', 'project_id', 'web_url', 'raw_url', 'ssh_url_to_repo', 'http_url_to_repo', 'file_name', 'files']

contract('GET /snippets', {}, ({ api }) => {
  it('lists the caller\'s own snippets, newest first, with the entity\'s fields in order', async () => {
    const res = await api.get('/snippets', { as: 'nora' })
    expect(res.status).toBe(200)
    expect(res.body.map((s: any) => s.id)).toEqual([600])
    expect(Object.keys(res.body[0])).toEqual(SNIPPET_FIELDS)
    expect(res.body[0]).toMatchObject({
      title: 'Shell aliases', visibility: 'private', project_id: null, file_name: 'aliases.sh',
      web_url: `${api.baseUrl}/-/snippets/600`, raw_url: `${api.baseUrl}/-/snippets/600/raw`,
      http_url_to_repo: `${api.baseUrl}/snippets/600.git`,
      files: [{ path: 'aliases.sh', raw_url: `${api.baseUrl}/-/snippets/600/raw/master/aliases.sh` }],
    })
    expect(res.body[0].author.username).toBe('nora')
    expect(res.headers.get('x-total')).toBe('1')
  })

  it('includes project snippets the caller wrote', async () => {
    const res = await api.get('/snippets', { as: 'devon' })
    expect(res.body.map((s: any) => s.id)).toEqual([601])
    expect(res.body[0].web_url).toBe(`${api.baseUrl}/acme/website/-/snippets/601`)
  })

  it('returns 401 to anonymous', async () => {
    await expect(await api.get('/snippets')).toBeGitLabError(401, { message: '401 Unauthorized' })
  })
})

contract('POST /snippets', {}, ({ api }) => {
  it('creates a snippet from file_name and content (internal by default), its repository and user agent detail', async () => {
    const res = await api.post('/snippets', { as: 'devon', headers: { 'user-agent': 'python-gitlab/3.12.0' }, body: { title: 'snippet1', file_name: 'snippet1.py', content: 'import gitlab' } })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ title: 'snippet1', description: '', visibility: 'internal', project_id: null, file_name: 'snippet1.py' })
    expect(res.body.files).toEqual([{ path: 'snippet1.py', raw_url: `${api.baseUrl}/-/snippets/${res.body.id}/raw/master/snippet1.py` }])
    const raw = await api.get(`/snippets/${res.body.id}/raw`, { as: 'devon' })
    expect(raw.status).toBe(200)
    expect(raw.text).toBe('import gitlab')
    expect(raw.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    const detail = await api.get(`/snippets/${res.body.id}/user_agent_detail`, { as: 'root' })
    expect(detail.status).toBe(200)
    expect(detail.body).toEqual({ user_agent: 'python-gitlab/3.12.0', ip_address: '127.0.0.1', akismet_submitted: false })
  })

  it('creates a snippet of several files (13.x files)', async () => {
    const res = await api.post('/snippets', { as: 'devon', body: { title: 'multi', visibility: 'public', files: [{ file_path: 'b.txt', content: 'B' }, { file_path: 'a.txt', content: 'A' }] } })
    expect(res.status).toBe(201)
    expect(res.body.files.map((f: any) => f.path)).toEqual(['a.txt', 'b.txt'])
    expect(res.body.file_name).toBe('a.txt')
    const file = await api.get(`/snippets/${res.body.id}/files/master/b.txt/raw`, { as: 'nora' })
    expect(file.status).toBe(200)
    expect(file.text).toBe('B')
  })

  it.each([
    ['no title', { file_name: 'a', content: 'x' }, 'title is missing'],
    ['a blank title', { title: '', file_name: 'a', content: 'x' }, 'title is empty'],
    ['neither files nor content', { title: 't' }, 'files, content are missing, exactly one parameter must be provided'],
    ['both files and content', { title: 't', content: 'x', file_name: 'a', files: [{ file_path: 'a', content: 'x' }] }, 'files, content are mutually exclusive'],
    ['content without file_name', { title: 't', content: 'x' }, 'file_name is missing'],
    ['a file without content', { title: 't', files: [{ file_path: 'a' }] }, 'files[0][content] is missing'],
    ['a blank file path', { title: 't', files: [{ file_path: ' ', content: 'x' }] }, 'files[0][file_path] is empty'],
    ['a bad visibility', { title: 't', file_name: 'a', content: 'x', visibility: 'secret' }, 'visibility does not have a valid value'],
  ])('returns 400 for %s', async (_label, body, error) => {
    const res = await api.post('/snippets', { as: 'devon', body })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error })
  })

  it('refuses two files of the same path as a repository error', async () => {
    const res = await api.post('/snippets', { as: 'devon', body: { title: 't', files: [{ file_path: 'a', content: 'x' }, { file_path: 'a', content: 'y' }] } })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ message: { error: 'Repository Error creating the snippet' } })
    expect((await api.get('/snippets', { as: 'devon' })).body.map((s: any) => s.id)).toEqual([601])
  })
})

contract('GET /snippets/:id', {}, ({ api }) => {
  it.each([
    ['its author', 'nora', 200],
    ['an administrator', 'root', 200],
    ['another user (private)', 'devon', 404],
  ])('answers %s with %i', async (_label, as, status) => {
    const res = await api.get('/snippets/600', { as })
    expect(res.status).toBe(status)
    if (status === 404) expect(res.body).toEqual({ message: '404 Snippet Not Found' })
  })

  it('shows an internal project snippet of a public project to a signed-in user, not to anonymous', async () => {
    expect((await api.get('/snippets/601', { as: 'nora' })).status).toBe(200)
    await expect(await api.get('/snippets/601')).toBeGitLabError(404, { message: '404 Snippet Not Found' })
  })

  it('shows a public snippet to anonymous', async () => {
    const made = await api.post('/snippets', { as: 'nora', body: { title: 'pub', visibility: 'public', file_name: 'p.txt', content: 'hi' } })
    expect((await api.get(`/snippets/${made.body.id}`)).status).toBe(200)
    expect((await api.get(`/snippets/${made.body.id}/raw`)).text).toBe('hi')
    const pub = await api.get('/snippets/public', { as: 'devon' })
    expect(pub.body.map((s: any) => s.id)).toEqual([made.body.id])
  })
})

contract('PUT /snippets/:id', {}, ({ api }) => {
  it('updates the title and renames the file (python-gitlab test_snippets)', async () => {
    const res = await api.put('/snippets/600', { as: 'nora', body: { title: 'updated_title', file_name: 'renamed.sh' } })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ title: 'updated_title', file_name: 'renamed.sh', updated_at: expect.any(String) })
    const old = await api.get('/snippets/600/files/master/aliases.sh/raw', { as: 'nora' })
    await expect(old).toBeGitLabError(404, { message: '404 File Not Found' })
  })

  it('applies file actions in one commit, the earlier commit still readable by its sha', async () => {
    const made = await api.post('/snippets', { as: 'nora', body: { title: 't', files: [{ file_path: 'a.txt', content: 'one' }] } })
    const id = made.body.id
    const res = await api.put(`/snippets/${id}`, { as: 'nora', body: { files: [{ action: 'update', file_path: 'a.txt', content: 'two' }, { action: 'create', file_path: 'b.txt', content: 'B' }] } })
    expect(res.status).toBe(200)
    expect(res.body.files.map((f: any) => f.path)).toEqual(['a.txt', 'b.txt'])
    expect((await api.get(`/snippets/${id}/files/master/a.txt/raw`, { as: 'nora' })).text).toBe('two')
    await expect(await api.get(`/snippets/${id}/files/nope/a.txt/raw`, { as: 'nora' })).toBeGitLabError(404, { message: '404 Reference Not Found' })
    const multi = await api.put(`/snippets/${id}`, { as: 'nora', body: { content: 'x' } })
    expect(multi.status).toBe(400)
    expect(multi.body).toEqual({ message: { error: 'To update Snippets with multiple files, you must use the `files` parameter' } })
  })

  it.each([
    ['nothing to change', {}, 400, { error: 'content, description, files, file_name, title, visibility are missing, at least one parameter must be provided' }],
    ['an unknown action', { files: [{ action: 'copy', file_path: 'a' }] }, 400, { error: 'files[0][action] does not have a valid value' }],
    ['an update without content', { files: [{ action: 'update', file_path: 'aliases.sh' }] }, 422, { message: { error: 'Snippet actions have invalid data' } }],
    ['an update of a missing file', { files: [{ action: 'update', file_path: 'nope', content: 'x' }] }, 400, { message: { error: 'Repository Error updating the snippet' } }],
  ])('answers %s with %i', async (_label, body, status, error) => {
    const res = await api.put('/snippets/600', { as: 'nora', body })
    expect(res.status).toBe(status)
    expect(res.body).toEqual(error)
  })

  it('returns 404 for a snippet the caller did not write', async () => {
    await expect(await api.put('/snippets/600', { as: 'devon', body: { title: 'x' } })).toBeGitLabError(404, { message: '404 Snippet Not Found' })
  })
})

contract('DELETE /snippets/:id', {}, ({ api }) => {
  it('deletes the caller\'s snippet, with its repository', async () => {
    expect((await api.delete('/snippets/600', { as: 'nora' })).status).toBe(204)
    await expect(await api.get('/snippets/600', { as: 'nora' })).toBeGitLabError(404, { message: '404 Snippet Not Found' })
    await expect(await api.get('/snippets/600/user_agent_detail', { as: 'root' })).toBeGitLabError(404, { message: '404 Not found' })
  })

  it('returns 404 to another user', async () => {
    await expect(await api.delete('/snippets/600', { as: 'devon' })).toBeGitLabError(404, { message: '404 Snippet Not Found' })
  })
})

contract('GET /snippets/:id/user_agent_detail', {}, ({ api }) => {
  it('is for administrators only; a scenario snippet has no detail', async () => {
    await expect(await api.get('/snippets/600/user_agent_detail', { as: 'nora' })).toBeGitLabError(403, { message: '403 Forbidden' })
    await expect(await api.get('/snippets/600/user_agent_detail', { as: 'root' })).toBeGitLabError(404, { message: '404 UserAgentDetail Not Found' })
  })
})

contract('/projects/:id/snippets', {}, ({ api }) => {
  it('runs python-gitlab\'s project snippet flow: create, user agent detail, discussion, rename, delete', async () => {
    const made = await api.post('/projects/20/snippets', { as: 'max', body: { title: 'snip1', file_name: 'foo.py', content: 'initial content', visibility: 'private' } })
    expect(made.status).toBe(201)
    expect(made.body).toMatchObject({ project_id: 20, file_name: 'foo.py', web_url: `${api.baseUrl}/acme/website/-/snippets/${made.body.id}`, http_url_to_repo: `${api.baseUrl}/acme/website/snippets/${made.body.id}.git` })
    const id = made.body.id
    expect((await api.get(`/projects/20/snippets/${id}/user_agent_detail`, { as: 'root' })).status).toBe(200)
    const list = await api.get('/projects/20/snippets', { as: 'max' })
    expect(list.body.map((s: any) => s.id)).toEqual([id, 601])

    const discussion = await api.post(`/projects/20/snippets/${id}/discussions`, { as: 'max', body: { body: 'Discussion body' } })
    expect(discussion.status).toBe(201)
    expect(discussion.body.notes[0]).toMatchObject({ body: 'Discussion body', noteable_type: 'Snippet', noteable_id: id, noteable_iid: null })
    const note = await api.post(`/projects/20/snippets/${id}/discussions/${discussion.body.id}/notes`, { as: 'max', body: { body: 'first note' } })
    expect(note.status).toBe(201)
    expect((await api.put(`/projects/20/snippets/${id}/discussions/${discussion.body.id}/notes/${note.body.id}`, { as: 'max', body: { body: 'updated body' } })).status).toBe(200)
    const read = await api.get(`/projects/20/snippets/${id}/discussions/${discussion.body.id}`, { as: 'max' })
    expect(read.body.notes.at(-1).body).toBe('updated body')
    expect((await api.get(`/projects/20/snippets/${id}/notes`, { as: 'max' })).body).toHaveLength(2)

    const renamed = await api.put(`/projects/20/snippets/${id}`, { as: 'max', body: { file_name: 'bar.py' } })
    expect(renamed.body.file_name).toBe('bar.py')
    expect((await api.get(`/projects/20/snippets/${id}/raw`, { as: 'max' })).text).toBe('initial content')
    expect((await api.get(`/projects/20/snippets/${id}/files/master/bar.py/raw`, { as: 'max' })).text).toBe('initial content')
    expect((await api.delete(`/projects/20/snippets/${id}`, { as: 'max' })).status).toBe(204)
    expect((await api.get(`/projects/20/snippets/${id}/notes`, { as: 'max' })).status).toBe(404)
  })

  it('hides a private project snippet from non-members and lets a guest read it', async () => {
    const made = await api.post('/projects/20/snippets', { as: 'max', body: { title: 's', file_name: 'a', content: 'x', visibility: 'private' } })
    await expect(await api.get(`/projects/20/snippets/${made.body.id}`, { as: 'nora' })).toBeGitLabError(404, { message: '404 Not found' })
    await expect(await api.get(`/projects/20/snippets/${made.body.id}/raw`, { as: 'nora' })).toBeGitLabError(404, { message: '404 Snippet Not Found' })
    expect((await api.get(`/projects/20/snippets/${made.body.id}`, { as: 'gina' })).status).toBe(200)
  })

  it.each([
    ['a guest', 'gina', 403],
    ['a reporter', 'riley', 201],
    ['a non-member of a private project', 'nora', 404],
  ])('POST by %s answers %i', async (_label, as, status) => {
    const project = as === 'nora' ? 21 : 20
    const res = await api.post(`/projects/${project}/snippets`, { as, body: { title: 's', file_name: 'a', content: 'x', visibility: 'internal' } })
    expect(res.status).toBe(status)
  })

  it('requires visibility on a project snippet', async () => {
    const res = await api.post('/projects/20/snippets', { as: 'max', body: { title: 's', file_name: 'a', content: 'x' } })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: 'visibility is missing' })
  })

  it('lets the author and a maintainer change a snippet, not a developer who did not write it', async () => {
    await expect(await api.put('/projects/20/snippets/601', { as: 'riley', body: { title: 'x' } })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect((await api.put('/projects/20/snippets/601', { as: 'devon', body: { title: 'by author' } })).status).toBe(200)
    expect((await api.put('/projects/20/snippets/601', { as: 'max', body: { title: 'by maintainer' } })).status).toBe(200)
  })

  it('awards emoji on a project snippet', async () => {
    const award = await api.post('/projects/20/snippets/601/award_emoji', { as: 'nora', body: { name: 'thumbsup' } })
    expect(award.status).toBe(201)
    expect(award.body).toMatchObject({ name: 'thumbsup', awardable_id: 601, awardable_type: 'Snippet' })
    expect((await api.get('/projects/20/snippets/601/award_emoji', { as: 'nora' })).body).toHaveLength(1)
  })
})
