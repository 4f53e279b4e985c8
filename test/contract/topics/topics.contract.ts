/**
 * The project topics API (GitLab 14.5+, served for python-gitlab 3.12's suite): create, list with
 * search, get, update, merge and delete, with `Projects::Topic`'s validation answers, over both
 * doors on the default scenario (root administrator, max maintainer).
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

const topic = (id: number, name: string, title: string, description: string | null) => ({ id, name, title, description, total_projects_count: 0, avatar_url: null })

contract('topics', {}, ({ api }) => {
  it('creates, lists, searches, reads, updates, merges and deletes topics as an administrator', async () => {
    expect((await api.get('/topics')).body).toEqual([])
    const first = await api.post('/topics', { as: 'root', body: { name: 'my-topic', description: 'My Topic' } })
    expect(first.status).toBe(201)
    expect(first.body).toEqual(topic(1, 'my-topic', 'my-topic', 'My Topic'))
    const second = await api.post('/topics', { as: 'root', body: { name: 'other', title: 'Other things' } })
    expect(second.body).toEqual(topic(2, 'other', 'Other things', null))
    expect((await api.get('/topics', { query: { search: 'MY' } })).body).toEqual([first.body])
    const list = await api.get('/topics', { query: { per_page: 1 } })
    expect([list.status, list.headers.get('x-total'), list.body]).toEqual([200, '2', [first.body]])
    const updated = await api.put('/topics/1', { as: 'root', body: { description: 'My Updated Topic' } })
    expect(updated.body).toEqual(topic(1, 'my-topic', 'my-topic', 'My Updated Topic'))
    expect((await api.get('/topics/1')).body).toEqual(updated.body)
    const merged = await api.post('/topics/merge', { as: 'root', body: { source_topic_id: 1, target_topic_id: 2 } })
    expect([merged.status, merged.body]).toEqual([201, second.body])
    expect((await api.get('/topics/1')).status).toBe(404)
    expect((await api.delete('/topics/2', { as: 'root' })).status).toBe(204)
    expect((await api.get('/topics')).body).toEqual([])
  })

  it.each([
    ['a taken name, in any case', { name: 'RUBY' }, { name: ['has already been taken'] }],
    ['a blank name', { name: ' ' }, { name: ["can't be blank"] }],
    ['a long description', { name: 'x', description: 'd'.repeat(1025) }, { description: ['is too long (maximum is 1024 characters)'] }],
  ])('refuses %s with 400', async (_what, body, message) => {
    await api.post('/topics', { as: 'root', body: { name: 'ruby' } })
    const res = await api.post('/topics', { as: 'root', body })
    expect([res.status, res.body]).toEqual([400, { message }])
  })

  it('answers 404 for an unknown topic and 400 for merging a topic into itself', async () => {
    expect((await api.get('/topics/9')).body).toEqual({ message: '404 Topic Not Found' })
    await api.post('/topics', { as: 'root', body: { name: 'ruby' } })
    const res = await api.post('/topics/merge', { as: 'root', body: { source_topic_id: 1, target_topic_id: 1 } })
    expect([res.status, res.body]).toEqual([400, { message: 'The source topic and the target topic are identical.' }])
  })
})
