/**
 * Issue 38 item 8, the recipe of docs/testing.md "Make a pipeline succeed or fail", on the default
 * scenario over both doors: a CI system's external statuses on the merge request's head commit make
 * its head pipeline; `merge_when_pipeline_succeeds` waits for it; `success` merges, `failed` leaves
 * the merge request open and still set. Source: gitlab (13.12): lib/api/commit_statuses.rb,
 * app/services/auto_merge/merge_when_pipeline_succeeds_service.rb.
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

contract('making a pipeline succeed or fail (the docs/testing.md recipe)', {}, ({ api }) => {
  const status = (sha: string, state: string) => api.post(`/projects/20/statuses/${sha}`, { as: 'max', body: { state, name: 'ci/build', ref: 'feature/login' } })

  it('succeeds: merge when the pipeline succeeds, then a success status merges', async () => {
    const { sha } = (await api.get('/projects/20/merge_requests/1', { as: 'max' })).body
    expect((await status(sha, 'running')).body).toMatchObject({ status: 'running', name: 'ci/build', sha })
    const set = await api.put('/projects/20/merge_requests/1/merge', { as: 'max', body: { merge_when_pipeline_succeeds: true } })
    expect([set.status, set.body.state, set.body.merge_when_pipeline_succeeds, set.body.head_pipeline.status]).toEqual([200, 'opened', true, 'running'])
    expect((await status(sha, 'success')).status).toBe(201)
    const merged = (await api.get('/projects/20/merge_requests/1', { as: 'max' })).body
    expect([merged.state, merged.merged_by.username, merged.head_pipeline.status]).toEqual(['merged', 'max', 'success'])
  })

  it('fails: a failed status leaves the merge request open and still set to merge', async () => {
    const { sha } = (await api.get('/projects/20/merge_requests/1', { as: 'max' })).body
    await status(sha, 'running')
    await api.put('/projects/20/merge_requests/1/merge', { as: 'max', body: { merge_when_pipeline_succeeds: true } })
    expect((await status(sha, 'failed')).body.status).toBe('failed')
    const open = (await api.get('/projects/20/merge_requests/1', { as: 'max' })).body
    expect([open.state, open.merge_when_pipeline_succeeds, open.head_pipeline.status]).toEqual(['opened', true, 'failed'])
    const [pipeline] = (await api.get('/projects/20/pipelines', { as: 'max', query: { sha } })).body
    expect([pipeline.status, pipeline.ref]).toEqual(['failed', 'feature/login'])
  })
})
