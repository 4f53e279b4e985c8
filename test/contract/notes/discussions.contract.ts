/**
 * Discussions on issues and merge requests over both doors (issue 25 item 4): list, get, start,
 * reply, get/edit/delete a discussion note, resolve a note or a whole merge request discussion;
 * the notes are the same notes the note routes list, and a plain comment is an individual note.
 * Sources: gitlab: lib/api/discussions.rb, lib/api/entities/discussion.rb, lib/api/entities/note.rb,
 * lib/api/helpers/notes_helpers.rb, app/models/concerns/resolvable_discussion.rb,
 * app/models/individual_note_discussion.rb, app/policies/note_policy.rb; python-gitlab's functional
 * test `test_merge_request_discussion` (the flow of the last test here).
 *
 * Default scenario: acme/website (20, public) !3 (504, devon) has discussions of notes 700+701
 * (resolved by devon at 2021-03-10T11:00), 702+703, and the plain note 704; ivy/tracker (30,
 * public) #2 (406, gina) has discussions of notes 705-707 and 708, #1 (405) the plain notes 1 and 2.
 * Discussion ids are the SHA-1 of `<noteable_type>-<noteable id>-<first note id>`.
 */
import { createHash } from 'node:crypto'
import { expect, it } from 'vitest'
import { contract, type ApiResponse } from '../../support/contract.js'

const NOW = '2021-04-01T12:00:00.000Z'
const MR = '/projects/20/merge_requests/3/discussions'
const ISSUE = '/projects/30/issues/2/discussions'
const RESOLVED = 'f81be21a9d115ca13f98976d2529ec84b7f9dc95' // MergeRequest-504-700
const OPEN = 'f0a32e50489480bb9ecfe2eabc8c05efb4e517cd' // MergeRequest-504-702
const PLAIN = '9dca7017800e136e3a4b3eba469112205712942a' // MergeRequest-504-704
const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex')
const noteIds = (discussion: { notes: { id: number }[] }): number[] => discussion.notes.map((n) => n.id)
const shape = (res: ApiResponse) => res.body.map((d: { id: string; individual_note: boolean; notes: { id: number }[] }) => [d.id, d.individual_note, noteIds(d)])

