/**
 * The rest of 13.12's contribution events (issue 37 item 6): a project member added or removed
 * (`joined`/`left`, authored by the member, no target; group memberships and a personal project's
 * owner write none), a project created (`created`, no target), a project milestone created, closed,
 * reopened and destroyed (target `Milestone`; a group milestone writes none), a wiki page created,
 * updated and destroyed (target `WikiPage::Meta`, its title outliving the page) and a merge request
 * approved (`approved`). Over both doors on the default scenario (frozen at 2021-04-01T12:00Z;
 * project 20 acme/website public; max maintainer of acme, olive owner; nora without memberships).
 * Source: gitlab: app/services/event_create_service.rb, app/models/event.rb (`action_name`,
 * `visible_to_user?`), app/models/project_member.rb, app/services/milestones/*, app/services/wiki_pages/* (13.12).
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

const NOW = '2021-04-01T12:00:00.000Z'
type Row = [string, number | null, string | null, string | null, string]

/** An event's [action_name, target_id, target_type, target_title, author_username]. */
const row = (e: any): Row => [e.action_name, e.target_id, e.target_type, e.target_title, e.author_username]

contract('contribution events', {}, ({ api }) => {
  it('writes joined and left for project members, authored by the member; none for an update or a group member', async () => {
    expect((await api.post('/projects/20/members', { as: 'max', body: { user_id: 7, access_level: 30 } })).status).toBe(201)
    expect((await api.put('/projects/20/members/7', { as: 'max', body: { access_level: 40 } })).status).toBe(200)
    expect((await api.delete('/projects/20/members/7', { as: 'max' })).status).toBe(204)
    expect((await api.post('/groups/acme/members', { as: 'olive', body: { user_id: 7, access_level: 10 } })).status).toBe(201)
    const res = await api.get('/users/nora/events', { as: 'nora' })
    expect(res.body.map(row)).toEqual([
      ['left', null, null, null, 'nora'],
      ['joined', null, null, null, 'nora'],
    ])
    expect(res.body[1]).toEqual({
      id: res.body[1].id, project_id: 20, action_name: 'joined', target_id: null, target_iid: null, target_type: null, author_id: 7,
      target_title: null, created_at: NOW, author: expect.objectContaining({ id: 7, username: 'nora' }), author_username: 'nora',
    })
    expect((await api.get('/events', { as: 'max' })).body).toEqual([])
    expect((await api.get('/projects/20/events', { as: 'nora', query: { action: 'joined' } })).body.map(row)).toEqual([['joined', null, null, null, 'nora']])
  })

  it('writes created for a new project, and no joined for its owner', async () => {
    const project = await api.post('/projects', { as: 'nora', body: { name: 'Notes' } })
    expect(project.status).toBe(201)
    const res = await api.get(`/projects/${project.body.id}/events`, { as: 'nora' })
    expect(res.body.map(row)).toEqual([['created', null, null, null, 'nora']])
    expect(res.body[0].project_id).toBe(project.body.id)
    // A private project's events are the project's: nobody else sees them.
    expect((await api.get('/users/nora/events', { as: 'devon' })).body).toEqual([])
  })

  it('writes created, closed, reopened and destroyed for a project milestone, and nothing for a group milestone', async () => {
    const { body: milestone } = await api.post('/projects/20/milestones', { as: 'max', body: { title: 'Sprint 9' } })
    await api.put(`/projects/20/milestones/${milestone.id}`, { as: 'max', body: { state_event: 'close' } })
    await api.put(`/projects/20/milestones/${milestone.id}`, { as: 'max', body: { state_event: 'activate' } })
    await api.put(`/projects/20/milestones/${milestone.id}`, { as: 'max', body: { description: 'Edited' } })
    expect((await api.get('/projects/20/events', { as: 'devon', query: { target_type: 'milestone' } })).body.map(row)).toEqual([
      ['opened', milestone.id, 'Milestone', 'Sprint 9', 'max'],
      ['closed', milestone.id, 'Milestone', 'Sprint 9', 'max'],
      ['opened', milestone.id, 'Milestone', 'Sprint 9', 'max'],
    ])
    const list = (await api.get('/projects/20/events', { as: 'devon', query: { target_type: 'milestone' } })).body
    expect(list[2].target_iid).toBe(milestone.iid)
    expect((await api.delete(`/projects/20/milestones/${milestone.id}`, { as: 'max' })).status).toBe(204)
    // The milestone is gone: its events stay visible (read_milestone on the project), titles null.
    expect((await api.get('/projects/20/events', { as: 'devon', query: { target_type: 'milestone', sort: 'asc' } })).body.map(row)).toEqual([
      ['opened', milestone.id, 'Milestone', null, 'max'],
      ['closed', milestone.id, 'Milestone', null, 'max'],
      ['opened', milestone.id, 'Milestone', null, 'max'],
      ['destroyed', milestone.id, 'Milestone', null, 'max'],
    ])
    expect((await api.post('/groups/acme/milestones', { as: 'max', body: { title: 'Group sprint' } })).status).toBe(201)
    expect((await api.get('/users/max/events', { as: 'max' })).body).toHaveLength(4)
  })

  it('writes created, updated and destroyed for a wiki page, target WikiPage::Meta, filtered by target_type=wiki', async () => {
    expect((await api.post('/projects/20/wikis', { as: 'devon', body: { title: 'Runbook', content: 'x' } })).status).toBe(201)
    expect((await api.put('/projects/20/wikis/Runbook', { as: 'devon', body: { content: 'y' } })).status).toBe(200)
    expect((await api.delete('/projects/20/wikis/Runbook', { as: 'max' })).status).toBe(204)
    const res = await api.get('/projects/20/events', { query: { target_type: 'wiki', sort: 'asc' } })
    const id = res.body[0].target_id
    expect(res.body.map(row)).toEqual([
      ['created', id, 'WikiPage::Meta', 'Runbook', 'devon'],
      ['updated', id, 'WikiPage::Meta', 'Runbook', 'devon'],
      ['destroyed', id, 'WikiPage::Meta', 'Runbook', 'max'],
    ])
    expect(res.body[0].target_iid).toBeNull()
    expect((await api.get('/users/devon/events', { as: 'devon', query: { action: 'updated' } })).body.map(row)).toEqual([['updated', id, 'WikiPage::Meta', 'Runbook', 'devon']])
  })

  it('writes approved for an approval, and nothing for taking it back', async () => {
    expect((await api.post('/projects/20/merge_requests/1/approve', { as: 'max' })).status).toBe(201)
    expect((await api.post('/projects/20/merge_requests/1/unapprove', { as: 'max' })).status).toBe(201)
    const res = await api.get('/users/max/events', { as: 'max' })
    expect(res.body.map(row)).toEqual([['approved', res.body[0].target_id, 'MergeRequest', res.body[0].target_title, 'max']])
    expect(res.body[0].target_iid).toBe(1)
    expect((await api.get('/events', { as: 'max', query: { action: 'approved', target_type: 'merge_request' } })).body).toHaveLength(1)
  })
})
