/**
 * @gitbeaker/rest, unmodified, arranging data on issues (issue 16 parts 1-3): `Issues.create`,
 * `show`, `edit` (labels, `state_event`), `subscribe`/`unsubscribe`, `move`, `remove`;
 * `IssueNotes.create/all/edit/remove`; `IssueAwardEmojis.award/all/remove` and
 * `IssueNoteAwardEmojis.award`. gitbeaker sends JSON bodies and a `Sudo` header.
 */
import { Gitlab } from '@gitbeaker/rest'
import { beforeAll, describe, expect, it } from 'vitest'
import { statusOf, serveDefaultScenario } from '../support/clients.js'
let api: InstanceType<typeof Gitlab<false>>

const fakelab = serveDefaultScenario()

beforeAll(() => {
  // max: maintainer of acme/website (20) and of ivy/tracker (30).
  api = new Gitlab({ host: fakelab.url, token: 'glpat-max-fakelab' })
})

describe('@gitbeaker/rest arranging issues', () => {
  it('creates, edits, closes, subscribes, moves and removes issues', async () => {
    const issue = await api.Issues.create(20, 'From gitbeaker', { description: 'Arranged', labels: 'gb-one,gb-two', assigneeIds: [4] })
    expect(issue).toMatchObject({ iid: 5, title: 'From gitbeaker', labels: ['gb-one', 'gb-two'], assignees: [{ username: 'devon' }], subscribed: true })
    expect(await api.Issues.show(5, { projectId: 20 })).toMatchObject({ iid: 5, description: 'Arranged' })
    const edited = await api.Issues.edit(20, 5, { addLabels: 'gb-three', removeLabels: 'gb-one', stateEvent: 'close' })
    expect(edited).toMatchObject({ state: 'closed', labels: ['gb-three', 'gb-two'], closed_by: { username: 'max' } })
    expect(await api.Issues.edit(20, 5, { stateEvent: 'reopen' })).toMatchObject({ state: 'opened', closed_at: null })
    expect(await api.Issues.unsubscribe(20, 5)).toMatchObject({ subscribed: false })
    expect(await statusOf(api.Issues.unsubscribe(20, 5))).toBe(304)
    expect(await api.Issues.subscribe(20, 5)).toMatchObject({ subscribed: true })
    const moved = await api.Issues.move(20, 5, 30)
    expect(moved).toMatchObject({ project_id: 30, iid: 7, title: 'From gitbeaker' })
    expect(await api.Issues.show(5, { projectId: 20 })).toMatchObject({ state: 'closed', moved_to_id: moved.id })
    const owner = new Gitlab({ host: fakelab.url, token: 'glpat-root-fakelab', sudo: 'olive' })
    await owner.Issues.remove(20, 5)
    expect(await statusOf(api.Issues.show(5, { projectId: 20 }))).toBe(404)
    expect(await statusOf(api.Issues.remove(20, 1))).toBe(403)
  })

  it('comments and awards emoji on issues and on notes', async () => {
    const note = await api.IssueNotes.create(30, 2, 'gitbeaker note')
    expect(note).toMatchObject({ body: 'gitbeaker note', noteable_iid: 2, author: { username: 'max' } })
    expect((await api.IssueNotes.edit(30, 2, note.id, { body: 'edited' })).body).toBe('edited')
    const notes = await api.IssueNotes.all(30, 2, { sort: 'asc' })
    // #2 has the default scenario's discussion notes 705-708 before it.
    expect(notes.map((n) => n.id).slice(-1)).toEqual([note.id])
    expect(notes.at(-1)!.body).toBe('edited')
    const award = await api.IssueAwardEmojis.award(30, 2, 'thumbsup')
    expect(award).toMatchObject({ name: 'thumbsup', awardable_type: 'Issue', user: { username: 'max' } })
    expect((await api.IssueAwardEmojis.all(30, 2)).map((a) => a.name)).toEqual(['heart', 'thumbsup'])
    expect((await api.Issues.show(2, { projectId: 30 })).upvotes).toBe(1)
    expect(await statusOf(api.IssueAwardEmojis.award(30, 2, 'thumbsup'))).toBe(404)
    await api.IssueAwardEmojis.remove(30, 2, award.id)
    const onNote = await api.IssueNoteAwardEmojis.award(30, 2, note.id, 'tada')
    expect(onNote).toMatchObject({ name: 'tada', awardable_type: 'Note', awardable_id: note.id })
    await api.IssueNotes.remove(30, 2, note.id)
    expect((await api.IssueNotes.all(30, 2)).map((n) => n.id)).toEqual([708, 707, 706, 705])
  })
})
