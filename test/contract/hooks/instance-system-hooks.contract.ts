/**
 * System hooks for the instance's own changes (issue 37): a system hook pointed at a small HTTP
 * server receives `group_create` (then the creator's `user_add_to_group`), `group_rename` and
 * `group_destroy` (subgroups first), `user_create`, `user_rename` and `user_destroy`, `key_create`
 * and `key_destroy`, field for field and in GitLab's key order, with `X-Gitlab-Event: System Hook`;
 * a refused request sends nothing. A membership's removal reports its last save as `updated_at`,
 * and a project with an avatar is sent with its `avatar_url`. Over both doors on the default
 * scenario (frozen at 2021-04-01T12:00Z; nora (7) without memberships; olive owns acme).
 * Source: gitlab: app/services/system_hooks_service.rb, lib/gitlab/hook_data/group_builder.rb,
 * user_builder.rb, base_builder.rb, app/models/group.rb, user.rb, key.rb (`post_create_hook`,
 * `path_changed_hook`, `username_changed_hook`, `post_destroy_hook`), app/models/project.rb
 * (`hook_attrs`), doc/system_hooks/system_hooks.md (13.12).
 */
import { beforeAll, beforeEach, expect, it } from 'vitest'
import type { ManualClock } from '../../../src/core/clock.js'
import { hookDeliveriesSettled } from '../../../src/resources/hooks/hooks.public.js'
import { contract } from '../../support/contract.js'
import { hookReceiver } from '../../support/hook-receiver.js'

const receiver = hookReceiver()
const received = receiver.received
let url = ''
beforeAll(() => {
  url = `${receiver.url}/system`
})

const AT = '2021-04-01T12:00:00Z'
const LATER = '2021-04-02T08:30:00Z'
const KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBtCnW4Mm0Y4W5Eux1cI6fOg5YJYmOlqYxzHhZyNcnEn nora@laptop'

