/**
 * Notes on commits over both doors (issue 26 item 2, "comments"): a commit's comments
 * (`…/repository/commits/:sha/comments`, `Entities::CommitNote`), its discussions
 * (`…/repository/commits/:commit_id/discussions`), which are the same notes, and its signature
 * (`…/commits/:sha/signature`: fakelab's commits are unsigned).
 * Sources: gitlab: lib/api/commits.rb, lib/api/entities/commit_note.rb, lib/api/discussions.rb,
 * lib/api/helpers/notes_helpers.rb, lib/api/entities/note.rb, lib/gitlab/diff/parser.rb,
 * spec/requests/api/commits_spec.rb (13.x); python-gitlab's functional tests
 * `test_commit_signature`, `test_commit_comment`, `test_commit_discussion` (the flow of the last test here).
 *
 * Default scenario: acme/website (20, public): main is "Release 1.0" (MAIN, adds CHANGELOG.md),
 * FIX ("Repair footer links") changes footer.html's line 3 (`/contact` → `/support`).
 * acme/platform/api (21, private) has an empty repository; gina is a guest of acme (no
 * `download_code` on a private project), nora no member. The commits carry no notes.
 */
import { createHash } from 'node:crypto'
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

const NOW = '2021-04-01T12:00:00.000Z'
const MAIN = 'fd7d40d21b67d3419c468f3cd80559f888c6ff31'
const FIX = '8b730db763773508ce3d5738b7bf066231fda835'
const COMMENTS = `/projects/20/repository/commits/${MAIN}/comments`
const DISCUSSIONS = `/projects/20/repository/commits/${MAIN}/discussions`
const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex')
const user = (baseUrl: string, id: number, name: string, username: string) => ({ id, name, username, state: 'active', avatar_url: null, web_url: `${baseUrl}/${username}` })

