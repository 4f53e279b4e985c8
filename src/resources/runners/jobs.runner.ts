/**
 * What a runner does to the builds of this area (GitLab's runner API, the `runner-jobs` area's
 * routes, call these through `runners.public.ts`): which pending build a runner may pick and its
 * picking (`Ci::RegisterJobService`: the build runs, on that runner, with its token and timeout);
 * the runner's queue value; the build state a runner reports (`Ci::UpdateBuildStateService`), its
 * log appended (`Ci::AppendBuildTraceService`, `Gitlab::Ci::Trace#append` with `hide_secrets`) and
 * its artifacts archive stored (`Ci::JobArtifacts::CreateService`). A state change goes through
 * the same path as the control call's: the `job` fact, the pipeline processed.
 * gitlab (13.12): app/services/ci/register_job_service.rb, app/models/ci/runner.rb (`can_pick?`,
 * `accepting_tags?`), app/models/ci/build.rb (`update_timeout_state`, `hide_secrets`,
 * `all_dependencies`), app/services/ci/update_build_state_service.rb,
 * app/services/ci/append_build_trace_service.rb, app/services/ci/job_artifacts/create_service.rb.
 * @module
 */
import type { Db } from '../../db/db.js'
import { publishJobStatus } from './jobs.events.js'
import { artifactsOf } from './jobs.artifacts.js'
import { isBuild, processPipeline, type RuleCtx } from './pipelines.service.js'
import { protectedRefForVariables } from './pipelines.variables.js'
import type { JobRecord, PipelineRecord, RunnerRecord } from './runners.tables.js'
import { runnerGroupIds, runnerProjectIds } from './runners.service.js'

/** The project's default job timeout (`projects.build_timeout`), seconds. */
export const PROJECT_BUILD_TIMEOUT = 3600

/** The job token statuses a `ci_job_tokens` row keeps (only `running` authenticates). */
const TOKEN_STATUSES = new Set(['created', 'pending', 'running', 'success', 'failed', 'canceled'])

/**
 * Moves a build to `status` as a runner's report does (`run!`, `success!`, `drop!`), with its times
 * and `patch`: the `job` fact is published, its job token follows, `between` runs (the control
 * call stores artifacts there), then its pipeline is processed (the next stage's jobs, the
 * pipeline's status and its `pipeline` fact).
 * @returns the build as stored.
 */
export function moveBuild(ctx: RuleCtx, job: JobRecord, status: string, now: string, patch: Partial<JobRecord> = {}, between?: (stored: JobRecord) => void): JobRecord {
  const db = ctx.db
  const finished = status !== 'running'
  db.tables.jobs.update(job.id, { status, started_at: job.started_at ?? now, finished_at: finished ? now : null, ...patch })
  const stored = db.tables.jobs.get(job.id)!
  publishJobStatus(ctx, stored, job.status)
  for (const token of db.tables.ci_job_tokens.where('token', stored.token ?? '')) {
    if (TOKEN_STATUSES.has(status) && token.status !== status) db.tables.ci_job_tokens.update(token.id, { status: status as 'running' })
  }
  between?.(stored)
  processPipeline(ctx, db.tables.pipelines.get(job.pipeline_id)!, now)
  return db.tables.jobs.get(job.id)!
}

/** A build by id for the runner's calls (`Ci::Build.find_by_id`), or undefined (a generic commit status is none). */
export function buildById(db: Db, id: number): JobRecord | undefined {
  const job = db.tables.jobs.get(id)
  return job && isBuild(job) ? job : undefined
}

/** Whether the runner may run the build's tags: it carries every one, and an untagged build needs `run_untagged` (`accepting_tags?`). */
function acceptsTags(runner: RunnerRecord, job: JobRecord): boolean {
  const tags = job.tag_list ?? []
  if (tags.length === 0) return runner.run_untagged
  const own = new Set(runner.tag_list.map((t) => t.toLowerCase()))
  return tags.every((t) => own.has(t.toLowerCase()))
}

