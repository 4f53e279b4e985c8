/**
 * Notes on issues over both doors (issue 16 part 2): list (sort, order_by, pagination), get, edit
 * and delete, with GitLab 13.x's NotePolicy: readers of the issue read its notes (confidential ones
 * need Reporter+, the issue's author or assignee); the author, Maintainer+ and administrators edit
 * and delete (`admin_note`); system notes are never editable.
 * Sources: gitlab: lib/api/notes.rb, lib/api/helpers/notes_helpers.rb, app/policies/note_policy.rb,
 * spec/requests/api/notes_spec.rb, spec/support/shared_examples/requests/api/notes_shared_examples.rb.
 *
 * Default scenario: ivy/tracker (30, public) #1 (issue 405, by devon, assigned to riley) has note 1
 * (riley, 03-11) and note 2 (gina, 03-12); gina is a guest there, max a maintainer, devon a developer.
 */
import { expect, it } from 'vitest'
import { contract, paginationHeaders } from '../../support/contract.js'
import type { Simulator } from '../../../src/index.js'

const NOW = '2021-04-01T12:00:00.000Z'
const FORBIDDEN = { message: '403 Forbidden' }
const NOT_FOUND = { message: '404 Not found' }
const PROJECT_NOT_FOUND = { message: '404 Project Not Found' }
const UNAUTHORIZED = { message: '401 Unauthorized' }
const NOTES = '/projects/30/issues/1/notes'

/** Adds a confidential note by max (id 3) and a system note (id 4) to ivy/tracker #1. */
function arrangeHiddenNotes(sim: Simulator): void {
  const base = { noteable_id: 405, noteable_type: 'Issue' as const, project_id: 30, created_at: '2021-03-13T09:00:00.000Z', updated_at: '2021-03-13T09:00:00.000Z' }
  sim.db.tables.notes.insert({ ...base, id: 3, author_id: 5, body: 'Internal only', system: false, confidential: true })
  sim.db.tables.notes.insert({ ...base, id: 4, author_id: 5, body: 'changed the description', system: true, confidential: null })
}

contract('GET /projects/:id/issues/:issue_iid/notes', {}, ({ api, sim }) => {
  it('lists the notes newest first by default, as Entities::Note', async () => {
    const res = await api.get(NOTES, { as: 'riley' })
    expect(res.status).toBe(200)
    expect(res.body.map((n: { id: number }) => n.id)).toEqual([2, 1])
    expect(res.body[1]).toEqual({
      id: 1,
      type: null,
      body: 'I can reproduce this',
      attachment: null,
      author: { id: 3, name: 'Riley Reporter', username: 'riley', state: 'active', avatar_url: null, web_url: `${api.baseUrl}/riley` },
      created_at: '2021-03-11T09:00:00.000Z',
      updated_at: '2021-03-11T09:00:00.000Z',
      system: false,
      noteable_id: 405,
      noteable_type: 'Issue',
      resolvable: false,
      confidential: false,
      noteable_iid: 1,
      commands_changes: {},
    })
  })

  it.each([
    [{ sort: 'asc' }, [1, 2]],
    [{ order_by: 'updated_at', sort: 'desc' }, [2, 1]],
    [{ order_by: 'created_at', sort: 'asc' }, [1, 2]],
  ])('orders by %o', async (query, ids) => {
    const res = await api.get(NOTES, { as: 'riley', query })
    expect(res.body.map((n: { id: number }) => n.id)).toEqual(ids)
  })

  it('paginates', async () => {
    const res = await api.get(NOTES, { as: 'riley', query: { per_page: 1, page: 2 } })
    expect(res.body.map((n: { id: number }) => n.id)).toEqual([1])
    expect(paginationHeaders(res)).toMatchObject({ 'x-page': '2', 'x-per-page': '1', 'x-total': '2', 'x-total-pages': '2', 'x-prev-page': '1', 'x-next-page': '' })
  })

  it('shows a new note and system notes; hides confidential notes from a guest but not from a reporter', async () => {
    arrangeHiddenNotes(sim())
    const guest = await api.get(NOTES, { as: 'gina', query: { sort: 'asc' } })
    expect(guest.body.map((n: { id: number }) => n.id)).toEqual([1, 2, 4])
    const reporter = await api.get(NOTES, { as: 'riley', query: { sort: 'asc' } })
    expect(reporter.body.map((n: { id: number }) => n.id)).toEqual([1, 2, 3, 4])
    expect(reporter.body[3]).toMatchObject({ system: true, body: 'changed the description' })
  })

  it('needs a signed-in user even on a public project (notes.rb authenticate!)', async () => {
    const res = await api.get(NOTES)
    expect(res).toBeGitLabError(401, UNAUTHORIZED)
    expect((await api.get(`${NOTES}/1`)).status).toBe(401)
  })

  it.each([
    ['a private project', 'nora', '/projects/21/issues/1/notes', 404, PROJECT_NOT_FOUND],
    // `find_noteable` goes through IssuesFinder's `find_by!`: RecordNotFound, not `Issue Not Found`
    // (issue 23 item 2).
    ['a confidential issue to a non-member', 'nora', '/projects/30/issues/5/notes', 404, NOT_FOUND],
    ['a confidential issue to a guest', 'gina', '/projects/30/issues/5/notes', 404, NOT_FOUND],
    ['a missing issue', 'riley', '/projects/30/issues/99/notes', 404, NOT_FOUND],
    ['an unknown sort', 'riley', `${NOTES}?sort=up`, 400, { error: 'sort does not have a valid value' }],
    ['an unknown order_by', 'riley', `${NOTES}?order_by=id`, 400, { error: 'order_by does not have a valid value' }],
  ])('refuses %s', async (_what, as, path, status, expected) => {
    const res = await api.get(path, { as })
    expect(res).toBeGitLabError(status, expected)
  })
})

