/**
 * Pipeline schedules (issue 36 item 2): CRUD with the 13.12 entities, cron and time zone
 * validation, `next_run_at` (the cron's next time moved to the scheduler's `19 * * * *` tick),
 * take_ownership, play (a `schedule` pipeline whose rules read the schedule's variables; made at
 * once, where GitLab queues it) and schedule variables (delete answers 202 with the variable).
 * Source: gitlab (13.12): lib/api/ci/pipeline_schedules.rb, app/models/ci/pipeline_schedule.rb,
 * app/models/concerns/schedulable.rb. Default scenario: project 20 acme/website (max maintainer,
 * devon developer, riley reporter); clock frozen at 2021-04-01T12:00:00Z (a Thursday); next
 * pipeline id 1008 (a branch off main, which has the `.gitlab-ci.yml`, takes it with its push, the
 * commit rewriting the file 1009; the played one is 1010).
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

const NOW = '2021-04-01T12:00:00.000Z'

contract('/projects/:id/pipeline_schedules', {}, ({ api }) => {
  it('creates, lists, gets, updates, takes over and deletes a schedule', async () => {
    const made = await api.post('/projects/20/pipeline_schedules', { as: 'devon', body: { description: 'nightly', ref: 'main', cron: '0 1 * * *', cron_timezone: 'Europe/Berlin' } })
    expect(made.status).toBe(201)
    expect(Object.keys(made.body as object)).toEqual(['id', 'description', 'ref', 'cron', 'cron_timezone', 'next_run_at', 'active', 'created_at', 'updated_at', 'owner', 'last_pipeline', 'variables'])
    // 01:00 Berlin (CEST) is 23:00 UTC; the scheduler's next tick after it is 23:19.
    expect(made.body).toMatchObject({ description: 'nightly', ref: 'main', cron: '0 1 * * *', cron_timezone: 'Europe/Berlin', next_run_at: '2021-04-01T23:19:00.000Z', active: true, created_at: NOW, updated_at: NOW, last_pipeline: null, variables: [] })
    expect(made.body.owner).toMatchObject({ username: 'devon' })
    const id = made.body.id as number
    const listed = await api.get('/projects/20/pipeline_schedules', { as: 'riley' })
    expect(listed.body).toEqual([{ id, description: 'nightly', ref: 'main', cron: '0 1 * * *', cron_timezone: 'Europe/Berlin', next_run_at: '2021-04-01T23:19:00.000Z', active: true, created_at: NOW, updated_at: NOW, owner: made.body.owner }])
    expect((await api.get('/projects/20/pipeline_schedules?scope=inactive', { as: 'riley' })).body).toEqual([])
    // The scheduler's very next tick (12:19) is kept; a later tick (13:19) gives the tick after it,
    // as Schedulable#set_next_run_at computes (fugit's next_time is strictly after).
    const put = await api.put(`/projects/20/pipeline_schedules/${id}`, { as: 'devon', body: { cron: '19 12 * * *', cron_timezone: 'UTC', active: false } })
    expect(put.body).toMatchObject({ cron: '19 12 * * *', next_run_at: '2021-04-01T12:19:00.000Z', active: false })
    expect((await api.put(`/projects/20/pipeline_schedules/${id}`, { as: 'devon', body: { cron: '19 13 * * *' } })).body.next_run_at).toBe('2021-04-01T14:19:00.000Z')
    expect(await api.put(`/projects/20/pipeline_schedules/${id}`, { as: 'riley', body: { active: true } })).toBeGitLabError(403, { message: '403 Forbidden' })
    const taken = await api.post(`/projects/20/pipeline_schedules/${id}/take_ownership`, { as: 'max' })
    expect(taken.status).toBe(201)
    expect(taken.body.owner).toMatchObject({ username: 'max' })
    expect(await api.delete(`/projects/20/pipeline_schedules/${id}`, { as: 'devon' })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect((await api.delete(`/projects/20/pipeline_schedules/${id}`, { as: 'max' })).status).toBe(204)
    expect(await api.get(`/projects/20/pipeline_schedules/${id}`, { as: 'max' })).toBeGitLabError(404, { message: '404 Pipeline Schedule Not Found' })
  })

  it.each([
    [{ description: 'x', ref: 'main', cron: 'not a cron' }, { cron: [' is invalid syntax'] }],
    [{ description: 'x', ref: 'main', cron: '0 1 * * *', cron_timezone: 'Mars/Base' }, { cron_timezone: [' is invalid syntax'] }],
    [{ description: ' ', ref: 'main', cron: '0 1 * * *' }, { description: ["can't be blank"] }],
  ])('refuses %j', async (body, message) => {
    expect(await api.post('/projects/20/pipeline_schedules', { as: 'devon', body })).toBeGitLabError(400, { message })
  })

  it('manages a schedule\'s variables', async () => {
    const id = (await api.post('/projects/20/pipeline_schedules', { as: 'devon', body: { description: 'v', ref: 'main', cron: '0 1 * * *' } })).body.id as number
    const v = await api.post(`/projects/20/pipeline_schedules/${id}/variables`, { as: 'devon', body: { key: 'NIGHTLY', value: 'yes' } })
    expect([v.status, v.text]).toEqual([201, '{"variable_type":"env_var","key":"NIGHTLY","value":"yes"}'])
    expect(await api.post(`/projects/20/pipeline_schedules/${id}/variables`, { as: 'devon', body: { key: 'NIGHTLY', value: 'no' } })).toBeGitLabError(400, { message: { key: ['has already been taken'] } })
    expect((await api.put(`/projects/20/pipeline_schedules/${id}/variables/NIGHTLY`, { as: 'devon', body: { value: 'sure', variable_type: 'file' } })).body).toEqual({ variable_type: 'file', key: 'NIGHTLY', value: 'sure' })
    expect((await api.get(`/projects/20/pipeline_schedules/${id}`, { as: 'devon' })).body.variables).toEqual([{ variable_type: 'file', key: 'NIGHTLY', value: 'sure' }])
    const del = await api.delete(`/projects/20/pipeline_schedules/${id}/variables/NIGHTLY`, { as: 'devon' })
    expect([del.status, del.body]).toEqual([202, { variable_type: 'file', key: 'NIGHTLY', value: 'sure' }])
    expect(await api.get(`/projects/20/pipeline_schedules/${id}/variables/NIGHTLY`, { as: 'devon' })).toBeGitLabError(404, { message: '404 Pipeline Schedule Variable Not Found' })
  })

  it('plays a schedule: a schedule pipeline at once, its rules reading the schedule\'s variables', async () => {
    expect((await api.post('/projects/20/repository/branches', { as: 'max', body: { branch: 'ci-nightly', ref: 'main' } })).status).toBe(201)
    const ci = 'nightly:\n  rules:\n    - if: \'$CI_PIPELINE_SOURCE == "schedule" && $NIGHTLY == "yes"\'\n  script: x\nalways:\n  script: x\n'
    expect((await api.put('/projects/20/repository/files/.gitlab-ci.yml', { as: 'max', body: { branch: 'ci-nightly', content: ci, commit_message: 'CI' } })).status).toBe(200)
    const id = (await api.post('/projects/20/pipeline_schedules', { as: 'devon', body: { description: 'n', ref: 'ci-nightly', cron: '0 1 * * *' } })).body.id as number
    await api.post(`/projects/20/pipeline_schedules/${id}/variables`, { as: 'devon', body: { key: 'NIGHTLY', value: 'yes' } })
    const play = await api.post(`/projects/20/pipeline_schedules/${id}/play`, { as: 'devon' })
    expect([play.status, play.body]).toEqual([201, { message: '201 Created' }])
    const shown = await api.get(`/projects/20/pipeline_schedules/${id}`, { as: 'devon' })
    expect(shown.body.last_pipeline).toMatchObject({ id: 1010, ref: 'ci-nightly', status: 'pending' })
    const jobs = (await api.get('/projects/20/pipelines/1010/jobs', { as: 'max' })).body as { name: string }[]
    expect(jobs.map((j) => j.name).sort()).toEqual(['always', 'nightly'])
    // Schedule variables are not the pipeline's own.
    expect((await api.get('/projects/20/pipelines/1010/variables', { as: 'max' })).body).toEqual([])
    expect(await api.post(`/projects/20/pipeline_schedules/${id}/play`, { as: 'riley' })).toBeGitLabError(403, { message: '403 Forbidden' })
  })

  it('is for Reporters to read, 401 anonymous on writes', async () => {
    expect(await api.get('/projects/20/pipeline_schedules', { as: 'gina' })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect(await api.post('/projects/20/pipeline_schedules', { body: { description: 'x', ref: 'main', cron: '0 1 * * *' } })).toBeGitLabError(401, { message: '401 Unauthorized' })
  })
})
