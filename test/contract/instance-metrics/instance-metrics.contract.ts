/**
 * The instance reads clients poll: Sidekiq's metrics (administrators only, one idle process, empty
 * queues) and the application statistics (administrators only, counts as delimited strings).
 * Source: gitlab: lib/api/sidekiq_metrics.rb, lib/api/statistics.rb,
 * lib/api/entities/application_statistics.rb, spec/requests/api/statistics_spec.rb;
 * python-gitlab tests/functional/api/test_gitlab.py (test_sidekiq_*) and conftest.py (wait_for_sidekiq).
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

const QUEUES = [
  'authorized_projects', 'default', 'mailers', 'merge', 'new_issue', 'new_merge_request', 'new_note',
  'pipeline_cache:expire_job_cache', 'pipeline_creation:create_pipeline', 'pipeline_processing:build_finished',
  'pipeline_processing:pipeline_process', 'post_receive', 'project_destroy', 'web_hook',
]

contract('GET /sidekiq/*_metrics, /sidekiq/job_stats', {}, ({ api }) => {
  it('lists every queue, sorted by name, empty', async () => {
    const res = await api.get('/sidekiq/queue_metrics', { as: 'root' })
    expect(res.status).toBe(200)
    expect(Object.keys(res.body.queues)).toEqual(QUEUES)
    expect(res.body.queues.default).toEqual({ backlog: 0, latency: 0 })
    expect(JSON.stringify(res.body.queues.mailers)).toBe('{"backlog":0,"latency":0}')
  })

  it('shows one idle process in GitLab\'s field order, started with the instance', async () => {
    const res = await api.get('/sidekiq/process_metrics', { as: 'root' })
    expect(res.status).toBe(200)
    expect(res.body.processes).toHaveLength(1)
    const [process] = res.body.processes
    expect(Object.keys(process)).toEqual(['hostname', 'pid', 'tag', 'started_at', 'queues', 'labels', 'concurrency', 'busy'])
    expect(process).toEqual({
      hostname: new URL(api.baseUrl).hostname, pid: 1, tag: 'gitlab', started_at: process.started_at,
      queues: QUEUES, labels: [], concurrency: 25, busy: 0,
    })
    expect(process.started_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect(process.started_at < '2021-04-01T12:00:00.000Z').toBe(true)
  })

  it('counts no processed, failed or enqueued job', async () => {
    const res = await api.get('/sidekiq/job_stats', { as: 'root' })
    expect(res.status).toBe(200)
    expect(res.text).toBe('{"jobs":{"processed":0,"failed":0,"enqueued":0}}')
  })

  it('compounds the three in the order queues, processes, jobs', async () => {
    const res = await api.get('/sidekiq/compound_metrics', { as: 'root' })
    expect(res.status).toBe(200)
    expect(Object.keys(res.body)).toEqual(['queues', 'processes', 'jobs'])
    expect(res.body.processes[0].busy).toBe(0)
    expect(res.body.jobs).toEqual({ processed: 0, failed: 0, enqueued: 0 })
  })

  it.each(['queue_metrics', 'process_metrics', 'job_stats', 'compound_metrics'])('%s: anonymous 401, a non-admin 403', async (name) => {
    expect(await api.get(`/sidekiq/${name}`)).toBeGitLabError(401, { message: '401 Unauthorized' })
    expect(await api.get(`/sidekiq/${name}`, { as: 'olive' })).toBeGitLabError(403, { message: '403 Forbidden' })
  })
})

contract('GET /application/statistics', {}, ({ api, sim }) => {
  it('counts the instance in GitLab\'s field order, every value a string', async () => {
    const res = await api.get('/application/statistics', { as: 'root' })
    expect(res.status).toBe(200)
    expect(Object.keys(res.body)).toEqual([
      'forks', 'issues', 'merge_requests', 'notes', 'snippets', 'ssh_keys', 'milestones', 'users', 'projects', 'groups', 'active_users',
    ])
    const db = sim().db
    const users = db.tables.users.all()
    expect(res.body).toEqual({
      forks: '0',
      issues: String(db.tables.issues.size),
      merge_requests: String(db.tables.merge_requests.size),
      notes: String(db.tables.notes.size),
      snippets: String(db.tables.snippets.size),
      ssh_keys: '0',
      milestones: String(db.tables.milestones.size),
      users: String(users.length),
      projects: String(db.tables.projects.size),
      groups: String(db.tables.groups.size),
      active_users: String(users.filter((u) => u.state === 'active' && u.user_type !== 'ghost').length),
    })
    expect(Number(res.body.issues)).toBeGreaterThan(0)
  })

  it('follows what the API creates and delimits thousands', async () => {
    const before = await api.get('/application/statistics', { as: 'root' })
    expect((await api.post('/projects/20/issues', { as: 'devon', body: { title: 'Counted' } })).status).toBe(201)
    const after = await api.get('/application/statistics', { as: 'root' })
    expect(Number(after.body.issues)).toBe(Number(before.body.issues) + 1)
    for (let i = 0; i < 1000; i++) {
      sim().db.tables.milestones.insert({ ...sim().db.tables.milestones.all()[0]!, id: 100_000 + i, iid: 10_000 + i, title: `m${i}` })
    }
    const many = await api.get('/application/statistics', { as: 'root' })
    expect(many.body.milestones).toMatch(/^1,\d{3}$/)
  })

  it('anonymous 401, a non-admin 403', async () => {
    expect(await api.get('/application/statistics')).toBeGitLabError(401, { message: '401 Unauthorized' })
    expect(await api.get('/application/statistics', { as: 'olive' })).toBeGitLabError(403, { message: '403 Forbidden' })
  })
})
