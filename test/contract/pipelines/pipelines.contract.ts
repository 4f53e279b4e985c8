/**
 * Pipelines and jobs read and driven from outside (issue 25 item 3), over both doors.
 * Source: gitlab (13.x): lib/api/ci/pipelines.rb, lib/api/jobs.rb, app/finders/ci/pipelines_finder.rb,
 * app/finders/ci/jobs_finder.rb, app/policies/project_policy.rb, ci/pipeline_policy.rb,
 * ci/build_policy.rb, lib/gitlab/ci/pipeline/chain/validate/{abilities,repository}.rb,
 * chain/config/content.rb, lib/gitlab/ci/status/composite.rb.
 *
 * Default scenario (clock frozen at 2021-04-01T12:00:00Z), project 20 acme/website (public):
 * pipelines 1000 failed (main; runner jobs 2000 rspec success, 2001 rubocop failed allowed),
 * 1001 running (main; 2002 running, 2003 canceled, 2004 success), 1003 success (main's tip
 * fd7d40d2; 2005, 2006), 1004 pending (feature/login, devon, variables; 2007 pending, 2008 created),
 * 1005 canceled (feature/login; 2009 canceled with a log, 2010 skipped), 1006 skipped
 * (fix/footer-links; 2011), 1007 manual (feature/login; 2012 success, 2013 manual). Its CI
 * definition: compile (build), rspec and lint (test, lint allowed to fail), deploy-production
 * (deploy, manual), notify-failure (deploy, on_failure). main is protected (Maintainers push).
 * gina guest, riley reporter, devon developer, max maintainer, olive owner of acme; nora none.
 */
import { describe, expect, it } from 'vitest'
import { contract, type ApiResponse } from '../../support/contract.js'

const NOW = '2021-04-01T12:00:00.000Z'
const FORBIDDEN = { message: '403 Forbidden' }
const NOT_FOUND = { message: '404 Not found' }
const UNAUTHORIZED = { message: '401 Unauthorized' }
const MAIN_TIP = 'fd7d40d21b67d3419c468f3cd80559f888c6ff31'

const ids = (res: ApiResponse): number[] => (res.body as { id: number }[]).map((r) => r.id)
const statuses = (res: ApiResponse): Record<number, string> =>
  Object.fromEntries((res.body as { id: number; status: string }[]).map((r) => [r.id, r.status]))

contract('GET /projects/:id/pipelines', {}, ({ api }) => {
  it.each([
    [{}, [1007, 1006, 1005, 1004, 1003, 1001, 1000]],
    [{ scope: 'running' }, [1001]],
    [{ scope: 'pending' }, [1004]],
    [{ scope: 'finished' }, [1006, 1005, 1003, 1000]],
    [{ scope: 'branches' }, [1007, 1006, 1003]],
    [{ scope: 'tags' }, []],
    [{ status: 'manual' }, [1007]],
    [{ status: 'skipped' }, [1006]],
    [{ ref: 'feature/login' }, [1007, 1005, 1004]],
    [{ sha: MAIN_TIP }, [1003]],
    [{ username: 'max' }, [1006, 1003, 1001]],
    [{ username: 'nobody' }, []],
    [{ name: 'Devon Developer' }, [1007, 1005, 1004, 1000]],
    [{ yaml_errors: true }, []],
    [{ yaml_errors: false }, [1007, 1006, 1005, 1004, 1003, 1001, 1000]],
    [{ updated_after: '2021-03-30T00:00:00Z' }, [1007, 1005, 1004]],
    [{ updated_before: '2021-03-05T00:00:00Z', order_by: 'id', sort: 'asc' }, [1006]],
    [{ order_by: 'ref', sort: 'asc' }, [1004, 1005, 1007, 1006, 1000, 1001, 1003]],
    [{ order_by: 'status', sort: 'asc' }, [1005, 1000, 1007, 1004, 1001, 1006, 1003]],
    [{ order_by: 'user_id', sort: 'desc' }, [1006, 1003, 1001, 1007, 1005, 1004, 1000]],
  ] as const)('with %j lists %j', async (query, expected) => {
    const res = await api.get('/projects/20/pipelines', { as: 'riley', query: query as Record<string, string> })
    expect(res.status).toBe(200)
    expect(ids(res)).toEqual(expected)
  })

  it('presents PipelineBasic, paginated, to anonymous callers of a public project', async () => {
    const res = await api.get('/projects/20/pipelines', { query: { per_page: 1, status: 'pending' } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual([
      { id: 1004, project_id: 20, sha: '6b7c8d9e0f11223344556677889900aabbccddee', ref: 'feature/login', status: 'pending', created_at: '2021-04-01T11:40:00.000Z', updated_at: '2021-04-01T11:40:00.000Z', web_url: `${api.baseUrl}/acme/website/-/pipelines/1004` },
    ])
    expect(res.headers.get('x-total')).toBe('1')
  })

  it.each([
    [{ scope: 'all' }, 'scope does not have a valid value'],
    [{ status: 'done' }, 'status does not have a valid value'],
    [{ order_by: 'sha' }, 'order_by does not have a valid value'],
    [{ updated_after: 'yesterday' }, 'updated_after is invalid'],
  ] as const)('refuses %j: 400 %s', async (query, error) => {
    const res = await api.get('/projects/20/pipelines', { as: 'riley', query })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error })
  })

  it('hides a private project (404) and refuses a guest pipelines that are not public (403)', async () => {
    expect((await api.get('/projects/21/pipelines', { as: 'nora' })).body).toEqual({ message: '404 Project Not Found' })
    const res = await api.get('/projects/21/pipelines', { as: 'devon' })
    expect(ids(res)).toEqual([1002])
  })
})

