/**
 * Notes and award emoji on merge requests over both doors (issue 25 item 1): the note routes of
 * issues for merge requests (list with sort/order_by, get, create, edit, delete), the note authors
 * among the participants, and award emoji on a merge request and on its notes.
 * Sources: gitlab: lib/api/notes.rb, lib/api/helpers/notes_helpers.rb, lib/api/award_emoji.rb,
 * app/policies/note_policy.rb, app/policies/issuable_policy.rb, app/models/concerns/issuable.rb.
 *
 * Default scenario: acme/website (20, public) !3 (504, closed, by devon) has notes 700-703 in two
 * discussions (700, 701 resolved by devon on 2021-03-10T11:00) and the plain note 704 (max). gina is
 * a guest of acme, riley a reporter, devon a developer, max a maintainer; nora is no member.
 */
import { expect, it } from 'vitest'
import { contract, type ApiResponse } from '../../support/contract.js'

const NOW = '2021-04-01T12:00:00.000Z'
const NOTES = '/projects/20/merge_requests/3/notes'
const ids = (res: ApiResponse): number[] => res.body.map((n: { id: number }) => n.id)
const user = (id: number, name: string, username: string, baseUrl: string) => ({ id, name, username, state: 'active', avatar_url: null, web_url: `${baseUrl}/${username}` })

contract('GET /projects/:id/merge_requests/:merge_request_iid/notes', {}, ({ api }) => {
  it('lists the notes newest first, as Entities::Note: discussion notes resolvable, plain notes not', async () => {
    const res = await api.get(NOTES, { as: 'nora' })
    expect(res.status).toBe(200)
    expect(ids(res)).toEqual([704, 703, 702, 701, 700])
    expect(res.body[4]).toEqual({
      id: 700,
      type: 'DiscussionNote',
      body: 'The submit button moves off-screen on small phones.',
      attachment: null,
      author: user(5, 'Max Maintainer', 'max', api.baseUrl),
      created_at: '2021-03-09T10:00:00.000Z',
      updated_at: '2021-03-09T10:00:00.000Z',
      system: false,
      noteable_id: 504,
      noteable_type: 'MergeRequest',
      resolvable: true,
      resolved: true,
      resolved_by: user(4, 'Devon Developer', 'devon', api.baseUrl),
      resolved_at: '2021-03-10T11:00:00.000Z',
      confidential: false,
      noteable_iid: 3,
      commands_changes: {},
    })
    expect(res.body[0]).toEqual({
      id: 704,
      type: null,
      body: 'Closing: superseded by the new layout work.',
      attachment: null,
      author: user(5, 'Max Maintainer', 'max', api.baseUrl),
      created_at: '2021-03-12T08:30:00.000Z',
      updated_at: '2021-03-12T08:30:00.000Z',
      system: false,
      noteable_id: 504,
      noteable_type: 'MergeRequest',
      resolvable: false,
      confidential: false,
      noteable_iid: 3,
      commands_changes: {},
    })
    expect(res.body[2]).toMatchObject({ id: 702, resolvable: true, resolved: false, resolved_by: null, resolved_at: null })
  })

  it.each([
    [{ sort: 'asc' }, [700, 701, 702, 703, 704]],
    [{ order_by: 'updated_at', sort: 'asc', per_page: 2, page: 2 }, [702, 703]],
  ])('orders and paginates by %o', async (query, expected) => {
    expect(ids(await api.get(NOTES, { as: 'riley', query }))).toEqual(expected)
  })

  it.each([
    ['an anonymous caller', undefined, NOTES, 401, { message: '401 Unauthorized' }],
    ['a missing merge request', 'riley', '/projects/20/merge_requests/99/notes', 404, { message: '404 Not found' }],
    ['a private project', 'nora', '/projects/21/merge_requests/1/notes', 404, { message: '404 Project Not Found' }],
    ['a note of another merge request', 'riley', '/projects/20/merge_requests/1/notes/700', 404, { message: '404 Not found' }],
    ['an issue note under a merge request', 'riley', '/projects/30/merge_requests/1/notes/1', 404, { message: '404 Not found' }],
  ])('refuses %s', async (_what, as, path, status, body) => {
    expect(await api.get(path, as ? { as } : {})).toBeGitLabError(status, body)
  })

  it('shows one note', async () => {
    const res = await api.get(`${NOTES}/703`, { as: 'gina' })
    expect([res.status, res.body.body, res.body.noteable_iid]).toEqual([200, 'Keep it for now; we can reorder later.', 3])
  })
})

