/**
 * System hooks for membership and project changes (issue 37 item 7, issue 34 item 5): a system hook
 * pointed at a small HTTP server receives `user_add_to_team`, `user_update_for_team`,
 * `user_remove_from_team` (a project member), `user_add_to_group`, `user_update_for_group`,
 * `user_remove_from_group` (a group member, with `expires_at`), and `project_create` (then the
 * owner's `user_add_to_team`), `project_update`, `project_rename`, `project_transfer`,
 * `project_destroy`, field for field and in GitLab's key order, with `X-Gitlab-Event: System Hook`;
 * a project hook gets none of them (member events are group hooks', a paid feature, in 13.12).
 * Over both doors on the default scenario (frozen at 2021-04-01T12:00Z; project 20 acme/website
 * public; max maintainer of acme, olive owner; nora without memberships).
 * Source: gitlab: app/services/system_hooks_service.rb, lib/gitlab/hook_data/group_member_builder.rb,
 * app/models/member.rb (`post_*_hook`), app/services/projects/*_service.rb,
 * doc/system_hooks/system_hooks.md, doc/user/project/integrations/webhooks.md (13.12).
 */
import { beforeAll, expect, it } from 'vitest'
import { hookDeliveriesSettled } from '../../../src/resources/hooks/hooks.public.js'
import { contract } from '../../support/contract.js'
import { hookReceiver } from '../../support/hook-receiver.js'

const receiver = hookReceiver()
const received = receiver.received
let url = ''
beforeAll(() => {
  url = `${receiver.url}`
})

const AT = '2021-04-01T12:00:00Z'

contract('membership and project system hooks', {}, ({ api, sim }) => {
  it('sends user_add_to_team, user_update_for_team and user_remove_from_team for a project member, to system hooks only', async () => {
    await api.post('/hooks', { as: 'root', body: { url: `${url}/system`, token: 'sys' } })
    await api.post('/projects/20/hooks', { as: 'max', body: { url: `${url}/project`, push_events: true, issues_events: true, merge_requests_events: true, note_events: true } })
    expect((await api.post('/projects/20/members', { as: 'max', body: { user_id: 7, access_level: 30 } })).status).toBe(201)
    expect((await api.put('/projects/20/members/7', { as: 'max', body: { access_level: 40, expires_at: '2021-12-31' } })).status).toBe(200)
    expect((await api.delete('/projects/20/members/7', { as: 'max' })).status).toBe(204)
    // A refused request sends nothing.
    expect((await api.post('/projects/20/members', { as: 'devon', body: { user_id: 7, access_level: 30 } })).status).toBe(403)
    await hookDeliveriesSettled(sim().db)
    expect(received.map((r) => [r.path, r.headers['x-gitlab-event'], r.headers['x-gitlab-token'], r.body.event_name])).toEqual([
      ['/system', 'System Hook', 'sys', 'user_add_to_team'],
      ['/system', 'System Hook', 'sys', 'user_update_for_team'],
      ['/system', 'System Hook', 'sys', 'user_remove_from_team'],
    ])
    const team = (event: string, access: string) => ({
      event_name: event, created_at: AT, updated_at: AT,
      project_name: 'Website', project_path: 'website', project_path_with_namespace: 'acme/website', project_id: 20,
      user_username: 'nora', user_name: expect.any(String), user_email: 'nora@example.com', user_id: 7,
      access_level: access, project_visibility: 'public',
    })
    expect(received.map((r) => r.body)).toEqual([team('user_add_to_team', 'Developer'), team('user_update_for_team', 'Maintainer'), team('user_remove_from_team', 'Maintainer')])
    expect(Object.keys(received[0]!.body)).toEqual(Object.keys(team('', '')))
  })

  it('sends user_add_to_group, user_update_for_group and user_remove_from_group for a group member, with expires_at', async () => {
    await api.post('/hooks', { as: 'root', body: { url: `${url}/system` } })
    expect((await api.post('/groups/acme/members', { as: 'olive', body: { user_id: 7, access_level: 20, expires_at: '2021-09-30' } })).status).toBe(201)
    expect((await api.put('/groups/acme/members/7', { as: 'olive', body: { access_level: 30 } })).status).toBe(200)
    expect((await api.delete('/groups/acme/members/7', { as: 'olive' })).status).toBe(204)
    await hookDeliveriesSettled(sim().db)
    const group = (event: string, access: string) => ({
      created_at: AT, updated_at: AT, group_name: 'Acme', group_path: 'acme', group_id: expect.any(Number),
      user_username: 'nora', user_name: expect.any(String), user_email: 'nora@example.com', user_id: 7,
      group_access: access, expires_at: '2021-09-30', event_name: event,
    })
    expect(received.map((r) => r.body)).toEqual([group('user_add_to_group', 'Reporter'), group('user_update_for_group', 'Developer'), group('user_remove_from_group', 'Developer')])
    expect(Object.keys(received[0]!.body)).toEqual(Object.keys(group('', '')))
  })

  it('sends project_create with the owner joining, project_update, project_rename, project_transfer and project_destroy', async () => {
    await api.post('/hooks', { as: 'root', body: { url: `${url}/system` } })
    const { body: project } = await api.post('/projects', { as: 'nora', body: { name: 'Notes' } })
    expect((await api.put(`/projects/${project.id}`, { as: 'nora', body: { description: 'Mine' } })).status).toBe(200)
    expect((await api.put(`/projects/${project.id}`, { as: 'nora', body: { path: 'my-notes' } })).status).toBe(200)
    const { body: group } = await api.post('/groups', { as: 'nora', body: { name: 'Nora Lab', path: 'nora-lab' } })
    expect((await api.put(`/projects/${project.id}/transfer`, { as: 'nora', body: { namespace: group.id } })).status).toBe(200)
    expect((await api.delete(`/projects/${project.id}`, { as: 'nora' })).status).toBe(202)
    await hookDeliveriesSettled(sim().db)
    const names = received.map((r) => r.body.event_name)
    expect(names).toEqual(['project_create', 'user_add_to_team', 'project_update', 'project_rename', 'group_create', 'user_add_to_group', 'project_transfer', 'project_destroy'])
    const base = { created_at: AT, updated_at: AT, name: 'Notes', project_id: project.id, owner_email: 'nora@example.com', project_visibility: 'private' }
    expect(received[0]!.body).toEqual({ event_name: 'project_create', ...base, path: 'notes', path_with_namespace: 'nora/notes', owner_name: expect.any(String) })
    expect(Object.keys(received[0]!.body)).toEqual(['event_name', 'created_at', 'updated_at', 'name', 'path', 'path_with_namespace', 'project_id', 'owner_name', 'owner_email', 'project_visibility'])
    expect(received[1]!.body).toMatchObject({ event_name: 'user_add_to_team', project_id: project.id, user_id: 7, access_level: 'Maintainer' })
    expect(received[3]!.body).toMatchObject({ event_name: 'project_rename', path: 'my-notes', path_with_namespace: 'nora/my-notes', old_path_with_namespace: 'nora/notes' })
    expect(received[6]!.body).toMatchObject({ event_name: 'project_transfer', path_with_namespace: 'nora-lab/my-notes', old_path_with_namespace: 'nora/my-notes', owner_name: 'Nora Lab', owner_email: '' })
    expect(Object.keys(received[6]!.body).at(-1)).toBe('old_path_with_namespace')
    expect(received[7]!.body).toMatchObject({ event_name: 'project_destroy', path_with_namespace: 'nora-lab/my-notes' })
  })
})
