/**
 * `PUT /groups/:id` (issue 37 item 5): an Owner (or administrator) changes a group's name, path,
 * description, visibility and flags; the `Group` model's validations answer 400 with the
 * attribute's messages and change nothing; others get 403, non-readers 404. Over both doors on the
 * default scenario (acme 10 public with public acme/website; acme/platform 11 private subgroup;
 * olive owner, max maintainer, nora without memberships).
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

contract('PUT /groups/:id', {}, ({ api }) => {
  it('updates the group and answers GroupDetail', async () => {
    const res = await api.put('/groups/11', { as: 'olive', body: { name: 'Platform team', description: 'Shared services', request_access_enabled: false } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(expect.objectContaining({ id: 11, name: 'Platform team', path: 'platform', description: 'Shared services', request_access_enabled: false, full_name: 'Acme / Platform team' }))
    expect(res.body).toHaveProperty('runners_token')
    expect((await api.get('/groups/11', { as: 'olive' })).body.name).toBe('Platform team')
    const moved = await api.put('/groups/11', { as: 'root', body: { path: 'plat' } })
    expect([moved.status, moved.body.full_path, moved.body.web_url.endsWith('/groups/acme/plat')]).toEqual([200, 'acme/plat', true])
    expect((await api.get('/projects/acme%2Fplat%2Fapi', { as: 'olive' })).status).toBe(200)
  })

  it.each([
    ['a taken path', { path: 'website-x' }, null],
    ['a bad path', { path: '-bad' }, { path: ["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'."] }],
    ['a blank name', { name: ' ' }, { name: ["can't be blank"] }],
  ])('refuses %s with 400 and changes nothing', async (what, body, message) => {
    if (message === null) {
      await api.post('/groups', { as: 'olive', body: { name: 'X', path: 'website-x', parent_id: 10 } })
      const res = await api.put('/groups/11', { as: 'olive', body })
      expect([res.status, res.body]).toEqual([400, { message: { path: ['has already been taken'] } }])
    } else {
      const res = await api.put('/groups/11', { as: 'olive', body })
      expect([what, res.status, res.body]).toEqual([what, 400, { message }])
    }
    expect((await api.get('/groups/11', { as: 'olive' })).body).toEqual(expect.objectContaining({ name: 'Platform', path: 'platform', visibility: 'private' }))
  })

  it('refuses a visibility wider than the parent\'s', async () => {
    const { body: child } = await api.post('/groups', { as: 'olive', body: { name: 'Child', path: 'child', parent_id: 11, visibility: 'private' } })
    const res = await api.put(`/groups/${child.id}`, { as: 'olive', body: { visibility: 'internal' } })
    expect([res.status, res.body]).toEqual([400, { message: { visibility_level: ['internal is not allowed since the parent group has a private visibility.'] } }])
  })

  it('refuses a visibility narrower than the group\'s projects', async () => {
    const res = await api.put('/groups/10', { as: 'olive', body: { visibility: 'private' } })
    expect([res.status, res.body]).toEqual([400, { message: { visibility_level: ['private is not allowed since this group contains projects with higher visibility.'] } }])
  })

  it('answers 403 below Owner, 404 to a non-reader, 401 anonymous', async () => {
    expect((await api.put('/groups/11', { as: 'max', body: { name: 'Y' } })).status).toBe(403)
    expect((await api.put('/groups/11', { as: 'nora', body: { name: 'Y' } })).body).toEqual({ message: '404 Group Not Found' })
    expect((await api.put('/groups/11', { body: { name: 'Y' } })).status).toBe(401)
  })
})
