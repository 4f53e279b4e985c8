/**
 * Runners over both doors (issue 7). Source: api-spec.md "### Runners", "Runner (summary form …)",
 * "Runner (detail form …)", "Runner job"; gitlab-behaviour.md §2, §13, §14 items 3, 4, 12, 13, 16;
 * gitlabhq:spec/requests/api/ci/runners_spec.rb, spec/requests/api/ci/runner/runners_post_spec.rb.
 *
 * Default scenario (clock 2021-04-01T12:00Z; online = contacted within 2 h): runners 1 instance
 * online [docker, linux], 2 instance paused, 3 group acme online (contacted 1.5 h ago) [docker],
 * 4 group acme/platform offline, 5 website online [ruby, postgres] with jobs 2000-2003, 6 website +
 * handbook offline, 7 api never contacted, 8 secret-lab/experiments locked, 9 group secret-lab,
 * 10 website locked ref_protected. Runner n's token is fakelab-runner-n-token. max maintains every
 * acme project and group; olive owns acme and secret-lab; devon is a developer; nora no member.
 */
import { expect, it } from 'vitest'
import { contract, paginationHeaders, type ApiResponse } from '../../support/contract.js'

const NOW = '2021-04-01T12:00:00.000Z'
const SUMMARY = ['id', 'description', 'ip_address', 'active', 'is_shared', 'runner_type', 'name', 'online', 'status']
const DETAIL = [...SUMMARY, 'tag_list', 'run_untagged', 'locked', 'maximum_timeout', 'access_level', 'version', 'revision', 'platform', 'architecture', 'contacted_at', 'projects', 'groups']
const JOB = ['id', 'ip_address', 'status', 'stage', 'name', 'ref', 'tag', 'coverage', 'allow_failure', 'created_at', 'started_at', 'finished_at', 'duration', 'user', 'commit', 'pipeline', 'web_url', 'project']

const UNAUTHORIZED = { message: '401 Unauthorized' }
const FORBIDDEN = { message: '403 Forbidden' }
const NO_ACCESS = { message: '403 Forbidden - No access granted' }
const NOT_FOUND = { message: '404 Not found' }
const WEBSITE_TOKEN = 'GR1348941WebsiteRunnerToken01'
const ACME_TOKEN = 'GR1348941AcmeGroupRunnerToken'
const INSTANCE_TOKEN = 'fakelab-instance-registration-token'
const AT_LEAST_ONE = 'description, active, tag_list, run_untagged, locked, access_level, maximum_timeout are missing, at least one parameter must be provided'

const ids = (res: ApiResponse): number[] => (res.body as { id: number }[]).map((r) => r.id)

contract('GET /runners', {}, ({ api }) => {
  it.each([
    ['max', {}, [3, 4, 5, 6, 7, 10]],
    ['olive', {}, [3, 4, 5, 6, 7, 8, 9, 10]],
    ['devon', {}, []],
    ['root', {}, []],
    ['max', { type: 'group_type' }, [3, 4]],
    ['max', { type: 'project_type' }, [5, 6, 7, 10]],
    ['max', { type: 'instance_type' }, []],
    ['max', { status: 'online' }, [3, 5, 10]],
    ['max', { status: 'offline' }, [4, 6]],
    ['max', { status: 'active' }, [3, 4, 5, 6, 7, 10]],
    ['max', { status: 'paused' }, []],
    ['max', { scope: 'online' }, [3, 5, 10]],
    ['max', { scope: 'offline', type: 'project_type' }, [6]],
    ['max', { tag_list: 'docker' }, [3]],
    ['max', { tag_list: 'ruby,postgres' }, [5]],
    ['max', { tag_list: 'RUBY' }, [5]],
    ['max', { 'tag_list[]': ['ruby', 'postgres'] }, [5]],
    ['max', { tag_list: ['ruby', 'docker'] }, []],
    ['max', { search: 'website' }, [5, 10]],
    ['max', { search: 'fakelab-runner-6-token' }, [6]],
    ['max', { search: 'fakelab-runner-6' }, []],
  ] as const)('as %s with %j lists the owned runners %j', async (as, query, expected) => {
    const res = await api.get('/runners', { as, query: query as Record<string, string> })
    expect(res.status).toBe(200)
    expect(ids(res)).toEqual(expected)
  })

  it('presents the summary entity, derived status and online by the scenario clock', async () => {
    const res = await api.get('/runners', { as: 'max', query: { type: 'project_type' } })
    expect(res.body[0]).toEqual({
      id: 5, description: 'website-runner', ip_address: '10.0.2.5', active: true, is_shared: false,
      runner_type: 'project_type', name: 'gitlab-runner', online: true, status: 'online',
    })
    expect(Object.keys(res.body[0])).toEqual(SUMMARY)
    const never = res.body.find((r: { id: number }) => r.id === 7)
    expect([never.online, never.status]).toEqual([null, 'not_connected'])
    const offline = res.body.find((r: { id: number }) => r.id === 6)
    expect([offline.online, offline.status]).toEqual([false, 'offline'])
  })

  it('paginates, the Link URLs carrying every filter', async () => {
    const res = await api.get('/runners', { as: 'max', query: { per_page: 2, page: 2 } })
    expect(ids(res)).toEqual([5, 6])
    expect(paginationHeaders(res)).toMatchObject({ 'x-page': '2', 'x-per-page': '2', 'x-next-page': '3', 'x-prev-page': '1', 'x-total': '6', 'x-total-pages': '3' })
    const filtered = await api.get('/runners', { as: 'max', query: { type: 'project_type', status: 'active', per_page: 1 } })
    const base = `${api.baseUrl}/api/v4/runners?page=`
    expect(filtered.headers.get('link')).toBe([
      `<${base}2&per_page=1&status=active&type=project_type>; rel="next"`,
      `<${base}1&per_page=1&status=active&type=project_type>; rel="first"`,
      `<${base}4&per_page=1&status=active&type=project_type>; rel="last"`,
    ].join(', '))
  })

  it.each([
    [{ scope: 'specific' }, 'scope does not have a valid value'],
    [{ scope: 'shared' }, 'scope does not have a valid value'],
    [{ type: 'bad' }, 'type does not have a valid value'],
    [{ status: 'not_connected' }, 'status does not have a valid value'],
  ])('answers 400 for %j', async (query, error) => {
    expect(await api.get('/runners', { as: 'max', query })).toBeGitLabError(400, { error })
  })

  it('answers 401 without a user', async () => {
    expect(await api.get('/runners')).toBeGitLabError(401, UNAUTHORIZED)
  })
})