contract('instance system hooks', {}, ({ api, sim }) => {
  const clock = () => sim().clock as ManualClock
  beforeEach(() => clock().set('2021-04-01T12:00:00.000Z'))

  it('sends group_create, the owner\'s user_add_to_group, group_rename and group_destroy (subgroups first)', async () => {
    await api.post('/hooks', { as: 'root', body: { url, token: 'sys' } })
    const { body: group } = await api.post('/groups', { as: 'nora', body: { name: 'Nora Lab', path: 'nora-lab' } })
    const { body: sub } = await api.post('/groups', { as: 'nora', body: { name: 'Inner', path: 'inner', parent_id: group.id } })
    clock().set('2021-04-02T08:30:00.000Z')
    expect((await api.put(`/groups/${group.id}`, { as: 'nora', body: { description: 'No rename' } })).status).toBe(200)
    expect((await api.put(`/groups/${group.id}`, { as: 'nora', body: { path: 'nora-labs' } })).status).toBe(200)
    // A refused request sends nothing.
    expect((await api.put(`/groups/${group.id}`, { as: 'max', body: { path: 'taken-over' } })).status).toBe(404)
    expect((await api.delete(`/groups/${group.id}`, { as: 'nora' })).status).toBe(202)
    await hookDeliveriesSettled(sim().db)
    expect(received.map((r) => [r.headers['x-gitlab-event'], r.headers['x-gitlab-token'], r.body.event_name])).toEqual([
      ['System Hook', 'sys', 'group_create'],
      ['System Hook', 'sys', 'user_add_to_group'],
      ['System Hook', 'sys', 'group_create'],
      ['System Hook', 'sys', 'user_add_to_group'],
      ['System Hook', 'sys', 'group_rename'],
      ['System Hook', 'sys', 'group_destroy'],
      ['System Hook', 'sys', 'group_destroy'],
    ])
    const bodies = received.map((r) => r.body)
    expect(bodies[0]).toEqual({ created_at: AT, updated_at: AT, event_name: 'group_create', name: 'Nora Lab', path: 'nora-lab', full_path: 'nora-lab', group_id: group.id })
    expect(Object.keys(bodies[0])).toEqual(['created_at', 'updated_at', 'event_name', 'name', 'path', 'full_path', 'group_id'])
    expect(bodies[1]).toMatchObject({ event_name: 'user_add_to_group', group_id: group.id, user_id: 7, group_access: 'Owner' })
    expect(bodies[2]).toMatchObject({ event_name: 'group_create', full_path: 'nora-lab/inner', group_id: sub.id })
    expect(bodies[4]).toEqual({
      created_at: AT, updated_at: LATER, event_name: 'group_rename', name: 'Nora Lab', path: 'nora-labs', full_path: 'nora-labs', group_id: group.id,
      old_path: 'nora-lab', old_full_path: 'nora-lab',
    })
    expect(Object.keys(bodies[4]).slice(-2)).toEqual(['old_path', 'old_full_path'])
    expect(bodies[5]).toEqual({ created_at: AT, updated_at: LATER, event_name: 'group_destroy', name: 'Inner', path: 'inner', full_path: 'nora-labs/inner', group_id: sub.id })
    expect(bodies[6]).toMatchObject({ event_name: 'group_destroy', full_path: 'nora-labs', group_id: group.id })
  })

  it('sends user_create, user_rename (only when the username changes) and user_destroy', async () => {
    await api.post('/hooks', { as: 'root', body: { url } })
    const { body: user } = await api.post('/users', { as: 'root', body: { name: 'Hook User', username: 'hooked', email: 'hooked@example.com', password: 'a-long-password-1' } })
    expect((await api.post('/users', { as: 'max', body: { name: 'No', username: 'nope', email: 'nope@example.com', password: 'a-long-password-1' } })).status).toBe(403)
    clock().set('2021-04-02T08:30:00.000Z')
    expect((await api.put(`/users/${user.id}`, { as: 'root', body: { bio: 'Only a bio' } })).status).toBe(200)
    expect((await api.put(`/users/${user.id}`, { as: 'root', body: { username: 'hooked2' } })).status).toBe(200)
    expect((await api.delete(`/users/${user.id}`, { as: 'root' })).status).toBe(204)
    await hookDeliveriesSettled(sim().db)
    expect(received.map((r) => r.body)).toEqual([
      { created_at: AT, updated_at: AT, event_name: 'user_create', name: 'Hook User', email: 'hooked@example.com', user_id: user.id, username: 'hooked' },
      { created_at: AT, updated_at: LATER, event_name: 'user_rename', name: 'Hook User', email: 'hooked@example.com', user_id: user.id, username: 'hooked2', old_username: 'hooked' },
      { created_at: AT, updated_at: LATER, event_name: 'user_destroy', name: 'Hook User', email: 'hooked@example.com', user_id: user.id, username: 'hooked2' },
    ])
    expect(Object.keys(received[1]!.body)).toEqual(['created_at', 'updated_at', 'event_name', 'name', 'email', 'user_id', 'username', 'old_username'])
  })

  it('sends key_create and key_destroy for a user\'s SSH key, through /user/keys and /users/:id/keys', async () => {
    await api.post('/hooks', { as: 'root', body: { url } })
    const { body: key } = await api.post('/user/keys', { as: 'nora', body: { title: 'Laptop', key: KEY } })
    expect((await api.post('/user/keys', { as: 'nora', body: { title: 'Bad', key: 'ssh-rsa AAAA' } })).status).toBe(400)
    clock().set('2021-04-02T08:30:00.000Z')
    expect((await api.delete(`/users/7/keys/${key.id}`, { as: 'root' })).status).toBe(204)
    await hookDeliveriesSettled(sim().db)
    const body = (event: string) => ({ event_name: event, created_at: AT, updated_at: AT, key: KEY, id: key.id, username: 'nora' })
    expect(received.map((r) => r.body)).toEqual([body('key_create'), body('key_destroy')])
    expect(Object.keys(received[0]!.body)).toEqual(['event_name', 'created_at', 'updated_at', 'key', 'id', 'username'])
  })

  it('reports a removed membership\'s last save as updated_at', async () => {
    await api.post('/hooks', { as: 'root', body: { url } })
    expect((await api.post('/groups/acme/members', { as: 'olive', body: { user_id: 7, access_level: 20 } })).status).toBe(201)
    clock().set('2021-04-02T08:30:00.000Z')
    expect((await api.put('/groups/acme/members/7', { as: 'olive', body: { access_level: 30 } })).status).toBe(200)
    clock().set('2021-04-03T10:00:00.000Z')
    expect((await api.delete('/groups/acme/members/7', { as: 'olive' })).status).toBe(204)
    await hookDeliveriesSettled(sim().db)
    expect(received.map((r) => [r.body.event_name, r.body.created_at, r.body.updated_at])).toEqual([
      ['user_add_to_group', AT, AT],
      ['user_update_for_group', AT, LATER],
      ['user_remove_from_group', AT, LATER],
    ])
  })

  it('sends a project\'s avatar_url in its hook payloads', async () => {
    await api.post('/hooks', { as: 'root', body: { url, push_events: true } })
    const form = new FormData()
    form.append('avatar', new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], 'logo.png', { type: 'image/png' }))
    expect((await api.put('/projects/20', { as: 'max', multipart: form })).status).toBe(200)
    received.length = 0
    expect((await api.post('/projects/20/repository/branches', { as: 'max', body: { branch: 'pictured', ref: 'main' } })).status).toBe(201)
    await hookDeliveriesSettled(sim().db)
    const push = received.find((r) => r.body.event_name === 'push')!
    expect(push.body.project.avatar_url).toBe(`${api.baseUrl}/uploads/-/system/project/avatar/20/logo.png`)
  })
})