contract('public_builds: false', { scenario: publicBuildsOff() }, ({ api }) => {
  it('keeps pipelines and jobs from guests and non-members, not from reporters', async () => {
    expect((await api.get('/projects/1/pipelines', { as: 'gina' })).status).toBe(403)
    expect((await api.get('/projects/1/pipelines')).status).toBe(403)
    expect((await api.get('/projects/1/pipelines/1', { as: 'gina' })).body).toEqual(FORBIDDEN)
    expect((await api.get('/projects/1/jobs/1', { as: 'gina' })).body).toEqual(FORBIDDEN)
    // The pipeline's jobs: `read_pipeline` of a public project holds, `read_build` not: an empty list.
    const jobs = await api.get('/projects/1/pipelines/1/jobs', { as: 'gina' })
    expect(jobs.status).toBe(200)
    expect(jobs.body).toEqual([])
    expect(ids(await api.get('/projects/1/pipelines', { as: 'riley' }))).toEqual([1])
  })
})

/** A public project whose pipelines are not public, with gina as guest and riley as reporter. */
function publicBuildsOff(): string {
  return `
version: 1
now: "${NOW}"
users:
  - { id: 1, username: gina, name: Gina Guest, email: gina@example.com, tokens: [{ token: glpat-gina-fakelab, name: t, scopes: [api] }] }
  - { id: 2, username: riley, name: Riley Reporter, email: riley@example.com, tokens: [{ token: glpat-riley-fakelab, name: t, scopes: [api] }] }
projects:
  - id: 1
    path: site
    namespace: riley
    name: Site
    visibility: public
    public_builds: false
    members: [{ user: gina, access_level: guest }]
    pipelines:
      - { id: 1, ref: main, status: success, jobs: [{ id: 1, name: build, status: success }] }
`
}

