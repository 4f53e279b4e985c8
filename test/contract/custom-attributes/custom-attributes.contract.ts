/**
 * Custom attributes of users, groups and projects over both doors, as python-gitlab's
 * test_user_custom_attributes, test_group_custom_attributes and test_project_custom_attributes use
 * them, with the `custom_attributes[key]=value` list filter.
 * Source: gitlab: lib/api/custom_attributes_endpoints.rb, app/finders/concerns/custom_attributes_filter.rb (13.12).
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

contract('custom attributes', {}, ({ api, sim }) => {
  it.each([
    ['users', '/users/4', '/users'],
    ['groups', '/groups/10', '/groups'],
    ['projects', '/projects/20', '/projects'],
  ])('sets, lists, gets, filters by and deletes them on %s', async (_t, base, list) => {
    expect((await api.get(`${base}/custom_attributes`, { as: 'root' })).body).toEqual([])
    const set = await api.put(`${base}/custom_attributes/key`, { as: 'root', body: { value: 'value1' } })
    expect(set.status).toBe(200)
    expect(set.body).toEqual({ key: 'key', value: 'value1' })
    const id = Number(base.split('/')[2])
    const filtered = await api.get(list, { as: 'root', query: { 'custom_attributes[key]': 'value1' } })
    expect(filtered.body.map((r: { id: number }) => r.id)).toEqual([id])
    expect((await api.get(list, { as: 'root', query: { 'custom_attributes[key]': 'other' } })).body).toEqual([])
    await api.put(`${base}/custom_attributes/key`, { as: 'root', body: { value: 'value2' } })
    expect((await api.get(`${base}/custom_attributes/key`, { as: 'root' })).body).toEqual({ key: 'key', value: 'value2' })
    expect((await api.get(`${base}/custom_attributes`, { as: 'root' })).body).toEqual([{ key: 'key', value: 'value2' }])
    expect((await api.delete(`${base}/custom_attributes/key`, { as: 'root' })).status).toBe(204)
    expect(await api.get(`${base}/custom_attributes/key`, { as: 'root' })).toBeGitLabError(404, { message: '404 Not found' })
  })

  it('is for administrators only; others\' filters are ignored', async () => {
    await api.put('/users/4/custom_attributes/team', { as: 'root', body: { value: 'web' } })
    expect(await api.get('/users/4/custom_attributes', { as: 'max' })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect(await api.put('/projects/20/custom_attributes/k', { as: 'max', body: { value: 'v' } })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect(await api.get('/projects/24/custom_attributes', { as: 'max' })).toBeGitLabError(404, { message: '404 Project Not Found' })
    expect(await api.put('/users/4/custom_attributes/k', { as: 'root', body: {} })).toBeGitLabError(400, { error: 'value is missing' })
    const unfiltered = await api.get('/users', { as: 'max', query: { 'custom_attributes[team]': 'web' } })
    expect(unfiltered.body.length).toBeGreaterThan(1)
  })

  it('go with their owner', async () => {
    await api.put('/users/8/custom_attributes/k', { as: 'root', body: { value: 'v' } })
    expect((await api.delete('/users/8', { as: 'root' })).status).toBe(204)
    expect(sim().db.tables.custom_attributes.all()).toEqual([])
  })
})
