/**
 * Release hooks fire (issue 34 item 5): a project hook with `releases_events` receives GitLab
 * 13.12's Release Hook on a release's create and update (none on delete, as 13.12), field for field
 * as doc/user/project/integrations/webhooks.md "Release events" shows it. Over both doors.
 * Source: gitlab: lib/gitlab/data_builder/release.rb, app/services/releases/*.rb (13.12).
 */
import { beforeAll, expect, it } from 'vitest'
import { hookDeliveriesSettled } from '../../../src/resources/hooks/hooks.public.js'
import { contract } from '../../support/contract.js'
import { hookReceiver } from '../../support/hook-receiver.js'

const receiver = hookReceiver()
const received = receiver.received
let url = ''
beforeAll(() => {
  url = `${receiver.url}/release`
})

/** acme/website's main. */
const MAIN = 'fd7d40d21b67d3419c468f3cd80559f888c6ff31'

contract('release hook delivery', {}, ({ api, sim }) => {
  /**
   * A project hook on `url` with `releases_events` on: 13.12's hooks API takes no `releases_events`
   * (the UI's switch sets it; a scenario's `hooks:` may too), so the test flips the stored column.
   */
  async function releaseHook(token?: string): Promise<void> {
    const hook = await api.post('/projects/20/hooks', { as: 'max', body: { url, push_events: false, ...(token ? { token } : {}) } })
    expect(hook.status).toBe(201)
    sim().db.tables.project_hooks.update(hook.body.id, { releases_events: true })
  }

  it('sends a created and an updated release, and nothing on delete', async () => {
    await releaseHook('rel')
    const body = { tag_name: 'v9.0', ref: 'main', name: 'Nine', description: 'Notes', assets: { links: [{ name: 'Changelog', url: 'https://example.net/changelog' }] } }
    expect((await api.post('/projects/20/releases', { as: 'max', body })).status).toBe(201)
    expect((await api.put('/projects/20/releases/v9.0', { as: 'max', body: { name: 'Nine!' } })).status).toBe(200)
    expect((await api.delete('/projects/20/releases/v9.0', { as: 'max' })).status).toBe(200)
    await hookDeliveriesSettled(sim().db)

    expect(received.map((r) => [r.headers['x-gitlab-event'], r.headers['x-gitlab-token'], r.body.action, r.body.name])).toEqual([
      ['Release Hook', 'rel', 'create', 'Nine'],
      ['Release Hook', 'rel', 'update', 'Nine!'],
    ])
    const web = `${api.baseUrl}/acme/website`
    const ssh = `git@${new URL(api.baseUrl).hostname}:acme/website.git`
    const created = received[0]!.body
    const expected = {
      id: created.id, created_at: '2021-04-01 12:00:00 UTC', description: 'Notes', name: 'Nine', released_at: '2021-04-01 12:00:00 UTC', tag: 'v9.0',
      object_kind: 'release',
      project: {
        id: 20, name: 'Website', description: 'The Acme website', web_url: web, avatar_url: null, git_ssh_url: ssh, git_http_url: `${web}.git`,
        namespace: 'Acme', visibility_level: 20, path_with_namespace: 'acme/website', default_branch: 'main', ci_config_path: null,
        homepage: web, url: ssh, ssh_url: ssh, http_url: `${web}.git`,
      },
      url: `${web}/-/releases/v9.0`,
      action: 'create',
      assets: {
        count: 5,
        links: [{ id: created.assets.links[0].id, link_type: 'other', name: 'Changelog', url: 'https://example.net/changelog' }],
        sources: ['zip', 'tar.gz', 'tar.bz2', 'tar'].map((format) => ({ format, url: `${web}/-/archive/v9.0/website-v9.0.${format}` })),
      },
      commit: { id: MAIN, message: created.commit.message, title: created.commit.title, timestamp: created.commit.timestamp, url: `${web}/-/commit/${MAIN}`, author: created.commit.author },
    }
    expect(created).toEqual(expected)
    expect(Object.keys(created)).toEqual(Object.keys(expected))
    expect(created.commit.title).toBe('Release 1.0')
  })

  it('sends nothing to a hook without releases_events, nor for a refused write', async () => {
    await api.post('/projects/20/hooks', { as: 'max', body: { url, push_events: false } })
    await releaseHook()
    expect((await api.post('/projects/20/releases', { as: 'gina', body: { tag_name: 'v9.1', ref: 'main' } })).status).toBe(403)
    expect((await api.post('/projects/20/releases', { as: 'max', body: { tag_name: 'v9.1', ref: 'main' } })).status).toBe(201)
    await hookDeliveriesSettled(sim().db)
    expect(received.map((r) => r.body.tag)).toEqual(['v9.1'])
  })
})
