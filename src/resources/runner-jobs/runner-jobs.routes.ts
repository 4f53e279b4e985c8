/**
 * The runner's own API for jobs (GitLab 13.12's `lib/api/ci/runner.rb` `resource :jobs`): a
 * runner asks for a job with its authentication token (`POST /jobs/request`), then reports on it
 * with the job's token (`token` param or `JOB-TOKEN` header): its state (`PUT /jobs/:id`), its log
 * in pieces (`PATCH /jobs/:id/trace`, `Content-Range`), its artifacts archive
 * (`POST /jobs/:id/artifacts/authorize`, `POST /jobs/:id/artifacts`); and downloads a dependency's
 * archive with that dependency's token (`GET /jobs/:id/artifacts`). No user authentication: these
 * routes check their own tokens (`auth: 'none'`). A build's state changes go through the runners
 * area's state machine (the `job` and `pipeline` facts, deployments, webhooks), as the control call's do.
 * gitlab (13.12): lib/api/ci/runner.rb, lib/api/ci/helpers/runner.rb (`authenticate_runner!`,
 * `authenticate_job!`, `job_forbidden!`), app/services/ci/register_job_service.rb,
 * update_build_state_service.rb, append_build_trace_service.rb, job_artifacts/create_service.rb,
 * lib/api/helpers.rb (`present_carrierwave_file!`, `forbidden!`).
 * @module
 */
import { ApiError, apiMessage, forbidden, notFound } from '../../core/errors.js'
import { p, uploadedBytes } from '../../core/params.js'
import { route, type Ctx, type Reply, type Route } from '../../core/route.js'
import { contentDisposition } from '../../rules/uploads.js'
import {
  appendTrace,
  ARCHIVE_FILENAME,
  artifactsOf,
  artifactsZip,
  buildById,
  hasArchive,
  heartbeat,
  pickBuild,
  pipelineOfBuild,
  runnerById,
  runnerByToken,
  runnerQueueValue,
  storeJobArtifacts,
  updateBuildState,
  type JobRecord,
  type RunnerRecord,
} from '../runners/runners.public.js'
import { JobRequestResponse } from './runner-jobs.entities.js'
import { ARTIFACT_FORMATS, ARTIFACT_TYPES, artifactFiles, expireAt, MAX_ARTIFACTS_SIZE } from './runner-jobs.service.js'

/** `Gitlab::Ci::Trace::UPDATE_FREQUENCY_DEFAULT`: seconds between a runner's log updates when nobody watches. */
const TRACE_UPDATE_INTERVAL = '60'

/**
 * `forbidden!(reason)` as lib/api/helpers.rb joins it in 13.12 (`['403 Forbidden', "- reason"].join(' ')`,
 * gitlab-behaviour.md §1: space, hyphen, space), with the runner API's extra headers.
 */
function forbiddenBecause(reason: string, headers: Record<string, string> = {}): ApiError {
  return new ApiError(403, { message: `403 Forbidden - ${reason}` }, headers)
}

/** The caller's address (`request.ip`): `X-Forwarded-For`'s first entry, else 127.0.0.1 (the MSW door has no peer). */
function callerIp(ctx: Ctx<unknown>): string {
  const forwarded = ctx.request.header('x-forwarded-for')?.split(',')[0]?.trim()
  return forwarded !== undefined && forwarded !== '' ? forwarded : '127.0.0.1'
}

/** The five runner details of `info` (`get_runner_details_from_request`), and the caller's address. */
function runnerDetails(ctx: Ctx<unknown>, info: Record<string, unknown> | undefined) {
  const text = (key: string) => (typeof info?.[key] === 'string' ? (info[key] as string) : undefined)
  return { name: text('name'), version: text('version'), revision: text('revision'), platform: text('platform'), architecture: text('architecture'), ip_address: callerIp(ctx) }
}

/** `authenticate_runner!`: the runner of the token, its cached details updated. @throws ApiError 403 `{"message":"403 Forbidden"}`. */
function authenticateRunner(ctx: Ctx<{ token: string; info?: Record<string, unknown> | undefined }>): RunnerRecord {
  const runner = runnerByToken(ctx.db, ctx.params.token)
  if (!runner) throw forbidden()
  return heartbeat(ctx.db, runner, runnerDetails(ctx, ctx.params.info), ctx.now)
}

/**
 * `authenticate_job!`: the build of `:id` whose token the `token` param or the `JOB-TOKEN` header
 * carries, not erased, and (unless `requireRunning` is false) running; its runner's heartbeat.
 * @throws ApiError 403 `{"message":"403 Forbidden"}` (no such build, a wrong token),
 *   `"403 Forbidden - Job has been erased!"`, `"403 Forbidden - Job is not running"` with `Job-Status`.
 */
function authenticateJob(ctx: Ctx<{ id: number; token?: string | undefined }>, requireRunning = true): JobRecord {
  const job = buildById(ctx.db, ctx.params.id)
  if (!job) throw forbidden()
  const token = ctx.params.token ?? ctx.request.header('job-token') ?? ''
  if (job.token === undefined || token === '' || token !== job.token) throw forbidden()
  if (job.erased_at !== null) throw forbiddenBecause('Job has been erased!')
  if (requireRunning && job.status !== 'running') throw forbiddenBecause('Job is not running', { 'job-status': job.status })
  const runner = job.runner_id === null ? undefined : runnerById(ctx.db, job.runner_id)
  if (runner) heartbeat(ctx.db, runner, { ip_address: callerIp(ctx) }, ctx.now)
  return job
}