contract('GET /projects/:id/pipelines/:pipeline_id', {}, ({ api }) => {
  it('presents the Pipeline entity', async () => {
    const res = await api.get('/projects/20/pipelines/1003', { as: 'riley' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      id: 1003,
      project_id: 20,
      sha: MAIN_TIP,
      ref: 'main',
      status: 'success',
      created_at: '2021-03-21T10:00:00.000Z',
      updated_at: '2021-03-21T10:04:20.000Z',
      web_url: `${api.baseUrl}/acme/website/-/pipelines/1003`,
      before_sha: 'bc43e0151d3ea81bc189cfd43b782e44718fcb6a',
      tag: false,
      yaml_errors: null,
      user: { id: 5, name: 'Max Maintainer', username: 'max', state: 'active', avatar_url: null, web_url: `${api.baseUrl}/max` },
      started_at: '2021-03-21T10:00:10.000Z',
      finished_at: '2021-03-21T10:04:20.000Z',
      committed_at: null,
      duration: 250,
      coverage: '92.50',
      detailed_status: {
        icon: 'status_success', text: 'passed', label: 'passed', group: 'success', tooltip: 'passed', has_details: true,
        details_path: '/acme/website/-/pipelines/1003', illustration: null, favicon: '/assets/ci_favicons/favicon_status_success.png',
      },
    })
  })

  it.each([
    ['/projects/20/pipelines/1002', 'riley', 404, NOT_FOUND],
    ['/projects/20/pipelines/999', 'riley', 404, NOT_FOUND],
    ['/projects/20/pipelines/abc', 'riley', 400, { error: 'pipeline_id is invalid' }],
    ['/projects/21/pipelines/1002', 'nora', 404, { message: '404 Project Not Found' }],
  ] as const)('%s as %s: %i', async (path, as, status, body) => {
    const res = await api.get(path, { as })
    expect(res.status).toBe(status)
    expect(res.body).toEqual(body)
  })

  it('GET …/pipelines/latest is the newest pipeline of the ref\'s current commit (default branch), else 403', async () => {
    expect((await api.get('/projects/20/pipelines/latest')).body.id).toBe(1003)
    expect((await api.get('/projects/20/pipelines/latest', { query: { ref: 'main' } })).body.id).toBe(1003)
    const none = await api.get('/projects/20/pipelines/latest', { as: 'max', query: { ref: 'feature/login' } })
    expect(none.status).toBe(403)
    expect(none.body).toEqual(FORBIDDEN)
  })
})

contract('GET /projects/:id/pipelines/:pipeline_id/jobs and variables', {}, ({ api }) => {
  it.each([
    ['/projects/20/pipelines/1004/jobs', {}, [2008, 2007]],
    ['/projects/20/pipelines/1000/jobs', {}, [2001, 2000]],
    ['/projects/20/pipelines/1001/jobs', { scope: 'running' }, [2002]],
    ['/projects/20/pipelines/1001/jobs', { 'scope[]': ['success', 'canceled'] }, [2004, 2003]],
  ] as const)('%s with %j lists %j', async (path, query, expected) => {
    const res = await api.get(path, { as: 'riley', query: query as Record<string, string> })
    expect(res.status).toBe(200)
    expect(ids(res)).toEqual(expected)
  })

  it.each([
    ['/projects/20/pipelines/1001/jobs', 'done'],
    ['/projects/20/pipelines/1001/jobs', 'success,canceled'],
    ['/projects/20/jobs', 'running,success'],
  ])('%s refuses scope=%s (one string is one value)', async (path, scope) => {
    const res = await api.get(path, { as: 'riley', query: { scope } })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: 'scope does not have a valid value' })
  })

  it.each([
    ['devon', 200],
    ['max', 200],
    ['riley', 403],
    ['nora', 403],
  ] as const)('variables as %s: %i (Maintainer+, or who started it and may update it)', async (as, status) => {
    const res = await api.get('/projects/20/pipelines/1004/variables', { as })
    expect(res.status).toBe(status)
    expect(res.body).toEqual(status === 200 ? [
      { variable_type: 'env_var', key: 'DEPLOY_ENV', value: 'review' },
      { variable_type: 'env_var', key: 'FEATURE_FLAGS', value: 'login-v2' },
    ] : FORBIDDEN)
  })
})

