/**
 * `GET /job`: the job of the CI job token a request authenticates with, the one route of this
 * subset that opens itself to job tokens. Source: api-spec.md "Authentication" (CI job token:
 * "job token's job"); gitlab: lib/api/jobs.rb (13.x `resource :job`, `desc 'Get current project
 * using job token'`, `route_setting :authentication, job_token_allowed: true`,
 * `validate_current_authenticated_job`).
 * @module
 */
import { notFound } from '../../core/errors.js'
import { ok } from '../../core/respond.js'
import { route, type Route } from '../../core/route.js'
import { Job } from './runners.entities.js'

/** The job-token routes of the jobs API. */
export const jobRoutes: Route[] = [
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
