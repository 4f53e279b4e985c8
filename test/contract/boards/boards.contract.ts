/**
 * Project and group issue boards and their label lists over both doors: python-gitlab's
 * test_boards (create, get, delete, empty lists), label lists (create, order, move, delete),
 * GitLab's errors and permissions. Source: gitlab: lib/api/boards.rb, lib/api/group_boards.rb,
 * lib/api/boards_responses.rb, app/services/boards/lists/*.rb, lib/api/entities/board.rb, list.rb
 * (13.12 CE); spec/requests/api/boards_spec.rb.
 */
import { expect, it } from 'vitest'
import { contract, type Api } from '../../support/contract.js'

const BOARD_FIELDS = ['id', 'name', 'hide_backlog_list', 'hide_closed_list', 'project', 'lists']

async function board(api: Api, prefix: string, as: string, name = 'testboard'): Promise<number> {
  const res = await api.post(`${prefix}/boards`, { as, body: { name } })
  expect(res.status).toBe(201)
  return res.body.id
}

contract('boards', {}, ({ api }) => {
  it('creates, gets and deletes a project board (python-gitlab test_project_boards)', async () => {
    expect((await api.get('/projects/20/boards', { as: 'riley' })).body).toEqual([])
    const res = await api.post('/projects/20/boards', { as: 'riley', body: { name: 'testboard' } })
    expect(res.status).toBe(201)
    expect(Object.keys(res.body)).toEqual(BOARD_FIELDS)
    expect(res.body).toMatchObject({ name: 'testboard', hide_backlog_list: false, hide_closed_list: false, lists: [] })
    expect(res.body.project).toMatchObject({ id: 20, path_with_namespace: 'acme/website' })
    expect((await api.get(`/projects/20/boards/${res.body.id}`, { as: 'gina' })).body).toEqual(res.body)
    expect((await api.get('/projects/20/boards', { as: 'gina' })).body).toEqual([res.body])
    expect((await api.delete(`/projects/20/boards/${res.body.id}`, { as: 'riley' })).status).toBe(204)
    expect((await api.get('/projects/20/boards', { as: 'riley' })).body).toEqual([])
    expect(await api.get(`/projects/20/boards/${res.body.id}`, { as: 'riley' })).toBeGitLabError(404, { message: '404 Not found' })
  })

  it('creates, gets and deletes a group board (python-gitlab test_group_boards)', async () => {
    expect((await api.get('/groups/10/boards', { as: 'gina' })).body).toEqual([])
    const id = await board(api, '/groups/10', 'riley')
    const got = await api.get(`/groups/10/boards/${id}`, { as: 'gina' })
    expect(got.body).toEqual({ id, name: 'testboard', hide_backlog_list: false, hide_closed_list: false, project: null, lists: [] })
    expect(await api.get(`/projects/20/boards/${id}`, { as: 'riley' })).toBeGitLabError(404, { message: '404 Not found' })
    expect((await api.delete(`/groups/10/boards/${id}`, { as: 'riley' })).status).toBe(204)
    expect((await api.get('/groups/10/boards', { as: 'riley' })).body).toEqual([])
  })

  it('updates a board\'s name and hide switches', async () => {
    const id = await board(api, '/projects/20', 'riley')
    const res = await api.put(`/projects/20/boards/${id}`, { as: 'riley', body: { name: 'renamed', hide_closed_list: true } })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id, name: 'renamed', hide_backlog_list: false, hide_closed_list: true })
    expect(await api.put(`/projects/20/boards/${id}`, { as: 'gina', body: { name: 'x' } })).toBeGitLabError(403, { message: '403 Forbidden' })
  })

  it('adds label lists in order, moves and deletes them, closing the gaps', async () => {
    const id = await board(api, '/projects/20', 'riley')
    const lists = `/projects/20/boards/${id}/lists`
    // frontend (project label 110), bug (group label 100), docs (111)
    const made: number[] = []
    for (const label_id of [110, 100, 111]) {
      const res = await api.post(lists, { as: 'riley', body: { label_id } })
      expect(res.status).toBe(201)
      expect(Object.keys(res.body)).toEqual(['id', 'label', 'position'])
      made.push(res.body.id)
    }
    const first = await api.get(`${lists}/${made[0]}`, { as: 'gina' })
    expect(first.body).toEqual({ id: made[0], label: { id: 110, name: 'frontend', color: expect.any(String), description: null, description_html: '', text_color: expect.any(String) }, position: 0 })
    const order = async () => (await api.get(lists, { as: 'gina' })).body.map((l: { id: number; label: { id: number }; position: number }) => [l.label.id, l.position])
    expect(await order()).toEqual([[110, 0], [100, 1], [111, 2]])
    expect((await api.get(`/projects/20/boards/${id}`, { as: 'gina' })).body.lists.map((l: { id: number }) => l.id)).toEqual(made)

    const moved = await api.put(`${lists}/${made[2]}`, { as: 'riley', body: { position: 0 } })
    expect(moved.status).toBe(200)
    expect(moved.body.position).toBe(0)
    expect(await order()).toEqual([[111, 0], [110, 1], [100, 2]])
    for (const position of [0, 3, -1]) {
      expect(await api.put(`${lists}/${made[2]}`, { as: 'riley', body: { position } })).toBeGitLabError(400, { message: { error: 'List could not be moved!' } })
    }

    expect((await api.delete(`${lists}/${made[0]}`, { as: 'riley' })).status).toBe(204)
    expect(await order()).toEqual([[111, 0], [100, 1]])
    expect(await api.get(`${lists}/${made[0]}`, { as: 'riley' })).toBeGitLabError(404, { message: '404 Not found' })
  })

  it('refuses a label the project cannot use, a second list of a label, and non-reporters', async () => {
    const id = await board(api, '/projects/20', 'riley')
    const lists = `/projects/20/boards/${id}/lists`
    expect(await api.post(lists, { as: 'riley', body: { label_id: 999999 } })).toBeGitLabError(400, { message: { error: 'Label not found!' } })
    expect(await api.post(lists, { as: 'riley' })).toBeGitLabError(400, { error: 'label_id is missing' })
    expect((await api.post(lists, { as: 'riley', body: { label_id: 110 } })).status).toBe(201)
    expect(await api.post(lists, { as: 'riley', body: { label_id: 110 } })).toBeGitLabError(400, { message: { label: ['has already been taken'] } })
    expect(await api.post(lists, { as: 'gina', body: { label_id: 111 } })).toBeGitLabError(403, { message: '403 Forbidden' })
    // A group board takes the group's labels, not a project's.
    const groupBoard = await board(api, '/groups/10', 'riley')
    expect(await api.post(`/groups/10/boards/${groupBoard}/lists`, { as: 'riley', body: { label_id: 110 } })).toBeGitLabError(400, { message: { error: 'Label not found!' } })
    expect((await api.post(`/groups/10/boards/${groupBoard}/lists`, { as: 'riley', body: { label_id: 100 } })).status).toBe(201)
  })

  it('needs a signed-in caller who can read the parent', async () => {
    expect(await api.get('/projects/20/boards')).toBeGitLabError(401, { message: '401 Unauthorized' })
    expect(await api.get('/projects/21/boards', { as: 'nora' })).toBeGitLabError(404, { message: '404 Project Not Found' })
    expect(await api.post('/projects/20/boards', { as: 'gina', body: { name: 'x' } })).toBeGitLabError(403, { message: '403 Forbidden' })
  })
})

