/**
 * Broadcast messages over both doors, as python-gitlab's test_broadcast_messages makes them.
 * Source: gitlab: lib/api/broadcast_messages.rb, lib/api/entities/broadcast_message.rb,
 * app/models/broadcast_message.rb. Today is 2021-04-01T12:00Z; the default scenario has none.
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

const FIELDS = ['id', 'message', 'starts_at', 'ends_at', 'color', 'font', 'target_path', 'broadcast_type', 'dismissable', 'active']

contract('broadcast messages', {}, ({ api, sim }) => {
  it('creates one with GitLab\'s defaults, updates, lists, gets and deletes it', async () => {
    const res = await api.post('/broadcast_messages', { as: 'root', body: { message: 'this is the message' } })
    expect(res.status).toBe(201)
    expect(Object.keys(res.body)).toEqual(FIELDS)
    expect(res.body).toEqual({
      id: res.body.id, message: 'this is the message', starts_at: '2021-04-01T12:00:00.000Z', ends_at: '2021-04-01T13:00:00.000Z',
      color: '#E75E40', font: '#FFFFFF', target_path: null, broadcast_type: 'banner', dismissable: null, active: true,
    })
    const put = await api.put(`/broadcast_messages/${res.body.id}`, { as: 'root', body: { color: '#444444' } })
    expect(put.status).toBe(200)
    expect(put.body.color).toBe('#444444')
    const later = await api.post('/broadcast_messages', { as: 'root', body: { message: 'later', starts_at: '2021-05-01T00:00:00Z', ends_at: '2021-05-02T00:00:00Z', broadcast_type: 'notification' } })
    expect(later.body).toMatchObject({ active: false, broadcast_type: 'notification' })
    const list = await api.get('/broadcast_messages')
    expect(list.body.map((m: { id: number }) => m.id)).toEqual([later.body.id, res.body.id])
    expect((await api.get(`/broadcast_messages/${res.body.id}`)).body).toEqual(put.body)
    const del = await api.delete(`/broadcast_messages/${res.body.id}`, { as: 'root' })
    expect(del.status).toBe(200)
    expect(del.body).toEqual(put.body)
    expect(sim().db.tables.broadcast_messages.get(res.body.id)).toBeUndefined()
    expect(await api.get(`/broadcast_messages/${res.body.id}`)).toBeGitLabError(404, { message: '404 Not found' })
  })

  it.each([
    ['no message', { color: '#fff' }, { error: 'message is missing' }],
    ['a blank message', { message: ' ' }, { message: { message: ["can't be blank"] } }],
    ['a bad colour', { message: 'x', color: 'red', font: '#12' }, { message: { color: ['must be a valid color code'], font: ['must be a valid color code'] } }],
    ['a bad type', { message: 'x', broadcast_type: 'popup' }, { error: 'broadcast_type does not have a valid value' }],
  ])('answers 400 for %s', async (_t, body, error) => {
    expect(await api.post('/broadcast_messages', { as: 'root', body })).toBeGitLabError(400, error)
  })

  it('lets only administrators write', async () => {
    expect(await api.post('/broadcast_messages', { as: 'max', body: { message: 'x' } })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect(await api.post('/broadcast_messages', { body: { message: 'x' } })).toBeGitLabError(401, { message: '401 Unauthorized' })
  })
})
