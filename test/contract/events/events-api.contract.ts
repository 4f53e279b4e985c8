/**
 * The events API (issue 37 item 6): contribution events written from the domain-event channel as
 * GitLab's EventCreateService writes them (issue opened/closed/reopened, merge request
 * opened/merged, a note, each pushed ref), listed for the current user, a user and a project,
 * newest first, with the `action`, `target_type`, `before`/`after` and `sort` filters and
 * `Event#visible_to_user?`, over both doors on the default scenario (frozen at 2021-04-01T12:00Z;
 * project 20 acme/website public, 21 acme/platform/api private; devon developer, max maintainer of
 * acme; nora without memberships).
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

const NOW = '2021-04-01T12:00:00.000Z'
const user = (id: number, username: string, name: string) => ({ id, name, username, state: 'active', avatar_url: null, web_url: expect.stringMatching(new RegExp(`/${username}$`)) })

contract('events API', {}, ({ api }) => {
  it('writes an event per opened issue and lists it for its author, the user and the project', async () => {
    const issue = await api.post('/projects/20/issues', { as: 'devon', body: { title: 'Broken link' } })
    expect(issue.status).toBe(201)
    const event = {
      id: 1,
      project_id: 20,
      action_name: 'opened',
      target_id: issue.body.id,
      target_iid: issue.body.iid,
      target_type: 'Issue',
      author_id: 4,
      target_title: 'Broken link',
      created_at: NOW,
      author: user(4, 'devon', 'Devon Developer'),
      author_username: 'devon',
    }
    for (const [path, as] of [['/events', 'devon'], ['/users/devon/events', undefined], ['/users/4/events', 'nora'], ['/projects/20/events', undefined], ['/projects/acme%2Fwebsite/events', 'max']] as const) {
      const res = await api.get(path, { as })
      expect([path, res.status, res.body]).toEqual([path, 200, [event]])
      expect(res.headers.get('x-total')).toBe('1')
    }
    expect((await api.get('/events', { as: 'max' })).body).toEqual([])
  })

  it('writes closed, reopened, commented, pushed and merged events, newest first, and filters them', async () => {
    const { body: issue } = await api.post('/projects/20/issues', { as: 'devon', body: { title: 'Flaky test' } })
    await api.put(`/projects/20/issues/${issue.iid}`, { as: 'max', body: { state_event: 'close' } })
    await api.put(`/projects/20/issues/${issue.iid}`, { as: 'max', body: { state_event: 'reopen' } })
    const note = await api.post(`/projects/20/issues/${issue.iid}/notes`, { as: 'max', body: { body: 'Seen it too' } })
    await api.post('/projects/20/repository/branches', { as: 'max', body: { branch: 'topic', ref: 'main' } })
    const commit = await api.post('/projects/20/repository/commits', {
      as: 'max',
      body: { branch: 'topic', commit_message: 'Add notes\n\nLonger text', actions: [{ action: 'create', file_path: 'NOTES.md', content: 'x' }] },
    })
    expect(commit.status).toBe(201)
    const list = await api.get('/users/max/events', { as: 'max' })
    expect(list.body.map((e: any) => [e.action_name, e.target_type, e.target_title])).toEqual([
      ['pushed to', null, null],
      ['pushed new', null, null],
      ['commented on', 'Note', 'Flaky test'],
      ['opened', 'Issue', 'Flaky test'],
      ['closed', 'Issue', 'Flaky test'],
    ])
    const [pushedTo, pushedNew, commented] = list.body
    expect(pushedTo.push_data).toEqual({ commit_count: 1, action: 'pushed', ref_type: 'branch', commit_from: pushedNew.push_data.commit_to, commit_to: commit.body.id, ref: 'topic', commit_title: 'Add notes', ref_count: null })
    expect(pushedNew.push_data).toEqual({ commit_count: 0, action: 'created', ref_type: 'branch', commit_from: null, commit_to: expect.stringMatching(/^[0-9a-f]{40}$/), ref: 'topic', commit_title: null, ref_count: null })
    expect(commented).toEqual(expect.objectContaining({ target_id: note.body.id, target_iid: null, note: note.body }))
    expect(Object.keys(commented)).toEqual(['id', 'project_id', 'action_name', 'target_id', 'target_iid', 'target_type', 'author_id', 'target_title', 'created_at', 'note', 'author', 'author_username'])
    expect(Object.keys(pushedTo)).toEqual(['id', 'project_id', 'action_name', 'target_id', 'target_iid', 'target_type', 'author_id', 'target_title', 'created_at', 'author', 'push_data', 'author_username'])

    const titles = async (query: Record<string, string>) => (await api.get('/users/max/events', { as: 'max', query })).body.map((e: any) => e.action_name)
    expect(await titles({ action: 'pushed' })).toEqual(['pushed to', 'pushed new'])
    expect(await titles({ target_type: 'issue' })).toEqual(['opened', 'closed'])
    expect(await titles({ target_type: 'note' })).toEqual(['commented on'])
    expect(await titles({ sort: 'asc', target_type: 'issue' })).toEqual(['closed', 'opened'])
    expect(await titles({ after: '2021-03-31', before: '2021-04-02' })).toHaveLength(5)
    expect(await titles({ after: '2021-04-01' })).toEqual([])
    expect(await titles({ before: '2021-04-01' })).toEqual([])
    const page = await api.get('/users/max/events', { as: 'max', query: { per_page: 2, page: 2 } })
    expect([page.headers.get('x-total'), page.body.map((e: any) => e.action_name)]).toEqual(['5', ['commented on', 'opened']])
  })

  it.each([
    ['an unknown action', { action: 'opened' }, 'action does not have a valid value'],
    ['an unknown target type', { target_type: 'Issue' }, 'target_type does not have a valid value'],
    ['a bad date', { before: '2021-13-01' }, 'before is invalid'],
    ['an unknown sort', { sort: 'up' }, 'sort does not have a valid value'],
  ])('refuses %s with 400', async (_what, query, error) => {
    const res = await api.get('/events', { as: 'devon', query })
    expect([res.status, res.body]).toEqual([400, { error }])
  })

  it('shows an event only to whoever may read its target now', async () => {
    const { body: secret } = await api.post('/projects/20/issues', { as: 'devon', body: { title: 'Leak', confidential: true } })
    await api.post('/projects/21/issues', { as: 'devon', body: { title: 'Private' } })
    // The confidential issue's author and the project's reporters see it; nora does not, nor anyone the private project's.
    expect((await api.get('/users/devon/events', { as: 'devon' })).body.map((e: any) => e.target_title)).toEqual(['Private', 'Leak'])
    expect((await api.get('/users/devon/events', { as: 'riley' })).body.map((e: any) => e.target_title)).toEqual(['Private', 'Leak'])
    expect((await api.get('/users/devon/events', { as: 'nora' })).body).toEqual([])
    expect((await api.get('/projects/21/events', { as: 'nora' })).body).toEqual({ message: '404 Project Not Found' })
    // A deleted target takes its event out of every list.
    expect((await api.delete(`/projects/20/issues/${secret.iid}`, { as: 'olive' })).status).toBe(204)
    expect((await api.get('/users/devon/events', { as: 'devon' })).body.map((e: any) => e.target_title)).toEqual(['Private'])
  })

  it('lists every event of the projects the user is a member of with scope=all, and needs a user for /events', async () => {
    await api.post('/projects/20/issues', { as: 'devon', body: { title: 'One' } })
    await api.post('/projects/22/issues', { as: 'olive', body: { title: 'Two' } })
    expect((await api.get('/events', { as: 'max', query: { scope: 'all' } })).body.map((e: any) => e.target_title)).toEqual(['One'])
    expect((await api.get('/events', { as: 'olive', query: { scope: 'all' } })).body.map((e: any) => e.target_title)).toEqual(['Two', 'One'])
    expect((await api.get('/events')).status).toBe(401)
    expect((await api.get('/users/nobody/events')).body).toEqual({ message: '404 User Not Found' })
  })
})
