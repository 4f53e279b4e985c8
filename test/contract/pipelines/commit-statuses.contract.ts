/**
 * Commit statuses (issue 26 item 2), over both doors: a commit's statuses listed, statuses posted
 * by an outside system (the CommitStatus state machine, the newest pipeline of the commit or a new
 * `external` one, the ref a status takes), their effect on the pipeline's status, what the jobs API
 * keeps hiding, and a commit's `status` and `last_pipeline`.
 * Source: gitlab (13.x): lib/api/commit_statuses.rb, lib/api/entities/commit_status.rb,
 * app/models/commit_status.rb, app/models/generic_commit_status.rb,
 * app/services/ci/process_pipeline_service.rb, app/validators/addressable_url_validator.rb,
 * lib/gitlab/url_blocker.rb, lib/api/entities/commit_detail.rb; spec/requests/api/commit_statuses_spec.rb.
 *
 * Default scenario (clock frozen at 2021-04-01T12:00:00Z), project 20 acme/website (public): main
 * (protected: Maintainers) at fd7d40d2 "Release 1.0", whose pipeline 1003 succeeded (builds 2005
 * compile, stage build, and 2006 rspec, stage test, coverage 92.5, both max's); feature/login at
 * 69feb7e8 (no pipeline), which holds main's merge commit bc43e015 but not main's tip; fix/footer-links
 * at 8b730db7, merged into main. The next job id is 2014, the next pipeline id 1008. Project 21
 * (private) has an empty repository. gina guest, riley reporter, devon developer, max maintainer,
 * olive owner of acme; nora none.
 */
import { describe, expect, it } from 'vitest'
import { contract, type ApiResponse } from '../../support/contract.js'

const NOW = '2021-04-01T12:00:00.000Z'
const MAIN_TIP = 'fd7d40d21b67d3419c468f3cd80559f888c6ff31'
const LOGIN_TIP = '69feb7e89cc3965598b7884388b8f943deee5e03'
const MERGE = 'bc43e0151d3ea81bc189cfd43b782e44718fcb6a'
const FORBIDDEN = { message: '403 Forbidden' }
const COMMIT_NOT_FOUND = { message: '404 Commit Not Found' }

const ids = (res: ApiResponse): number[] => (res.body as { id: number }[]).map((r) => r.id)
const transitionError = (event: string, from: string) => ({ message: `Cannot transition status via :${event} from :${from} (Reason(s): Status cannot transition via "${event}")` })

contract('GET /projects/:id/repository/commits/:sha/statuses', {}, ({ api }) => {
  it('presents the CommitStatus entity of each status of the commit, builds included, in id order', async () => {
    const res = await api.get(`/projects/20/repository/commits/${MAIN_TIP}/statuses`, { as: 'riley' })
    expect(res.status).toBe(200)
    expect(res.headers.get('x-total')).toBe('2')
    const max = { id: 5, name: 'Max Maintainer', username: 'max', state: 'active', avatar_url: null, web_url: `${api.baseUrl}/max` }
    expect(res.body).toEqual([
      { id: 2005, sha: MAIN_TIP, ref: 'main', status: 'success', name: 'compile', target_url: null, description: null, created_at: '2021-03-21T10:00:00.000Z', started_at: '2021-03-21T10:00:10.000Z', finished_at: '2021-03-21T10:01:10.000Z', allow_failure: false, coverage: null, author: max },
      { id: 2006, sha: MAIN_TIP, ref: 'main', status: 'success', name: 'rspec', target_url: null, description: null, created_at: '2021-03-21T10:00:00.000Z', started_at: '2021-03-21T10:01:20.000Z', finished_at: '2021-03-21T10:04:20.000Z', allow_failure: false, coverage: 92.5, author: max },
    ])
    expect(Object.keys(res.body[0])).toEqual(['id', 'sha', 'ref', 'status', 'name', 'target_url', 'description', 'created_at', 'started_at', 'finished_at', 'allow_failure', 'coverage', 'author'])
  })

  it.each([
    [{ name: 'rspec' }, [2006]],
    [{ stage: 'build' }, [2005]],
    [{ ref: 'main' }, [2005, 2006]],
    [{ ref: 'feature/login' }, []],
    [{ name: '', stage: '', ref: '' }, [2005, 2006]],
    [{ all: 'true' }, [2005, 2006]],
    [{ per_page: 1, page: 2 }, [2006]],
  ] as const)('with %j lists %j', async (query, expected) => {
    const res = await api.get(`/projects/20/repository/commits/${MAIN_TIP}/statuses`, { as: 'riley', query })
    expect(res.status).toBe(200)
    expect(ids(res)).toEqual(expected)
  })

  it.each([
    // The commit must exist, but pipelines are matched on the sha exactly as given.
    ['main', 200, []],
    ['fd7d40d2', 200, []],
    [LOGIN_TIP, 200, []],
    ['0000000000000000000000000000000000000000', 404, COMMIT_NOT_FOUND],
    ['no-such-ref', 404, COMMIT_NOT_FOUND],
  ] as const)('for %s answers %i %j', async (sha, status, body) => {
    const res = await api.get(`/projects/20/repository/commits/${sha}/statuses`, { as: 'riley' })
    expect([res.status, res.body]).toEqual([status, body])
  })

  it.each([
    ['anonymous, public project', '/projects/20', undefined, 401, { message: '401 Unauthorized' }],
    ['a non-member, public project', '/projects/20', 'nora', 200, 'JSON'],
    ['a guest of a private project (no download_code)', '/projects/21', 'gina', 403, FORBIDDEN],
    ['a reporter of a private project with an empty repository', '/projects/21', 'riley', 404, COMMIT_NOT_FOUND],
    ['a non-member of a private project', '/projects/21', 'nora', 404, { message: '404 Project Not Found' }],
  ] as const)('as %s: %s', async (_who, project, as, status, body) => {
    const res = await api.get(`${project}/repository/commits/${MAIN_TIP}/statuses`, as ? { as } : {})
    expect([res.status, status === 200 ? 'JSON' : res.body]).toEqual([status, body])
  })
})