contract('boards and badges in the state export', {}, ({ api }) => {
  it('exports boards, their label lists and badges, and loads them back', async () => {
    const id = await board(api, '/projects/20', 'riley', 'Exported')
    for (const label_id of [111, 100]) expect((await api.post(`/projects/20/boards/${id}/lists`, { as: 'riley', body: { label_id } })).status).toBe(201)
    await board(api, '/groups/10', 'riley', 'Group board')
    expect((await api.post('/projects/20/badges', { as: 'max', body: { link_url: 'https://x.example.com/%{project_path}', image_url: 'https://x.example.com/b.svg', name: 'b' } })).status).toBe(201)
    expect((await api.post('/groups/10/badges', { as: 'olive', body: { link_url: 'https://x.example.com/g', image_url: 'https://x.example.com/g.svg' } })).status).toBe(201)
    const answers = async () => Promise.all(['/projects/20/boards', `/projects/20/boards/${id}/lists`, '/groups/10/boards', '/projects/20/badges', '/groups/10/badges'].map(async (path) => (await api.get(path, { as: 'olive' })).body))
    const before = await answers()
    const state = await api.get('/-/fakelab/state')
    expect(state.status).toBe(200)
    expect((await api.post('/-/fakelab/reset')).status).toBe(204)
    expect((await api.get('/projects/20/boards', { as: 'olive' })).body).toEqual([])
    expect((await api.put('/-/fakelab/scenario', { rawBody: state.text, headers: { 'content-type': 'application/yaml' } })).status).toBe(204)
    expect(await answers()).toEqual(before)
  })
})