contract('POST /projects/:id/pipeline', {}, ({ api }) => {
  it('creates a pipeline from the CI definition: the first stage pending, the rest created', async () => {
    const res = await api.post('/projects/20/pipeline', { as: 'devon', body: { ref: 'feature/login', variables: [{ key: 'DEPLOY_ENV', value: 'staging' }, { key: 'CERT', value: 'x', variable_type: 'file' }] } })
    expect(res.status).toBe(201)
    const id = res.body.id as number
    expect(res.body).toMatchObject({ ref: 'feature/login', status: 'pending', tag: false, before_sha: '0000000000000000000000000000000000000000', created_at: NOW, updated_at: NOW, started_at: null, finished_at: null, user: { username: 'devon' } })
    const jobs = await api.get(`/projects/20/pipelines/${id}/jobs`, { as: 'devon' })
    expect((jobs.body as { name: string; status: string; stage: string; allow_failure: boolean }[]).map((j) => [j.name, j.stage, j.status, j.allow_failure])).toEqual([
      ['notify-failure', 'deploy', 'created', false],
      ['deploy-production', 'deploy', 'created', true],
      ['lint', 'test', 'created', true],
      ['rspec', 'test', 'created', false],
      ['compile', 'build', 'pending', false],
    ])
    expect((await api.get(`/projects/20/pipelines/${id}/variables`, { as: 'devon' })).body).toEqual([
      { variable_type: 'env_var', key: 'DEPLOY_ENV', value: 'staging' },
      { variable_type: 'file', key: 'CERT', value: 'x' },
    ])
    // The commit is the branch's tip.
    const branch = await api.get('/projects/20/repository/branches/feature%2Flogin', { as: 'devon' })
    expect(res.body.sha).toBe(branch.body.commit.id)
  })

  it.each([
    ['devon', { ref: 'main' }, "Insufficient permissions for protected ref 'main'"],
    ['max', { ref: 'nope' }, 'Reference not found'],
    ['max', { ref: 'refs/tags/main' }, 'Reference not found'],
    ['max', { ref: 'main', variables: [{ key: 'BAD-KEY', value: '1' }] }, "Failed to persist the pipeline: Validation failed: Variables key can contain only letters, digits and '_'."],
  ] as const)('as %s with %j: 400 %s', async (as, body, message) => {
    const res = await api.post('/projects/20/pipeline', { as, body })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ message: { base: [message] } })
  })

  it('needs a CI definition (400 Missing CI config file), a ref (400), Developer+ (403), a user (401)', async () => {
    const tracker = await api.post('/projects/30/pipeline', { as: 'max', body: { ref: 'main' } })
    expect(tracker.status).toBe(400)
    expect(tracker.body).toEqual({ message: { base: ['Missing CI config file'] } })
    expect((await api.post('/projects/20/pipeline', { as: 'max', body: {} })).body).toEqual({ error: 'ref is missing' })
    expect((await api.post('/projects/20/pipeline', { as: 'riley', body: { ref: 'main' } })).body).toEqual(FORBIDDEN)
    expect((await api.post('/projects/20/pipeline', { body: { ref: 'main' } })).body).toEqual(UNAUTHORIZED)
  })

  it('a Maintainer creates on the protected default branch', async () => {
    const res = await api.post('/projects/20/pipeline', { as: 'max', body: { ref: 'main' } })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ ref: 'main', sha: MAIN_TIP, status: 'pending' })
    // It is now main's newest pipeline for its tip.
    expect((await api.get('/projects/20/pipelines/latest')).body.id).toBe(res.body.id)
  })
})

contract('pipeline retry, cancel and delete', {}, ({ api }) => {
  it('cancel cancels created, pending and running jobs (200), retry reruns failed and canceled ones (201)', async () => {
    const canceled = await api.post('/projects/20/pipelines/1004/cancel', { as: 'devon' })
    expect(canceled.status).toBe(200)
    expect(canceled.body).toMatchObject({ id: 1004, status: 'canceled', updated_at: NOW, finished_at: NOW })
    expect(statuses(await api.get('/projects/20/pipelines/1004/jobs', { as: 'devon' }))).toEqual({ 2007: 'canceled', 2008: 'canceled' })

    const retried = await api.post('/projects/20/pipelines/1004/retry', { as: 'devon' })
    expect(retried.status).toBe(201)
    expect(retried.body).toMatchObject({ id: 1004, status: 'pending' })
    const latest = await api.get('/projects/20/pipelines/1004/jobs', { as: 'devon' })
    expect((latest.body as { name: string; status: string }[]).map((j) => [j.name, j.status])).toEqual([['rspec', 'created'], ['compile', 'pending']])
    const all = await api.get('/projects/20/pipelines/1004/jobs', { as: 'devon', query: { include_retried: true } })
    expect(ids(all).slice(2)).toEqual([2008, 2007])
  })

  it('retry turns skipped jobs back to created and runs what follows a success', async () => {
    const res = await api.post('/projects/20/pipelines/1005/retry', { as: 'devon' })
    expect(res.body.status).toBe('pending')
    const jobs = await api.get('/projects/20/pipelines/1005/jobs', { as: 'devon' })
    expect((jobs.body as { name: string; status: string }[]).map((j) => [j.name, j.status])).toEqual([['compile', 'pending'], ['rspec', 'created']])
  })

  it.each([
    ['POST', '/projects/20/pipelines/1001/cancel', 'devon', 403],
    ['POST', '/projects/20/pipelines/1000/retry', 'devon', 403],
    ['POST', '/projects/20/pipelines/1000/retry', 'riley', 403],
    ['POST', '/projects/20/pipelines/1000/retry', 'max', 201],
    ['POST', '/projects/20/pipelines/999/retry', 'max', 404],
    ['DELETE', '/projects/20/pipelines/1000', 'max', 403],
    ['DELETE', '/projects/20/pipelines/999', 'olive', 404],
  ] as const)('%s %s as %s: %i', async (method, path, as, status) => {
    expect((await api.request(method, path, { as })).status).toBe(status)
  })

  it('delete (Owner) removes the pipeline and its jobs', async () => {
    expect((await api.delete('/projects/20/pipelines/1005', { as: 'olive' })).status).toBe(204)
    expect((await api.get('/projects/20/pipelines/1005', { as: 'olive' })).body).toEqual(NOT_FOUND)
    expect((await api.get('/projects/20/jobs/2009', { as: 'olive' })).body).toEqual(NOT_FOUND)
  })
})