contract('POST /projects/:id/merge_requests/:merge_request_iid/notes', {}, ({ api, sim }) => {
  it('creates a plain note (201): user_notes_count grows, updated_at moves, the author\'s to-do is done', async () => {
    const res = await api.post('/projects/20/merge_requests/1/notes', { as: 'devon', body: { body: 'Rebased.' } })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ type: null, body: 'Rebased.', noteable_id: 500, noteable_type: 'MergeRequest', noteable_iid: 1, resolvable: false, created_at: NOW, commands_changes: {} })
    expect(sim().db.tables.merge_requests.get(500)).toMatchObject({ user_notes_count: 1, updated_at: NOW })
    // devon's to-do 603 (directly addressed on !1) is done by commenting (TodoService#new_note).
    expect(sim().db.tables.todos.get(603)!.state).toBe('done')
    expect(ids(await api.get('/projects/20/merge_requests/1/notes', { as: 'max' }))).toEqual([res.body.id])
  })

  it('keeps quick actions as text: fakelab interprets none on merge requests', async () => {
    const res = await api.post(NOTES, { as: 'max', body: { body: '/promote' } })
    expect([res.status, res.body.body]).toEqual([201, '/promote'])
  })

  it.each([
    ['a blank body', 'max', { body: '  ' }, 400, { message: '400 Bad request - Note {:note=>["can\'t be blank"]}' }],
    ['no body', 'max', {}, 400, { error: 'body is missing' }],
    ['an anonymous caller', undefined, { body: 'x' }, 401, { message: '401 Unauthorized' }],
  ])('refuses %s', async (_what, as, body, status, expected) => {
    expect(await api.post(NOTES, { ...(as ? { as } : {}), body })).toBeGitLabError(status, expected)
  })

  it.each([
    ['a non-member', 'nora', 403],
    ['a guest member', 'gina', 201],
  ])('lets %s comment on a locked discussion or not (IssuablePolicy locked & ~is_project_member)', async (_what, as, status) => {
    sim().db.tables.merge_requests.update(504, { discussion_locked: true })
    expect((await api.post(NOTES, { as, body: { body: 'x' } })).status).toBe(status)
  })
})

contract('PUT and DELETE /projects/:id/merge_requests/:merge_request_iid/notes/:note_id', {}, ({ api, sim }) => {
  it.each([
    ['the author', 'max', 200],
    ['a maintainer (max is the author; olive the owner)', 'olive', 200],
    ['a developer who is not the author', 'devon', 403],
    ['a non-member', 'nora', 403],
  ])('lets %s edit a note (admin_note)', async (_what, as, status) => {
    const res = await api.put(`${NOTES}/704`, { as, body: { body: 'Edited' } })
    expect(res.status).toBe(status)
    if (status === 200) expect(res.body).toMatchObject({ id: 704, body: 'Edited', updated_at: NOW })
  })

  it('deletes a note (204): it leaves the list and the count', async () => {
    const before = sim().db.tables.merge_requests.get(504)!.user_notes_count
    expect((await api.delete(`${NOTES}/701`, { as: 'devon' })).status).toBe(204)
    expect(ids(await api.get(NOTES, { as: 'devon', query: { sort: 'asc' } }))).toEqual([700, 702, 703, 704])
    expect(sim().db.tables.merge_requests.get(504)!.user_notes_count).toBe(before - 1)
  })
})

contract('GET /projects/:id/merge_requests/:merge_request_iid/participants (note authors)', {}, ({ api }) => {
  it('lists the author, then the note authors in note order, then the assignees, each once', async () => {
    const res = await api.get('/projects/20/merge_requests/3/participants')
    expect(res.body.map((u: { username: string }) => u.username)).toEqual(['devon', 'max', 'riley'])
    await api.post('/projects/20/merge_requests/4/notes', { as: 'gina', body: { body: 'Looks good' } })
    const draft = await api.get('/projects/20/merge_requests/4/participants')
    expect(draft.body.map((u: { username: string }) => u.username)).toEqual(['max', 'gina', 'devon'])
  })

  it('counts a commenter as subscribed (participant)', async () => {
    expect((await api.get('/projects/20/merge_requests/3', { as: 'riley' })).body.subscribed).toBe(true)
    expect((await api.get('/projects/20/merge_requests/3', { as: 'gina' })).body.subscribed).toBe(false)
  })
})

