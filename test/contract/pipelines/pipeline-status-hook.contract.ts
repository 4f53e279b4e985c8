/**
 * The pipeline status hook other areas rely on (runners.public.ts `onPipelineStatusChanged`): each
 * route that changes a pipeline's status tells every registered listener, in registration order,
 * once the new status is stored, within the request (the listener's context is the request's).
 * Over both doors, on the default scenario (project 20 acme/website: pipeline 1003 succeeded on
 * main's tip, 1004 pending on feature/login with job 2007 pending and 2008 created, 1005 canceled
 * with job 2009, 1007 manual with manual job 2013; devon developer, max maintainer).
 */
import { afterEach, beforeEach, expect, it } from 'vitest'
import { onPipelineStatusChanged, type PipelineStatusListener } from '../../../src/resources/runners/runners.public.js'
import { offPipelineStatusChanged } from '../../../src/resources/runners/pipelines.hooks.js'
import { contract } from '../../support/contract.js'

const MAIN_TIP = '1e4fee13c341a10ef5522c01d665868d7fcc6bbb'

/** What the listeners saw: [listener, pipeline id, previous status, new status, status as stored then, caller]. */
let seen: [string, number, string, string, string | undefined, string | undefined][] = []

const listener = (name: string): PipelineStatusListener => (ctx, pipeline, previous) => {
  seen.push([name, pipeline.id, previous, pipeline.status, ctx.db.tables.pipelines.get(pipeline.id)?.status, ctx.currentUser?.username])
}
const first = listener('first')
const second = listener('second')

beforeEach(() => {
  seen = []
  onPipelineStatusChanged(first)
  onPipelineStatusChanged(second)
  // Registered twice, called once.
  onPipelineStatusChanged(first)
})

afterEach(() => {
  offPipelineStatusChanged(first)
  offPipelineStatusChanged(second)
})

contract('onPipelineStatusChanged', {}, ({ api }) => {
  it.each([
    ['POST …/statuses/:sha (a pipeline with builds)', 'POST', `/projects/20/statuses/${MAIN_TIP}`, { state: 'failed' }, 'max', [1003, 'success', 'failed']],
    ['POST …/statuses/:sha (a new external pipeline)', 'POST', '/projects/20/statuses/feature%2Flogin', { state: 'running' }, 'devon', [1008, 'created', 'running']],
    ['POST …/pipeline', 'POST', '/projects/20/pipeline', { ref: 'feature/login' }, 'devon', [1008, 'created', 'pending']],
    ['POST …/pipelines/:id/cancel', 'POST', '/projects/20/pipelines/1004/cancel', undefined, 'devon', [1004, 'pending', 'canceled']],
    ['POST …/pipelines/:id/retry', 'POST', '/projects/20/pipelines/1005/retry', undefined, 'devon', [1005, 'canceled', 'pending']],
    ['POST …/jobs/:id/cancel', 'POST', '/projects/20/jobs/2007/cancel', undefined, 'devon', [1004, 'pending', 'canceled']],
    ['POST …/jobs/:id/retry', 'POST', '/projects/20/jobs/2009/retry', undefined, 'devon', [1005, 'canceled', 'pending']],
    ['POST …/jobs/:id/play', 'POST', '/projects/20/jobs/2013/play', undefined, 'devon', [1007, 'manual', 'running']],
  ] as const)('%s tells every listener, in order, after storing', async (_what, method, path, body, as, [id, previous, status]) => {
    const res = await api.request(method, path, { as, body })
    expect(res.status).toBeLessThan(300)
    expect(seen).toEqual([
      ['first', id, previous, status, status, as],
      ['second', id, previous, status, status, as],
    ])
  })

  it.each([
    ['a status that leaves the pipeline as it was', 'POST', `/projects/20/statuses/${MAIN_TIP}`, { state: 'success' }, 'max'],
    ['a refused status (a blocked target_url)', 'POST', `/projects/20/statuses/${MAIN_TIP}`, { state: 'pending', target_url: 'nope' }, 'max'],
    ['erasing a job', 'POST', '/projects/20/jobs/2009/erase', undefined, 'devon'],
    ['a read', 'GET', '/projects/20/pipelines/1003', undefined, 'devon'],
  ] as const)('%s tells no listener', async (_what, method, path, body, as) => {
    await api.request(method, path, { as, body })
    expect(seen).toEqual([])
  })

  it('a listener\'s writes are kept with the request\'s', async () => {
    const write: PipelineStatusListener = (ctx, pipeline) => {
      ctx.db.tables.pipeline_variables.insert({ pipeline_id: pipeline.id, key: 'SEEN', value: pipeline.status, variable_type: 'env_var' })
    }
    onPipelineStatusChanged(write)
    try {
      await api.post(`/projects/20/statuses/${MAIN_TIP}`, { as: 'max', body: { state: 'running' } })
      expect((await api.get('/projects/20/pipelines/1003/variables', { as: 'max' })).body).toEqual([{ variable_type: 'env_var', key: 'SEEN', value: 'running' }])
    } finally {
      offPipelineStatusChanged(write)
    }
  })
})