contract('GET /runners/all', {}, ({ api }) => {
  it.each([
    [{}, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]],
    [{ scope: 'shared' }, [1, 2]],
    [{ scope: 'specific' }, [3, 4, 5, 6, 7, 8, 9, 10]],
    [{ scope: 'paused' }, [2]],
    [{ scope: 'active' }, [1, 3, 4, 5, 6, 7, 8, 9, 10]],
    [{ scope: 'online' }, [1, 2, 3, 5, 8, 9, 10]],
    [{ scope: 'offline' }, [4, 6]],
    [{ scope: 'group_type' }, [3, 4, 9]],
    [{ type: 'instance_type', status: 'active' }, [1]],
    [{ tag_list: 'docker' }, [1, 3]],
  ])('lists every runner of the instance for %j', async (query, expected) => {
    const res = await api.get('/runners/all', { as: 'root', query })
    expect(res.status).toBe(200)
    expect(ids(res)).toEqual(expected)
  })

  it('shows an ip_address for every runner: GitLab records it at registration (issue 23 item 13)', async () => {
    const res = await api.get('/runners/all', { as: 'root', query: { per_page: 100 } })
    expect(res.body.filter((runner: { ip_address: string | null }) => runner.ip_address === null)).toEqual([])
    expect((await api.get('/runners/7', { as: 'root' })).body.ip_address).toBe('10.0.2.7')
  })

  it('answers 403 to a non-administrator, 401 anonymous, 400 for a bad scope first', async () => {
    expect(await api.get('/runners/all', { as: 'olive' })).toBeGitLabError(403, FORBIDDEN)
    expect(await api.get('/runners/all')).toBeGitLabError(401, UNAUTHORIZED)
    expect(await api.get('/runners/all', { as: 'olive', query: { scope: 'nope' } })).toBeGitLabError(400, { error: 'scope does not have a valid value' })
  })
})

