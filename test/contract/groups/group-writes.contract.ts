/**
 * Creating and deleting groups over both doors (issue 16 part 4).
 * Source: gitlab: lib/api/groups.rb, app/services/groups/{create,destroy}_service.rb,
 * app/models/namespace.rb, app/models/group.rb, spec/requests/api/groups_spec.rb.
 *
 * Default scenario: acme (10, public; olive owner, max maintainer, devon developer) with the
 * private subgroup platform (11) and projects website (20), handbook (23) and platform/api (21);
 * secret-lab (12, private, olive only); nora is no member anywhere; root is an administrator.
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

const NOW = '2021-04-01T12:00:00.000Z'
const FORBIDDEN = { message: '403 Forbidden' }
const GROUP_NOT_FOUND = { message: '404 Group Not Found' }

const failed = (errors: string) => ({ message: `Failed to save group ${errors}` })

contract('POST /groups', {}, ({ api, sim }) => {
  it('creates a top-level group and makes the caller its owner', async () => {
    const res = await api.post('/groups', { as: 'nora', body: { name: 'Nora Lab', path: 'nora-lab', description: 'Experiments' } })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      web_url: `${api.baseUrl}/groups/nora-lab`,
      name: 'Nora Lab',
      path: 'nora-lab',
      description: 'Experiments',
      visibility: 'private',
      full_name: 'Nora Lab',
      full_path: 'nora-lab',
      created_at: NOW,
      parent_id: null,
      projects: [],
      shared_projects: [],
    })
    expect(res.body).not.toHaveProperty('runners_token')
    const members = await api.get(`/groups/${res.body.id}/members`, { as: 'nora' })
    expect(members.body.map((m: { username: string; access_level: number }) => [m.username, m.access_level])).toEqual([['nora', 50]])
  })

  it('creates a subgroup for a maintainer of the parent, who can then create projects in it', async () => {
    const res = await api.post('/groups', { as: 'max', body: { name: 'Tools', path: 'tools', parent_id: 10, visibility: 'public' } })
    expect([res.status, res.body.full_path, res.body.full_name, res.body.parent_id]).toEqual([201, 'acme/tools', 'Acme / Tools', 10])
    const project = await api.post('/projects', { as: 'max', body: { name: 'Hammer', namespace_id: res.body.id } })
    expect([project.status, project.body.path_with_namespace]).toEqual([201, 'acme/tools/hammer'])
  })

  it('acts as the sudo user', async () => {
    const res = await api.post('/groups', { as: 'root', headers: { Sudo: 'gina' }, body: { name: 'Gina Group', path: 'gina-group' } })
    expect(res.status).toBe(201)
    expect(sim().db.tables.members.where('source_id', res.body.id).map((m) => m.user_id)).toEqual([2])
  })

  it.each([
    ['a path in use', { name: 'Other', path: 'acme' }, failed('{:path=>["has already been taken"]}')],
    ['a path in use, in another case', { name: 'Other', path: 'ACME' }, failed('{:path=>["has already been taken"]}')],
    ['a path that is a username', { name: 'Other', path: 'devon' }, failed('{:path=>["has already been taken"]}')],
    ['a name in use', { name: 'Acme', path: 'acme-2' }, failed('{:name=>["has already been taken"]}')],
    ['a path ending in a dot', { name: 'Dot', path: 'dot.' }, failed(`{:path=>["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'."]}`)],
    ['a name with a slash', { name: 'a/b', path: 'ab' }, failed(`{:name=>["can contain only letters, digits, emojis, '_', '.', dash, space, parenthesis. It must start with letter, digit, emoji or '_'."]}`)],
    ['a description over 255 characters', { name: 'Long', path: 'long', description: 'x'.repeat(256) }, failed('{:description=>["is too long (maximum is 255 characters)"]}')],
    ['a subgroup more visible than its parent', { name: 'Open', path: 'open', parent_id: 11, visibility: 'public' }, failed('{:visibility_level=>["public is not allowed since the parent group has a private visibility."]}')],
    ['a subgroup path a project of the parent uses', { name: 'Web', path: 'website', parent_id: 10 }, failed('{:path=>["has already been taken"]}')],
  ])('returns 400 for %s', async (_title, body, error) => {
    expect(await api.post('/groups', { as: 'olive', body })).toBeGitLabError(400, error)
  })

  it.each([
    ['no name', { path: 'x' }, 'name is missing'],
    ['no path', { name: 'x' }, 'path is missing'],
    ['neither', {}, 'name is missing, path is missing'],
    ['a parent_id that is not a number', { name: 'x', path: 'x', parent_id: 'acme' }, 'parent_id is invalid'],
  ])('returns 400 for %s', async (_title, body, error) => {
    expect(await api.post('/groups', { as: 'olive', body })).toBeGitLabError(400, { error })
  })

  it.each([
    ['a developer of the parent', 'devon', 10, 403, FORBIDDEN],
    ['a non-member of a public parent', 'nora', 10, 403, FORBIDDEN],
    ['a non-member of a private parent', 'nora', 12, 404, GROUP_NOT_FOUND],
    ['anyone, for a parent that does not exist', 'root', 9999, 404, GROUP_NOT_FOUND],
  ])('refuses a subgroup to %s', async (_title, who, parentId, status, body) => {
    expect(await api.post('/groups', { as: who, body: { name: 'Sub', path: 'sub', parent_id: parentId } })).toBeGitLabError(status, body)
  })

  it('refuses a top-level group to a user who may not create groups, but not to an administrator', async () => {
    sim().db.tables.users.update(7, { can_create_group: false })
    expect(await api.post('/groups', { as: 'nora', body: { name: 'No', path: 'no' } })).toBeGitLabError(403, FORBIDDEN)
    expect((await api.post('/groups', { as: 'root', body: { name: 'Yes', path: 'yes' } })).status).toBe(201)
  })

  it('returns 401 anonymously', async () => {
    expect(await api.post('/groups', { body: { name: 'x', path: 'x' } })).toBeGitLabError(401, { message: '401 Unauthorized' })
  })
})

contract('DELETE /groups/:id', {}, ({ api, sim }) => {
  it('answers 202 and removes the group, its subgroups, projects, labels, milestones and members', async () => {
    expect(await api.delete('/groups/10', { as: 'olive' })).toBeGitLabError(202, { message: '202 Accepted' })
    expect(await api.get('/groups/10', { as: 'olive' })).toBeGitLabError(404, GROUP_NOT_FOUND)
    expect(await api.get('/groups/11', { as: 'olive' })).toBeGitLabError(404, GROUP_NOT_FOUND)
    expect(await api.get('/projects/20', { as: 'olive' })).toBeGitLabError(404, { message: '404 Project Not Found' })
    const db = sim().db
    for (const id of [20, 21, 23]) expect(db.tables.projects.get(id)).toBeUndefined()
    expect(db.tables.labels.where('group_id', 10)).toEqual([])
    expect(db.tables.milestones.where('group_id', 10)).toEqual([])
    expect(db.tables.members.where('source_id', 10).filter((m) => m.source_type === 'group')).toEqual([])
    const groups = await api.get('/groups', { as: 'root' })
    expect(groups.body.map((g: { id: number }) => g.id)).not.toContain(10)
    const todos = await api.get('/todos', { as: 'devon' })
    expect(todos.body.filter((t: { project: { id: number } }) => [20, 21, 23].includes(t.project.id))).toEqual([])
  })

  it.each([
    ['anonymous', undefined, 10, 401, { message: '401 Unauthorized' }],
    ['a maintainer', 'max', 10, 403, FORBIDDEN],
    ['a non-member of a private group', 'nora', 12, 404, GROUP_NOT_FOUND],
  ])('refuses %s and changes nothing', async (_title, who, id, status, body) => {
    const before = JSON.stringify(sim().db.dump())
    expect(await api.delete(`/groups/${id}`, who ? { as: who } : {})).toBeGitLabError(status, body)
    expect(JSON.stringify(sim().db.dump())).toBe(before)
  })

  it('lets an administrator delete any group, and a group created through the API', async () => {
    expect((await api.delete('/groups/12', { as: 'root' })).status).toBe(202)
    const created = await api.post('/groups', { as: 'nora', body: { name: 'Short Lived', path: 'short-lived' } })
    expect((await api.delete(`/groups/${created.body.id}`, { as: 'nora' })).status).toBe(202)
  })
})