contract('POST /projects/:id/issues/:issue_iid/notes', {}, ({ api, sim }) => {
  it('marks the commenter\'s pending to-dos on the issue done (TodoService#new_note), nobody else\'s', async () => {
    // devon's to-do 601 is on acme/website #1; max's 604 is on #3.
    const res = await api.post('/projects/20/issues/1/notes', { as: 'devon', body: { body: 'On it' } })
    expect(res.status).toBe(201)
    expect([sim().db.tables.todos.get(601)!.state, sim().db.tables.todos.get(604)!.state]).toEqual(['done', 'pending'])
  })
})

// `confidential` is `confidential?` in Entities::Note: a boolean, never null, also for a note whose
// column was never set (scenario notes, system notes, notes created without it) (issue 23 item 6).
contract('note confidential flag', {}, ({ api, sim }) => {
  it.each([
    ['a scenario note', 'GET', `${NOTES}/1`, undefined, false],
    ['a system note with the column unset', 'GET', `${NOTES}/4`, undefined, false],
    ['a confidential note', 'GET', `${NOTES}/3`, undefined, true],
    ['a new note without confidential', 'POST', NOTES, { body: 'x' }, false],
    ['a new note with confidential=false', 'POST', NOTES, { body: 'x', confidential: false }, false],
    ['a new note with confidential=true', 'POST', NOTES, { body: 'x', confidential: true }, true],
    ['an edited note', 'PUT', `${NOTES}/1`, { body: 'x' }, false],
  ])('is a boolean for %s', async (_what, method, path, body, flag) => {
    arrangeHiddenNotes(sim())
    const res = await api.request(method, path, { as: 'max', body })
    expect([res.status < 300, res.body.confidential]).toEqual([true, flag])
  })

  it('is a boolean on every note of a list', async () => {
    arrangeHiddenNotes(sim())
    const res = await api.get(NOTES, { as: 'max', query: { sort: 'asc' } })
    expect(res.body.map((n: { confidential: unknown }) => n.confidential)).toEqual([false, false, true, false])
  })
})

contract('GET /projects/:id/issues/:issue_iid/notes/:note_id', {}, ({ api, sim }) => {
  it('shows one note', async () => {
    const res = await api.get(`${NOTES}/2`, { as: 'nora' })
    expect([res.status, res.body.id, res.body.body]).toEqual([200, 2, 'Same here'])
  })

  it.each([
    ['a note of another issue', 'riley', '/projects/30/issues/2/notes/1', 404, NOT_FOUND],
    ['a missing note', 'riley', `${NOTES}/999`, 404, NOT_FOUND],
    ['a confidential note to a guest', 'gina', `${NOTES}/3`, 404, { message: '404 Note Not Found' }],
    ['a non-integer id', 'riley', `${NOTES}/abc`, 400, { error: 'note_id is invalid' }],
  ])('refuses %s', async (_what, as, path, status, expected) => {
    arrangeHiddenNotes(sim())
    const res = await api.get(path, { as })
    expect(res).toBeGitLabError(status, expected)
  })
})