/** 204 with the runner's queue value (`X-GitLab-Last-Update`). */
function noJob(value: string): Reply {
  return { status: 204, headers: { 'x-gitlab-last-update': value } }
}

const UTF8 = new TextEncoder()

const jobId = { id: p.integer({ required: true }), token: p.string() }

/** The runner API's job routes. */
export const runnerJobRoutes: Route[] = [
  route('POST /jobs/request', {
    auth: 'none',
    params: { token: p.string({ required: true }), last_update: p.string(), info: p.hash(), session: p.hash(), job_age: p.integer() },
    handler(ctx) {
      const runner = authenticateRunner(ctx)
      if (!runner.active) return noJob(runnerQueueValue(ctx, runner))
      const current = runnerQueueValue(ctx, runner)
      if (ctx.params.last_update !== undefined && ctx.params.last_update === current) return noJob(ctx.params.last_update)
      const job = pickBuild(ctx, runner, ctx.faker.string.alphanumeric(20), ctx.now)
      if (!job) return noJob(current)
      const pipeline = pipelineOfBuild(ctx.db, job)
      const project = ctx.db.tables.projects.get(job.project_id)!
      return { status: 201, body: JobRequestResponse(ctx, { job, pipeline, project, runner }) }
    },
  }),

  route('PUT /jobs/:id', {
    auth: 'none',
    params: {
      token: p.string({ required: true }),
      id: p.integer({ required: true }),
      state: p.string(),
      trace: p.string(),
      checksum: p.string(),
      failure_reason: p.string(),
      output: p.hash(),
      exit_code: p.integer(),
    },
    handler(ctx) {
      const job = authenticateJob(ctx)
      const status = updateBuildState(ctx, job, { state: ctx.params.state, failure_reason: ctx.params.failure_reason, trace: ctx.params.trace }, ctx.now)
      // `body result.status.to_s`, JSON-encoded.
      return { status, body: String(status) }
    },
  }),

  route('PATCH /jobs/:id/trace', {
    auth: 'none',
    rawBody: true,
    params: jobId,
    handler(ctx) {
      const job = authenticateJob(ctx)
      const range = ctx.request.header('content-range')
      if (range === undefined) throw apiMessage(400, '400 Missing header Content-Range')
      const data = ctx.body ?? new Uint8Array()
      const start = Number.parseInt(range.split('-')[0] ?? '', 10)
      const offset = Number.isNaN(start) ? 0 : start
      const size = appendTrace(ctx.db, job, data, offset)
      if (size !== offset + data.byteLength) {
        throw new ApiError(416, { message: '416 Range Not Satisfiable' }, { range: `0-${size}` })
      }
      // The endpoint's last expression, `header 'X-GitLab-Trace-Update-Interval', …`, is its body.
      return { status: 202, body: TRACE_UPDATE_INTERVAL, headers: { 'job-status': job.status, range: `0-${size}`, 'x-gitlab-trace-update-interval': TRACE_UPDATE_INTERVAL } }
    },
  }),

  route('POST /jobs/:id/artifacts/authorize', {
    auth: 'none',
    params: { ...jobId, filesize: p.integer(), artifact_type: p.string({ values: ARTIFACT_TYPES, default: 'archive' }) },
    handler(ctx) {
      authenticateJob(ctx)
      if (ctx.params.filesize !== undefined && ctx.params.filesize > MAX_ARTIFACTS_SIZE) throw apiMessage(413, 'file size has reached maximum size limit')
      // `JobArtifactUploader.workhorse_authorize(has_length: false, maximum_size:)` with local storage.
      const body = { TempPath: '/var/opt/gitlab/gitlab-rails/shared/artifacts/tmp/uploads', MaximumSize: MAX_ARTIFACTS_SIZE }
      return { status: 200, bytes: UTF8.encode(JSON.stringify(body)), headers: { 'content-type': 'application/vnd.gitlab-workhorse+json' } }
    },
  }),

  route('POST /jobs/:id/artifacts', {
    auth: 'none',
    params: {
      id: p.integer({ required: true }),
      file: p.file({ required: true }),
      token: p.string(),
      expire_in: p.string(),
      artifact_type: p.string({ values: ARTIFACT_TYPES, default: 'archive' }),
      artifact_format: p.string({ values: ARTIFACT_FORMATS, default: 'zip' }),
      metadata: p.file(),
    },
    handler(ctx) {
      const job = authenticateJob(ctx)
      const bytes = uploadedBytes(ctx.params.file)
      if (bytes.byteLength > MAX_ARTIFACTS_SIZE) throw apiMessage(413, 'file size has reached maximum size limit')
      const files = artifactFiles(ctx.params.artifact_type, ctx.params.artifact_format, bytes)
      if (hasArchive(ctx.db, job)) throw apiMessage(400, 'another artifact of the same type already exists')
      storeJobArtifacts(ctx.db, job, files, expireAt(ctx.params.expire_in, ctx.now), ctx.now)
      return { status: 201, body: '201' }
    },
  }),

  route('GET /jobs/:id/artifacts', {
    auth: 'none',
    params: { ...jobId, direct_download: p.boolean({ default: false }) },
    handler(ctx) {
      const job = authenticateJob(ctx, false)
      const archive = artifactsOf(ctx.db, job)
      if (!archive) throw notFound()
      return {
        status: 200,
        bytes: artifactsZip(archive),
        headers: { 'content-type': 'application/octet-stream', 'content-disposition': contentDisposition('attachment', ARCHIVE_FILENAME), 'content-transfer-encoding': 'binary' },
      }
    },
  }),
]
