/**
 * A pipeline in the default scenario runs the `.gitlab-ci.yml` committed at its ref's commit, or is
 * refused "Missing CI config file" where that commit has none (issue 40 item 4), through every door
 * that starts one: `POST /projects/:id/pipeline`, a trigger (`/trigger/pipeline` and
 * `/ref/:ref/trigger/pipeline`) and a schedule's play. The API and the triggers answer 13.12's 400
 * `{"message":{"base":["Missing CI config file"]}}` (`Chain::Config::Content` → `Chain::Helpers#error`,
 * rendered by `render_validation_error!`); play answers 201 `{"message":"201 Created"}` whatever
 * happens, as 13.12 queues `RunPipelineScheduleWorker`, whose refused pipeline (`save_on_errors:
 * false`) is never saved. No refusal leaves a pipeline behind.
 * Source: gitlab (13.12): lib/api/ci/pipelines.rb, lib/api/ci/triggers.rb,
 * lib/api/ci/pipeline_schedules.rb, app/services/ci/create_pipeline_service.rb,
 * lib/gitlab/ci/pipeline/chain/config/content.rb, app/workers/run_pipeline_schedule_worker.rb.
 * Default scenario (clock frozen at 2021-04-01T12:00:00Z): project 20 acme/website committed its
 * `.gitlab-ci.yml` (compile in build; rspec and lint in test; deploy-production manual and
 * notify-failure on_failure in deploy) on main after "Add the footer": main, feature/login and the
 * tag v1.0.0 have it, the lightweight tag v0.9.0 (at "Add the footer") has not. max maintains it;
 * the next pipeline id is 1008.
 */
import { expect, it } from 'vitest'
import { contract, type Api, type ApiResponse } from '../../support/contract.js'

const MISSING = { message: { base: ['Missing CI config file'] } }

/** The file's jobs in a new pipeline, as the jobs API lists them (newest first): [name, stage, status]. */
const FILE_JOBS = [
  ['notify-failure', 'deploy', 'created'],
  ['deploy-production', 'deploy', 'created'],
  ['lint', 'test', 'created'],
  ['rspec', 'test', 'created'],
  ['compile', 'build', 'pending'],
]

type Door = 'POST /projects/:id/pipeline' | 'POST /projects/:id/trigger/pipeline' | 'POST /projects/:id/ref/:ref/trigger/pipeline' | 'POST /projects/:id/pipeline_schedules/:id/play'

/** Starts a pipeline for `ref` through `door` as max (a trigger and a schedule of max's); the answer and the pipeline it made, if any. */
async function start(api: Api, door: Door, ref: string): Promise<{ res: ApiResponse; pipeline: number | null }> {
  if (door === 'POST /projects/:id/pipeline') {
    const res = await api.post('/projects/20/pipeline', { as: 'max', body: { ref } })
    return { res, pipeline: res.status === 201 ? (res.body.id as number) : null }
  }
  if (door === 'POST /projects/:id/pipeline_schedules/:id/play') {
    const schedule = await api.post('/projects/20/pipeline_schedules', { as: 'max', body: { description: 'nightly', ref, cron: '0 1 * * *' } })
    expect(schedule.status).toBe(201)
    const res = await api.post(`/projects/20/pipeline_schedules/${schedule.body.id}/play`, { as: 'max' })
    const last = (await api.get(`/projects/20/pipeline_schedules/${schedule.body.id}`, { as: 'max' })).body.last_pipeline as { id: number } | null
    return { res, pipeline: last?.id ?? null }
  }
  const trigger = await api.post('/projects/20/triggers', { as: 'max', body: { description: 'deploy' } })
  expect(trigger.status).toBe(201)
  const token = trigger.body.token as string
  const res = door === 'POST /projects/:id/trigger/pipeline'
    ? await api.post('/projects/20/trigger/pipeline', { form: { token, ref } })
    : await api.post(`/projects/20/ref/${encodeURIComponent(ref)}/trigger/pipeline`, { form: { token } })
  return { res, pipeline: res.status === 201 ? (res.body.id as number) : null }
}

const DOORS: [Door, string, number, unknown][] = [
  ['POST /projects/:id/pipeline', 'api', 400, MISSING],
  ['POST /projects/:id/trigger/pipeline', 'trigger', 400, MISSING],
  ['POST /projects/:id/ref/:ref/trigger/pipeline', 'trigger', 400, MISSING],
  ['POST /projects/:id/pipeline_schedules/:id/play', 'schedule', 201, { message: '201 Created' }],
]

/** [ref, what it is, whether its commit has the file, tag]. */
const REFS: [string, string, boolean, boolean][] = [
  ['main', 'the default branch', true, false],
  ['feature/login', 'a branch off main after the file', true, false],
  ['v1.0.0', 'an annotated tag of main', true, true],
  ['v0.9.0', 'a tag before the file', false, true],
  ['before-ci', 'a branch made from v0.9.0', false, false],
]

const CASES = DOORS.flatMap(([door, source, missingStatus, missingBody]) =>
  REFS.map(([ref, what, hasFile, tag]) => [door, ref, what, hasFile, tag, source, missingStatus, missingBody] as const))

contract('a pipeline runs the committed .gitlab-ci.yml, or is refused without one (default scenario)', {}, ({ api, sim }) => {
  it.each(CASES)('%s for %s (%s)', async (door, ref, _what, hasFile, tag, source, missingStatus, missingBody) => {
    if (ref === 'before-ci') {
      expect((await api.post('/projects/20/repository/branches', { as: 'max', body: { branch: ref, ref: 'v0.9.0' } })).status).toBe(201)
    }
    const count = async () => (await api.get('/projects/20/pipelines', { as: 'max', query: { per_page: 100 } })).body.length as number
    // The branch's creation made no push pipeline: its commit has no file.
    const before = await count()
    expect(before).toBe(7)
    const { res, pipeline } = await start(api, door, ref)
    if (!hasFile) {
      expect([res.status, res.body]).toEqual([missingStatus, missingBody])
      expect(pipeline).toBeNull()
      expect(await count()).toBe(before)
      return
    }
    expect(res.status).toBe(201)
    expect(pipeline).toBe(1008)
    const sha = (await api.get(`/projects/20/repository/commits/${encodeURIComponent(ref)}`, { as: 'max' })).body.id as string
    const shown = await api.get('/projects/20/pipelines/1008', { as: 'max' })
    expect(shown.body).toMatchObject({ id: 1008, sha, ref, tag, status: 'pending', user: { username: 'max' } })
    expect(sim().db.tables.pipelines.get(1008)!.source).toBe(source)
    const jobs = await api.get('/projects/20/pipelines/1008/jobs', { as: 'max' })
    expect(jobs.body.map((j: { name: string; stage: string; status: string }) => [j.name, j.stage, j.status])).toEqual(FILE_JOBS)
    expect(await count()).toBe(before + 1)
  })
})
