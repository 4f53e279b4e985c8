/**
 * The authentication part of the scenario format (the tables are core's: `core/auth.ts` reads them):
 * - top-level `impersonation_enabled:` (default true), `rate_limit:` (`{requests, period_seconds}`,
 *   default none) and `max_request_body_bytes:` (default 250 MiB), loaded into `auth_settings`;
 * - `sessions:` of users: values of the `_gitlab_session` cookie of a user the scenario signs in;
 * - `job_tokens:` of projects: CI job tokens (`CI_JOB_TOKEN`) of the project's jobs, each with the
 *   user who triggered the pipeline, the job's status (only a `running` job's token is valid) and
 *   optionally the runner job it belongs to (`job:`, what `GET /job` presents).
 * Source: api-spec.md "Authentication"; gitlab-behaviour.md §1.5.
 * @module
 */
import { z } from 'zod'
import type { CheckContext, FieldsInput, FieldsOutput, ScenarioFragment } from '../../scenario/fragment.js'
import { at } from '../../scenario/problems.js'
import { items } from '../../scenario/entries.js'
import { idSchema, pathSchema } from '../../scenario/scalars.js'

const root = {
  /** `gitlab_rails['impersonation_enabled']`: false makes every impersonation token answer 401. */
  impersonation_enabled: z.boolean().default(true).describe('GitLab\'s impersonation_enabled setting: false makes every impersonation token answer 401. Default true.'),
  /** Authenticated and unauthenticated API throttles, one budget per client. */
  rate_limit: z.strictObject({ requests: z.int().positive().describe('Requests allowed per period, per client.'), period_seconds: z.int().positive().default(60).describe('The period, in seconds. Default 60.') }).optional().describe('API rate limit (authenticated and unauthenticated throttles, one budget per client): requests per period; absent = no limit.'),
  /** Largest request body, in bytes, before 413 (default 250 MiB, Omnibus nginx's `client_max_body_size`). */
  max_request_body_bytes: z.int().positive().optional().describe('Largest request body, in bytes, before 413. Default 250 MiB (Omnibus nginx\'s client_max_body_size).'),
}

/** The top-level authentication settings, as parsed. */
export type AuthenticationSettings = FieldsOutput<typeof root>

const sessionSchema = z.string().min(1)
const jobTokenSchema = z.strictObject({
  id: idSchema.optional().describe('Record id; the next free one when absent.'),
  /** The secret sent as `JOB-TOKEN` or `job_token=`. */
  token: z.string().min(1).describe('The secret a CI job sends as JOB-TOKEN or job_token=.'),
  /** Username of the user who triggered the pipeline. */
  user: pathSchema.describe('Username of the user who triggered the pipeline: the job token acts as this user.'),
  status: z.enum(['created', 'pending', 'running', 'success', 'failed', 'canceled']).default('running').describe('The job status: created, pending, running, success, failed or canceled. Only a running job token authenticates. Default running.'),
  /**
   * The `id` of the runner job (top-level `runners[].jobs[]`) this is the `CI_JOB_TOKEN` of, which
   * `GET /job` presents; its status (and user, when the job names one) must be the token's.
   */
  job: idSchema.optional().describe('The id of the runner job (top-level runners[].jobs[]) this is the CI_JOB_TOKEN of; GET /job presents it.'),
})

const userFields = { sessions: z.array(sessionSchema).default([]).describe('Web session cookies (_gitlab_session values) that sign this user in.') }
const projectFields = { job_tokens: z.array(jobTokenSchema).default([]).describe('CI job tokens (CI_JOB_TOKEN) of jobs of this project.') }

/** The `sessions` field of users, as parsed. */
export type SessionFields = FieldsOutput<typeof userFields>
/** The `job_tokens` field of projects, as parsed. */
export type JobTokenFields = FieldsOutput<typeof projectFields>

declare module '../../scenario/records.js' {
  interface ScenarioUser extends SessionFields {}
  interface ScenarioUserInput extends FieldsInput<typeof userFields> {}
  interface ScenarioProject extends JobTokenFields {}
  interface ScenarioProjectInput extends FieldsInput<typeof projectFields> {}
  interface Scenario extends Partial<AuthenticationSettings> {}
  interface ScenarioInput extends Partial<FieldsInput<typeof root>> {}
}

/** The runner jobs of the document (`runners[].jobs[]`) by id, as written. */
function runnerJobs(ctx: CheckContext): Map<number, Record<string, unknown>> {
  const jobs = new Map<number, Record<string, unknown>>()
  if (!ctx.root) return jobs
  for (const runner of items(ctx.root, 'runners')) {
    for (const job of items(runner, 'jobs')) if (typeof job.value.id === 'number') jobs.set(job.value.id, job.value)
  }
  return jobs
}

/** The authentication fragment (see the module comment). */
export const authenticationFragment: ScenarioFragment = {
  need: { always: 'load.root inserts the auth_settings row (impersonation, rate limit, body size) whatever the scenario says' },
  root,
  fields: { user: userFields, project: projectFields },
  collections: [{ table: 'ci_job_tokens', field: 'job_tokens', on: ['project'] }],
  check(ctx) {
    const jobs = runnerJobs(ctx)
    for (const project of ctx.model.project) {
      for (const token of items(project, 'job_tokens')) {
        const { user, job, status } = token.value as { user?: unknown; job?: unknown; status?: unknown }
        ctx.checkUser(at(token, 'user'), user)
        if (typeof job !== 'number') continue
        const found = jobs.get(job)
        if (!found) {
          ctx.report(at(token, 'job'), `unknown job ${job} (no runners[].jobs[] entry has this id)`)
          continue
        }
        // A job token is the job's: GitLab authenticates it while the job runs, as its user.
        const jobStatus = typeof found.status === 'string' ? found.status : 'success'
        if ((status ?? 'running') !== jobStatus) ctx.report(at(token, 'status'), `must be job ${job}'s status (${jobStatus})`)
        if (typeof found.user === 'string' && typeof user === 'string' && found.user.toLowerCase() !== user.toLowerCase()) {
          ctx.report(at(token, 'user'), `must be job ${job}'s user (${found.user})`)
        }
      }
    }
  },
  load: {
    root(ctx, scenario) {
      const limit = scenario.rate_limit as AuthenticationSettings['rate_limit']
      ctx.db.tables.auth_settings.insert({
        id: 1,
        impersonation_enabled: scenario.impersonation_enabled !== false,
        rate_limit_requests: limit?.requests ?? null,
        rate_limit_period_seconds: limit?.period_seconds ?? 60,
        max_request_body_bytes: (scenario.max_request_body_bytes as number | undefined) ?? 250 * 1024 * 1024,
      })
    },
    user(ctx, user, row) {
      for (const session of user.sessions) ctx.db.tables.user_sessions.insert({ user_id: row.id, session_id: session })
    },
    project(ctx, project, parent) {
      for (const token of project.job_tokens) {
        ctx.stage('ci_job_tokens', { id: ctx.idOf(token), token: token.token, user_id: ctx.userId(token.user), project_id: parent.id, job_id: token.job ?? null, status: token.status })
      }
    },
  },
}