contract('GET/POST /projects/:id/repository/commits/:sha/comments', {}, ({ api }) => {
  it('makes a plain comment and lists it, as a CommitNote, by sha or by ref', async () => {
    const created = await api.post(COMMENTS, { as: 'devon', body: { note: 'Nice release' } })
    expect(created.status).toBe(201)
    const devon = user(api.baseUrl, 4, 'Devon Developer', 'devon')
    expect(created.body).toEqual({ note: 'Nice release', path: null, line: null, line_type: null, author: devon, created_at: NOW })
    expect(Object.keys(created.body)).toEqual(['note', 'path', 'line', 'line_type', 'author', 'created_at'])
    for (const sha of [MAIN, 'main', 'v1.0.0']) {
      const res = await api.get(`/projects/20/repository/commits/${sha}/comments`, { as: 'nora' })
      expect([res.status, res.body]).toEqual([200, [created.body]])
      expect(res.headers.get('x-total')).toBe('1')
    }
    // Another commit has none; anonymous callers read a public project's comments.
    expect((await api.get(`/projects/20/repository/commits/${FIX}/comments`)).body).toEqual([])
  })

  it.each([
    ['an added line', { path: 'footer.html', line: 3, line_type: 'new' }, { path: 'footer.html', line: 3, line_type: 'new' }],
    ['an added line, line_type by default', { path: 'footer.html', line: 3 }, { path: 'footer.html', line: 3, line_type: 'new' }],
    ['a removed line', { path: 'footer.html', line: 3, line_type: 'old' }, { path: 'footer.html', line: 3, line_type: 'old' }],
    ['a context line (no diff line of that side): a plain comment', { path: 'footer.html', line: 1, line_type: 'new' }, { path: null, line: null, line_type: null }],
    ['a file the commit does not change: a plain comment', { path: 'README.md', line: 1 }, { path: null, line: null, line_type: null }],
    ['a blank path: a plain comment, line not needed', { path: '' }, { path: null, line: null, line_type: null }],
  ])('comments on %s of the diff', async (_what, where, shown) => {
    const res = await api.post(`/projects/20/repository/commits/${FIX}/comments`, { as: 'max', body: { note: 'Here', ...where } })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ note: 'Here', ...shown })
    expect((await api.get(`/projects/20/repository/commits/${FIX}/comments`, { as: 'max' })).body).toMatchObject([shown])
  })

  it('groups diff comments on one line into one discussion (LegacyDiffDiscussion), not individual notes', async () => {
    for (const note of ['One', 'Two']) await api.post(`/projects/20/repository/commits/${FIX}/comments`, { as: 'max', body: { note, path: 'footer.html', line: 3 } })
    const res = await api.get(`/projects/20/repository/commits/${FIX}/discussions`, { as: 'max' })
    expect(res.body.map((d: { individual_note: boolean; notes: { body: string; type: string }[] }) => [d.individual_note, d.notes.map((n) => [n.type, n.body])])).toEqual([
      [false, [['LegacyDiffNote', 'One'], ['LegacyDiffNote', 'Two']]],
    ])
    expect(res.body[0].id).toBe(sha1(`Commit-${FIX}-${sha1('footer.html')}_4_3`))
  })

  it.each([
    ['no note', 'max', {}, 400, { error: 'note is missing' }],
    ['a path without a line', 'max', { note: 'x', path: 'footer.html' }, 400, { error: 'line is missing' }],
    ['neither', 'max', { path: 'footer.html' }, 400, { error: 'note is missing, line is missing' }],
    ['a bad line_type', 'max', { note: 'x', path: 'footer.html', line: 3, line_type: 'both' }, 400, { error: 'line_type does not have a valid value' }],
    ['a blank note', 'max', { note: ' ' }, 400, { message: 'Failed to save note {:note=>["can\'t be blank"]}' }],
    // commits_spec: "when unauthenticated and project is public" → 400 (the note has no author).
    ['an anonymous comment', undefined, { note: 'x' }, 400, { message: 'Failed to save note {:author=>["can\'t be blank"]}' }],
  ])('refuses %s', async (_what, as, body, status, error) => {
    expect(await api.post(COMMENTS, { ...(as ? { as } : {}), body })).toBeGitLabError(status, error)
    expect((await api.get(COMMENTS)).body).toEqual([])
  })

  it.each([
    ['GET', 'an unknown sha', 'max', `/projects/20/repository/commits/${'0'.repeat(40)}/comments`, undefined, 404, { message: '404 Commit Not Found' }],
    ['POST', 'an unknown ref', 'max', '/projects/20/repository/commits/nope/comments', { note: 'x' }, 404, { message: '404 Commit Not Found' }],
    ['GET', 'a guest of a private project (no download_code)', 'gina', '/projects/21/repository/commits/main/comments', undefined, 403, { message: '403 Forbidden' }],
    // commits.rb's `before` runs before the params are validated: 403, not 400 for the missing note.
    ['POST', 'a guest of a private project, before the params', 'gina', '/projects/21/repository/commits/main/comments', undefined, 403, { message: '403 Forbidden' }],
    ['POST', 'a non-member of a private project', 'nora', '/projects/21/repository/commits/main/comments', { note: 'x' }, 404, { message: '404 Project Not Found' }],
    ['GET', 'an empty repository', 'max', '/projects/21/repository/commits/main/comments', undefined, 404, { message: '404 Commit Not Found' }],
  ])('%s answers %s', async (method, _what, as, path, body, status, error) => {
    expect(await api.request(method, path, { as, body })).toBeGitLabError(status, error)
  })
})

