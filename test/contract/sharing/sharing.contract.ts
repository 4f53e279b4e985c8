/**
 * Sharing projects with groups over both doors, and what a share gives its members (group shares:
 * test/contract/groups/group-tree.contract.ts); `with_shared`; the scenario's shares.
 * Source: gitlab: lib/api/groups.rb, lib/api/projects.rb (13.x),
 * app/models/group_group_link.rb, app/models/project_group_link.rb,
 * app/services/{groups,projects}/group_links/create_service.rb,
 * shared_group_with_group.rb, shared_group_with_project.rb, project_group_link.rb.
 *
 * Default scenario: acme (10, public; gina guest, riley reporter, devon developer, max maintainer,
 * olive owner) with the private subgroup platform (11) and its private project api (21);
 * acme/website (20, public); secret-lab (12, private, olive owner) with experiments (24, private);
 * olive/dotfiles (22, private, personal); platform is shared with secret-lab (Developer) and
 * acme/handbook (23) with it (Reporter); nora (7) is no member anywhere; root is an administrator.
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

contract('POST /projects/:id/share', {}, ({ api }) => {
  it('shares a project with a group: its members then read it, at most at the share level', async () => {
    await api.post('/groups/12/members', { as: 'olive', body: { user_id: 7, access_level: 40 } })
    expect((await api.get('/projects/22', { as: 'nora' })).status).toBe(404)
    const res = await api.post('/projects/22/share', { as: 'olive', body: { group_id: 12, group_access: 20 } })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({ id: expect.any(Number), project_id: 22, group_id: 12, group_access: 20, expires_at: null })
    const project = await api.get('/projects/22', { as: 'nora' })
    expect([project.status, project.body.shared_with_groups]).toEqual([
      200,
      [{ group_id: 12, group_name: 'Secret Lab', group_full_path: 'secret-lab', group_access_level: 20, expires_at: null }],
    ])
    // Reporter through the share (nora is a Maintainer of secret-lab): reads, but cannot administer.
    const ids = (await api.get('/projects?min_access_level=20', { as: 'nora' })).body.map((p: { id: number }) => p.id)
    expect(ids).toContain(21)
    expect((await api.post('/projects/22/share', { as: 'nora', body: { group_id: 12, group_access: 10 } })).status).toBe(403)
  })

  it.each([
    ['its own group', 20, { group_id: 10, group_access: 20 }, 409, { message: 'Project cannot be shared with the group it is in or one of its ancestors.' }],
    ['an ancestor of its group', 21, { group_id: 10, group_access: 20 }, 409, { message: 'Project cannot be shared with the group it is in or one of its ancestors.' }],
    ['Owner', 20, { group_id: 12, group_access: 50 }, 400, { error: 'group_access does not have a valid value' }],
    ['a group that does not exist', 20, { group_id: 999, group_access: 20 }, 404, { message: 'Not Found' }],
  ])('refuses %s', async (_case, project, body, status, answer) => {
    const res = await api.post(`/projects/${project}/share`, { as: 'olive', body })
    expect([res.status, res.body]).toEqual([status, answer])
  })

  it('refuses a second share with the same group', async () => {
    await api.post('/projects/20/share', { as: 'olive', body: { group_id: 12, group_access: 20 } })
    const res = await api.post('/projects/20/share', { as: 'olive', body: { group_id: 12, group_access: 30 } })
    expect([res.status, res.body]).toEqual([409, { message: 'Group already shared with this group' }])
  })

  it.each([
    ['a developer', 'devon', 20, 12, 403, { message: '403 Forbidden' }],
    ['a maintainer, with a group they cannot read', 'max', 20, 12, 404, { message: 'Not Found' }],
  ])('refuses %s', async (_case, as, project, group, status, answer) => {
    const res = await api.post(`/projects/${project}/share`, { as, body: { group_id: group, group_access: 20 } })
    expect([res.status, res.body]).toEqual([status, answer])
  })
})

contract('DELETE /projects/:id/share/:group_id', {}, ({ api }) => {
  it('removes the share, and with it the access it gave', async () => {
    await api.post('/groups/12/members', { as: 'olive', body: { user_id: 7, access_level: 30 } })
    await api.post('/projects/22/share', { as: 'olive', body: { group_id: 12, group_access: 20 } })
    // nora reads the project through the share, as a Reporter: not enough to remove it.
    expect((await api.delete('/projects/22/share/12', { as: 'nora' })).status).toBe(403)
    const res = await api.delete('/projects/22/share/12', { as: 'olive' })
    expect([res.status, res.text]).toEqual([204, ''])
    expect((await api.get('/projects/22', { as: 'nora' })).status).toBe(404)
    const again = await api.delete('/projects/22/share/12', { as: 'olive' })
    expect([again.status, again.body]).toEqual([404, { message: '404 Group Link Not Found' }])
  })
})

contract('shared_with_groups of the default scenario', {}, ({ api }) => {
  it('shows the scenario\'s shares on the group and the project', async () => {
    expect((await api.get('/groups/11', { as: 'olive' })).body.shared_with_groups).toEqual([
      { group_id: 12, group_name: 'Secret Lab', group_full_path: 'secret-lab', group_access_level: 30, expires_at: null },
    ])
    expect((await api.get('/projects/23', { as: 'olive' })).body.shared_with_groups).toEqual([
      { group_id: 12, group_name: 'Secret Lab', group_full_path: 'secret-lab', group_access_level: 20, expires_at: null },
    ])
  })
})

contract('with_shared on the lists of a group\'s projects and a project\'s groups', {}, ({ api }) => {
  const ids = (body: { id: number }[]) => body.map((x) => x.id)

  it('lists a project shared with the group among its projects unless with_shared=false', async () => {
    expect(ids((await api.get('/groups/12/projects', { as: 'olive' })).body)).toEqual([23, 24])
    expect(ids((await api.get('/groups/12/projects?with_shared=false', { as: 'olive' })).body)).toEqual([24])
  })

  it("lists the groups a project is shared with, with with_shared, above shared_min_access_level", async () => {
    expect(ids((await api.get('/projects/23/groups', { as: 'olive' })).body)).toEqual([10])
    expect(ids((await api.get('/projects/23/groups?with_shared=true', { as: 'olive' })).body)).toEqual([12, 10])
    expect(ids((await api.get('/projects/23/groups?with_shared=true&shared_min_access_level=30', { as: 'olive' })).body)).toEqual([10])
    // A group the caller cannot read is not listed.
    expect(ids((await api.get('/projects/23/groups?with_shared=true', { as: 'devon' })).body)).toEqual([10])
  })
})
