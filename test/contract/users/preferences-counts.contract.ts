/**
 * `PUT /user/preferences` (13.10+) and `GET /user_counts` (issue 37) over both doors: the caller's
 * preferences row, made on the first change and kept after (`Entities::UserPreferences`: id,
 * user_id, view_diffs_file_by_file), `view_diffs_file_by_file` required; the count of open merge
 * requests assigned to the caller that the caller may read; 401 without a user.
 * Default scenario: devon (4), nora (7), root (1); acme/website (20) public with merge requests.
 * Source: gitlab: lib/api/users.rb (`put "preferences"`), lib/api/entities/user_preferences.rb,
 * lib/api/user_counts.rb, app/models/user.rb (`assigned_open_merge_requests_count`) (13.12).
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

contract('user preferences and counts', {}, ({ api, sim }) => {
  it('saves the caller\'s preferences: a row made on the first change, the same one after', async () => {
    const first = await api.put('/user/preferences', { as: 'devon', body: { view_diffs_file_by_file: true } })
    expect(first.status).toBe(200)
    expect(first.body).toEqual({ id: expect.any(Number), user_id: 4, view_diffs_file_by_file: true })
    expect(Object.keys(first.body)).toEqual(['id', 'user_id', 'view_diffs_file_by_file'])
    const again = await api.put('/user/preferences', { as: 'devon', body: { view_diffs_file_by_file: false } })
    expect(again.body).toEqual({ id: first.body.id, user_id: 4, view_diffs_file_by_file: false })
    expect((await api.put('/user/preferences', { as: 'nora', body: { view_diffs_file_by_file: 'true' } })).body.user_id).toBe(7)
  })

  it('requires view_diffs_file_by_file and a user', async () => {
    expect(await api.put('/user/preferences', { as: 'devon', body: {} })).toBeGitLabError(400, { error: 'view_diffs_file_by_file is missing' })
    expect(await api.put('/user/preferences', { as: 'devon', body: { view_diffs_file_by_file: 'maybe' } })).toBeGitLabError(400, { error: 'view_diffs_file_by_file is invalid' })
    expect(await api.put('/user/preferences', { body: { view_diffs_file_by_file: true } })).toBeGitLabError(401, { message: '401 Unauthorized' })
  })

  it('counts the open merge requests assigned to the caller', async () => {
    const mine = (userId: number) => sim().db.tables.merge_requests.all().filter((mr) => mr.state === 'opened' && mr.assignee_ids.includes(userId))
    const before = mine(7).length
    expect((await api.get('/user_counts', { as: 'nora' })).body).toEqual({ merge_requests: before })
    const open = sim().db.tables.merge_requests.all().find((mr) => mr.project_id === 20 && mr.state === 'opened')!
    expect((await api.put(`/projects/20/merge_requests/${open.iid}`, { as: 'max', body: { assignee_ids: [7] } })).status).toBe(200)
    const res = await api.get('/user_counts', { as: 'nora' })
    expect([res.status, res.body]).toEqual([200, { merge_requests: before + 1 }])
    expect((await api.put(`/projects/20/merge_requests/${open.iid}`, { as: 'max', body: { state_event: 'close' } })).status).toBe(200)
    expect((await api.get('/user_counts', { as: 'nora' })).body).toEqual({ merge_requests: before })
    expect(await api.get('/user_counts')).toBeGitLabError(401, { message: '401 Unauthorized' })
  })
})
