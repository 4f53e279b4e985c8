/**
 * The CI parts of the scenario format the runners fragment composes (`runners.scenario.ts`):
 * - a project's `ci_config:`, the stand-in for `.gitlab-ci.yml` in a project without a `repository:`
 *   (beside one it is a scenario error: the definition is then the committed file, issue 40 item 4;
 *   `pipelines.ci-config.ts`): `stages` and `jobs` with their `stage`, `when` and `allow_failure`,
 *   which `POST /projects/:id/pipeline` turns into jobs (every job, as a job with no `rules` or
 *   `only` runs on branches and tags);
 * - a project's `public_builds:` (GitLab's "Public pipelines", default true);
 * - a pipeline's own `jobs:` (jobs no runner picked: created, pending, manual, skipped) and
 *   `variables:`.
 * Source: issue 25 item 3; gitlab: lib/gitlab/ci/config/entry/job.rb (`when`, `allow_failure`
 * default true for manual jobs), lib/gitlab/ci/config/entry/stages.rb (default stages).
 * @module
 */
import { z } from 'zod'
import { timestampSchema, idSchema } from '../../scenario/scalars.js'
import type { JobWhen } from './runners.tables.js'

/** GitLab's CI statuses (`HasStatus::AVAILABLE_STATUSES`). */
export const CI_STATUSES = ['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'success', 'failed', 'canceled', 'skipped', 'manual', 'scheduled'] as const

/** The `when` values fakelab runs. */
export const JOB_WHEN = ['on_success', 'manual', 'always', 'on_failure'] as const

/** `.gitlab-ci.yml`'s stages when none are written (gitlab: lib/gitlab/ci/config/entry/stages.rb). */
export const DEFAULT_STAGES: readonly string[] = ['.pre', 'build', 'test', 'deploy', '.post']

const ciJobSchema = z.strictObject({
  name: z.string().min(1).describe('Job name, unique in the definition.'),
  stage: z.string().min(1).default('test').describe('Its stage (one of `stages`). Default test.'),
  when: z.enum(JOB_WHEN).default('on_success').describe('on_success (default), manual, always or on_failure.'),
  allow_failure: z.boolean().optional().describe('Whether it may fail without failing the pipeline; default true for manual jobs, else false.'),
})

/** A project's CI definition, as a scenario writes it. */
export const ciConfigSchema = z.strictObject({
  stages: z.array(z.string().min(1)).min(1).optional().describe('Stage names in order; default .pre, build, test, deploy, .post.'),
  jobs: z.array(ciJobSchema).min(1).describe('The jobs a new pipeline gets, one per entry.'),
}).describe('Only for a project without a `repository:` (beside one it is an error: commit a .gitlab-ci.yml instead): the stand-in for its .gitlab-ci.yml, the CI definition POST /projects/:id/pipeline, triggers and schedules run (pushes never read it); absent: "Missing CI config file".')

/** A pipeline's own job (one no runner picked), as a scenario writes it. */
export const pipelineJobSchema = z.strictObject({
  id: idSchema.optional().describe('Job id; the next free one when absent.'),
  name: z.string().min(1).describe('Job name.'),
  stage: z.string().min(1).default('test').describe('Stage name. Default test.'),
  status: z.enum(CI_STATUSES).default('created').describe('A CI status (created, pending, manual, skipped, success, ...). Default created.'),
  when: z.enum(JOB_WHEN).optional().describe('on_success, manual, always or on_failure; default manual for a manual job, else on_success.'),
  allow_failure: z.boolean().optional().describe('Whether it may fail; default true for manual jobs, else false.'),
  user: z.string().optional().describe('Username; the pipeline\'s user when left out.'),
  coverage: z.number().nullable().default(null).describe('Coverage percentage; null = none. Default null.'),
  trace: z.string().nullable().default(null).describe('The job log GET /projects/:id/jobs/:job_id/trace returns; null = none. Default null.'),
  artifacts: z.record(z.string(), z.string()).optional().describe('Its artifacts archive: file path ("dist/app.txt") to text content; GET /projects/:id/jobs/:job_id/artifacts serves them as a zip. None when absent.'),
  artifacts_expire_at: timestampSchema.nullable().default(null).describe('When its artifacts expire (ISO 8601); null = never. Default null.'),
  created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); the pipeline\'s created_at when absent.'),
  started_at: timestampSchema.nullable().optional().describe('An ISO 8601 instant; null = not started (default for created, pending, manual, skipped).'),
  finished_at: timestampSchema.nullable().optional().describe('An ISO 8601 instant; null = not finished.'),
})

/** A pipeline variable, as a scenario writes it. */
export const pipelineVariableSchema = z.strictObject({
  key: z.string().regex(/^[A-Za-z0-9_]+$/, { error: 'must be letters, digits and _' }).describe('Variable name (letters, digits and _).'),
  value: z.string().describe('Its value.'),
  variable_type: z.enum(['env_var', 'file']).default('env_var').describe('env_var (default) or file.'),
})

/** A parsed pipeline job. */
export type ScenarioPipelineJob = z.output<typeof pipelineJobSchema>

/** A job's `when` when not written: `manual` for a job whose status is manual, else `on_success`. */
export function defaultWhen(status: string, when: JobWhen | undefined): JobWhen {
  return when ?? (status === 'manual' ? 'manual' : 'on_success')
}

/** A job's `allow_failure` when not written: true for manual jobs (GitLab's default), else false. */
export function defaultAllowFailure(when: JobWhen, allowFailure: boolean | undefined): boolean {
  return allowFailure ?? when === 'manual'
}

/** A stage's position among `stages` (the project's or the default ones); an unknown stage comes after all of them. */
export function stageIndex(stages: readonly string[], stage: string): number {
  const i = stages.indexOf(stage)
  return i === -1 ? stages.length : i
}

/** Statuses of a job that has not started (no `started_at` by default). */
export const NOT_STARTED = new Set(['created', 'pending', 'waiting_for_resource', 'preparing', 'manual', 'scheduled', 'skipped'])