contract('GET /runners/:id', {}, ({ api, sim }) => {
  it('presents the detail entity to a maintainer of its project', async () => {
    const res = await api.get('/runners/5', { as: 'max' })
    expect(res.status).toBe(200)
    expect(Object.keys(res.body)).toEqual(DETAIL)
    const { projects, groups, revision, ...rest } = res.body
    expect(rest).toEqual({
      id: 5, description: 'website-runner', ip_address: '10.0.2.5', active: true, is_shared: false,
      runner_type: 'project_type', name: 'gitlab-runner', online: true, status: 'online',
      tag_list: ['ruby', 'postgres'], run_untagged: true, locked: false, maximum_timeout: 3600,
      access_level: 'not_protected', version: '13.10.0', platform: 'linux', architecture: 'amd64',
      contacted_at: '2021-04-01T11:55:00.000Z',
    })
    expect(revision).toMatch(/^[0-9a-f]{8}$/)
    expect(groups).toEqual([])
    expect(projects.map((p: { id: number }) => p.id)).toEqual([20])
    expect(Object.keys(projects[0])).toEqual([
      'id', 'description', 'name', 'name_with_namespace', 'path', 'path_with_namespace', 'created_at', 'default_branch', 'tag_list',
      'ssh_url_to_repo', 'http_url_to_repo', 'web_url', 'readme_url', 'avatar_url', 'forks_count', 'star_count', 'last_activity_at', 'namespace',
    ])
    expect(res.body).not.toHaveProperty('token')
  })

  it('lists the groups of a group runner', async () => {
    const res = await api.get('/runners/3', { as: 'max' })
    expect(res.body.groups).toEqual([{ id: 10, web_url: `${api.baseUrl}/groups/acme`, name: 'Acme' }])
    expect(res.body.projects).toEqual([])
  })

  it('shows only the projects the caller is a member of; administrators see all', async () => {
    expect((await api.get('/runners/6', { as: 'max' })).body.projects.map((p: { id: number }) => p.id)).toEqual([20, 23])
    expect((await api.get('/runners/6', { as: 'root' })).body.projects.map((p: { id: number }) => p.id)).toEqual([20, 23])
    expect((await api.get('/runners/8', { as: 'root' })).body.projects.map((p: { id: number }) => p.id)).toEqual([24])
  })

  it('lets any signed-in user read an instance runner', async () => {
    const res = await api.get('/runners/1', { as: 'nora' })
    expect([res.status, res.body.is_shared, res.body.projects, res.body.groups]).toEqual([200, true, [], []])
  })

  it.each([
    ['2 h ago is offline', '2021-04-01T10:00:00.000Z', true, false, 'offline'],
    ['1 h 59 min ago is online', '2021-04-01T10:01:00.000Z', true, true, 'online'],
    ['paused and recent is paused', '2021-04-01T11:59:00.000Z', false, true, 'paused'],
    ['paused and old is paused', '2021-03-01T00:00:00.000Z', false, false, 'paused'],
    ['never contacted is not_connected', null, true, null, 'not_connected'],
    ['never contacted and paused is not_connected', null, false, null, 'not_connected'],
  ])('derives status: %s', async (_title, contacted_at, active, online, status) => {
    sim().db.tables.runners.update(1, { contacted_at, active })
    const res = await api.get('/runners/1', { as: 'root' })
    expect([res.body.online, res.body.status, res.body.contacted_at]).toEqual([online, status, contacted_at])
  })

  it.each([
    ['a developer of its project', 'devon', 5],
    ['a maintainer of another project', 'max', 8],
    ['a maintainer for another group\'s runner', 'max', 9],
    ['a non-member', 'nora', 5],
  ])('answers 403 No access granted to %s', async (_title, as, id) => {
    expect(await api.get(`/runners/${id}`, { as })).toBeGitLabError(403, NO_ACCESS)
  })

  it('answers 404 Not found, 400 for a non-integer id, 401 anonymous', async () => {
    expect(await api.get('/runners/999', { as: 'root' })).toBeGitLabError(404, NOT_FOUND)
    expect(await api.get('/runners/abc', { as: 'root' })).toBeGitLabError(400, { error: 'id is invalid' })
    expect(await api.get('/runners/abc')).toBeGitLabError(401, UNAUTHORIZED)
  })
})

contract('PUT /runners/:id', {}, ({ api, sim }) => {
  it('updates every attribute and returns the detail entity', async () => {
    const body = { description: 'renamed', active: false, tag_list: ['a', 'b'], run_untagged: false, locked: true, access_level: 'ref_protected', maximum_timeout: 600 }
    const res = await api.put('/runners/5', { as: 'max', body })
    expect(res.status).toBe(200)
    expect(Object.keys(res.body)).toEqual(DETAIL)
    expect(res.body).toMatchObject({ ...body, status: 'paused', online: true })
    expect((await api.get('/runners/5', { as: 'max' })).body).toMatchObject(body)
    expect(sim().db.tables.runners.get(5)!.updated_at).toBe(NOW)
  })

  it('pauses with active=false and resumes with active=true', async () => {
    expect((await api.put('/runners/5', { as: 'max', form: { active: 'false' } })).body.status).toBe('paused')
    expect((await api.get('/runners', { as: 'max', query: { status: 'paused' } })).body.map((r: { id: number }) => r.id)).toEqual([5])
    expect((await api.put('/runners/5', { as: 'max', query: { active: 'True' } })).body).toMatchObject({ active: true, status: 'online' })
  })

  it('takes tag_list as the final set, from a comma list or an array', async () => {
    expect((await api.put('/runners/5', { as: 'max', form: { tag_list: 'x, y,x' } })).body.tag_list).toEqual(['x', 'y'])
    expect((await api.put('/runners/5', { as: 'max', body: { tag_list: ['z'] } })).body.tag_list).toEqual(['z'])
    expect((await api.put('/runners/5', { as: 'max', body: { tag_list: [] } })).body.tag_list).toEqual([])
  })

  it.each([
    [{}, { error: AT_LEAST_ONE }],
    [{ access_level: 'everything' }, { error: 'access_level does not have a valid value' }],
    [{ maximum_timeout: 'long' }, { error: 'maximum_timeout is invalid' }],
    [{ active: 'maybe' }, { error: 'active is invalid' }],
    [{ maximum_timeout: 599 }, { message: { maximum_timeout: ['needs to be at least 10 minutes'] } }],
    [{ run_untagged: false, tag_list: [] }, { message: { tags_list: ['can not be empty when runner is not allowed to pick untagged jobs'] } }],
    [{ run_untagged: false, tag_list: [], maximum_timeout: 1 }, { message: { tags_list: ['can not be empty when runner is not allowed to pick untagged jobs'], maximum_timeout: ['needs to be at least 10 minutes'] } }],
  ])('answers 400 for %j and changes nothing', async (body, error) => {
    const before = JSON.stringify(sim().db.dump())
    expect(await api.put('/runners/5', { as: 'max', body })).toBeGitLabError(400, error)
    expect(JSON.stringify(sim().db.dump())).toBe(before)
  })

  it('refuses an untagged-only runner without tags (runner 6 has none)', async () => {
    expect(await api.put('/runners/6', { as: 'max', body: { run_untagged: false } })).toBeGitLabError(400, { message: { tags_list: ['can not be empty when runner is not allowed to pick untagged jobs'] } })
  })

  it('answers 403 No access granted for an instance runner to a non-administrator; administrators may', async () => {
    expect(await api.put('/runners/1', { as: 'max', body: { description: 'x' } })).toBeGitLabError(403, NO_ACCESS)
    expect((await api.put('/runners/1', { as: 'root', body: { description: 'x' } })).body.description).toBe('x')
  })

  it('answers 401 anonymous before validating, 404 for an unknown runner', async () => {
    expect(await api.put('/runners/5')).toBeGitLabError(401, UNAUTHORIZED)
    expect(await api.put('/runners/999', { as: 'root', body: { active: true } })).toBeGitLabError(404, NOT_FOUND)
  })
})