contract('GET /projects/:id/{issues,merge_requests}/:iid/discussions', {}, ({ api, sim }) => {
  it('lists a merge request\'s discussions in the order they started, each with its notes oldest first', async () => {
    const res = await api.get(MR, { as: 'nora' })
    expect(res.status).toBe(200)
    expect(shape(res)).toEqual([
      [RESOLVED, false, [700, 701]],
      [OPEN, false, [702, 703]],
      [PLAIN, true, [704]],
    ])
    expect(res.body[0].notes[1]).toMatchObject({ id: 701, type: 'DiscussionNote', resolvable: true, resolved: true, resolved_by: { username: 'devon' }, resolved_at: '2021-03-10T11:00:00.000Z' })
    expect(res.headers.get('x-total')).toBe('3')
  })

  it('lists an issue\'s discussions: not resolvable; plain comments as individual notes', async () => {
    expect(shape(await api.get(ISSUE, { as: 'riley' }))).toEqual([
      [sha1('Issue-406-705'), false, [705, 706, 707]],
      [sha1('Issue-406-708'), false, [708]],
    ])
    const first = (await api.get(ISSUE, { as: 'riley' })).body[0].notes[0]
    expect(first).toEqual({
      id: 705,
      type: 'DiscussionNote',
      body: 'Which palette should the dark theme use?',
      attachment: null,
      author: { id: 2, name: 'Gina Guest', username: 'gina', state: 'active', avatar_url: null, web_url: `${api.baseUrl}/gina` },
      created_at: '2021-03-13T09:00:00.000Z',
      updated_at: '2021-03-13T09:00:00.000Z',
      system: false,
      noteable_id: 406,
      noteable_type: 'Issue',
      resolvable: false,
      confidential: false,
      noteable_iid: 2,
      commands_changes: {},
    })
    expect(shape(await api.get('/projects/30/issues/1/discussions', { as: 'riley' }))).toEqual([
      [sha1('Issue-405-1'), true, [1]],
      [sha1('Issue-405-2'), true, [2]],
    ])
  })

  it('paginates discussions, not notes', async () => {
    const res = await api.get(MR, { as: 'riley', query: { per_page: 2, page: 2 } })
    expect(shape(res)).toEqual([[PLAIN, true, [704]]])
    expect([res.headers.get('x-total'), res.headers.get('x-total-pages')]).toEqual(['3', '2'])
  })

  it('hides a confidential note from a non-member, and a discussion left without notes', async () => {
    sim().db.tables.notes.update(708, { confidential: true })
    expect(shape(await api.get(ISSUE, { as: 'nora' })).map((d: unknown[]) => d[2])).toEqual([[705, 706, 707]])
    expect(shape(await api.get(ISSUE, { as: 'riley' })).map((d: unknown[]) => d[2])).toEqual([[705, 706, 707], [708]])
  })

  it.each([
    ['an anonymous caller', undefined, MR, 401, { message: '401 Unauthorized' }],
    ['a confidential issue to a non-member', 'nora', '/projects/30/issues/5/discussions', 404, { message: '404 Not found' }],
    ['a missing merge request', 'riley', '/projects/20/merge_requests/99/discussions', 404, { message: '404 Not found' }],
    ['an unknown discussion', 'riley', `${MR}/${'0'.repeat(40)}`, 404, { message: '404 Discussion Not Found' }],
    ['the notes of an unknown discussion', 'riley', `${MR}/${'0'.repeat(40)}/notes`, 404, { message: '404 Notes Not Found' }],
  ])('refuses %s', async (_what, as, path, status, body) => {
    expect(await api.get(path, as ? { as } : {})).toBeGitLabError(status, body)
  })

  it('gets one discussion and its notes', async () => {
    const res = await api.get(`${MR}/${OPEN}`, { as: 'gina' })
    expect([res.status, res.body.id, res.body.individual_note, noteIds(res.body)]).toEqual([200, OPEN, false, [702, 703]])
    const notes = await api.get(`${MR}/${OPEN}/notes`, { as: 'gina' })
    expect(notes.body.map((n: { id: number }) => n.id)).toEqual([702, 703])
    expect((await api.get(`${MR}/${OPEN}/notes/703`, { as: 'gina' })).body.body).toBe('Keep it for now; we can reorder later.')
  })
})

contract('POST /projects/:id/{issues,merge_requests}/:iid/discussions', {}, ({ api, sim }) => {
  it('starts a merge request discussion (201): one DiscussionNote, unresolved, also listed by /notes', async () => {
    const res = await api.post(MR, { as: 'riley', body: { body: 'Why a new layout?' } })
    expect(res.status).toBe(201)
    const id = res.body.notes[0].id as number
    expect(res.body).toEqual({
      id: sha1(`MergeRequest-504-${id}`),
      individual_note: false,
      notes: [expect.objectContaining({ id, type: 'DiscussionNote', body: 'Why a new layout?', noteable_type: 'MergeRequest', resolvable: true, resolved: false, resolved_by: null, resolved_at: null, created_at: NOW })],
    })
    expect((await api.get('/projects/20/merge_requests/3/notes', { as: 'riley' })).body[0].id).toBe(id)
    expect(sim().db.tables.merge_requests.get(504)!.user_notes_count).toBe(6)
  })

  it('keeps created_at for a project owner, not for others (set_note_created_at)', async () => {
    // olive owns acme, so acme/website.
    const owner = await api.post(MR, { as: 'olive', body: { body: 'Imported', created_at: '2021-03-20T10:00:00Z' } })
    expect(owner.body.notes[0]).toMatchObject({ created_at: '2021-03-20T10:00:00.000Z', updated_at: '2021-03-20T10:00:00.000Z' })
    const other = await api.post(MR, { as: 'max', body: { body: 'Imported', created_at: '2021-03-20T10:00:00Z' } })
    expect(other.body.notes[0].created_at).toBe(NOW)
  })

  it.each([
    ['no body', 'riley', {}, 400, { error: 'body is missing' }],
    ['a blank body', 'riley', { body: ' ' }, 400, { message: '400 Bad request - Note {:note=>["can\'t be blank"]}' }],
    ['an anonymous caller', undefined, { body: 'x' }, 401, { message: '401 Unauthorized' }],
  ])('refuses %s', async (_what, as, body, status, expected) => {
    expect(await api.post(MR, { ...(as ? { as } : {}), body })).toBeGitLabError(status, expected)
  })
})

