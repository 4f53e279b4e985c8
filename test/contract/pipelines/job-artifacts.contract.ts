/**
 * Job artifacts and logs: a job's archive attached by the control call (`POST /-/fakelab/jobs/run`)
 * or written in the scenario, downloaded as a zip by job id or as the latest successful job of a
 * name on a ref, one file of it, kept and deleted; the job entity's `artifacts_file`/`artifacts`.
 * Default scenario: acme/website (20) pipeline 1003 on main (success) with jobs 2005 compile and
 * 2006 rspec. Source: gitlab (13.12): lib/api/job_artifacts.rb, lib/api/entities/ci/job.rb;
 * python-gitlab tests/functional/cli/test_cli_artifacts.py.
 */
import { unzipSync } from 'fflate'
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

const TEXT = new TextDecoder()

contract('job artifacts', {}, ({ api }) => {
  async function attach(body: Record<string, unknown>) {
    return api.post('/-/fakelab/jobs/run', { body })
  }

  it('serves what the control call attached: the zip, one file, the job entity\'s fields', async () => {
    const run = await attach({ job: 2005, trace: 'built\n', artifacts: { 'artifact.txt': 'test\n', 'dist/app.js': 'app()' }, artifacts_expire_at: '2021-05-01T00:00:00Z' })
    expect(run.status).toBe(200)
    expect(run.body).toEqual({ id: 2005, status: 'success', pipeline_id: 1003, pipeline_status: 'success', artifacts: ['artifact.txt', 'dist/app.js'] })
    const zip = await api.get('/projects/20/jobs/2005/artifacts', { as: 'devon' })
    expect(zip.status).toBe(200)
    expect(zip.headers.get('content-type')).toBe('application/octet-stream')
    expect(zip.headers.get('content-disposition')).toBe('attachment; filename="artifacts.zip"; filename*=UTF-8\'\'artifacts.zip')
    const files = unzipSync(zip.bytes)
    expect(Object.keys(files)).toEqual(['artifact.txt', 'dist/app.js'])
    expect(TEXT.decode(files['artifact.txt'])).toBe('test\n')
    const one = await api.get('/projects/20/jobs/2005/artifacts/dist/app.js', { as: 'devon' })
    expect(one.text).toBe('app()')
    expect(one.headers.get('content-disposition')).toBe('attachment; filename="app.js"; filename*=UTF-8\'\'app.js')
    expect((await api.get('/projects/20/jobs/2005/trace', { as: 'devon' })).text).toBe('built\n')
    const job = (await api.get('/projects/20/jobs/2005', { as: 'devon' })).body
    expect(job.artifacts_file).toEqual({ filename: 'artifacts.zip', size: zip.bytes.length })
    expect(job.artifacts).toEqual([{ file_type: 'archive', size: zip.bytes.length, filename: 'artifacts.zip', file_format: 'zip' }])
    expect(job.artifacts_expire_at).toBe('2021-05-01T00:00:00.000Z')
    expect(Object.keys(job).slice(-5)).toEqual(['artifacts_file', 'artifacts', 'runner', 'artifacts_expire_at', 'tag_list'])
  })

  it('finds the latest successful job of a name on a ref', async () => {
    await attach({ job: 2005, artifacts: { 'artifact.txt': 'test\n' } })
    const zip = await api.get('/projects/20/jobs/artifacts/main/download', { as: 'devon', query: { job: 'compile' } })
    expect(zip.status).toBe(200)
    expect(Object.keys(unzipSync(zip.bytes))).toEqual(['artifact.txt'])
    expect((await api.get('/projects/20/jobs/artifacts/main/raw/artifact.txt', { as: 'devon', query: { job: 'compile' } })).text).toBe('test\n')
    // Public project, public pipelines: anonymous downloads too.
    expect((await api.get('/projects/20/jobs/artifacts/main/download', { query: { job: 'compile' } })).status).toBe(200)
    expect(await api.get('/projects/20/jobs/artifacts/main/download', { as: 'devon', query: { job: 'rspec' } })).toBeGitLabError(404, { message: '404 Not found' })
    expect(await api.get('/projects/20/jobs/artifacts/nope/download', { as: 'devon', query: { job: 'compile' } })).toBeGitLabError(404, { message: '404 Not found' })
    expect(await api.get('/projects/20/jobs/artifacts/main/download', { as: 'devon' })).toBeGitLabError(400, { error: 'job is missing' })
  })

  it('answers GitLab\'s 404 and 400 texts', async () => {
    expect(await api.get('/projects/20/jobs/2006/artifacts', { as: 'devon' })).toBeGitLabError(404, { message: '404 Not Found' })
    expect(await api.get('/projects/20/jobs/2006/artifacts/a.txt', { as: 'devon' })).toBeGitLabError(404, { message: '404 Not Found' })
    expect(await api.get('/projects/20/jobs/999999/artifacts', { as: 'devon' })).toBeGitLabError(404, { message: '404 Not found' })
    await attach({ job: 2005, artifacts: { 'a.txt': 'a' } })
    expect(await api.get('/projects/20/jobs/2005/artifacts/missing.txt', { as: 'devon' })).toBeGitLabError(404, { message: '404 Not Found' })
  })

  it('keeps and deletes artifacts', async () => {
    await attach({ job: 2005, artifacts: { 'a.txt': 'a' }, artifacts_expire_at: '2021-05-01T00:00:00Z' })
    expect(await api.post('/projects/20/jobs/2005/artifacts/keep')).toBeGitLabError(401, { message: '401 Unauthorized' })
    expect(await api.post('/projects/20/jobs/2005/artifacts/keep', { as: 'riley' })).toBeGitLabError(403, { message: '403 Forbidden' })
    // main is protected: its jobs are Maintainers' to update (`update_build` on the job).
    expect(await api.post('/projects/20/jobs/2005/artifacts/keep', { as: 'devon' })).toBeGitLabError(403, { message: '403 Forbidden' })
    const kept = await api.post('/projects/20/jobs/2005/artifacts/keep', { as: 'max' })
    expect(kept.status).toBe(200)
    expect(kept.body.artifacts_expire_at).toBeNull()
    expect(await api.post('/projects/20/jobs/2006/artifacts/keep', { as: 'max' })).toBeGitLabError(404, { message: '404 Not Found' })
    expect(await api.delete('/projects/20/jobs/2005/artifacts', { as: 'devon' })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect((await api.delete('/projects/20/jobs/2005/artifacts', { as: 'max' })).status).toBe(204)
    expect(await api.get('/projects/20/jobs/2005/artifacts', { as: 'devon' })).toBeGitLabError(404, { message: '404 Not Found' })
    expect((await api.get('/projects/20/jobs/2005', { as: 'devon' })).body).not.toHaveProperty('artifacts_file')
  })

  it('runs a job to its end and processes the pipeline; refuses bad control bodies', async () => {
    // Pipeline 1004 (feature/login) is pending; finishing its jobs is what a runner does.
    const failed = await attach({ job: 2002, status: 'failed', trace: 'boom\n' })
    expect(failed.body).toMatchObject({ id: 2002, status: 'failed', pipeline_id: 1001 })
    expect((await api.get('/projects/20/jobs/2002', { as: 'devon' })).body).toMatchObject({ status: 'failed', finished_at: '2021-04-01T12:00:00.000Z' })
    expect(await attach({ job: 999999 })).toBeGitLabError(404, { message: 'job 999999 not found' })
    expect(await attach({ job: 2005, status: 'done' })).toBeGitLabError(400, { message: 'status must be running, success, failed or canceled' })
    expect(await attach({ job: 2005, artifacts: ['a'] })).toBeGitLabError(400, { message: 'artifacts must map file paths to text' })
  })
})

const SCENARIO = `
version: 1
users: [{ username: u, tokens: [{ token: glpat-u-fakelab, name: t, scopes: [api] }] }]
projects:
  - path: p
    namespace: u
    pipelines:
      - id: 7
        ref: main
        status: success
        jobs:
          - { id: 70, name: build, status: success, artifacts: { "out/report.txt": "42\\n" }, artifacts_expire_at: 2021-06-01T00:00:00Z }
`

contract('job artifacts from the scenario', { scenario: SCENARIO }, ({ api }) => {
  it('serves a scenario job\'s artifacts', async () => {
    const zip = await api.get('/projects/u%2Fp/jobs/70/artifacts', { token: 'glpat-u-fakelab' })
    expect(TEXT.decode(unzipSync(zip.bytes)['out/report.txt'])).toBe('42\n')
    expect((await api.get('/projects/u%2Fp/jobs/artifacts/main/raw/out/report.txt', { token: 'glpat-u-fakelab', query: { job: 'build' } })).text).toBe('42\n')
    expect((await api.get('/projects/u%2Fp/jobs/70', { token: 'glpat-u-fakelab' })).body.artifacts_expire_at).toBe('2021-06-01T00:00:00.000Z')
  })
})