contract('POST /projects/:id/statuses/:sha', {}, ({ api, sim }) => {
  const post = (sha: string, body: Record<string, unknown>, as = 'max') => api.post(`/projects/20/statuses/${sha}`, { as, body })

  it('adds a generic status to the newest pipeline of the commit, its ref the pipeline\'s, and recomposes the pipeline', async () => {
    const res = await post(MAIN_TIP, { state: 'pending' })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      id: 2014, sha: MAIN_TIP, ref: 'main', status: 'pending', name: 'default', target_url: null, description: null,
      created_at: NOW, started_at: null, finished_at: null, allow_failure: false, coverage: null,
      author: { id: 5, name: 'Max Maintainer', username: 'max', state: 'active', avatar_url: null, web_url: `${api.baseUrl}/max` },
    })
    const pipeline = await api.get('/projects/20/pipelines/1003', { as: 'riley' })
    expect(pipeline.body).toMatchObject({ status: 'running', updated_at: NOW })
    // The jobs API shows builds only; the statuses API shows both.
    expect(ids(await api.get('/projects/20/pipelines/1003/jobs', { as: 'riley' }))).toEqual([2006, 2005])
    expect(ids(await api.get('/projects/20/jobs', { as: 'riley', query: { per_page: 1 } }))).toEqual([2013])
    expect((await api.get('/projects/20/jobs/2014', { as: 'riley' })).body).toEqual({ message: '404 Not found' })
    expect((await api.post('/projects/20/jobs/2014/cancel', { as: 'max' })).body).toEqual({ message: '404 Not found' })
    expect(ids(await api.get(`/projects/20/repository/commits/${MAIN_TIP}/statuses`, { as: 'riley' }))).toEqual([2005, 2006, 2014])
    expect(sim().db.tables.jobs.get(2014)).toMatchObject({ type: 'GenericCommitStatus', stage: 'external', stage_idx: 1_000_000, pipeline_id: 1003 })
  })

  it('takes every optional attribute, name from context', async () => {
    const res = await post(MAIN_TIP, { state: 'success', context: 'coverage', ref: 'main', description: 'test', coverage: 80.5, target_url: 'http://gitlab.com/status' })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ id: 2014, ref: 'main', status: 'success', name: 'coverage', description: 'test', coverage: 80.5, target_url: 'http://gitlab.com/status', started_at: null, finished_at: NOW })
    // A form body: coverage as a decimal string; name wins over context.
    const form = await api.post(`/projects/20/statuses/${MAIN_TIP}`, { as: 'max', form: { state: 'running', name: 'lint', context: 'ignored', coverage: '12.25' } })
    expect(form.body).toMatchObject({ id: 2015, name: 'lint', status: 'running', coverage: 12.25, started_at: NOW, finished_at: null })
  })

  it.each([
    // [first state, second state, second answer: status and state, or the refusal]
    ['pending', 'pending', 400, transitionError('enqueue', 'pending')],
    ['pending', 'running', 201, { id: 2014, status: 'running', started_at: NOW, finished_at: null }],
    ['pending', 'success', 201, { id: 2014, status: 'success', started_at: null, finished_at: NOW }],
    ['pending', 'failed', 201, { id: 2014, status: 'failed', finished_at: NOW }],
    ['pending', 'canceled', 201, { id: 2014, status: 'canceled', finished_at: NOW }],
    ['running', 'running', 400, transitionError('run', 'running')],
    ['running', 'pending', 400, transitionError('enqueue', 'running')],
    ['running', 'success', 201, { id: 2014, status: 'success', started_at: NOW, finished_at: NOW }],
    ['running', 'failed', 201, { id: 2014, status: 'failed' }],
    // A finished status is not found again: a new one replaces it, and the old one is retried.
    ['success', 'success', 201, { id: 2015, status: 'success' }],
    ['failed', 'pending', 201, { id: 2015, status: 'pending' }],
    ['canceled', 'running', 201, { id: 2015, status: 'running', started_at: NOW }],
  ] as const)('%s then %s: %i %j', async (first, second, status, body) => {
    expect((await post(MAIN_TIP, { state: first, name: 'ci' })).status).toBe(201)
    const res = await post(MAIN_TIP, { state: second, name: 'ci' })
    expect(res.status).toBe(status)
    if (status === 400) expect(res.body).toEqual(body)
    else expect(res.body).toMatchObject(body)
  })

  it('a refused transition changes nothing', async () => {
    await post(MAIN_TIP, { state: 'running', name: 'ci', description: 'first' })
    const before = JSON.stringify(sim().db.dump())
    expect((await post(MAIN_TIP, { state: 'running', name: 'ci', description: 'second' })).body).toEqual(transitionError('run', 'running'))
    expect(JSON.stringify(sim().db.dump())).toBe(before)
  })

  it('a new status of a name retries the older one; all=true lists both', async () => {
    await post(MAIN_TIP, { state: 'failed', name: 'test' })
    await post(MAIN_TIP, { state: 'success', name: 'test' })
    expect(ids(await api.get(`/projects/20/repository/commits/${MAIN_TIP}/statuses`, { as: 'riley', query: { name: 'test' } }))).toEqual([2015])
    expect(ids(await api.get(`/projects/20/repository/commits/${MAIN_TIP}/statuses`, { as: 'riley', query: { name: 'test', all: 'yes' } }))).toEqual([2014, 2015])
    expect((await api.get('/projects/20/pipelines/1003', { as: 'riley' })).body.status).toBe('success')
  })

  it('a status of another user is another status', async () => {
    await post(MAIN_TIP, { state: 'running', name: 'ci' }, 'max')
    const res = await post(MAIN_TIP, { state: 'running', name: 'ci' }, 'olive')
    expect(res.body).toMatchObject({ id: 2015, status: 'running', author: { username: 'olive' } })
  })

  it.each([
    ['pending', 'pending'],
    ['running', 'running'],
    ['success', 'success'],
    ['failed', 'failed'],
    ['canceled', 'canceled'],
  ] as const)('on a commit without a pipeline, %s creates an external pipeline on the first branch holding it: %s', async (state, pipelineStatus) => {
    const res = await post(LOGIN_TIP, { state }, 'devon')
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ id: 2014, sha: LOGIN_TIP, ref: 'feature/login', status: state, author: { username: 'devon' } })
    const pipelines = await api.get('/projects/20/pipelines', { as: 'devon', query: { sha: LOGIN_TIP } })
    expect(pipelines.body).toEqual([
      { id: 1008, project_id: 20, sha: LOGIN_TIP, ref: 'feature/login', status: pipelineStatus, created_at: NOW, updated_at: NOW, web_url: `${api.baseUrl}/acme/website/-/pipelines/1008` },
    ])
    expect(sim().db.tables.pipelines.get(1008)).toMatchObject({ source: 'external', user_id: 4, tag: false, commit_title: 'Fix the login button' })
    expect((await api.get('/projects/20/pipelines/1008/jobs', { as: 'devon' })).body).toEqual([])
    // The commit shows its newest pipeline.
    const commit = await api.get(`/projects/20/repository/commits/${LOGIN_TIP}`, { as: 'riley' })
    expect([commit.body.status, commit.body.last_pipeline?.id]).toEqual([pipelineStatus, 1008])
  })

  it.each([
    // [sha, body, poster, status, the status's ref or the error body]
    ['a commit held by main and feature/login, no ref: the first branch by name', MERGE, { state: 'success' }, 'devon', 201, 'feature/login'],
    ['a branch name for the sha (URL-encoded)', 'feature%2Flogin', { state: 'success' }, 'devon', 201, 'feature/login'],
    ['the newest pipeline\'s ref (main, protected) for a developer', MAIN_TIP, { state: 'success' }, 'devon', 403, FORBIDDEN],
    ['a ref given: a new pipeline for it, even for a commit the ref does not hold', MAIN_TIP, { state: 'success', ref: 'feature/login' }, 'devon', 201, 'feature/login'],
    ['a pipeline_id that is not the commit\'s: a new pipeline', MAIN_TIP, { state: 'success', pipeline_id: 1004 }, 'max', 201, 'main'],
    ['an empty ref', MAIN_TIP, { state: 'success', ref: '' }, 'max', 400, { message: { ref: ["can't be blank"] } }],
  ] as const)('%s: %s', async (_what, sha, body, as, status, expected) => {
    const res = await post(sha, body, as)
    expect(res.status).toBe(status)
    if (status === 201) expect(res.body.ref).toBe(expected)
    else expect(res.body).toEqual(expected)
  })

  it('pipeline_id picks that pipeline of the commit', async () => {
    sim().db.tables.pipelines.insert({ ...sim().db.tables.pipelines.get(1003)!, id: 1008, status: 'created' })
    await post(MAIN_TIP, { state: 'success', pipeline_id: 1003, ref: 'main' })
    expect(sim().db.tables.jobs.get(2014)!.pipeline_id).toBe(1003)
    expect(sim().db.tables.pipelines.get(1008)!.status).toBe('created')
  })

  // A commit no branch holds: without a pipeline of its own (its commit drops .gitlab-ci.yml, so its
  // push made none) 404 References for commit; with the push pipeline, that pipeline and its ref.
  it.each([
    ['without a pipeline: 404 References for commit', [{ action: 'delete', file_path: '.gitlab-ci.yml' }], undefined],
    ['with its push pipeline 1008: the status goes there, its ref the pipeline\'s', [], 1008],
  ])('a commit no branch holds, %s', async (_what, more, pushPipeline) => {
    const created = await api.post('/projects/20/repository/commits', {
      as: 'max',
      body: { branch: 'lonely', start_branch: 'feature/login', commit_message: 'Alone', actions: [{ action: 'create', file_path: 'alone.txt', content: 'x' }, ...more] },
    })
    expect(created.status).toBe(201)
    expect(created.body.last_pipeline?.id).toBe(pushPipeline)
    expect((await api.delete('/projects/20/repository/branches/lonely', { as: 'max' })).status).toBe(204)
    const bare = await post(created.body.id, { state: 'success' })
    if (pushPipeline === undefined) expect([bare.status, bare.body]).toEqual([404, { message: '404 References for commit Not Found' }])
    else {
      expect([bare.status, bare.body.ref]).toEqual([201, 'lonely'])
      expect(sim().db.tables.jobs.get(bare.body.id)!.pipeline_id).toBe(pushPipeline)
    }
    // With a ref, a pipeline is made for it all the same.
    expect((await post(created.body.id, { state: 'success', ref: 'lonely' })).status).toBe(201)
  })

  it.each([
    [{}, { error: 'state is missing' }],
    [{ state: 'skipped' }, { error: 'state does not have a valid value' }],
    [{ state: 'success', coverage: 'lots' }, { error: 'coverage is invalid' }],
    [{ state: 'success', pipeline_id: 'x' }, { error: 'pipeline_id is invalid' }],
    [{ coverage: 'lots' }, { error: 'state is missing, coverage is invalid' }],
    [{ state: 'success', name: '' }, { message: { name: ["can't be blank"] } }],
    [{ state: 'pending', target_url: 'invalid url' }, { message: { target_url: ['is blocked: Only allowed schemes are http, https'] } }],
    [{ state: 'pending', target_url: 'git://example.com' }, { message: { target_url: ['is blocked: Only allowed schemes are http, https'] } }],
    [{ state: 'pending', target_url: 'http://-bad.example.com/' }, { message: { target_url: ['is blocked: Hostname or IP address invalid'] } }],
    [{ state: 'pending', target_url: 'http://example.com:port/' }, { message: { target_url: ['is blocked: URI is invalid'] } }],
    [{ state: 'pending', target_url: 'http://example.com/\nx' }, { message: { target_url: ['is blocked: URI is invalid'] } }],
    [{ state: 'pending', target_url: `https://example.com/${'a'.repeat(240)}` }, { message: { target_url: ['is too long (maximum is 255 characters)'] } }],
    [{ state: 'pending', name: '', target_url: 'ftp://x' }, { message: { name: ["can't be blank"], target_url: ['is blocked: Only allowed schemes are http, https'] } }],
  ] as const)('refuses %j: 400 %j', async (body, error) => {
    const before = JSON.stringify(sim().db.dump())
    const res = await post(MAIN_TIP, body)
    expect([res.status, res.body]).toEqual([400, error])
    expect(JSON.stringify(sim().db.dump())).toBe(before)
  })

  it.each([
    ['http://127.0.0.1:8080/x', 'a local address'],
    ['https://[::1]/x', 'an IPv6 address'],
    ['http://user@example.com', 'a user'],
    ['', 'an empty one (not given)'],
  ])('accepts target_url %j (%s)', async (target_url) => {
    const res = await post(MAIN_TIP, { state: 'pending', target_url })
    expect([res.status, res.body.target_url]).toEqual([201, target_url === '' ? null : target_url])
  })

  it.each([
    ['anonymous', undefined, 401, { message: '401 Unauthorized' }],
    ['a guest', 'gina', 403, FORBIDDEN],
    ['a reporter', 'riley', 403, FORBIDDEN],
    ['a non-member of the public project', 'nora', 403, FORBIDDEN],
  ] as const)('refuses %s: %i', async (_who, as, status, body) => {
    const res = await api.post(`/projects/20/statuses/${LOGIN_TIP}`, { ...(as ? { as } : {}), body: { state: 'success' } })
    expect([res.status, res.body]).toEqual([status, body])
  })

  it.each([
    ['an unknown commit', '/projects/20/statuses/0000000000000000000000000000000000000000', 'max', COMMIT_NOT_FOUND],
    ['an empty repository', `/projects/21/statuses/${MAIN_TIP}`, 'devon', COMMIT_NOT_FOUND],
    ['a private project of a non-member', `/projects/21/statuses/${MAIN_TIP}`, 'nora', { message: '404 Project Not Found' }],
  ] as const)('404 for %s', async (_what, path, as, body) => {
    const res = await api.post(path, { as, body: { state: 'success' } })
    expect([res.status, res.body]).toEqual([404, body])
  })
})