contract('DELETE /runners/:id', {}, ({ api, sim }) => {
  it('deletes an owned runner (204) with its links; its jobs stay', async () => {
    const res = await api.delete('/runners/5', { as: 'max' })
    expect([res.status, res.text]).toEqual([204, ''])
    expect(await api.get('/runners/5', { as: 'root' })).toBeGitLabError(404, NOT_FOUND)
    expect(sim().db.tables.runner_projects.where('runner_id', 5)).toEqual([])
    expect(sim().db.tables.jobs.get(2000)!.runner_id).toBeNull()
  })

  it('answers 403 for a runner of several projects to a non-administrator; administrators may', async () => {
    expect(await api.delete('/runners/6', { as: 'max' })).toBeGitLabError(403, { message: '403 Forbidden - Runner associated with more than one project' })
    expect((await api.delete('/runners/6', { as: 'root' })).status).toBe(204)
  })

  it.each([
    ['an instance runner', 'max', 1],
    ['a runner of a project where the caller is a developer', 'devon', 5],
    ['another group\'s runner', 'max', 9],
  ])('answers 403 No access granted for %s', async (_title, as, id) => {
    expect(await api.delete(`/runners/${id}`, { as })).toBeGitLabError(403, NO_ACCESS)
  })

  it('answers 412 when the runner changed after If-Unmodified-Since', async () => {
    expect(await api.delete('/runners/5', { as: 'max', headers: { 'If-Unmodified-Since': 'Thu, 01 Jan 2015 00:00:00 GMT' } })).toBeGitLabError(412, { message: '412 Precondition Failed' })
  })

  it('answers 404 Not found and 400 id is invalid', async () => {
    expect(await api.delete('/runners/999', { as: 'root' })).toBeGitLabError(404, NOT_FOUND)
    expect(await api.delete('/runners/x', { as: 'root' })).toBeGitLabError(400, { error: 'id is invalid' })
  })
})