contract('POST /projects/:id/{issues,merge_requests}/:iid/discussions/:discussion_id/notes', {}, ({ api, sim }) => {
  it('adds a note to a discussion (201): a DiscussionNote in it; a resolved discussion is open again', async () => {
    const res = await api.post(`${MR}/${RESOLVED}/notes`, { as: 'max', body: { body: 'It came back on tablets.' } })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ type: 'DiscussionNote', body: 'It came back on tablets.', resolvable: true, resolved: false, noteable_iid: 3 })
    const discussion = (await api.get(`${MR}/${RESOLVED}`, { as: 'max' })).body
    expect(noteIds(discussion)).toEqual([700, 701, res.body.id])
  })

  it('replies to a plain comment: it becomes a discussion (IndividualNoteDiscussion#convert_to_discussion!)', async () => {
    const res = await api.post(`${MR}/${PLAIN}/notes`, { as: 'devon', body: { body: 'Agreed.' } })
    expect(res.status).toBe(201)
    const discussion = (await api.get(`${MR}/${PLAIN}`, { as: 'devon' })).body
    expect([discussion.individual_note, noteIds(discussion), discussion.notes[0].type, discussion.notes[0].resolvable]).toEqual([false, [704, res.body.id], 'DiscussionNote', true])
  })

  it('refuses a reply to a system note (400) and to an unknown discussion (404)', async () => {
    const base = { noteable_id: 406, noteable_type: 'Issue' as const, project_id: 30, author_id: 5, confidential: null, created_at: NOW, updated_at: NOW }
    sim().db.tables.notes.insert({ ...base, id: 90, body: 'changed the description', system: true })
    expect(await api.post(`${ISSUE}/${sha1('Issue-406-90')}/notes`, { as: 'max', body: { body: 'x' } })).toBeGitLabError(400, { message: '400 Bad request - Discussion can not be replied to.' })
    expect(await api.post(`${ISSUE}/${'a'.repeat(40)}/notes`, { as: 'max', body: { body: 'x' } })).toBeGitLabError(404, { message: '404 Discussion Not Found' })
  })
})

contract('PUT /projects/:id/{issues,merge_requests}/:iid/discussions/:discussion_id/notes/:note_id', {}, ({ api }) => {
  it.each([
    ['its author', 'riley', 200],
    ['a developer who is not its author', 'devon', 403],
  ])('lets %s edit a discussion note (admin_note)', async (_what, as, status) => {
    const res = await api.put(`${MR}/${OPEN}/notes/702`, { as, body: { body: 'Edited' } })
    expect(res.status).toBe(status)
    if (status === 200) expect(res.body).toMatchObject({ id: 702, body: 'Edited', updated_at: NOW })
  })

  it.each([
    ['its author', 'riley', 702, 200],
    ['the merge request\'s author', 'devon', 702, 200],
    ['a guest who wrote none of it', 'gina', 702, 403],
    ['a non-resolvable note, by its author', 'max', 704, 400],
  ])('lets %s resolve a note or not (resolve_note)', async (_what, as, noteId, status) => {
    const res = await api.put(`${MR}/${OPEN}/notes/${noteId}`, { as, body: { resolved: true } })
    expect(res.status).toBe(status)
    if (status === 200) expect(res.body).toMatchObject({ id: 702, resolved: true, resolved_by: { username: as }, resolved_at: NOW })
    if (status === 400) expect(res.body).toEqual({ message: '400 Bad request - Note is not resolvable' })
  })

  it('refuses to resolve an issue note (not resolvable) and unresolves a merge request note', async () => {
    expect(await api.put(`${ISSUE}/${sha1('Issue-406-705')}/notes/705`, { as: 'gina', body: { resolved: true } })).toBeGitLabError(400, { message: '400 Bad request - Note is not resolvable' })
    const res = await api.put(`${MR}/${RESOLVED}/notes/700`, { as: 'devon', body: { resolved: false } })
    expect(res.body).toMatchObject({ resolved: false, resolved_by: null, resolved_at: null })
  })

  it.each([
    ['neither body nor resolved', {}, 'body, resolved are missing, exactly one parameter must be provided'],
    ['both', { body: 'x', resolved: true }, 'body, resolved are mutually exclusive'],
  ])('answers 400 for %s (exactly_one_of)', async (_what, body, error) => {
    expect(await api.put(`${MR}/${OPEN}/notes/702`, { as: 'riley', body })).toBeGitLabError(400, { error })
  })
})

