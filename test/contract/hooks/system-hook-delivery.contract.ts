/**
 * System hooks fire (issue 34 item 5): a system hook pointed at a small HTTP server receives, with
 * `X-Gitlab-Event: System Hook`, the push, tag push and merge request payloads project hooks get
 * (as `Project#execute_hooks` hands them to `SystemHooksService`), one `repository_update` per push,
 * and its test payload (`POST /hooks/:id`); only the events its switches select. Over both doors.
 * Source: gitlab: app/models/project.rb `execute_hooks`, app/services/system_hooks_service.rb,
 * app/models/hooks/system_hook.rb, lib/gitlab/data_builder/repository.rb, app/workers/post_receive.rb,
 * lib/api/system_hooks.rb, doc/system_hooks/system_hooks.md (13.12).
 */
import { beforeAll, expect, it } from 'vitest'
import { hookDeliveries, hookDeliveriesSettled } from '../../../src/resources/hooks/hooks.public.js'
import { contract } from '../../support/contract.js'
import { hookReceiver } from '../../support/hook-receiver.js'

const receiver = hookReceiver()
const received = receiver.received
let url = ''
beforeAll(() => {
  url = `${receiver.url}/system`
})

const TEST_DATA = { event_name: 'project_create', name: 'Ruby', path: 'ruby', project_id: 1, owner_name: 'Someone', owner_email: 'example@gitlabhq.com' }

contract('system hook delivery', {}, ({ api, sim }) => {
  it('delivers its test payload on POST /hooks/:id', async () => {
    const hook = (await api.post('/hooks', { as: 'root', body: { url, token: 'sys-s3cret' } })).body
    const res = await api.post(`/hooks/${hook.id}`, { as: 'root' })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(TEST_DATA)
    await hookDeliveriesSettled(sim().db)
    expect(received.map((r) => [r.path, r.headers['x-gitlab-event'], r.headers['x-gitlab-token'], r.headers['content-type'], r.body])).toEqual([
      ['/system', 'System Hook', 'sys-s3cret', 'application/json', TEST_DATA],
    ])
    expect(hookDeliveries(sim().db).map((l) => [l.hook_kind, l.web_hook_id, l.trigger, l.response_status])).toEqual([['system', hook.id, 'system_hooks', '200']])
    expect(await api.post('/hooks/999999', { as: 'root' })).toBeGitLabError(404, { message: '404 Not found' })
    expect(await api.post(`/hooks/${hook.id}`, { as: 'max' })).toBeGitLabError(403, { message: '403 Forbidden' })
  })

  it('gets push, tag push and merge request events as project hooks do, and a repository_update per push', async () => {
    await api.post('/hooks', { as: 'root', body: { url: `${url}/all`, push_events: true, tag_push_events: true, merge_requests_events: true } })
    await api.post('/hooks', { as: 'root', body: { url: `${url}/default` } }) // repository_update_events only
    // A project hook alongside, to compare payloads.
    await api.post('/projects/20/hooks', { as: 'max', body: { url: `${url}/project`, push_events: true, tag_push_events: true, merge_requests_events: true } })
    expect((await api.post('/projects/20/repository/branches', { as: 'devon', body: { branch: 'topic', ref: 'main' } })).status).toBe(201)
    expect((await api.post('/projects/20/repository/tags', { as: 'max', body: { tag_name: 'v9.9', ref: 'main' } })).status).toBe(201)
    expect((await api.put('/projects/20/merge_requests/1', { as: 'max', body: { title: 'Renamed' } })).status).toBe(200)
    expect((await api.post('/projects/20/issues', { as: 'devon', body: { title: 'Not for system hooks' } })).status).toBe(201)
    await hookDeliveriesSettled(sim().db)

    expect(received.map((r) => [r.path, r.headers['x-gitlab-event'], r.body.object_kind ?? r.body.event_name])).toEqual([
      ['/system/project', 'Push Hook', 'push'],
      ['/system/all', 'System Hook', 'push'],
      ['/system/all', 'System Hook', 'repository_update'],
      ['/system/default', 'System Hook', 'repository_update'],
      ['/system/project', 'Tag Push Hook', 'tag_push'],
      ['/system/all', 'System Hook', 'tag_push'],
      ['/system/all', 'System Hook', 'repository_update'],
      ['/system/default', 'System Hook', 'repository_update'],
      ['/system/project', 'Merge Request Hook', 'merge_request'],
      ['/system/all', 'System Hook', 'merge_request'],
    ])
    // The same payload as the project hook's.
    expect(received[1]!.body).toEqual(received[0]!.body)
    expect(received[9]!.body).toEqual(received[8]!.body)

    const web = `${api.baseUrl}/acme/website`
    const ssh = `git@${new URL(api.baseUrl).hostname}:acme/website.git`
    const update = received[2]!.body
    expect(update).toEqual({
      event_name: 'repository_update', user_id: 4, user_name: 'Devon Developer', user_email: 'devon@example.com', user_avatar: update.user_avatar,
      project_id: 20,
      project: {
        id: 20, name: 'Website', description: 'The Acme website', web_url: web, avatar_url: null, git_ssh_url: ssh, git_http_url: `${web}.git`,
        namespace: 'Acme', visibility_level: 20, path_with_namespace: 'acme/website', default_branch: 'main', ci_config_path: null,
        homepage: web, url: ssh, ssh_url: ssh, http_url: `${web}.git`,
      },
      changes: [{ before: '0000000000000000000000000000000000000000', after: received[0]!.body.after, ref: 'refs/heads/topic' }],
      refs: ['refs/heads/topic'],
    })
    expect(Object.keys(update)).toEqual(['event_name', 'user_id', 'user_name', 'user_email', 'user_avatar', 'project_id', 'project', 'changes', 'refs'])
  })
})