contract('GET /runners/:id/jobs', {}, ({ api, sim }) => {
  it.each([
    [{}, [2000, 2001, 2002, 2003]],
    [{ order_by: 'id' }, [2003, 2002, 2001, 2000]],
    [{ order_by: 'id', sort: 'asc' }, [2000, 2001, 2002, 2003]],
    [{ sort: 'asc' }, [2000, 2001, 2002, 2003]],
    [{ status: 'failed' }, [2001]],
    [{ status: 'running' }, [2002]],
    [{ status: 'success' }, [2000]],
    [{ status: 'canceled', order_by: 'id' }, [2003]],
  ])('lists the jobs for %j', async (query, expected) => {
    const res = await api.get('/runners/5/jobs', { as: 'max', query })
    expect(res.status).toBe(200)
    expect(ids(res)).toEqual(expected)
  })

  it('presents a job with its user, commit, pipeline and project', async () => {
    const res = await api.get('/runners/5/jobs', { as: 'max', query: { per_page: 1 } })
    const job = res.body[0]
    expect(Object.keys(job)).toEqual(JOB)
    const devon = sim().db.tables.users.get(4)!
    expect(job).toMatchObject({
      id: 2000, ip_address: '10.0.2.5', status: 'success', stage: 'test', name: 'rspec', ref: 'main', tag: false,
      coverage: 97.5, allow_failure: false, created_at: '2021-03-11T09:00:00.000Z', started_at: '2021-03-11T09:00:10.000Z',
      finished_at: '2021-03-11T09:05:10.000Z', duration: 300, web_url: `${api.baseUrl}/acme/website/-/jobs/2000`,
    })
    expect(job.user).toMatchObject({ id: 4, name: 'Devon Developer', username: 'devon', state: 'active', avatar_url: null, web_url: `${api.baseUrl}/devon`, created_at: devon.created_at })
    expect(Object.keys(job.user).slice(0, 17)).toEqual(['id', 'name', 'username', 'state', 'avatar_url', 'web_url', 'created_at', 'bio', 'bio_html', 'location', 'public_email', 'skype', 'linkedin', 'twitter', 'website_url', 'organization', 'job_title'])
    expect(job.commit).toEqual({
      id: '3f1c2a9b8e7d6c5b4a392817161514131211100f', short_id: '3f1c2a9b', created_at: '2021-03-11T09:00:00.000Z',
      parent_ids: ['a1b2c3d4e5f60718293a4b5c6d7e8f9012345678'], title: 'Fix the login button',
      message: 'Fix the login button\n\nThe handler was never bound.\n', author_name: 'Devon Developer', author_email: 'devon@example.com',
      authored_date: '2021-03-11T09:00:00.000Z', committer_name: 'Devon Developer', committer_email: 'devon@example.com',
      committed_date: '2021-03-11T09:00:00.000Z', trailers: {}, web_url: `${api.baseUrl}/acme/website/-/commit/3f1c2a9b8e7d6c5b4a392817161514131211100f`,
    })
    const pipeline = sim().db.tables.pipelines.get(1000)!
    expect(job.pipeline).toEqual({
      id: 1000, project_id: 20, sha: '3f1c2a9b8e7d6c5b4a392817161514131211100f', ref: 'main', status: 'failed',
      created_at: '2021-03-11T09:00:00.000Z', updated_at: pipeline.updated_at, web_url: `${api.baseUrl}/acme/website/-/pipelines/1000`,
    })
    expect(job.project).toEqual({
      id: 20, description: 'The Acme website', name: 'Website', name_with_namespace: 'Acme / Website', path: 'website',
      path_with_namespace: 'acme/website', created_at: sim().db.tables.projects.get(20)!.created_at,
    })
    expect(paginationHeaders(res)).toMatchObject({ 'x-total': '4', 'x-total-pages': '4', 'x-next-page': '2', 'x-per-page': '1' })
  })

  it('measures a running job until now and leaves an unstarted one without duration', async () => {
    const res = await api.get('/runners/5/jobs', { as: 'max', query: { order_by: 'id' } })
    expect(res.body.map((j: { duration: number | null }) => j.duration)).toEqual([null, 600, 60, 300])
  })

  it.each([
    [{ status: 'created' }, 'status does not have a valid value'],
    [{ order_by: 'name' }, 'order_by does not have a valid value'],
    [{ sort: 'up' }, 'sort does not have a valid value'],
  ])('answers 400 for %j', async (query, error) => {
    expect(await api.get('/runners/5/jobs', { as: 'max', query })).toBeGitLabError(400, { error })
  })

  it('answers 403 for an instance runner to a non-administrator; administrators see its jobs', async () => {
    expect(await api.get('/runners/1/jobs', { as: 'max' })).toBeGitLabError(403, NO_ACCESS)
    expect(ids(await api.get('/runners/1/jobs', { as: 'root' }))).toEqual([2004])
    expect(ids(await api.get('/runners/7/jobs', { as: 'max' }))).toEqual([])
  })

  it('answers 403 to a developer, 404 for an unknown runner', async () => {
    expect(await api.get('/runners/5/jobs', { as: 'devon' })).toBeGitLabError(403, NO_ACCESS)
    expect(await api.get('/runners/999/jobs', { as: 'root' })).toBeGitLabError(404, NOT_FOUND)
  })
})

