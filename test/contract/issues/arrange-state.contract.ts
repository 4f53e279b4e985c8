/**
 * Arranged data and the control API (issue 16 part 5): what the issue writes, notes and award
 * emoji store is in the state export, loads back to the same answers, and is gone after a reset.
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

contract('arranged issues, notes and award emoji under the control API', {}, ({ api }) => {
  it('exports them, loads them back, and forgets them on reset', async () => {
    const issue = await api.post('/projects/20/issues', { as: 'max', body: { title: 'Arranged', labels: 'exported' } })
    const note = await api.post('/projects/20/issues/5/notes', { as: 'max', body: { body: 'kept' } })
    await api.post(`/projects/20/issues/5/notes/${note.body.id}/award_emoji`, { as: 'devon', body: { name: 'tada' } })
    await api.post('/projects/20/issues/5/unsubscribe', { as: 'max' })
    const before = await Promise.all(['/projects/20/issues/5', '/projects/20/issues/5/notes', `/projects/20/issues/5/notes/${note.body.id}/award_emoji`].map((p) => api.get(p, { as: 'max' })))
    const state = await api.get('/-/fakelab/state')
    expect(state.status).toBe(200)

    expect((await api.post('/-/fakelab/reset')).status).toBe(204)
    expect((await api.get('/projects/20/issues/5', { as: 'max' })).status).toBe(404)
    const reused = await api.post('/projects/20/issues', { as: 'max', body: { title: 'After reset' } })
    expect(reused.body.iid).toBe(5)

    const load = await api.put('/-/fakelab/scenario', { rawBody: state.text, headers: { 'content-type': 'application/yaml' } })
    expect(load.status).toBe(204)
    const after = await Promise.all(['/projects/20/issues/5', '/projects/20/issues/5/notes', `/projects/20/issues/5/notes/${note.body.id}/award_emoji`].map((p) => api.get(p, { as: 'max' })))
    expect(after.map((r) => r.body)).toEqual(before.map((r) => r.body))
    expect([issue.body.iid, after[0]!.body.subscribed]).toEqual([5, false])
    // The project's iid counter came back too: the next issue is #6, not #5 again.
    expect((await api.post('/projects/20/issues', { as: 'max', body: { title: 'Next' } })).body.iid).toBe(6)
  })
})