/** Whether the runner serves the project (`assignable_for?` and the queue's scope by runner type). */
function servesProject(db: Db, runner: RunnerRecord, projectId: number): boolean {
  if (runner.runner_type === 'instance_type') return true // every project has shared runners enabled
  if (runner.runner_type === 'project_type') return runnerProjectIds(db, runner).includes(projectId)
  const project = db.tables.projects.get(projectId)
  const group = project ? db.projectGroup(project) : null
  if (!group) return false
  const groups = new Set(runnerGroupIds(db, runner))
  return db.groupSelfAndAncestors(group).some((g) => groups.has(g.id))
}

/** Whether the build's ref is protected (`ci_builds.protected`, `pipeline.protected_ref?`). */
function buildProtected(ctx: RuleCtx, job: JobRecord): boolean {
  const project = ctx.db.tables.projects.get(job.project_id)
  return project !== undefined && !job.ref.startsWith('refs/merge-requests/') && protectedRefForVariables(ctx, project, job.ref, job.tag)
}

/**
 * The pending builds the runner may pick, in the queue's order (`RegisterJobService#builds_for_*`
 * and `can_pick?`): a project runner's and a group runner's by id; an instance runner's by the
 * fewest running builds of their project first (`builds_for_shared_runner`'s fair scheduling),
 * then by id. A `ref_protected` runner takes builds of protected refs only.
 */
function pickableBuilds(ctx: RuleCtx, runner: RunnerRecord): JobRecord[] {
  const db = ctx.db
  const pending = db.tables.jobs.filter((j) => j.status === 'pending' && isBuild(j) && !j.retried && j.runner_id === null)
  const candidates = pending.filter((j) => servesProject(db, runner, j.project_id) && acceptsTags(runner, j) && (runner.access_level !== 'ref_protected' || buildProtected(ctx, j)))
  if (runner.runner_type !== 'instance_type') return candidates
  const running = new Map<number, number>()
  for (const j of db.tables.jobs.filter((j) => j.status === 'running' && j.runner_id !== null)) {
    const r = j.runner_id === null ? undefined : db.tables.runners.get(j.runner_id)
    if (r?.runner_type === 'instance_type') running.set(j.project_id, (running.get(j.project_id) ?? 0) + 1)
  }
  return [...candidates].sort((a, b) => (running.get(a.project_id) ?? 0) - (running.get(b.project_id) ?? 0) || a.id - b.id)
}

/** 32 hexadecimal characters from a string (FNV-1a, four seeds): a stable stand-in for `SecureRandom.hex`. */
function hex32(text: string): string {
  let out = ''
  for (const seed of [0x811c9dc5, 0x01000193, 0x9e3779b9, 0x85ebca6b]) {
    let h = seed >>> 0
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0
    out += h.toString(16).padStart(8, '0')
  }
  return out
}

/**
 * The runner's queue value (`ensure_runner_queue_value`, the `X-GitLab-Last-Update` a runner sends
 * back as `last_update`): it changes when a build the runner may pick is queued or taken.
 * spec-gap: GitLab keeps a random value in Redis and ticks it on each queued build; fakelab derives
 * it from the runner and the builds it may pick, which changes at the same moments.
 */
export function runnerQueueValue(ctx: RuleCtx, runner: RunnerRecord): string {
  return hex32(`${runner.id}:${runner.updated_at}:${pickableBuilds(ctx, runner).map((j) => j.id).join(',')}`)
}

/**
 * `RegisterJobService#assign_runner!` and `run!` for the first build the runner may pick: it runs
 * on the runner with its token (`CI_JOB_TOKEN`, a `ci_job_tokens` row that authenticates the API
 * while it runs) and its timeout (the job's `timeout:` or the project's, capped by the runner's
 * `maximum_timeout`); the pipeline is processed. Undefined when there is none.
 */