contract('POST /runners', {}, ({ api, sim }) => {
  it.each([
    ['the instance token', INSTANCE_TOKEN, 'instance_type', [], []],
    ['a project token', WEBSITE_TOKEN, 'project_type', [20], []],
    ['a group token', ACME_TOKEN, 'group_type', [], [10]],
  ])('registers a runner with %s (201 {id, token})', async (_title, token, type, projects, groups) => {
    const res = await api.post('/runners', { body: { token, description: 'new' } })
    expect(res.status).toBe(201)
    expect(Object.keys(res.body)).toEqual(['id', 'token'])
    expect(res.body.id).toBe(11)
    expect(res.body.token).toMatch(/^[A-Za-z0-9]{20}$/)
    const detail = (await api.get('/runners/11', { as: 'root' })).body
    expect(detail).toMatchObject({ runner_type: type, is_shared: type === 'instance_type', description: 'new', active: true, online: null, status: 'not_connected', contacted_at: null, ip_address: '127.0.0.1', tag_list: [], run_untagged: true, locked: false, access_level: 'not_protected', maximum_timeout: null })
    expect(detail.projects.map((p: { id: number }) => p.id)).toEqual(projects)
    expect(detail.groups.map((g: { id: number }) => g.id)).toEqual(groups)
    expect(sim().db.tables.runners.get(11)!.token).toBe(res.body.token)
  })

  it('honours every body field, info included', async () => {
    const body = {
      token: WEBSITE_TOKEN, description: 'full', active: false, locked: true, run_untagged: false, tag_list: 'x,y',
      access_level: 'ref_protected', maximum_timeout: 7200,
      info: { name: 'gitlab-runner', version: '13.9.0', revision: '2ebc4dc4', platform: 'darwin', architecture: 'arm64' },
    }
    const res = await api.post('/runners', { body, headers: { 'X-Forwarded-For': '192.0.2.7, 10.0.0.1' } })
    expect(res.status).toBe(201)
    expect((await api.get(`/runners/${res.body.id}`, { as: 'max' })).body).toMatchObject({
      description: 'full', active: false, locked: true, run_untagged: false, tag_list: ['x', 'y'], access_level: 'ref_protected',
      maximum_timeout: 7200, name: 'gitlab-runner', version: '13.9.0', revision: '2ebc4dc4', platform: 'darwin', architecture: 'arm64',
      ip_address: '192.0.2.7', status: 'not_connected',
    })
  })

  it('accepts a form body with info[...] and ignores a user token that comes along', async () => {
    const res = await api.post('/runners', { token: 'glpat-not-a-token', form: { token: WEBSITE_TOKEN, 'info[version]': '13.8.0', 'tag_list[]': 'a' } })
    expect(res.status).toBe(201)
    expect((await api.get(`/runners/${res.body.id}`, { as: 'root' })).body).toMatchObject({ version: '13.8.0', tag_list: ['a'] })
  })

  it.each([
    [{}, 400, { error: 'token is missing' }],
    [{ token: 'wrong' }, 403, FORBIDDEN],
    [{ token: 'fakelab-runner-5-token' }, 403, FORBIDDEN],
    [{ token: WEBSITE_TOKEN, access_level: 'all' }, 400, { error: 'access_level does not have a valid value' }],
    [{ token: WEBSITE_TOKEN, maximum_timeout: 10 }, 400, { message: { maximum_timeout: ['needs to be at least 10 minutes'] } }],
    [{ token: WEBSITE_TOKEN, run_untagged: false }, 400, { message: { tags_list: ['can not be empty when runner is not allowed to pick untagged jobs'] } }],
  ])('answers an error for %j and registers nothing', async (body, status, error) => {
    const before = JSON.stringify(sim().db.dump())
    expect(await api.post('/runners', { body })).toBeGitLabError(status, error)
    expect(JSON.stringify(sim().db.dump())).toBe(before)
  })
})

contract('POST /runners/verify', {}, ({ api, sim }) => {
  it('answers 200 with the JSON string "200" and records the contact', async () => {
    const res = await api.post('/runners/verify', { body: { token: 'fakelab-runner-7-token' } })
    expect([res.status, res.text, res.headers.get('content-type')]).toEqual([200, '"200"', 'application/json'])
    const runner = (await api.get('/runners/7', { as: 'max' })).body
    expect([runner.contacted_at, runner.online, runner.status]).toEqual([NOW, true, 'online'])
    expect(sim().db.tables.runners.get(7)!.contacted_at).toBe(NOW)
  })

  it('verifies a freshly registered runner', async () => {
    const { body } = await api.post('/runners', { body: { token: INSTANCE_TOKEN } })
    expect((await api.post('/runners/verify', { form: { token: body.token } })).status).toBe(200)
    expect((await api.get(`/runners/${body.id}`, { as: 'nora' })).body.status).toBe('online')
  })

  it('answers 403 for a wrong token (also a registration token), 400 without one', async () => {
    expect(await api.post('/runners/verify', { body: { token: 'nope' } })).toBeGitLabError(403, FORBIDDEN)
    expect(await api.post('/runners/verify', { body: { token: WEBSITE_TOKEN } })).toBeGitLabError(403, FORBIDDEN)
    expect(await api.post('/runners/verify', { body: {} })).toBeGitLabError(400, { error: 'token is missing' })
  })
})

contract('DELETE /runners', {}, ({ api }) => {
  it('deletes the runner by its authentication token (body or query)', async () => {
    const res = await api.delete('/runners', { body: { token: 'fakelab-runner-7-token' } })
    expect([res.status, res.text]).toEqual([204, ''])
    expect(await api.get('/runners/7', { as: 'root' })).toBeGitLabError(404, NOT_FOUND)
    expect((await api.delete('/runners', { query: { token: 'fakelab-runner-6-token' }, as: 'nora' })).status).toBe(204)
    expect(await api.post('/runners/verify', { body: { token: 'fakelab-runner-6-token' } })).toBeGitLabError(403, FORBIDDEN)
  })

  it('answers 403 for a wrong token, 400 without one', async () => {
    expect(await api.delete('/runners', { body: { token: 'nope' } })).toBeGitLabError(403, FORBIDDEN)
    expect(await api.delete('/runners', { body: {} })).toBeGitLabError(400, { error: 'token is missing' })
  })
})