contract('PUT /projects/:id/issues/:issue_iid/notes/:note_id', {}, ({ api, sim }) => {
  it('lets the author edit the body (200); updated_at moves', async () => {
    const res = await api.put(`${NOTES}/1`, { as: 'riley', body: { body: 'Reproduced on 13.12' } })
    expect([res.status, res.body.body, res.body.updated_at, res.body.created_at]).toEqual([200, 'Reproduced on 13.12', NOW, '2021-03-11T09:00:00.000Z'])
  })

  it.each([['a maintainer', 'max'], ['an administrator', 'root'], ['sudo as the author', 'root']])('lets %s edit a note', async (what, as) => {
    const headers: Record<string, string> = what.startsWith('sudo') ? { Sudo: 'gina' } : {}
    const res = await api.put(`${NOTES}/2`, { as, headers, body: { body: 'Edited' } })
    expect([res.status, res.body.body]).toEqual([200, 'Edited'])
  })

  it.each([
    ['a guest on someone else\'s note', 'gina', `${NOTES}/1`, { body: 'x' }, 403, FORBIDDEN],
    ['a developer on someone else\'s note', 'devon', `${NOTES}/1`, { body: 'x' }, 403, FORBIDDEN],
    ['a system note, even for a maintainer', 'max', `${NOTES}/4`, { body: 'x' }, 403, FORBIDDEN],
    ['anonymous', undefined, `${NOTES}/1`, { body: 'x' }, 401, UNAUTHORIZED],
    ['a blank body', 'riley', `${NOTES}/1`, { body: ' ' }, 400, { message: '400 Bad request - Failed to save note {:note=>["can\'t be blank"]}' }],
    ['no body', 'riley', `${NOTES}/1`, {}, 400, { error: 'body is missing' }],
    ['a missing note', 'riley', `${NOTES}/999`, { body: 'x' }, 404, NOT_FOUND],
  ])('refuses %s', async (_what, as, path, body, status, expected) => {
    arrangeHiddenNotes(sim())
    const res = await api.put(path, { as, body })
    expect(res).toBeGitLabError(status, expected)
    expect(sim().db.tables.notes.get(1)!.body).toBe('I can reproduce this')
  })
})

contract('DELETE /projects/:id/issues/:issue_iid/notes/:note_id', {}, ({ api, sim }) => {
  it('lets the author delete (204); user_notes_count goes down', async () => {
    const res = await api.delete(`${NOTES}/1`, { as: 'riley' })
    expect([res.status, res.text]).toEqual([204, ''])
    expect(sim().db.tables.issues.get(405)!.user_notes_count).toBe(1)
    expect((await api.get(NOTES, { as: 'riley' })).body.map((n: { id: number }) => n.id)).toEqual([2])
  })

  it('lets a maintainer delete someone else\'s note', async () => {
    expect((await api.delete(`${NOTES}/2`, { as: 'max' })).status).toBe(204)
  })

  it('answers 412 when If-Unmodified-Since is older than the note', async () => {
    const res = await api.delete(`${NOTES}/1`, { as: 'riley', headers: { 'If-Unmodified-Since': 'Mon, 01 Mar 2021 00:00:00 GMT' } })
    expect(res).toBeGitLabError(412, { message: '412 Precondition Failed' })
  })

  it.each([
    ['a guest on someone else\'s note', 'gina', 403, FORBIDDEN],
    ['a developer on someone else\'s note', 'devon', 403, FORBIDDEN],
    ['a non-member', 'nora', 403, FORBIDDEN],
    ['anonymous', undefined, 401, UNAUTHORIZED],
  ])('refuses %s', async (_what, as, status, expected) => {
    const res = await api.delete(`${NOTES}/1`, { as })
    expect(res).toBeGitLabError(status, expected)
    expect(sim().db.tables.notes.get(1)).toBeDefined()
  })
})

