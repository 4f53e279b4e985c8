/**
 * The jobs API: a project's jobs listed and read, their logs, and retry, cancel, play and erase;
 * and `GET /job`, the job of the CI job token a request authenticates with (the one route of this
 * subset that opens itself to job tokens). Every route needs a signed-in user
 * (`before { authenticate! }`), public project or not. The project's `read_build` (or
 * `update_build` for the writes) is checked before the job is looked for; a job of another project
 * is 404 `{"message":"404 Not found"}` (`user_project.builds.find`).
 * Source: api-spec.md "Authentication" (CI job token: "job token's job"); issue 25 item 3;
 * gitlab: lib/api/jobs.rb (13.x), app/policies/ci/build_policy.rb, lib/api/helpers.rb
 * (`find_build!`, `authorize_read_builds!`, `authorize_update_builds!`).
 * @module
 */
import { badRequest, forbidden, notFound, recordNotFound } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import { findProject } from '../../rules/finders.js'
import { CI_STATUSES } from './pipelines.scenario.js'
import { canDevelop, canEraseJob, checkScopeNotCommaSeparated, canReadBuilds, canUpdateJob, cancelJob, erasable, eraseJob, isBuild, playable, playJob, retryable, retryJob } from './pipelines.service.js'
import { Job } from './runners.entities.js'
import type { JobRecord } from './runners.tables.js'

const jobParams = { id: p.string({ required: true }), job_id: p.integer({ required: true }) }

/**
 * `find_build!`: the build with that id in the project (`user_project.builds.find`: a generic
 * commit status is no build). @throws ApiError 404 `{"message":"404 Not found"}`.
 */
function findJob(ctx: Ctx<{ job_id: number }>, project: ProjectRecord): JobRecord {
  const job = ctx.db.tables.jobs.get(ctx.params.job_id)
  if (!job || job.project_id !== project.id || !isBuild(job)) throw recordNotFound()
  return job
}

/** `authorize_read_builds!` (`read_build` on the project), then the job. @throws ApiError 403, then 404. */
function readableJob(ctx: Ctx<{ id: string; job_id: number }>): { project: ProjectRecord; job: JobRecord } {
  const project = findProject(ctx, ctx.params.id)
  if (!canReadBuilds(ctx, project)) throw forbidden()
  return { project, job: findJob(ctx, project) }
}

/** `authorize_update_builds!` (`update_build` on the project: Developer+), then the job. @throws ApiError 403, then 404. */
function updatableJob(ctx: Ctx<{ id: string; job_id: number }>): { project: ProjectRecord; job: JobRecord } {
  const project = findProject(ctx, ctx.params.id)
  if (!canDevelop(ctx, project)) throw forbidden()
  return { project, job: findJob(ctx, project) }
}

/** The text encoder of trace bodies. */
const UTF8 = new TextEncoder()

/** The jobs API routes. */
export const jobRoutes: Route[] = [
  route('GET /projects/:id/jobs', {
    params: { id: p.string({ required: true }), scope: p.strings({ values: CI_STATUSES }), ...paginationParams },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      if (!canReadBuilds(ctx, project)) throw forbidden()
      // `user_project.builds.order('id DESC')`: every build, retried ones included (no generic commit statuses).
      let jobs = ctx.db.tables.jobs.where('project_id', project.id).filter(isBuild).reverse()
      checkScopeNotCommaSeparated(ctx.raw.scope)
      const scope = ctx.params.scope
      if (scope && scope.length > 0) jobs = jobs.filter((job) => (scope as readonly string[]).includes(job.status))
      return paginated(ctx, jobs, (job) => Job(job, ctx))
    },
  }),

  route('GET /projects/:id/jobs/:job_id', {
    params: jobParams,
    handler(ctx) {
      return ok(Job(readableJob(ctx).job, ctx))
    },
  }),

  route('GET /projects/:id/jobs/:job_id/trace', {
    params: jobParams,
    handler(ctx) {
      const { job } = readableJob(ctx)
      // `content_type 'text/plain'`, `env['api.format'] = :binary`: the log as it is ("" when none).
      return {
        status: 200,
        bytes: UTF8.encode(job.trace ?? ''),
        headers: { 'content-type': 'text/plain', 'content-disposition': `infile; filename="${job.id}.log"` },
      }
    },
  }),

  route('POST /projects/:id/jobs/:job_id/cancel', {
    params: jobParams,
    handler(ctx) {
      const { project, job } = updatableJob(ctx)
      if (!canUpdateJob(ctx, project, job)) throw forbidden()
      return created(Job(cancelJob(ctx, job, ctx.now), ctx))
    },
  }),

  route('POST /projects/:id/jobs/:job_id/retry', {
    params: jobParams,
    handler(ctx) {
      const { project, job } = updatableJob(ctx)
      if (!canUpdateJob(ctx, project, job)) throw forbidden()
      if (!retryable(job)) throw forbidden('Job is not retryable')
      return created(Job(retryJob(ctx, job, ctx.currentUser!, ctx.now), ctx))
    },
  }),

  route('POST /projects/:id/jobs/:job_id/erase', {
    params: jobParams,
    handler(ctx) {
      const { project, job } = updatableJob(ctx)
      if (!canEraseJob(ctx, project, job)) throw forbidden()
      if (!erasable(job)) throw forbidden('Job is not erasable!')
      return created(Job(eraseJob(ctx.db, job, ctx.now), ctx))
    },
  }),

  route('POST /projects/:id/jobs/:job_id/play', {
    params: jobParams,
    handler(ctx) {
      const { project, job } = readableJob(ctx)
      if (!canUpdateJob(ctx, project, job)) throw forbidden()
      if (!playable(job)) throw badRequest('Unplayable Job')
      // gitlab: `status 200` after `build.play`.
      return ok(Job(playJob(ctx, job, ctx.currentUser!, ctx.now), ctx))
    },
  }),

  route('GET /job', {
    // gitlab: lib/api/jobs.rb `before { authenticate! }`: anonymous (or a job token of a job that
    // is not running, or an unknown one) is 401 before the handler.
    jobTokenAllowed: true,
    handler(ctx) {
      // `current_authenticated_job` is nil for any other credential (a personal access token, OAuth,
      // a session): `not_found!('Job')`.
      const jobId = ctx.auth.method === 'job_token' ? ctx.auth.jobToken?.job_id : undefined
      // spec-gap: a scenario job token that names no `job:` has no job to present: the same 404.
      const job = jobId === undefined || jobId === null ? undefined : ctx.db.tables.jobs.get(jobId)
      if (!job) throw notFound('Job')
      return ok(Job(job, ctx))
    },
  }),
]