contract('GET /projects/:id/runners', {}, ({ api }) => {
  it.each([
    [20, {}, [1, 2, 3, 5, 6, 10]],
    [21, {}, [1, 2, 3, 4, 7]],
    ['acme%2Fhandbook', {}, [1, 2, 3, 6]],
    [20, { scope: 'shared' }, [1, 2]],
    [20, { scope: 'specific' }, [3, 5, 6, 10]],
    [20, { scope: 'project_type' }, [5, 6, 10]],
    [20, { type: 'group_type' }, [3]],
    [20, { status: 'paused' }, [2]],
    [20, { status: 'offline' }, [6]],
    [20, { tag_list: 'docker' }, [1, 3]],
  ])('lists the runners of project %s for %j, instance runners included', async (id, query, expected) => {
    const res = await api.get(`/projects/${id}/runners`, { as: 'max', query })
    expect(res.status).toBe(200)
    expect(ids(res)).toEqual(expected)
  })

  it.each([
    ['a developer', 'devon', 20, {}, 403, FORBIDDEN],
    ['a reporter with a bad scope (authorised before validation)', 'riley', 20, { scope: 'x' }, 403, FORBIDDEN],
    ['a non-member of a private project', 'nora', 21, {}, 404, { message: '404 Project Not Found' }],
    ['a maintainer with a bad scope', 'max', 20, { scope: 'x' }, 400, { error: 'scope does not have a valid value' }],
  ])('answers an error to %s', async (_title, as, id, query, status, error) => {
    expect(await api.get(`/projects/${id}/runners`, { as, query })).toBeGitLabError(status, error)
  })
})

contract('GET /groups/:id/runners', {}, ({ api }) => {
  it.each([
    [10, {}, [1, 2, 3]],
    [11, {}, [1, 2, 3, 4]],
    ['acme%2Fplatform', { type: 'group_type' }, [3, 4]],
    [11, { status: 'offline' }, [4]],
    [11, { tag_list: 'docker', type: 'group_type' }, [3]],
    [11, { scope: 'shared' }, [1, 2, 3, 4]],
    [12, {}, [1, 2, 9]],
  ])('lists the runners of group %s and its ancestors for %j (an owner)', async (id, query, expected) => {
    const res = await api.get(`/groups/${id}/runners`, { as: 'olive', query })
    expect(res.status).toBe(200)
    expect(ids(res)).toEqual(expected)
  })

  it('answers 403 to a maintainer, 404 to a non-member of a private group, 400 for a bad type first', async () => {
    expect(await api.get('/groups/10/runners', { as: 'max' })).toBeGitLabError(403, FORBIDDEN)
    expect(await api.get('/groups/11/runners', { as: 'nora' })).toBeGitLabError(404, { message: '404 Group Not Found' })
    expect(await api.get('/groups/10/runners', { as: 'max', query: { type: 'x' } })).toBeGitLabError(400, { error: 'type does not have a valid value' })
    expect((await api.get('/groups/12/runners', { as: 'root' })).status).toBe(200)
  })
})

contract('POST /projects/:id/runners', {}, ({ api, sim }) => {
  it('enables an owned runner in another maintained project (201 summary)', async () => {
    const res = await api.post('/projects/23/runners', { as: 'max', body: { runner_id: 5 } })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({ id: 5, description: 'website-runner', ip_address: '10.0.2.5', active: true, is_shared: false, runner_type: 'project_type', name: 'gitlab-runner', online: true, status: 'online' })
    expect((await api.get('/runners/5', { as: 'max' })).body.projects.map((p: { id: number }) => p.id)).toEqual([20, 23])
    expect(ids(await api.get('/projects/23/runners', { as: 'max', query: { type: 'project_type' } }))).toEqual([5, 6])
  })

  it('answers 400 when it is already enabled, and changes nothing', async () => {
    const before = JSON.stringify(sim().db.dump())
    expect(await api.post('/projects/20/runners', { as: 'max', body: { runner_id: 5 } })).toBeGitLabError(400, { message: { assign_to: ['Validation failed: Runner has already been taken'] } })
    expect(JSON.stringify(sim().db.dump())).toBe(before)
  })

  it('turns an instance runner into a project runner when an administrator enables it', async () => {
    expect(await api.post('/projects/23/runners', { as: 'max', body: { runner_id: 1 } })).toBeGitLabError(403, NO_ACCESS)
    const res = await api.post('/projects/23/runners', { as: 'root', body: { runner_id: 1 } })
    expect([res.status, res.body.runner_type, res.body.is_shared]).toEqual([201, 'project_type', false])
  })

  it.each([
    ['a group runner, even for an administrator', 'root', 3, { message: '403 Forbidden - Runner is a group runner' }],
    ['a group runner', 'max', 3, { message: '403 Forbidden - Runner is a group runner' }],
    ['a locked runner', 'max', 10, { message: '403 Forbidden - Runner is locked' }],
    ['a locked runner the caller does not own (the lock is checked first)', 'max', 8, { message: '403 Forbidden - Runner is locked' }],
  ])('answers 403 for %s', async (_title, as, runnerId, error) => {
    expect(await api.post('/projects/23/runners', { as, body: { runner_id: runnerId } })).toBeGitLabError(403, error)
  })

  it('answers 403 No access granted for an unlocked runner the caller does not own', async () => {
    sim().db.tables.runners.update(8, { locked: false })
    expect(await api.post('/projects/23/runners', { as: 'max', body: { runner_id: 8 } })).toBeGitLabError(403, NO_ACCESS)
  })

  it('lets an administrator enable a locked runner', async () => {
    expect((await api.post('/projects/23/runners', { as: 'root', body: { runner_id: 10 } })).status).toBe(201)
  })

  it.each([
    ['an unknown runner', 'max', { runner_id: 999 }, 404, NOT_FOUND],
    ['no runner_id', 'max', {}, 400, { error: 'runner_id is missing' }],
    ['a non-integer runner_id', 'max', { runner_id: 'abc' }, 400, { error: 'runner_id is invalid' }],
    ['no runner_id from a reporter (403 before validation)', 'riley', {}, 403, FORBIDDEN],
    ['a non-member of a private project', 'nora', { runner_id: 7 }, 404, { message: '404 Project Not Found' }],
  ])('answers an error for %s', async (_title, as, body, status, error) => {
    expect(await api.post(`/projects/${as === 'nora' ? 21 : 23}/runners`, { as, body })).toBeGitLabError(status, error)
  })
})