contract('award emoji on merge requests and their notes', {}, ({ api, sim }) => {
  it('awards a thumbsup on a merge request (201): listed, and counted in upvotes', async () => {
    const res = await api.post('/projects/20/merge_requests/1/award_emoji', { as: 'riley', body: { name: '+1' } })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ name: 'thumbsup', awardable_id: 500, awardable_type: 'MergeRequest', user: { username: 'riley' } })
    expect(sim().db.tables.merge_requests.get(500)!.upvotes).toBe(1)
    const list = await api.get('/projects/20/merge_requests/1/award_emoji', { as: 'gina' })
    expect(list.body.map((a: { id: number }) => a.id)).toEqual([res.body.id])
    expect((await api.get(`/projects/20/merge_requests/1/award_emoji/${res.body.id}`, { as: 'gina' })).body.name).toBe('thumbsup')
    expect((await api.delete(`/projects/20/merge_requests/1/award_emoji/${res.body.id}`, { as: 'riley' })).status).toBe(204)
    expect(sim().db.tables.merge_requests.get(500)!.upvotes).toBe(0)
  })

  it('awards on a merge request note without touching the merge request\'s votes', async () => {
    const res = await api.post(`${NOTES}/704/award_emoji`, { as: 'devon', body: { name: 'thumbsup' } })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ awardable_id: 704, awardable_type: 'Note' })
    expect(sim().db.tables.merge_requests.get(504)!.upvotes).toBe(0)
    expect((await api.get(`${NOTES}/704/award_emoji`, { as: 'devon' })).body).toHaveLength(1)
    // A deleted note takes its awards along.
    await api.delete(`${NOTES}/704`, { as: 'max' })
    expect(sim().db.tables.award_emoji.all().filter((a) => a.awardable_type === 'Note' && a.awardable_id === 704)).toEqual([])
  })

  it.each([
    ['a missing merge request', '/projects/20/merge_requests/99/award_emoji', 404, { message: '404 Not found' }],
    ['a note of another merge request', '/projects/20/merge_requests/1/notes/704/award_emoji', 404, { message: '404 Not found' }],
  ])('refuses %s', async (_what, path, status, body) => {
    expect(await api.get(path, { as: 'riley' })).toBeGitLabError(status, body)
  })
})

contract('notes when their noteable goes or moves', {}, ({ api, sim }) => {
  it('deletes a merge request\'s notes and their award emoji with it', async () => {
    await api.post(`${NOTES}/704/award_emoji`, { as: 'devon', body: { name: 'tada' } })
    expect((await api.delete('/projects/20/merge_requests/3', { as: 'olive' })).status).toBe(204)
    expect(sim().db.tables.notes.all().filter((n) => n.noteable_type === 'MergeRequest' && n.noteable_id === 504)).toEqual([])
    expect(sim().db.tables.award_emoji.all().filter((a) => a.awardable_type === 'Note' && a.awardable_id === 704)).toEqual([])
  })

  it('copies a moved issue\'s discussions under new ids, one discussion staying one', async () => {
    const moved = await api.post('/projects/30/issues/2/move', { as: 'root', body: { to_project_id: 20 } })
    expect(moved.status).toBe(201)
    const res = await api.get(`/projects/20/issues/${moved.body.iid}/discussions`, { as: 'root' })
    expect(res.body.map((d: { notes: { body: string }[] }) => d.notes.map((n) => n.body))).toEqual([
      ['Which palette should the dark theme use?', 'The ux label colours would fit.', 'Works for me.'],
      ['Should it follow the operating system setting?'],
    ])
    const first = res.body[0]
    expect(first.id).toMatch(/^[0-9a-f]{40}$/)
    expect(first.id).not.toBe('f19cd2790796d7f9d6f7addecf5a591c0f38548d')
    expect(first.notes.map((n: { noteable_id: number }) => n.noteable_id)).toEqual([moved.body.id, moved.body.id, moved.body.id])
  })
})