contract('/projects/:id/repository/commits/:commit_id/discussions', {}, ({ api, sim }) => {
  it('starts a discussion, replies, edits and deletes the reply: the python-gitlab flow', async () => {
    const started = await api.post(DISCUSSIONS, { as: 'max', body: { body: 'Discussion body' } })
    expect(started.status).toBe(201)
    const id = sha1(`Commit-${MAIN}-709`)
    const max = user(api.baseUrl, 5, 'Max Maintainer', 'max')
    const first = {
      id: 709,
      type: 'DiscussionNote',
      body: 'Discussion body',
      attachment: null,
      author: max,
      created_at: NOW,
      updated_at: NOW,
      system: false,
      noteable_id: null,
      noteable_type: 'Commit',
      resolvable: false,
      confidential: false,
      noteable_iid: null,
      commands_changes: {},
    }
    expect(started.body).toEqual({ id, individual_note: false, notes: [first] })
    expect(Object.keys(started.body.notes[0])).toEqual(Object.keys(first))
    expect((await api.get(DISCUSSIONS, { as: 'riley' })).body).toEqual([started.body])

    const reply = await api.post(`${DISCUSSIONS}/${id}/notes`, { as: 'devon', body: { body: 'first note' } })
    expect([reply.status, reply.body.id, reply.body.noteable_type]).toEqual([201, 710, 'Commit'])
    expect((await api.get(`${DISCUSSIONS}/${id}/notes/710`, { as: 'nora' })).body).toEqual(reply.body)
    const edited = await api.put(`${DISCUSSIONS}/${id}/notes/710`, { as: 'devon', body: { body: 'updated body' } })
    expect([edited.status, edited.body.body]).toEqual([200, 'updated body'])
    expect((await api.get(`${DISCUSSIONS}/${id}`, { as: 'max' })).body.notes.map((n: { body: string }) => n.body)).toEqual(['Discussion body', 'updated body'])
    expect((await api.delete(`${DISCUSSIONS}/${id}/notes/710`, { as: 'devon' })).status).toBe(204)
    expect((await api.get(`${DISCUSSIONS}/${id}/notes`, { as: 'max' })).body.map((n: { id: number }) => n.id)).toEqual([709])
    // A discussion note is a comment too.
    expect((await api.get(COMMENTS, { as: 'max' })).body).toEqual([{ note: 'Discussion body', path: null, line: null, line_type: null, author: max, created_at: NOW }])
  })

  it('shows a comment as an individual note, which a reply turns into a discussion', async () => {
    const comment = await api.post(COMMENTS, { as: 'riley', body: { note: 'A comment' } })
    expect(comment.status).toBe(201)
    const id = sha1(`Commit-${MAIN}-709`)
    expect((await api.get(DISCUSSIONS, { as: 'riley' })).body).toMatchObject([{ id, individual_note: true, notes: [{ id: 709, type: null, body: 'A comment', noteable_type: 'Commit' }] }])
    expect((await api.post(`${DISCUSSIONS}/${id}/notes`, { as: 'max', body: { body: 'Reply' } })).status).toBe(201)
    expect((await api.get(`${DISCUSSIONS}/${id}`, { as: 'riley' })).body).toMatchObject({ individual_note: false, notes: [{ id: 709, type: 'DiscussionNote' }, { id: 710 }] })
    expect(sim().db.tables.notes.get(709)).toMatchObject({ noteable_id: null, noteable_type: 'Commit', commit_id: MAIN, project_id: 20 })
  })

  it.each([
    ['GET', 'an unknown sha', 'max', '/projects/20/repository/commits/nope/discussions', 404, { message: '404 Commit Not Found' }],
    // `find_noteable`: a commit the caller may not read (`read_commit` = `download_code`) is not found.
    ['GET', 'a guest of a private project', 'gina', '/projects/21/repository/commits/main/discussions', 404, { message: '404 Commit Not Found' }],
    ['POST', 'a non-member of a private project', 'nora', '/projects/21/repository/commits/main/discussions', 404, { message: '404 Project Not Found' }],
    ['GET', 'an anonymous caller', undefined, DISCUSSIONS, 401, { message: '401 Unauthorized' }],
    ['GET', 'an unknown discussion', 'max', `${DISCUSSIONS}/${'a'.repeat(40)}`, 404, { message: '404 Discussion Not Found' }],
    ['PUT', 'another user\'s note (admin_note)', 'gina', `${DISCUSSIONS}/${sha1(`Commit-${MAIN}-709`)}/notes/709`, 403, { message: '403 Forbidden' }],
    ['PUT', 'resolving a commit note (not resolvable)', 'max', `${DISCUSSIONS}/${sha1(`Commit-${MAIN}-709`)}/notes/709`, 400, { message: '400 Bad request - Note is not resolvable' }],
    ['DELETE', 'a note of another commit', 'max', `/projects/20/repository/commits/${FIX}/discussions/x/notes/709`, 404, { message: '404 Not found' }],
  ])('%s answers %s', async (method, what, as, path, status, error) => {
    await api.post(DISCUSSIONS, { as: 'devon', body: { body: 'Start' } })
    const body = method === 'PUT' ? (what.startsWith('resolving') ? { resolved: true } : { body: 'x' }) : method === 'POST' ? { body: 'x' } : undefined
    expect(await api.request(method, path, { ...(as ? { as } : {}), body })).toBeGitLabError(status, error)
  })
})

contract('GET /projects/:id/repository/commits/:sha/signature', {}, ({ api }) => {
  it.each([
    ['an unsigned commit', undefined, `/projects/20/repository/commits/${MAIN}/signature`, 404, { message: '404 Signature Not Found' }],
    ['a ref', 'max', '/projects/20/repository/commits/main/signature', 404, { message: '404 Signature Not Found' }],
    ['an unknown sha', 'max', '/projects/20/repository/commits/nope/signature', 404, { message: '404 Commit Not Found' }],
    ['a guest of a private project', 'gina', '/projects/21/repository/commits/main/signature', 403, { message: '403 Forbidden' }],
    ['a non-member of a private project', 'nora', '/projects/21/repository/commits/main/signature', 404, { message: '404 Project Not Found' }],
  ])('answers %s', async (_what, as, path, status, error) => {
    expect(await api.get(path, as ? { as } : {})).toBeGitLabError(status, error)
  })
})