contract('DELETE /projects/:id/runners/:runner_id', {}, ({ api }) => {
  it('disables a runner from one of its projects (204)', async () => {
    const res = await api.delete('/projects/20/runners/6', { as: 'max' })
    expect([res.status, res.text]).toEqual([204, ''])
    expect((await api.get('/runners/6', { as: 'max' })).body.projects.map((p: { id: number }) => p.id)).toEqual([23])
    expect(ids(await api.get('/projects/20/runners', { as: 'max', query: { type: 'project_type' } }))).toEqual([5, 10])
  })

  it('enables then disables: the runner moves between projects', async () => {
    expect((await api.post('/projects/23/runners', { as: 'max', body: { runner_id: 5 } })).status).toBe(201)
    expect((await api.delete('/projects/20/runners/5', { as: 'max' })).status).toBe(204)
    expect((await api.get('/runners/5', { as: 'max' })).body.projects.map((p: { id: number }) => p.id)).toEqual([23])
    expect(await api.delete('/projects/23/runners/5', { as: 'max' })).toBeGitLabError(403, { message: '403 Forbidden - Only one project associated with the runner. Please remove the runner instead' })
  })

  it.each([
    ['the runner\'s only project', 'max', '/projects/20/runners/5', 403, { message: '403 Forbidden - Only one project associated with the runner. Please remove the runner instead' }],
    ['a runner not enabled in the project', 'max', '/projects/20/runners/7', 404, { message: '404 Runner Not Found' }],
    ['an unknown runner', 'max', '/projects/20/runners/999', 404, { message: '404 Runner Not Found' }],
    ['a non-integer runner_id', 'max', '/projects/20/runners/abc', 400, { error: 'runner_id is invalid' }],
    ['a developer', 'devon', '/projects/20/runners/6', 403, FORBIDDEN],
    ['anonymous', undefined, '/projects/20/runners/6', 401, UNAUTHORIZED],
  ])('answers an error for %s', async (_title, as, path, status, error) => {
    expect(await api.delete(path, as ? { as } : {})).toBeGitLabError(status, error)
  })
})

// Issue 23 item 1: a group runner is changed, deleted or has its jobs listed only by an Owner of its
// group (13.x `RunnerPolicy` on `User#ci_owned_runners`, which takes the runners of owned groups and
// their descendants); a group Maintainer still reads it (the spec's role for `GET /runners/:id`).
contract('group runners: Owner to change, Maintainer to read', {}, ({ api }) => {
  it.each([
    ['acme', 3],
    ['acme/platform (a subgroup)', 4],
  ])('lets a Maintainer of %s read its runner but not change, delete or list its jobs', async (_group, id) => {
    expect((await api.get(`/runners/${id}`, { as: 'max' })).status).toBe(200)
    expect(await api.put(`/runners/${id}`, { as: 'max', body: { description: 'x' } })).toBeGitLabError(403, NO_ACCESS)
    expect(await api.delete(`/runners/${id}`, { as: 'max' })).toBeGitLabError(403, NO_ACCESS)
    expect(await api.get(`/runners/${id}/jobs`, { as: 'max' })).toBeGitLabError(403, NO_ACCESS)
    expect((await api.get(`/runners/${id}`, { as: 'root' })).body.description).not.toBe('x')
  })

  it.each([
    ['acme', 3],
    ['acme/platform (owned through acme)', 4],
  ])('lets an Owner of %s change it, list its jobs and delete it', async (_group, id) => {
    const put = await api.put(`/runners/${id}`, { as: 'olive', body: { description: 'owned' } })
    expect([put.status, put.body.description]).toEqual([200, 'owned'])
    const jobs = await api.get(`/runners/${id}/jobs`, { as: 'olive' })
    expect([jobs.status, jobs.body]).toEqual([200, []])
    const del = await api.delete(`/runners/${id}`, { as: 'olive' })
    expect([del.status, del.text]).toEqual([204, ''])
    expect(await api.get(`/runners/${id}`, { as: 'root' })).toBeGitLabError(404, NOT_FOUND)
  })

  it('keeps project runners to their Maintainers', async () => {
    expect((await api.put('/runners/5', { as: 'max', body: { description: 'kept' } })).status).toBe(200)
    expect((await api.get('/runners/5/jobs', { as: 'max' })).status).toBe(200)
  })
})