// Every note route looks the issue up through IssuesFinder first (`find_noteable`): a confidential
// issue hidden from the caller is the finder's 404 Not found, whatever the note (issue 23 item 2).
// ivy/tracker #5 (issue 409) is confidential, riley's, assigned to devon; gina is a guest there.
contract('note routes on an issue the caller cannot see', {}, ({ api, sim }) => {
  const HIDDEN = '/projects/30/issues/5/notes'
  const arrange = (): void => {
    sim().db.tables.notes.insert({ id: 9, noteable_id: 409, noteable_type: 'Issue', project_id: 30, author_id: 3, body: 'Rotate them', system: false, confidential: false, created_at: '2021-03-16T09:00:00.000Z', updated_at: '2021-03-16T09:00:00.000Z' })
  }

  it.each([
    ['GET', HIDDEN, 'gina', undefined],
    ['GET', HIDDEN, 'nora', undefined],
    ['POST', HIDDEN, 'gina', { body: 'x' }],
    ['GET', `${HIDDEN}/9`, 'gina', undefined],
    ['GET', `${HIDDEN}/9`, 'nora', undefined],
    ['PUT', `${HIDDEN}/9`, 'gina', { body: 'x' }],
    ['DELETE', `${HIDDEN}/9`, 'nora', undefined],
  ])('%s %s as %s: 404 Not found', async (method, path, as, body) => {
    arrange()
    const res = await api.request(method, path, { as, body })
    expect(res).toBeGitLabError(404, NOT_FOUND)
    expect(sim().db.tables.notes.get(9)!.body).toBe('Rotate them')
  })

  it('serves the same routes to those who may see the issue (its author, a reporter)', async () => {
    arrange()
    expect((await api.get(`${HIDDEN}/9`, { as: 'riley' })).status).toBe(200)
    expect((await api.get(HIDDEN, { as: 'devon' })).body.map((n: { id: number }) => n.id)).toEqual([9])
  })
})

// `/promote` (higher tier, as GitLab Premium answers; issue 23 item 10): acme/website (20) is in the
// group acme, where riley is a reporter and gina a guest; #1 (issue 400) is open, #2 (401) closed.
// ivy/tracker (30) is a personal project: no group, so no epics.
contract('POST /projects/:id/issues/:issue_iid/notes with /promote', {}, ({ api, sim }) => {
  const WEBSITE_NOTES = '/projects/20/issues/1/notes'
  const notesOf = (issueId: number) => sim().db.tables.notes.where('noteable_id', issueId).length

  it('stores the note without the command, reports promote_to_epic and closes the issue (201)', async () => {
    const res = await api.post(WEBSITE_NOTES, { as: 'riley', body: { body: 'Lets promote this to an epic\n\n/promote' } })
    expect([res.status, res.body.body, res.body.commands_changes]).toEqual([201, 'Lets promote this to an epic', { promote_to_epic: true }])
    expect(sim().db.tables.notes.get(res.body.id)!.body).toBe('Lets promote this to an epic')
    expect(sim().db.tables.issues.get(400)).toMatchObject({ state: 'closed', closed_at: NOW, closed_by_id: 3 })
  })

  it('keeps the lines around the command', async () => {
    const res = await api.post(WEBSITE_NOTES, { as: 'riley', form: { body: 'first\n/promote\nlast' } })
    expect([res.status, res.body.body, res.body.commands_changes]).toEqual([201, 'first\nlast', { promote_to_epic: true }])
  })

  it('answers 202 with the changes and the summary, storing no note, for a body of only the command', async () => {
    const before = notesOf(400)
    const res = await api.post(WEBSITE_NOTES, { as: 'riley', body: { body: '/promote' } })
    expect([res.status, res.body]).toEqual([202, { commands_changes: { promote_to_epic: true }, summary: ['Promoted issue to an epic.'] }])
    expect(notesOf(400)).toBe(before)
    expect(sim().db.tables.issues.get(400)!.state).toBe('closed')
  })

  it.each([
    ['a guest (no admin_issue)', 'gina', '/projects/20/issues/1/notes', '/promote'],
    ['a project outside a group (no epics)', 'riley', '/projects/30/issues/1/notes', '/promote'],
    ['a closed issue (promoted already, as far as fakelab can tell)', 'riley', '/projects/20/issues/2/notes', '/promote'],
    ['a command that does not start its line', 'riley', '/projects/20/issues/1/notes', 'please /promote'],
    ['a command inside a code block', 'riley', '/projects/20/issues/1/notes', '```\n/promote\n```'],
    ['another word', 'riley', '/projects/20/issues/1/notes', '/promoted'],
  ])('keeps /promote as text for %s', async (_what, as, path, body) => {
    const res = await api.post(path, { as, body: { body } })
    expect([res.status, res.body.body, res.body.commands_changes]).toEqual([201, body, {}])
  })

  it('leaves the issue open when the command is kept as text', async () => {
    await api.post(WEBSITE_NOTES, { as: 'gina', body: { body: '/promote' } })
    expect(sim().db.tables.issues.get(400)!.state).toBe('opened')
  })
})
