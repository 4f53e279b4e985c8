/**
 * @gitbeaker/rest, unmodified, on the issues area (issue 8 "Done when"): issue lists with filters
 * and every page followed, time tracking, notes, participants, related merge requests. The to-do
 * step belongs to the to-dos area.
 */
import { Gitlab } from '@gitbeaker/rest'
import { beforeAll, describe, expect, it } from 'vitest'
import { serveDefaultScenario } from '../support/clients.js'
let api: InstanceType<typeof Gitlab<false>>

const fakelab = serveDefaultScenario()

beforeAll(() => {
  api = new Gitlab({ host: fakelab.url, token: 'glpat-riley-fakelab' })
})

describe('@gitbeaker/rest on issues', () => {
  it('lists issues with filters, following every page', async () => {
    const all = await api.Issues.all({ projectId: 30, perPage: 2, orderBy: 'created_at', sort: 'asc' })
    expect(all.map((i) => i.iid)).toEqual([1, 2, 3, 5, 6, 4])
    const filtered = await api.Issues.all({ projectId: 30, state: 'opened', labels: 'p1', perPage: 1 })
    expect(filtered.map((i) => i.iid)).toEqual([4, 1])
    const group = await api.Issues.all({ groupId: 'acme', milestone: 'v1.0' })
    expect(group.map((i) => i.id)).toEqual([404, 401, 400])
    const mine = await api.Issues.all({ scope: 'assigned_to_me' })
    expect(mine.map((i) => i.id)).toEqual([405])
  })

  it('tracks time', async () => {
    expect(await api.Issues.addTimeEstimate(30, 1, '1w 2d')).toMatchObject({ human_time_estimate: '1w 2d' })
    expect(await api.Issues.addSpentTime(30, 1, '3h 30m')).toMatchObject({ total_time_spent: 14_400, human_total_time_spent: '4h' })
    expect(await api.Issues.addSpentTime(30, 1, '-30m')).toMatchObject({ human_total_time_spent: '3h 30m' })
    expect(await api.Issues.showTimeStats(30, 1)).toEqual({
      time_estimate: 201_600,
      total_time_spent: 12_600,
      human_time_estimate: '1w 2d',
      human_total_time_spent: '3h 30m',
    })
    expect(await api.Issues.resetTimeEstimate(30, 1)).toMatchObject({ time_estimate: 0 })
    expect(await api.Issues.resetSpentTime(30, 1)).toMatchObject({ total_time_spent: 0 })
  })

  it('comments, and reads participants and related merge requests', async () => {
    const note = await api.IssueNotes.create(30, 1, 'from gitbeaker')
    expect(note).toMatchObject({ body: 'from gitbeaker', noteable_iid: 1, author: { username: 'riley' } })
    const participants = await api.Issues.allParticipants(30, 1)
    expect(participants.map((u) => u.username)).toEqual(['devon', 'riley', 'gina'])
    const related = await api.Issues.allRelatedMergeRequests(30, 1)
    expect(related.map((m) => m.iid)).toEqual([1])
    const closing = await api.Issues.allClosedByMergeRequestst(30, 3)
    expect(closing.map((m) => m.iid)).toEqual([2])
  })
})