describe('jobs', () => {
  contract('GET /projects/:id/jobs', {}, ({ api }) => {
    it.each([
      [{}, [2013, 2012, 2011, 2010, 2009, 2008, 2007, 2006, 2005, 2004, 2003, 2002, 2001, 2000]],
      [{ scope: 'manual' }, [2013]],
      [{ 'scope[]': ['pending', 'created'] }, [2008, 2007]],
    ] as const)('with %j lists %j', async (query, expected) => {
      const res = await api.get('/projects/20/jobs', { as: 'riley', query: query as Record<string, string> })
      expect(res.status).toBe(200)
      expect(ids(res)).toEqual(expected)
    })

    it('needs a signed-in user, public project or not, who can read the project', async () => {
      expect((await api.get('/projects/20/jobs')).body).toEqual(UNAUTHORIZED)
      expect((await api.get('/projects/21/jobs', { as: 'nora' })).body).toEqual({ message: '404 Project Not Found' })
      // Public pipelines (the default): a guest reads a private project's jobs.
      expect(ids(await api.get('/projects/21/jobs', { as: 'gina' }))).toEqual([])
    })

    it('presents the Job entity', async () => {
      const res = await api.get('/projects/20/jobs/2006', { as: 'riley' })
      expect(res.status).toBe(200)
      const { user, ...rest } = res.body
      expect(user).toMatchObject({ id: 5, username: 'max' })
      expect(rest).toEqual({
        id: 2006, status: 'success', stage: 'test', name: 'rspec', ref: 'main', tag: false, coverage: 92.5, allow_failure: false,
        created_at: '2021-03-21T10:00:00.000Z', started_at: '2021-03-21T10:01:20.000Z', finished_at: '2021-03-21T10:04:20.000Z', duration: 180,
        commit: {
          id: MAIN_TIP, short_id: 'fd7d40d2', created_at: '2021-03-21T10:00:00.000Z', parent_ids: ['bc43e0151d3ea81bc189cfd43b782e44718fcb6a'],
          title: 'Release 1.0', message: 'Release 1.0\n', author_name: 'Max Maintainer', author_email: 'max@example.com',
          authored_date: '2021-03-21T10:00:00.000Z', committer_name: 'Max Maintainer', committer_email: 'max@example.com',
          committed_date: '2021-03-21T10:00:00.000Z', trailers: {}, web_url: `${api.baseUrl}/acme/website/-/commit/${MAIN_TIP}`,
        },
        pipeline: { id: 1003, project_id: 20, sha: MAIN_TIP, ref: 'main', status: 'success', created_at: '2021-03-21T10:00:00.000Z', updated_at: '2021-03-21T10:04:20.000Z', web_url: `${api.baseUrl}/acme/website/-/pipelines/1003` },
        web_url: `${api.baseUrl}/acme/website/-/jobs/2006`,
        artifacts: [], runner: null, artifacts_expire_at: null, tag_list: [],
      })
    })

    it('GET …/trace answers the log as text/plain', async () => {
      const res = await api.get('/projects/20/jobs/2006/trace', { as: 'riley' })
      expect(res.status).toBe(200)
      expect(res.text).toBe('$ bundle exec rspec\n120 examples, 0 failures\n')
      expect(res.headers.get('content-type')).toBe('text/plain')
      expect(res.headers.get('content-disposition')).toBe('infile; filename="2006.log"')
      expect((await api.get('/projects/20/jobs/2007/trace', { as: 'riley' })).text).toBe('')
      expect((await api.get('/projects/20/jobs/1/trace', { as: 'riley' })).body).toEqual(NOT_FOUND)
    })
  })

  contract('job actions', {}, ({ api }) => {
    it('play enqueues a manual job (200) and the pipeline runs', async () => {
      const res = await api.post('/projects/20/jobs/2013/play', { as: 'devon' })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ id: 2013, status: 'pending', user: { username: 'devon' } })
      expect((await api.get('/projects/20/pipelines/1007', { as: 'devon' })).body.status).toBe('running')
    })

    it.each([
      ['/projects/20/jobs/2007/play', 'devon', 400, { message: '400 Bad request - Unplayable Job' }],
      ['/projects/20/jobs/2013/play', 'riley', 403, FORBIDDEN],
      ['/projects/20/jobs/2002/retry', 'max', 403, { message: '403 Forbidden - Job is not retryable' }],
      ['/projects/20/jobs/2001/retry', 'devon', 403, FORBIDDEN],
      ['/projects/20/jobs/2007/erase', 'devon', 403, { message: '403 Forbidden - Job is not erasable!' }],
      ['/projects/20/jobs/2012/erase', 'max', 201, undefined],
      ['/projects/20/jobs/2000/erase', 'devon', 403, FORBIDDEN],
      ['/projects/20/jobs/2002/cancel', 'devon', 403, FORBIDDEN],
      ['/projects/20/jobs/2002/cancel', 'riley', 403, FORBIDDEN],
      ['/projects/20/jobs/1/cancel', 'max', 404, NOT_FOUND],
    ] as const)('POST %s as %s: %i', async (path, as, status, body) => {
      const res = await api.post(path, { as })
      expect(res.status).toBe(status)
      if (body) expect(res.body).toEqual(body)
    })

    it('cancel (201) ends a running job and the pipeline; retry (201) makes a pending copy', async () => {
      const canceled = await api.post('/projects/20/jobs/2002/cancel', { as: 'max' })
      expect(canceled.status).toBe(201)
      expect(canceled.body).toMatchObject({ id: 2002, status: 'canceled', finished_at: NOW, duration: 600 })
      expect((await api.get('/projects/20/pipelines/1001', { as: 'max' })).body.status).toBe('canceled')

      const retried = await api.post('/projects/20/jobs/2002/retry', { as: 'max' })
      expect(retried.status).toBe(201)
      expect(retried.body).toMatchObject({ name: 'deploy-review', stage: 'deploy', status: 'pending', created_at: NOW, started_at: null, user: { username: 'max' } })
      expect(retried.body.id).toBeGreaterThan(2013)
      expect((await api.get('/projects/20/pipelines/1001', { as: 'max' })).body.status).toBe('running')
      // The old job is retried: no longer retryable, and only listed with include_retried.
      expect((await api.post('/projects/20/jobs/2002/retry', { as: 'max' })).body).toEqual({ message: '403 Forbidden - Job is not retryable' })
      expect(ids(await api.get('/projects/20/pipelines/1001/jobs', { as: 'max' }))).not.toContain(2002)
    })

    it('erase removes the log of a finished job its developer ran (201)', async () => {
      const res = await api.post('/projects/20/jobs/2009/erase', { as: 'devon' })
      expect(res.status).toBe(201)
      expect((await api.get('/projects/20/jobs/2009/trace', { as: 'devon' })).text).toBe('')
      expect((await api.post('/projects/20/jobs/2009/erase', { as: 'devon' })).body).toEqual({ message: '403 Forbidden - Job is not erasable!' })
    })

    it('play of a finished manual job retries it', async () => {
      await api.post('/projects/20/jobs/2013/play', { as: 'devon' })
      await api.post('/projects/20/jobs/2013/cancel', { as: 'devon' })
      const res = await api.post('/projects/20/jobs/2013/play', { as: 'devon' })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ id: 2013, status: 'canceled' })
      const jobs = await api.get('/projects/20/pipelines/1007/jobs', { as: 'devon' })
      expect((jobs.body as { name: string; status: string }[]).map((j) => [j.name, j.status])).toEqual([['deploy-review', 'pending'], ['compile', 'success']])
    })
  })
})
