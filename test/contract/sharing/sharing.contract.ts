/**
 * Sharing groups and projects with groups over both doors, and what a share gives its members;
 * a user's memberships (`GET /users/:user_id/memberships`).
 * Source: gitlab: lib/api/groups.rb, lib/api/projects.rb, lib/api/users.rb (13.x),
 * app/models/group_group_link.rb, app/models/project_group_link.rb,
 * app/services/{groups,projects}/group_links/create_service.rb, lib/api/entities/membership.rb,
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

const acmeShare = { group_id: 10, group_name: 'Acme', group_full_path: 'acme', group_access_level: 20, expires_at: null }

contract('POST /groups/:id/share', {}, ({ api }) => {
  it('shares a group with a group: its members then read it, at most at the share level', async () => {
    expect((await api.get('/groups/12', { as: 'devon' })).status).toBe(404)
    const res = await api.post('/groups/12/share', { as: 'olive', body: { group_id: 10, group_access: 20 } })
    expect([res.status, res.body.id, res.body.shared_with_groups]).toEqual([201, 12, [acmeShare]])
    expect(res.body).not.toHaveProperty('runners_token')
    expect((await api.get('/groups/12', { as: 'devon' })).body.shared_with_groups).toEqual([acmeShare])
    // devon is a Developer of acme: Reporter (the share's level) in secret-lab, and in its projects.
    const ids = async (query: string) => (await api.get(`/groups?${query}`, { as: 'devon' })).body.map((g: { id: number }) => g.id)
    expect(await ids('min_access_level=20')).toContain(12)
    expect(await ids('min_access_level=30')).not.toContain(12)
    expect((await api.get('/projects/24', { as: 'devon' })).status).toBe(200)
    // a guest of acme stays a guest: the share caps, it does not raise.
    expect((await api.get('/groups?min_access_level=20', { as: 'gina' })).body.map((g: { id: number }) => g.id)).not.toContain(12)
  })

  it('keeps the expiry date, and an expired share gives nothing', async () => {
    const res = await api.post('/groups/12/share', { as: 'olive', body: { group_id: 10, group_access: 30, expires_at: '2021-04-01' } })
    expect([res.status, res.body.shared_with_groups]).toEqual([201, [{ ...acmeShare, group_access_level: 30, expires_at: '2021-04-01' }]])
    // The clock reads 2021-04-01: a share ends at the start of its expiry day, as a membership does.
    expect((await api.get('/groups/12', { as: 'devon' })).status).toBe(404)
  })

  it.each([
    ['the group already shared with that group', { group_id: 10, group_access: 20 }, 409, { message: 'Shared group The group has already been shared with this group' }],
    ['Owner, which the link model does not take', { group_id: 11, group_access: 50 }, 409, { message: 'Group access is not included in the list' }],
    ['an access level GitLab does not know', { group_id: 11, group_access: 7 }, 400, { error: 'group_access does not have a valid value' }],
    ['no group_access', { group_id: 11 }, 400, { error: 'group_access is missing' }],
    ['a group that does not exist', { group_id: 999, group_access: 20 }, 404, { message: '404 Group Not Found' }],
  ])('refuses %s', async (_case, body, status, answer) => {
    await api.post('/groups/12/share', { as: 'olive', body: { group_id: 10, group_access: 20 } })
    const res = await api.post('/groups/12/share', { as: 'olive', body })
    expect([res.status, res.body]).toEqual([status, answer])
  })

  it.each([
    ['a maintainer (sharing needs Owner)', 'max', 10, 11, { message: 'Not Found' }],
    ['a group the caller cannot read', 'max', 10, 12, { message: '404 Group Not Found' }],
    ['a shared group the caller cannot read', 'devon', 12, 10, { message: '404 Group Not Found' }],
  ])('answers 404 for %s', async (_case, as, shared, withGroup, answer) => {
    const res = await api.post(`/groups/${shared}/share`, { as, body: { group_id: withGroup, group_access: 20 } })
    expect([res.status, res.body]).toEqual([404, answer])
  })
})

contract('DELETE /groups/:id/share/:group_id', {}, ({ api }) => {
  it('removes the share, and with it the access it gave', async () => {
    await api.post('/groups/12/share', { as: 'olive', body: { group_id: 10, group_access: 20 } })
    const res = await api.delete('/groups/12/share/10', { as: 'olive' })
    expect([res.status, res.text]).toEqual([204, ''])
    expect((await api.get('/groups/12', { as: 'devon' })).status).toBe(404)
    expect((await api.get('/groups/12', { as: 'olive' })).body.shared_with_groups).toEqual([])
    const again = await api.delete('/groups/12/share/10', { as: 'olive' })
    expect([again.status, again.body]).toEqual([404, { message: '404 Group Link Not Found' }])
  })

  it('needs Owner of the shared group', async () => {
    await api.post('/groups/10/share', { as: 'olive', body: { group_id: 11, group_access: 20 } })
    const res = await api.delete('/groups/10/share/11', { as: 'max' })
    expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden' }])
  })

  it('goes with a deleted group', async () => {
    await api.post('/groups/12/share', { as: 'olive', body: { group_id: 11, group_access: 20 } })
    expect((await api.delete('/groups/11', { as: 'olive' })).status).toBe(202)
    expect((await api.get('/groups/12', { as: 'olive' })).body.shared_with_groups).toEqual([])
  })
})

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

contract('GET /users/:user_id/memberships', {}, ({ api }) => {
  it("lists a user's direct memberships, narrowed by type", async () => {
    await api.post('/groups/12/members', { as: 'olive', body: { user_id: 7, access_level: 30 } })
    await api.post('/projects/20/members', { as: 'max', body: { user_id: 7, access_level: 20 } })
    const all = await api.get('/users/7/memberships', { as: 'root' })
    expect([all.status, all.body, all.headers.get('x-total')]).toEqual([
      200,
      [
        { source_id: 12, source_name: 'Secret Lab', source_type: 'Namespace', access_level: 30 },
        { source_id: 20, source_name: 'Website', source_type: 'Project', access_level: 20 },
      ],
      '2',
    ])
    expect((await api.get('/users/7/memberships?type=Project', { as: 'root' })).body.map((m: { source_id: number }) => m.source_id)).toEqual([20])
    expect((await api.get('/users/7/memberships?type=Namespace', { as: 'root' })).body.map((m: { source_id: number }) => m.source_id)).toEqual([12])
  })

  it.each([
    ['an unknown type', 'root', '/users/7/memberships?type=Invalid', 400, { error: 'type does not have a valid value' }],
    ['a caller who is not an administrator', 'olive', '/users/7/memberships', 403, { message: '403 Forbidden' }],
    ['an unknown user', 'root', '/users/9999/memberships', 404, { message: '404 User Not Found' }],
    ['a user id that is not a number', 'root', '/users/nora/memberships', 400, { error: 'user_id is invalid' }],
  ])('refuses %s', async (_case, as, path, status, answer) => {
    const res = await api.get(path, { as })
    expect([res.status, res.body]).toEqual([status, answer])
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
