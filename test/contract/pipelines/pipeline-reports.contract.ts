/**
 * A pipeline's bridges and test report (GitLab 13.12 lib/api/ci/pipelines.rb): the bridges list
 * (`Ci::JobsFinder` with `type: ::Ci::Bridge`, paginated; fakelab makes no bridge) and
 * `TestReportEntity` of a pipeline without `junit` reports; their refusals in GitLab's order.
 * Default scenario: project 20 acme/website (public, public pipelines) with pipeline 1004; project
 * 21 acme/platform/api (private) with pipeline 1002; nora is no member of 21; project 20's
 * pipelines made private for the guest case.
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

const EMPTY_REPORT = { total_time: 0, total_count: 0, success_count: 0, failed_count: 0, skipped_count: 0, error_count: 0, test_suites: [] }

contract('/projects/:id/pipelines/:pipeline_id/{bridges,test_report}', {}, ({ api, sim }) => {
  it('answers the empty bridges page and the empty test report', async () => {
    const bridges = await api.get('/projects/20/pipelines/1004/bridges', { as: 'riley' })
    expect(bridges.status).toBe(200)
    expect(bridges.body).toEqual([])
    expect(bridges.headers.get('x-total')).toBe('0')
    expect(bridges.headers.get('x-page')).toBe('1')
    const report = await api.get('/projects/20/pipelines/1004/test_report')
    expect(report.status).toBe(200)
    expect(report.body).toEqual(EMPTY_REPORT)
    expect(Object.keys(report.body)).toEqual(Object.keys(EMPTY_REPORT))
    expect((await api.get('/projects/21/pipelines/1002/test_report', { as: 'devon' })).body).toEqual(EMPTY_REPORT)
  })

  it('answers GitLab\'s errors', async () => {
    expect(await api.get('/projects/21/pipelines/1002/bridges', { as: 'nora' })).toBeGitLabError(404, { message: '404 Project Not Found' })
    expect(await api.get('/projects/21/pipelines/1002/test_report')).toBeGitLabError(404, { message: '404 Project Not Found' })
    expect(await api.get('/projects/20/pipelines/999999/bridges', { as: 'riley' })).toBeGitLabError(404, { message: '404 Not found' })
    expect(await api.get('/projects/20/pipelines/999999/test_report', { as: 'riley' })).toBeGitLabError(404, { message: '404 Not found' })
    expect(await api.get('/projects/20/pipelines/1004/bridges', { as: 'riley', query: { scope: 'bogus' } })).toBeGitLabError(400, { error: 'scope does not have a valid value' })
    expect(await api.get('/projects/20/pipelines/1004/bridges', { as: 'riley', query: { scope: 'success,failed' } })).toBeGitLabError(400, { error: 'scope does not have a valid value' })
    // Without public pipelines a guest may not read builds: the bridges refuse before the pipeline, the report after it.
    sim().db.tables.project_ci_settings.insert({ id: 20, project_id: 20, public_builds: false })
    expect(await api.get('/projects/20/pipelines/999999/bridges', { as: 'gina' })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect(await api.get('/projects/20/pipelines/999999/test_report', { as: 'gina' })).toBeGitLabError(404, { message: '404 Not found' })
    expect(await api.get('/projects/20/pipelines/1004/test_report', { as: 'gina' })).toBeGitLabError(403, { message: '403 Forbidden' })
  })
})