contract('PUT /projects/:id/merge_requests/:merge_request_iid/discussions/:discussion_id', {}, ({ api, sim }) => {
  it('resolves every note of a discussion (200, Entities::Discussion), then unresolves it', async () => {
    const res = await api.put(`${MR}/${OPEN}`, { as: 'devon', body: { resolved: true } })
    expect(res.status).toBe(200)
    expect([res.body.id, res.body.individual_note]).toEqual([OPEN, false])
    expect(res.body.notes.map((n: { resolved: boolean; resolved_by: { username: string }; resolved_at: string }) => [n.resolved, n.resolved_by.username, n.resolved_at])).toEqual([
      [true, 'devon', NOW],
      [true, 'devon', NOW],
    ])
    const back = await api.put(`${MR}/${RESOLVED}`, { as: 'devon', body: { resolved: 'false' } })
    expect(back.body.notes.map((n: { resolved: boolean; resolved_by: unknown }) => [n.resolved, n.resolved_by])).toEqual([
      [false, null],
      [false, null],
    ])
    expect(sim().db.tables.notes.get(700)).toMatchObject({ resolved_at: null, resolved_by_id: null })
  })

  it.each([
    ['the merge request\'s author (devon)', 'devon', OPEN, 200],
    ['a developer', 'devon', RESOLVED, 200],
    ['a reporter who is not the author', 'riley', OPEN, 403],
    ['anyone, for a plain comment (not resolvable)', 'max', PLAIN, 403],
  ])('lets %s resolve or not (Discussion#can_resolve?)', async (_what, as, id, status) => {
    expect((await api.put(`${MR}/${id}`, { as, body: { resolved: true } })).status).toBe(status)
  })

  it.each([
    ['resolved missing', `${MR}/${OPEN}`, {}, 400, { error: 'resolved is missing' }],
    ['an unknown discussion', `${MR}/${'0'.repeat(40)}`, { resolved: true }, 404, { message: '404 Discussion Not Found' }],
  ])('refuses %s', async (_what, path, body, status, expected) => {
    expect(await api.put(path, { as: 'devon', body })).toBeGitLabError(status, expected)
  })
})

contract('a discussion as python-gitlab drives it (test_merge_request_discussion)', {}, ({ api }) => {
  it('creates, lists, replies, edits and deletes as the client expects', async () => {
    const before = (await api.get(MR, { as: 'max' })).body.length
    const discussion = (await api.post(MR, { as: 'max', body: { body: 'Discussion body' } })).body
    const listed = await api.get(MR, { as: 'max' })
    expect([listed.body.length, listed.body.some((d: { id: string }) => d.id === discussion.id)]).toEqual([before + 1, true])
    const note = (await api.post(`${MR}/${discussion.id}/notes`, { as: 'max', body: { body: 'first note' } })).body
    const fromGet = (await api.get(`${MR}/${discussion.id}/notes/${note.id}`, { as: 'max' })).body
    expect((await api.put(`${MR}/${discussion.id}/notes/${fromGet.id}`, { as: 'max', body: { body: 'updated body' } })).status).toBe(200)
    const after = (await api.get(`${MR}/${discussion.id}`, { as: 'max' })).body
    expect(after.notes.at(-1).body).toBe('updated body')
    expect((await api.delete(`${MR}/${discussion.id}/notes/${note.id}`, { as: 'max' })).status).toBe(204)
    expect((await api.get(`${MR}/${discussion.id}`, { as: 'max' })).body.notes).toHaveLength(1)
  })
})