describe('a generic status in a pipeline of builds', () => {
  contract('pipeline status composition', {}, ({ api }) => {
    it.each([
      ['failed', 'failed'],
      ['canceled', 'canceled'],
      ['running', 'running'],
      ['success', 'success'],
    ] as const)('a %s status makes succeeded pipeline 1003 %s', async (state, status) => {
      await api.post(`/projects/20/statuses/${MAIN_TIP}`, { as: 'max', body: { state } })
      expect((await api.get('/projects/20/pipelines/1003', { as: 'riley' })).body.status).toBe(status)
      const commit = await api.get(`/projects/20/repository/commits/${MAIN_TIP}`, { as: 'riley' })
      expect([commit.body.status, commit.body.last_pipeline.status]).toEqual([status, status])
    })

    it('pipeline cancel cancels generic statuses too; pipeline retry leaves them', async () => {
      await api.post(`/projects/20/statuses/${MAIN_TIP}`, { as: 'max', body: { state: 'running' } })
      const canceled = await api.post('/projects/20/pipelines/1003/cancel', { as: 'max' })
      expect(canceled.body.status).toBe('canceled')
      const retried = await api.post('/projects/20/pipelines/1003/retry', { as: 'max' })
      expect(retried.body.status).toBe('canceled')
      expect((await api.get(`/projects/20/repository/commits/${MAIN_TIP}/statuses`, { as: 'riley', query: { name: 'default' } })).body[0].status).toBe('canceled')
    })
  })
})

contract('CommitDetail status and last_pipeline', {}, ({ api }) => {
  it('shows the newest pipeline of the commit, and null when it has none', async () => {
    const res = await api.get(`/projects/20/repository/commits/${MAIN_TIP}`, { as: 'riley' })
    expect(res.body.status).toBe('success')
    expect(res.body.last_pipeline).toEqual({ id: 1003, project_id: 20, sha: MAIN_TIP, ref: 'main', status: 'success', created_at: '2021-03-21T10:00:00.000Z', updated_at: '2021-03-21T10:04:20.000Z', web_url: `${api.baseUrl}/acme/website/-/pipelines/1003` })
    expect(Object.keys(res.body).slice(-4)).toEqual(['stats', 'status', 'project_id', 'last_pipeline'])
    const none = await api.get(`/projects/20/repository/commits/${MERGE}`, { as: 'riley' })
    expect([none.body.status, none.body.last_pipeline]).toEqual([null, null])
  })
})
