/**
 * Award emoji on issues and issue notes over both doors (issue 16 part 3): list, get, award,
 * remove; names from GitLab's emoji list (aliases normalised), one award per user and name, the
 * issue's upvotes/downvotes kept in step.
 * Sources: gitlab: lib/api/award_emoji.rb, app/services/award_emojis/add_service.rb,
 * app/models/award_emoji.rb, spec/requests/api/award_emoji_spec.rb.
 *
 * Default scenario: ivy/tracker (30, public) #1 (issue 405) has awards 1 (riley thumbsup), 2 (max
 * thumbsup), 3 (gina thumbsdown): upvotes 2, downvotes 1; its notes are 1 (riley) and 2 (gina).
 * #5 (409) is confidential. acme/platform/api (21) is private.
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

const NOW = '2021-04-01T12:00:00.000Z'
const NOT_FOUND = { message: '404 Not found' }
const AWARD_NOT_FOUND = { message: '404 Award Emoji Not Found' }
const PROJECT_NOT_FOUND = { message: '404 Project Not Found' }
const UNAUTHORIZED = { message: '401 Unauthorized' }
const ISSUE = '/projects/30/issues/1'
const NOTE = `${ISSUE}/notes/1`

contract('GET /projects/:id/issues/:issue_iid/award_emoji', {}, ({ api }) => {
  it('lists the issue\'s awards oldest first, as Entities::AwardEmoji', async () => {
    const res = await api.get(`${ISSUE}/award_emoji`, { as: 'nora' })
    expect(res.status).toBe(200)
    expect(res.body.map((a: { name: string }) => a.name)).toEqual(['thumbsup', 'thumbsup', 'thumbsdown'])
    expect(res.body[0]).toEqual({
      id: 1,
      name: 'thumbsup',
      user: { id: 3, name: 'Riley Reporter', username: 'riley', state: 'active', avatar_url: null, web_url: `${api.baseUrl}/riley` },
      created_at: '2021-03-20T09:00:00.000Z',
      updated_at: '2021-03-20T09:00:00.000Z',
      awardable_id: 405,
      awardable_type: 'Issue',
    })
    expect(res.headers.get('x-total')).toBe('3')
  })

  it.each([
    ['anonymous', undefined, `${ISSUE}/award_emoji`, 401, UNAUTHORIZED],
    ['a confidential issue to a non-member', 'nora', '/projects/30/issues/5/award_emoji', 404, AWARD_NOT_FOUND],
    ['a missing issue', 'riley', '/projects/30/issues/99/award_emoji', 404, NOT_FOUND],
    ['a private project', 'nora', '/projects/21/issues/1/award_emoji', 404, PROJECT_NOT_FOUND],
  ])('refuses %s', async (_what, as, path, status, expected) => {
    const res = await api.get(path, { as })
    expect(res).toBeGitLabError(status, expected)
  })
})

contract('GET /projects/:id/issues/:issue_iid/award_emoji/:award_id', {}, ({ api }) => {
  it('shows one award', async () => {
    const res = await api.get(`${ISSUE}/award_emoji/3`, { as: 'riley' })
    expect([res.status, res.body.name, res.body.user.username]).toEqual([200, 'thumbsdown', 'gina'])
  })

  it.each([
    ['an award of another issue', `${ISSUE}/award_emoji/4`, 404, NOT_FOUND],
    ['a missing award', `${ISSUE}/award_emoji/999`, 404, NOT_FOUND],
    ['a non-integer id', `${ISSUE}/award_emoji/abc`, 400, { error: 'award_id is invalid' }],
  ])('refuses %s', async (_what, path, status, expected) => {
    const res = await api.get(path, { as: 'riley' })
    expect(res).toBeGitLabError(status, expected)
  })
})

contract('POST /projects/:id/issues/:issue_iid/award_emoji', {}, ({ api, sim }) => {
  it('awards an emoji (201) and counts a thumbsup in upvotes', async () => {
    const res = await api.post(`${ISSUE}/award_emoji`, { as: 'devon', body: { name: 'thumbsup' } })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ name: 'thumbsup', user: { username: 'devon' }, created_at: NOW, updated_at: NOW, awardable_id: 405, awardable_type: 'Issue' })
    const issue = await api.get(ISSUE, { as: 'devon' })
    expect([issue.body.upvotes, issue.body.downvotes]).toEqual([3, 1])
    const mine = await api.get('/projects/30/issues', { as: 'devon', query: { my_reaction_emoji: 'thumbsup' } })
    expect(mine.body.map((i: { iid: number }) => i.iid)).toEqual([1])
  })

  it.each([
    ['+1', 'thumbsup'],
    ['-1', 'thumbsdown'],
    ['8ball', '8ball'],
    ['tada', 'tada'],
  ])('normalises %s to %s', async (name, stored) => {
    const res = await api.post(`${ISSUE}/award_emoji`, { as: 'nora', body: { name } })
    expect([res.status, res.body.name]).toEqual([201, stored])
  })

  it('lets a non-member of a public project award, and marks their pending to-dos on the issue done', async () => {
    sim().db.tables.todos.insert({ user_id: 7, project_id: 30, author_id: 5, target_type: 'Issue', target_id: 405, action_name: 'mentioned', state: 'pending', note: null, created_at: NOW, updated_at: NOW })
    const res = await api.post(`${ISSUE}/award_emoji`, { as: 'nora', body: { name: 'heart' } })
    expect(res.status).toBe(201)
    expect(sim().db.tables.todos.filter((t) => t.user_id === 7 && t.target_id === 405).map((t) => t.state)).toEqual(['done'])
  })

  it.each([
    ['a name awarded already', 'riley', ISSUE, { name: 'thumbsup' }, 404, { message: '404 Award Emoji ["Name has already been taken"] Not Found' }],
    ['an alias of a name awarded already', 'riley', ISSUE, { name: '+1' }, 404, { message: '404 Award Emoji ["Name has already been taken"] Not Found' }],
    ['an unknown name', 'riley', ISSUE, { name: 'no_such_emoji' }, 404, { message: '404 Award Emoji ["Name is not included in the list"] Not Found' }],
    ['a blank name', 'riley', ISSUE, { name: '' }, 404, { message: '404 Award Emoji ["Name can\'t be blank", "Name is not included in the list"] Not Found' }],
    ['no name', 'riley', ISSUE, {}, 400, { error: 'name is missing' }],
    ['anonymous', undefined, ISSUE, { name: 'tada' }, 401, UNAUTHORIZED],
    ['a confidential issue to a non-member', 'nora', '/projects/30/issues/5', { name: 'tada' }, 404, AWARD_NOT_FOUND],
    ['a private project', 'nora', '/projects/21/issues/1', { name: 'tada' }, 404, PROJECT_NOT_FOUND],
  ])('refuses %s and stores nothing', async (_what, as, path, body, status, expected) => {
    const before = sim().db.tables.award_emoji.size
    const res = await api.post(`${path}/award_emoji`, { as, body })
    expect(res).toBeGitLabError(status, expected)
    expect(sim().db.tables.award_emoji.size).toBe(before)
  })

  it('acts as the sudo user', async () => {
    const res = await api.post(`${ISSUE}/award_emoji`, { as: 'root', headers: { Sudo: 'olive' }, body: { name: 'rocket' } })
    expect([res.status, res.body.user.username]).toEqual([201, 'olive'])
  })
})

contract('DELETE /projects/:id/issues/:issue_iid/award_emoji/:award_id', {}, ({ api, sim }) => {
  it('lets the awarder remove (204); upvotes go down', async () => {
    const res = await api.delete(`${ISSUE}/award_emoji/1`, { as: 'riley' })
    expect([res.status, res.text]).toEqual([204, ''])
    expect(sim().db.tables.issues.get(405)!.upvotes).toBe(1)
  })

  it('lets an administrator remove anyone\'s award', async () => {
    expect((await api.delete(`${ISSUE}/award_emoji/3`, { as: 'root' })).status).toBe(204)
    expect(sim().db.tables.issues.get(405)!.downvotes).toBe(0)
  })

  it.each([
    ['someone else, even a maintainer', 'max', `${ISSUE}/award_emoji/1`, 401, UNAUTHORIZED],
    ['anonymous', undefined, `${ISSUE}/award_emoji/1`, 401, UNAUTHORIZED],
    ['an award of another issue', 'devon', `${ISSUE}/award_emoji/4`, 404, NOT_FOUND],
  ])('refuses %s', async (_what, as, path, status, expected) => {
    const res = await api.delete(path, { as })
    expect(res).toBeGitLabError(status, expected)
    expect(sim().db.tables.award_emoji.size).toBe(4)
  })
})

contract('POST /projects/:id/issues/:issue_iid/notes/:note_id/award_emoji', {}, ({ api, sim }) => {
  it('awards on a note (201) without touching the issue\'s votes; lists, gets and removes it', async () => {
    const res = await api.post(`${NOTE}/award_emoji`, { as: 'devon', body: { name: 'thumbsup' } })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ name: 'thumbsup', awardable_id: 1, awardable_type: 'Note', user: { username: 'devon' } })
    expect(sim().db.tables.issues.get(405)!.upvotes).toBe(2)
    const list = await api.get(`${NOTE}/award_emoji`, { as: 'riley' })
    expect(list.body.map((a: { id: number }) => a.id)).toEqual([res.body.id])
    const one = await api.get(`${NOTE}/award_emoji/${res.body.id}`, { as: 'riley' })
    expect([one.status, one.body.awardable_type]).toEqual([200, 'Note'])
    expect((await api.get(`${ISSUE}/notes/2/award_emoji/${res.body.id}`, { as: 'riley' })).status).toBe(404)
    expect((await api.delete(`${NOTE}/award_emoji/${res.body.id}`, { as: 'devon' })).status).toBe(204)
  })

  it('refuses a system note (emoji_awardable? is false)', async () => {
    sim().db.tables.notes.insert({ id: 50, noteable_id: 405, noteable_type: 'Issue', project_id: 30, author_id: 5, body: 'changed the title', system: true, confidential: null, created_at: NOW, updated_at: NOW })
    const res = await api.post(`${ISSUE}/notes/50/award_emoji`, { as: 'riley', body: { name: 'tada' } })
    expect(res).toBeGitLabError(404, { message: '404 Award Emoji Awardable cannot be awarded emoji Not Found' })
  })

  it('goes with its note when the note is deleted', async () => {
    await api.post(`${NOTE}/award_emoji`, { as: 'devon', body: { name: 'tada' } })
    expect((await api.delete(NOTE, { as: 'riley' })).status).toBe(204)
    expect(sim().db.tables.award_emoji.filter((a) => a.awardable_type === 'Note')).toEqual([])
  })

  it.each([
    ['a note of another issue', 'riley', '/projects/30/issues/2/notes/1', 404, NOT_FOUND],
    ['a missing note', 'riley', `${ISSUE}/notes/999`, 404, NOT_FOUND],
    ['a note on a confidential issue', 'nora', '/projects/30/issues/5/notes/1', 404, NOT_FOUND],
    ['anonymous', undefined, NOTE, 401, UNAUTHORIZED],
  ])('refuses %s', async (_what, as, path, status, expected) => {
    const res = await api.post(`${path}/award_emoji`, { as, body: { name: 'tada' } })
    expect(res).toBeGitLabError(status, expected)
  })
})

contract('GET /projects/:id/issues/:issue_iid/notes/:note_id/award_emoji', {}, ({ api }) => {
  it('lists a note without awards as []', async () => {
    const res = await api.get(`${NOTE}/award_emoji`, { as: 'gina' })
    expect([res.status, res.body]).toEqual([200, []])
  })
})