export function pickBuild(ctx: RuleCtx, runner: RunnerRecord, token: string, now: string): JobRecord | undefined {
  const job = pickableBuilds(ctx, runner)[0]
  if (!job) return undefined
  const wanted = job.options?.timeout ?? PROJECT_BUILD_TIMEOUT
  const timeout = runner.maximum_timeout !== null && runner.maximum_timeout < wanted ? runner.maximum_timeout : wanted
  if (job.user_id !== null) ctx.db.tables.ci_job_tokens.insert({ token, user_id: job.user_id, project_id: job.project_id, job_id: job.id, status: 'running' })
  return moveBuild(ctx, job, 'running', now, { runner_id: runner.id, token, timeout })
}

/** The pipeline of a build. */
export function pipelineOfBuild(db: Db, job: JobRecord): PipelineRecord {
  return db.tables.pipelines.get(job.pipeline_id)!
}

/**
 * `Ci::Build#all_dependencies`: the latest builds of the earlier stages of its pipeline, only
 * those its `dependencies:` names when it writes them, in stage then id order.
 */
export function buildDependencies(db: Db, job: JobRecord): JobRecord[] {
  const names = job.options?.dependencies
  return db.tables.jobs
    .where('pipeline_id', job.pipeline_id)
    .filter((j) => isBuild(j) && !j.retried && j.stage_idx < job.stage_idx && (names === undefined || names.includes(j.name)))
    .sort((a, b) => a.stage_idx - b.stage_idx || a.id - b.id)
}

/** A runner's report of a build's state (`PUT /jobs/:id`). */
export interface BuildStateReport {
  readonly state?: string | undefined
  readonly failure_reason?: string | undefined
  /** The whole log, replacing the stored one (`trace`). */
  readonly trace?: string | undefined
}

/**
 * `Ci::UpdateBuildStateService#execute` without trace chunks (`accept_available?` is false:
 * live traces are off): the log set when given, then by `state` `running` (nothing), `success`
 * or `failed` (with its `failure_reason`, default `unknown_failure`).
 * @returns 200, or 400 for another state (nothing changed but the log).
 */
export function updateBuildState(ctx: RuleCtx, job: JobRecord, report: BuildStateReport, now: string): 200 | 400 {
  if (report.trace !== undefined) ctx.db.tables.jobs.update(job.id, { trace: hideSecrets(ctx.db, job, report.trace) })
  const current = ctx.db.tables.jobs.get(job.id)!
  if (report.state === 'running') return 200
  if (report.state === 'success') {
    moveBuild(ctx, current, 'success', now)
    return 200
  }
  if (report.state === 'failed') {
    moveBuild(ctx, current, 'failed', now, { failure_reason: report.failure_reason ?? 'unknown_failure' })
    return 200
  }
  return 400
}

const UTF8 = new TextEncoder()
const DECODE = new TextDecoder()

/** `Ci::Build#hide_secrets`: the project's runners token and the job's token masked with `x`s (`Gitlab::Ci::MaskSecret`). */
function hideSecrets(db: Db, job: JobRecord, data: string): string {
  let out = data
  const project = db.tables.projects.get(job.project_id)
  for (const secret of [project?.runners_token, job.token]) if (secret) out = out.split(secret).join('x'.repeat(secret.length))
  return out
}

/**
 * `Gitlab::Ci::Trace#append`: when `offset` is the log's current size the data (secrets hidden)
 * is appended; either way the log's size after is returned (a caller seeing another size than
 * `offset` + the data's answers 416).
 */
export function appendTrace(db: Db, job: JobRecord, data: Uint8Array, offset: number): number {
  const current = job.trace === null ? new Uint8Array() : UTF8.encode(job.trace)
  if (current.byteLength !== offset) return current.byteLength
  const text = DECODE.decode(current) + hideSecrets(db, job, DECODE.decode(data))
  db.tables.jobs.update(job.id, { trace: text })
  return UTF8.encode(text).byteLength
}

/** Whether the build already has an artifacts archive (`ci_job_artifacts` is unique by job and file type). */
export function hasArchive(db: Db, job: JobRecord): boolean {
  return artifactsOf(db, job) !== undefined
}
