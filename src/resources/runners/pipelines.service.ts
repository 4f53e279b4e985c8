/**
 * Pipelines and jobs driven from outside: who may read and drive them (GitLab's ProjectPolicy,
 * Ci::PipelinePolicy and Ci::BuildPolicy as fakelab has them: no protected branches beyond the
 * default one, every feature enabled), the pipelines finder, pipeline creation from a project's CI
 * definition, and the state changes of retry, cancel, play and erase, with the pipeline processed
 * after each as GitLab's atomic processing does (a stage's `created` jobs run once the stages
 * before it are complete, by their `when`) and its status composed from its jobs'.
 * Source: issue 25 item 3; gitlab (13.x): app/policies/project_policy.rb, ci/pipeline_policy.rb,
 * ci/build_policy.rb, app/finders/ci/pipelines_finder.rb, app/finders/ci/jobs_finder.rb,
 * app/services/ci/create_pipeline_service.rb and lib/gitlab/ci/pipeline/chain/*,
 * app/services/ci/retry_pipeline_service.rb, retry_build_service.rb, play_build_service.rb,
 * process_build_service.rb, pipeline_processing/atomic_processing_service.rb,
 * lib/gitlab/ci/status/composite.rb, app/models/commit_status.rb (state machine).
 * @module
 */
import type { Db } from '../../db/db.js'
import type { ProjectRecord, UserRecord } from '../../db/schema.js'
import { ApiError, grapeError, validationFailed } from '../../core/errors.js'
import { AccessLevel, projectAccessLevel } from '../../rules/access.js'
import { destroyRecords } from '../../rules/cascade.js'
import { branchNames, Commit, commitIdOf, fileTextAt, refOf, repositoryOf, tagNames, type RefCommit } from '../repository/repository.public.js'
import { canCreateTag } from '../protected-tags/protected-tags.public.js'
import { CI_CONFIG_PATH, jobsForPipeline, parseCiYaml, type CiConfigResult, type CiJob } from './pipelines.ci-config.js'
import { PipelineBasic } from './pipelines.entities.js'
import { publishJobCreated, publishJobStatus } from './jobs.events.js'
import { pipelineVariables } from './pipelines.variables.js'
import { publishPipelineStatus, type RuleCtx } from './pipelines.events.js'
import { DEFAULT_STAGES, stageIndex } from './pipelines.scenario.js'
import type { JobRecord, JobWhen, PipelineRecord } from './runners.tables.js'

export type { RuleCtx } from './pipelines.events.js'

// ---- permissions ----------------------------------------------------------------------------

/** The caller's access level in the project (administrators count as owners: `owner_access`). */
function level(ctx: RuleCtx, project: ProjectRecord): number {
  const user = ctx.currentUser
  if (!user) return AccessLevel.NO_ACCESS
  return user.admin ? AccessLevel.OWNER : projectAccessLevel(ctx.db, user, project, ctx.today)
}

/** Whether the project's pipelines are public (`public_builds`, default true). */
function publicBuilds(db: Db, project: ProjectRecord): boolean {
  return db.tables.project_ci_settings.get(project.id)?.public_builds ?? true
}

/**
 * `read_build` on a project the caller can read: Reporter+, or anyone when its pipelines are public.
 * With a readable project this is also what `read_pipeline` of its pipelines needs (Ci::PipelinePolicy
 * takes `read_pipeline` away without `read_build`; a public or internal project, or a guest with
 * public pipelines, has `read_pipeline` otherwise).
 */
export function canReadBuilds(ctx: RuleCtx, project: ProjectRecord): boolean {
  return level(ctx, project) >= AccessLevel.REPORTER || publicBuilds(ctx.db, project)
}

/**
 * Whether the ref is protected from the caller (`protected_ref`, `ref_protected?`): for a branch,
 * fakelab protects the default branch only (GitLab's `default_branch_protection` 2: Maintainers
 * push), as the repository area's branches say; a tag is protected from whoever may not create it
 * (`Gitlab::UserAccess#can_create_tag?`: protected tags' create levels, else `admin_tag`).
 */
function protectedRef(ctx: RuleCtx, project: ProjectRecord, ref: string, tag: boolean): boolean {
  if (tag) return !canCreateTag(ctx, project, ref)
  return ref === project.default_branch && level(ctx, project) < AccessLevel.MAINTAINER
}

/** `create_pipeline` / `update_pipeline` / `update_build` on the project: Developer+. */
export function canDevelop(ctx: RuleCtx, project: ProjectRecord): boolean {
  return level(ctx, project) >= AccessLevel.DEVELOPER
}

/** `update_pipeline` on a pipeline: Developer+ and its ref not protected from the caller. */
export function canUpdatePipeline(ctx: RuleCtx, project: ProjectRecord, pipeline: PipelineRecord): boolean {
  return canDevelop(ctx, project) && !protectedRef(ctx, project, pipeline.ref, pipeline.tag)
}

/** `update_build` on a job: Developer+ and its ref not protected from the caller. */
export function canUpdateJob(ctx: RuleCtx, project: ProjectRecord, job: JobRecord): boolean {
  return canDevelop(ctx, project) && !protectedRef(ctx, project, job.ref, job.tag)
}

/** `erase_build`: Maintainer+ (`admin_build`), or a Developer who ran the job; never on a protected ref. */
export function canEraseJob(ctx: RuleCtx, project: ProjectRecord, job: JobRecord): boolean {
  if (protectedRef(ctx, project, job.ref, job.tag)) return false
  const l = level(ctx, project)
  return l >= AccessLevel.MAINTAINER || (l >= AccessLevel.DEVELOPER && job.user_id !== null && job.user_id === ctx.currentUser?.id)
}

/** `destroy_pipeline`: `owner_access` (the project's owner, an Owner of its group, an administrator). */
export function canDestroyPipeline(ctx: RuleCtx, project: ProjectRecord): boolean {
  return level(ctx, project) >= AccessLevel.OWNER
}

/** `read_pipeline_variable`: Maintainer+ (`admin_pipeline`), or who may update the pipeline and started it. */
export function canReadPipelineVariables(ctx: RuleCtx, project: ProjectRecord, pipeline: PipelineRecord): boolean {
  if (level(ctx, project) >= AccessLevel.MAINTAINER) return true
  return canUpdatePipeline(ctx, project, pipeline) && pipeline.user_id !== null && pipeline.user_id === ctx.currentUser?.id
}

/**
 * The jobs lists' `scope` as Grape reads it (`types: [String, Array[String]]`): a string is one
 * value, so `scope=a,b` is the one value "a,b", which no status is (fakelab's array params split
 * on commas, as GitLab's `CommaSeparatedToArray` does elsewhere).
 * @throws ApiError 400 `{"error":"scope does not have a valid value"}`.
 */
export function checkScopeNotCommaSeparated(raw: unknown): void {
  if (typeof raw === 'string' && raw.includes(',')) throw grapeError('scope does not have a valid value')
}

// ---- statuses -------------------------------------------------------------------------------

/** Statuses after which nothing more happens to a job (`COMPLETED_STATUSES`). */
const COMPLETED = new Set(['success', 'failed', 'canceled', 'skipped'])

/** Statuses `cancel` moves to `canceled` (CommitStatus `event :cancel`). */
const CANCELABLE = new Set(['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'manual', 'scheduled'])

/** Statuses a pipeline's `cancel_running` cancels (`CANCELABLE_STATUSES`: not manual jobs). */
const CANCEL_RUNNING = new Set(['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'scheduled'])

/**
 * `Gitlab::Ci::Status::Composite#status` with `allow_failure`: the status of a set of jobs (a stage,
 * the stages before one, a pipeline), or undefined for none. An allowed failure or cancel counts
 * as a success with warnings, an allowed manual job is ignored.
 */
export function compositeStatus(jobs: readonly Pick<JobRecord, 'status' | 'allow_failure'>[]): string | undefined {
  if (jobs.length === 0) return undefined
  const set = new Set<string>()
  for (const job of jobs) {
    if (job.allow_failure && (job.status === 'failed' || job.status === 'canceled')) set.add('success_with_warnings')
    else if (job.allow_failure && job.status === 'manual') set.add('ignored')
    else set.add(job.status)
  }
  const only = (...names: string[]) => {
    const matching = names.filter((n) => set.has(n)).length
    return matching > 0 && matching === set.size
  }
  const any = (...names: string[]) => names.some((n) => set.has(n))
  if (only('skipped', 'ignored')) return 'skipped'
  if (only('success', 'skipped', 'success_with_warnings', 'ignored')) return 'success'
  if (only('created', 'success_with_warnings', 'ignored')) return 'created'
  if (only('preparing', 'success_with_warnings', 'ignored')) return 'preparing'
  if (only('canceled', 'success', 'skipped', 'success_with_warnings', 'ignored')) return 'canceled'
  if (only('pending', 'created', 'skipped', 'success_with_warnings', 'ignored')) return 'pending'
  if (any('running', 'pending')) return 'running'
  if (any('waiting_for_resource')) return 'waiting_for_resource'
  if (any('manual')) return 'manual'
  if (any('scheduled')) return 'scheduled'
  if (any('preparing')) return 'preparing'
  if (any('created')) return 'running'
  return 'failed'
}

/** The statuses before which a job of each `when` runs (`ProcessBuildService#valid_statuses_for_build`). */
const RUNS_AFTER: Record<JobWhen, readonly string[]> = {
  on_success: ['success', 'skipped'],
  manual: ['success', 'skipped'],
  always: ['success', 'failed', 'skipped'],
  on_failure: ['failed'],
}

/** A pipeline's jobs, retried ones included, in id order. */
function jobsOfPipeline(db: Db, pipelineId: number): JobRecord[] {
  return db.tables.jobs.where('pipeline_id', pipelineId)
}

/** A pipeline's builds (`pipeline.builds`: no generic commit statuses), retried ones included, in id order. */
export function buildsOfPipeline(db: Db, pipelineId: number): JobRecord[] {
  return jobsOfPipeline(db, pipelineId).filter(isBuild)
}

/** Whether a `ci_builds` row is a build (`Ci::Build`), not a generic commit status: what the jobs API shows. */
export function isBuild(job: JobRecord): boolean {
  return job.type === 'Ci::Build'
}

/** A pipeline's latest statuses, builds and generic ones (`statuses.latest`: none retried). */
function latestJobs(db: Db, pipelineId: number): JobRecord[] {
  return jobsOfPipeline(db, pipelineId).filter((job) => !job.retried)
}

/**
 * Processes the pipeline (atomic processing): stage by stage, each `created` job whose earlier
 * stages are complete becomes `pending` (`manual` for a manual job) when its `when` allows the
 * status of those stages, `skipped` otherwise; then the pipeline takes the composite status of its
 * latest statuses (builds and generic commit statuses), with `updated_at` = `now` when that status
 * is a new one; then the `pipeline` fact is published (`pipelines.events.ts`), once it is stored.
 * @returns the pipeline as stored.
 */
export function processPipeline(ctx: RuleCtx, pipeline: PipelineRecord, now: string): PipelineRecord {
  const db = ctx.db
  const previous = db.tables.pipelines.get(pipeline.id)?.status ?? pipeline.status
  const jobs = latestJobs(db, pipeline.id).map((job) => ({ ...job }))
  const stages = [...new Set(jobs.map((job) => job.stage_idx))].sort((a, b) => a - b)
  for (const idx of stages) {
    const prior = compositeStatus(jobs.filter((job) => job.stage_idx < idx)) ?? 'success'
    if (!COMPLETED.has(prior)) continue
    for (const job of jobs) {
      if (job.stage_idx !== idx || job.status !== 'created') continue
      const status = RUNS_AFTER[job.when].includes(prior) ? (job.when === 'manual' ? 'manual' : 'pending') : 'skipped'
      job.status = status
      publishJobStatus(ctx, db.tables.jobs.update(job.id, { status }), 'created')
    }
  }
  const status = compositeStatus(jobs) ?? previous
  // An unchanged status is not saved (ActiveRecord writes nothing, `updated_at` stays).
  if (status === previous) return db.tables.pipelines.get(pipeline.id)!
  const stored = db.tables.pipelines.update(pipeline.id, { status, updated_at: now })
  publishPipelineStatus(ctx, stored, previous)
  return stored
}

/** Sets a job's status, with the times GitLab's transitions set (`finished_at` on success, failure or cancel). */
function transition(ctx: RuleCtx, job: JobRecord, status: string, now: string, extra: Partial<JobRecord> = {}): JobRecord {
  const finished = status === 'success' || status === 'failed' || status === 'canceled'
  const stored = ctx.db.tables.jobs.update(job.id, { status, ...(finished ? { finished_at: now } : {}), ...extra })
  publishJobStatus(ctx, stored, job.status)
  return stored
}

// ---- pipelines ------------------------------------------------------------------------------

/** The filters of `GET /projects/:id/pipelines` (PipelinesFinder). */
export interface PipelineFilters {
  scope?: 'running' | 'pending' | 'finished' | 'branches' | 'tags' | undefined
  status?: string | undefined
  ref?: string | undefined
  sha?: string | undefined
  yaml_errors?: boolean | undefined
  name?: string | undefined
  username?: string | undefined
  updated_after?: string | undefined
  updated_before?: string | undefined
  order_by: 'id' | 'status' | 'ref' | 'updated_at' | 'user_id'
  sort: 'asc' | 'desc'
}

/** `Ci::PipelinesFinder#execute`: the project's pipelines, filtered and ordered. */
export function findPipelines(ctx: RuleCtx, project: ProjectRecord, f: PipelineFilters): PipelineRecord[] {
  let items = ctx.db.tables.pipelines.where('project_id', project.id)
  if (f.scope === 'running' || f.scope === 'pending') items = items.filter((p) => p.status === f.scope)
  else if (f.scope === 'finished') items = items.filter((p) => COMPLETED.has(p.status))
  else if (f.scope === 'branches' || f.scope === 'tags') {
    // The newest pipeline of each ref that is an existing branch (tag) name.
    const refs = new Set(f.scope === 'branches' ? branchNames(ctx, project) : tagNames(ctx, project))
    const newest = new Map<string, PipelineRecord>()
    for (const p of items) if (refs.has(p.ref) && (newest.get(p.ref)?.id ?? 0) < p.id) newest.set(p.ref, p)
    const ids = new Set([...newest.values()].map((p) => p.id))
    items = items.filter((p) => ids.has(p.id))
  }
  if (f.status !== undefined) items = items.filter((p) => p.status === f.status)
  if (f.ref !== undefined) items = items.filter((p) => p.ref === f.ref)
  if (f.sha !== undefined) items = items.filter((p) => p.sha === f.sha)
  if (f.name !== undefined) {
    const ids = new Set(ctx.db.tables.users.filter((u) => u.name === f.name).map((u) => u.id))
    items = items.filter((p) => p.user_id !== null && ids.has(p.user_id))
  }
  if (f.username !== undefined) {
    const user = ctx.db.tables.users.find((u) => u.username === f.username)
    items = user ? items.filter((p) => p.user_id === user.id) : []
  }
  // Only a push's pipeline can have YAML errors (the API's and merge requests' are not saved).
  if (f.yaml_errors === true) items = items.filter((p) => p.yaml_errors !== undefined)
  else if (f.yaml_errors === false) items = items.filter((p) => p.yaml_errors === undefined)
  if (f.updated_after !== undefined) items = items.filter((p) => Date.parse(p.updated_at) > Date.parse(f.updated_after!))
  if (f.updated_before !== undefined) items = items.filter((p) => Date.parse(p.updated_at) < Date.parse(f.updated_before!))
  const dir = f.sort === 'asc' ? 1 : -1
  const key = f.order_by
  return [...items].sort((a, b) => {
    const x = a[key]
    const y = b[key]
    // NULLs sort last ascending and first descending, as PostgreSQL does.
    if (x !== y) {
      if (x === null) return dir
      if (y === null) return -dir
      return (x < y ? -1 : 1) * dir
    }
    return (a.id - b.id) * dir
  })
}

/** `Project#latest_pipeline(ref)`: the newest pipeline for the ref's (default branch's) current commit, or undefined. */
export function latestPipeline(ctx: RuleCtx, project: ProjectRecord, ref: string | undefined): PipelineRecord | undefined {
  const name = ref !== undefined && ref !== '' ? ref : project.default_branch
  const sha = commitIdOf(ctx, project, name)
  if (sha === undefined) return undefined
  let newest: PipelineRecord | undefined
  for (const p of ctx.db.tables.pipelines.where('project_id', project.id)) {
    if (p.ref === name && p.sha === sha && (!newest || p.id > newest.id)) newest = p
  }
  return newest
}

/**
 * What a commit shows of its pipelines (`CommitDetail`): the status of its newest pipeline
 * (`Commit#status`: `latest_pipeline_per_commit`, any ref) and that pipeline as `PipelineBasic`
 * (`Commit#last_pipeline`) when the caller may read it (`read_pipeline`), else null.
 */
export function commitPipelineFacts(ctx: RuleCtx, project: ProjectRecord, sha: string): { status: string | null; last_pipeline: ReturnType<typeof PipelineBasic> | null } {
  let newest: PipelineRecord | undefined
  for (const p of ctx.db.tables.pipelines.where('project_id', project.id)) if (p.sha === sha && (!newest || p.id > newest.id)) newest = p
  if (!newest) return { status: null, last_pipeline: null }
  return { status: newest.status, last_pipeline: canReadBuilds(ctx, project) ? PipelineBasic(newest, ctx) : null }
}

/** A variable given to `POST /projects/:id/pipeline`. */
export interface NewVariable {
  key: string
  value: string
  variable_type: string
}

/** `Gitlab::Git.ref_name`: a fully qualified ref's short name, and which kind it asked for. */
function shortRef(ref: string): { name: string; only: 'branch' | 'tag' | null } {
  if (ref.startsWith('refs/heads/')) return { name: ref.slice(11), only: 'branch' }
  if (ref.startsWith('refs/tags/')) return { name: ref.slice(10), only: 'tag' }
  return { name: ref, only: null }
}

/** 400 `{"message":{"base":[message]}}`: a pipeline creation refused (`render_validation_error!`). */
function refused(message: string) {
  return validationFailed({ base: [message] })
}

/** Pipeline variable validations (Ci::PipelineVariable, HasVariable), as `Failed to persist` texts. */
function variableErrors(variables: readonly NewVariable[]): string[] {
  const errors: string[] = []
  for (const v of variables) {
    if (v.key === '') errors.push("Variables key can't be blank")
    if (v.key.length > 255) errors.push('Variables key is too long (maximum is 255 characters)')
    if (!/^[a-zA-Z0-9_]+$/.test(v.key)) errors.push("Variables key can contain only letters, digits and '_'.")
    if (v.variable_type !== 'env_var' && v.variable_type !== 'file') errors.push('Variables variable type is not included in the list')
  }
  return [...new Set(errors)]
}

/**
 * The project's CI definition at a commit (`Chain::Config::Content`): its `.gitlab-ci.yml` there
 * when the repository has one, else (unless `standIn` is false) the scenario's `ci_config:`
 * stand-in, which only a project the scenario gives no `repository:` has (issue 40 item 4), else none.
 */
function ciConfigAt(ctx: RuleCtx, project: ProjectRecord, sha: string, standIn = true): CiConfigResult {
  const text = fileTextAt(ctx, project, sha, CI_CONFIG_PATH)
  if (text !== undefined) return parseCiYaml(text)
  if (!standIn) return { kind: 'missing' }
  const stored = ctx.db.tables.project_ci_configs.get(project.id)
  if (!stored) return { kind: 'missing' }
  return { kind: 'config', config: { stages: stored.stages.length > 0 ? stored.stages : DEFAULT_STAGES, jobs: stored.jobs } }
}

/** What a new pipeline is: where it comes from, which commit and ref, who started it. */
interface NewPipeline {
  source: string
  /** The ref as stored (a branch or tag name, or `refs/merge-requests/<iid>/head`). */
  ref: string
  tag: boolean
  commit: RefCommit
  user: UserRecord
  stages: readonly string[]
  jobs: readonly CiJob[]
  variables: readonly NewVariable[]
  /** A push's `before` (`Gitlab::Git::BLANK_SHA` for a new ref); absent for the API's and merge requests' pipelines. */
  beforeSha?: string
  /** The definition's error, for a pipeline a push makes failed (`config_error`). */
  yamlErrors?: string
}

/** The commit a pipeline is made for, as far as the pipeline keeps it. */
type PipelineCommit = Pick<RefCommit, 'title' | 'message' | 'parent_ids' | 'author_name' | 'author_email' | 'authored_date' | 'committer_name' | 'committer_email' | 'committed_date'>

/** The commit's fields a pipeline record keeps (the entity shows them without reading the repository again). */
export function pipelineCommitFields(commit: PipelineCommit) {
  return {
    commit_title: commit.title,
    commit_message: commit.message,
    parent_ids: [...commit.parent_ids],
    author_name: commit.author_name,
    author_email: commit.author_email,
    authored_date: commit.authored_date,
    committer_name: commit.committer_name,
    committer_email: commit.committer_email,
    committed_date: commit.committed_date,
  }
}

/** `Chain::Create` and the first processing: the pipeline, its variables, one `created` job per job, processed. */
function insertPipeline(ctx: RuleCtx, project: ProjectRecord, n: NewPipeline, now: string): PipelineRecord {
  const { commit, user } = n
  const pipeline = ctx.db.tables.pipelines.insert({
    project_id: project.id,
    sha: commit.id,
    ref: n.ref,
    tag: n.tag,
    status: 'created',
    source: n.source,
    user_id: user.id,
    created_at: now,
    updated_at: now,
    ...pipelineCommitFields(commit),
    ...(n.beforeSha !== undefined ? { before_sha: n.beforeSha } : {}),
    ...(n.yamlErrors !== undefined ? { yaml_errors: n.yamlErrors } : {}),
  })
  for (const v of n.variables) ctx.db.tables.pipeline_variables.insert({ pipeline_id: pipeline.id, key: v.key, value: v.value, variable_type: v.variable_type })
  for (const job of n.jobs) {
    const created = ctx.db.tables.jobs.insert(newJob({
      type: 'Ci::Build',
      project_id: project.id,
      pipeline_id: pipeline.id,
      user_id: user.id,
      stage: job.stage,
      name: job.name,
      ref: n.ref,
      tag: n.tag,
      allow_failure: job.allow_failure,
      when: job.when,
      stage_idx: stageIndex(n.stages, job.stage),
      created_at: now,
      ...(job.environment ? { environment: job.environment } : {}),
      ...(job.options ? { options: job.options } : {}),
      ...(job.yamlVariables && Object.keys(job.yamlVariables).length > 0 ? { yaml_variables: Object.entries(job.yamlVariables).map(([key, value]) => ({ key, value })) } : {}),
      ...(job.tags && job.tags.length > 0 ? { tag_list: [...job.tags] } : {}),
    }))
    publishJobCreated(ctx, created)
  }
  return processPipeline(ctx, pipeline, now)
}

/**
 * `Ci::CreatePipelineService` from the API: the chain's refusals in GitLab's order (the protected
 * ref, the ref, the commit, an ambiguous ref, the CI definition at the ref's commit and its
 * errors, no job for the pipeline, the variables), then the pipeline (source `api`, the ref's
 * commit) with one `created` job per job the definition gives an `api` pipeline, processed (the
 * first stage's jobs pending, manual ones manual).
 * @throws ApiError 400 `{"message":{"base":["Reference not found"]}}`, `["Missing CI config file"]`,
 *   `["No stages / jobs for this pipeline."]`, a `.gitlab-ci.yml` error (see `parseCiYaml`) and the like.
 */
export function createPipeline(ctx: RuleCtx, project: ProjectRecord, user: UserRecord, ref: string, variables: readonly NewVariable[], now: string, origin: PipelineOrigin = {}): PipelineRecord {
  const { name, only } = shortRef(ref)
  const facts = refOf(ctx, project, name)
  const branch = facts.branch && only !== 'tag'
  const tag = facts.tag && only !== 'branch'
  // Chain::Validate::Abilities: an existing branch must be writable by the caller.
  if (branch && protectedRef(ctx, project, name, false)) throw refused(`Insufficient permissions for protected ref '${ref}'`)
  // Chain::Validate::Repository.
  if (!branch && !tag) throw refused('Reference not found')
  if (!facts.commit) throw refused('Commit not found')
  if (only === null && facts.branch && facts.tag) throw refused('Ref is ambiguous')
  const commit = facts.commit
  // Chain::Config::Content, Chain::Config::Process.
  const config = ciConfigAt(ctx, project, commit.id)
  if (config.kind === 'missing') throw refused('Missing CI config file')
  if (config.kind === 'error') throw refused(config.error)
  // Chain::Populate: the jobs the rules and refs policies give this pipeline.
  const source = origin.source ?? 'api'
  const { variables: vars, overrides } = pipelineVariables(ctx, project, { source, sha: commit.id, ref: name, tag: !branch, variables, scheduleVariables: origin.scheduleVariables })
  const jobs = jobsForPipeline(config.config, { source, ref: name, tag: !branch, variables: vars, overrides })
  if (jobs.length === 0) throw refused('No stages / jobs for this pipeline.')
  // Chain::Create (`pipeline.save!` with its variables).
  const errors = variableErrors(variables)
  if (errors.length > 0) throw refused(`Failed to persist the pipeline: Validation failed: ${errors.join(', ')}`)
  return insertPipeline(ctx, project, { source, ref: name, tag: !branch, commit, user, stages: config.config.stages, jobs, variables }, now)
}

/**
 * Where a pipeline made by {@link createPipeline} comes from, when not the API: a trigger
 * (`trigger`, its variables the pipeline's own) or a schedule (`schedule`, its variables read by
 * the rules but not stored with the pipeline, as GitLab reads `pipeline_schedule.job_variables`).
 */
export interface PipelineOrigin {
  /** The pipeline's `source`; default `api`. */
  readonly source?: 'api' | 'trigger' | 'schedule' | undefined
  /** A schedule's variables, over the pipeline's own. */
  readonly scheduleVariables?: readonly NewVariable[] | undefined
}

/** One ref a push moved, as the push pipeline reads it (`Git::BaseHooksService#pipeline_params`). */
export interface PushedRef {
  /** The short ref: a branch or tag name. */
  readonly ref: string
  readonly tag: boolean
  /** The ref's old value, null for a new ref. */
  readonly before: string | null
  /** The ref's new value (a commit, or an annotated tag's object). */
  readonly after: string
  /** The push options' `ci.variable`s, as pipeline variables (`env_var`). */
  readonly variables: readonly NewVariable[]
  /** Whether the push options say `ci.skip`. */
  readonly skip: boolean
}

/** `Chain::Skip::SKIP_PATTERN`: `[ci skip]`, `[skip ci]` (and `-`/`_` between), any case. */
const SKIP_PATTERN = /\[(ci[ _-]skip|skip[ _-]ci)\]/i

/**
 * `Ci::CreatePipelineService#execute(:push)` for one pushed ref (`Git::BranchPushService`,
 * `Git::TagPushService`: `save_on_errors` true), in the chain's order: the pushed commit (an
 * annotated tag peeled: `checkout_sha`) and its own `.gitlab-ci.yml` (the scenario's `ci_config:`
 * stand-in is not read: it stands for no commit); none, no pipeline ("Missing CI config file" is
 * not saved); a definition GitLab refuses, a `failed` pipeline with its `yaml_errors`
 * (`Config::Process` drops it with `config_error`); then `Chain::Skip` (`[ci skip]` in the commit
 * message, or `ci.skip`), a `skipped` pipeline without jobs; then the jobs a `push` pipeline gets
 * (none: no pipeline), created with the push's variables and processed.
 * @returns the pipeline, or undefined when none was made.
 */
export function createPushPipeline(ctx: RuleCtx, project: ProjectRecord, user: UserRecord, pushed: PushedRef, now: string): PipelineRecord | undefined {
  const repo = repositoryOf(ctx.db, project)
  const sha = peelToCommitId(repo, pushed.after)
  if (sha === undefined) return undefined
  const config = ciConfigAt(ctx, project, sha, false)
  if (config.kind === 'missing') return undefined
  const commit = Commit(repo, sha, project, ctx)
  const base = { source: 'push', ref: pushed.ref, tag: pushed.tag, commit, user, variables: pushed.variables, beforeSha: pushed.before ?? BLANK_SHA }
  const finish = (status: 'failed' | 'skipped', extra: Partial<NewPipeline>): PipelineRecord => {
    const created = insertPipeline(ctx, project, { ...base, stages: [], jobs: [], ...extra }, now)
    const stored = ctx.db.tables.pipelines.update(created.id, { status })
    publishPipelineStatus(ctx, stored, created.status)
    return stored
  }
  if (config.kind === 'error') return finish('failed', { yamlErrors: config.error })
  if (pushed.skip || SKIP_PATTERN.test(commit.message)) return finish('skipped', {})
  const { variables: vars, overrides } = pipelineVariables(ctx, project, { source: 'push', sha, ref: pushed.ref, tag: pushed.tag, variables: pushed.variables })
  const jobs = jobsForPipeline(config.config, { source: 'push', ref: pushed.ref, tag: pushed.tag, variables: vars, overrides })
  if (jobs.length === 0) return undefined
  return insertPipeline(ctx, project, { ...base, stages: config.config.stages, jobs }, now)
}

/** An object peeled to the commit it names (annotated tags followed), or undefined for none. */
function peelToCommitId(repo: ReturnType<typeof repositoryOf>, id: string): string | undefined {
  let current = id
  for (let tag = repo.objects.tag(current); tag; tag = repo.objects.tag(current)) current = tag.object
  return repo.objects.commit(current) ? current : undefined
}

/** `Gitlab::Git::BLANK_SHA`. */
const BLANK_SHA = '0'.repeat(40)

/** The merge request a merge request pipeline is for (what `MergeRequests::CreatePipelineService` reads of it). */
export interface PipelineMergeRequest {
  readonly iid: number
  readonly source_branch: string
  readonly target_branch: string
}

/**
 * `MergeRequests::CreatePipelineService` after a merge request is created (13.x: `after_create`,
 * same project): a detached merge request pipeline (source `merge_request_event`, ref
 * `refs/merge-requests/<iid>/head`, the source branch's head commit, started by `user`) when the
 * source branch's CI definition gives jobs for a merge request pipeline; else none, and no error
 * (`save_on_errors: false`: a definition with errors or no such job makes no pipeline). The merge
 * request's head pipeline is then this one (its head commit's newest pipeline).
 * spec-gap: GitLab 13.x runs this in the request but sets `head_pipeline_id` in Sidekiq; fakelab's
 * merge requests read their head pipeline at once.
 * @returns the pipeline, or undefined when none was made.
 */
export function createMergeRequestPipeline(ctx: RuleCtx, project: ProjectRecord, user: UserRecord, mr: PipelineMergeRequest, now: string): PipelineRecord | undefined {
  try {
    return requestMergeRequestPipeline(ctx, project, user, mr, now)
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) return undefined
    throw error
  }
}

/**
 * `POST /projects/:id/merge_requests/:merge_request_iid/pipelines`: `MergeRequests::CreatePipelineService`
 * with `allow_duplicate: true`, its chain's refusals answered (`render_validation_error!`).
 * The caller checks that the merge request has commits (`not_allowed!` otherwise).
 * @throws ApiError 400 `{"message":{"base":["Reference not found"]}}` (no source branch),
 *   `["Missing CI config file"]`, a `.gitlab-ci.yml` error, `["No stages / jobs for this pipeline."]`.
 */
export function requestMergeRequestPipeline(ctx: RuleCtx, project: ProjectRecord, user: UserRecord, mr: PipelineMergeRequest, now: string): PipelineRecord {
  const facts = refOf(ctx, project, mr.source_branch)
  if (!facts.branch) throw refused('Reference not found')
  if (!facts.commit) throw refused('Commit not found')
  const commit = facts.commit
  const config = ciConfigAt(ctx, project, commit.id)
  if (config.kind === 'missing') throw refused('Missing CI config file')
  if (config.kind === 'error') throw refused(config.error)
  const ref = `refs/merge-requests/${mr.iid}/head`
  const { variables: vars, overrides } = pipelineVariables(ctx, project, { source: 'merge_request_event', sha: commit.id, ref: mr.source_branch, tag: false, variables: [], extra: {
    CI_MERGE_REQUEST_IID: String(mr.iid),
    CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: mr.source_branch,
    CI_MERGE_REQUEST_TARGET_BRANCH_NAME: mr.target_branch,
    CI_MERGE_REQUEST_REF_PATH: ref,
  } })
  const jobs = jobsForPipeline(config.config, { source: 'merge_request_event', ref, tag: false, variables: vars, overrides })
  if (jobs.length === 0) throw refused('No stages / jobs for this pipeline.')
  return insertPipeline(ctx, project, { source: 'merge_request_event', ref, tag: false, commit, user, stages: config.config.stages, jobs, variables: [] }, now)
}

/** What a job that has not run has: no runner, coverage, log or times; neither retried nor erased. */
const NOT_RUN = { runner_id: null, coverage: null, retried: false, trace: null, erased_at: null, started_at: null, finished_at: null } as const

/** What a runner gave a job that a retried copy does not keep (its token, failure reason and timeout). */
const RUN_ONLY = ['token', 'failure_reason', 'timeout'] as const

/** What defines a new job: everything but its id, its status and what running it gives. */
export type JobDefinition = Omit<JobRecord, 'id' | 'status' | 'target_url' | 'description' | keyof typeof NOT_RUN | (typeof RUN_ONLY)[number]>

/**
 * A new job's record, `created` and not run: a pipeline's builds (`Ci::CreatePipelineService`) and
 * an external status (`Ci::CreateCommitStatusService`, which then sets its own fields). The keys
 * keep the table's order, which a state export shows.
 */
export function newJob(definition: JobDefinition): Omit<JobRecord, 'id'> {
  const d = definition
  return {
    type: d.type, runner_id: null, project_id: d.project_id, pipeline_id: d.pipeline_id, user_id: d.user_id, status: 'created',
    stage: d.stage, name: d.name, ref: d.ref, tag: d.tag, coverage: null, allow_failure: d.allow_failure, when: d.when,
    stage_idx: d.stage_idx, retried: false, trace: null, erased_at: null, target_url: null, description: null,
    created_at: d.created_at, started_at: null, finished_at: null,
    ...(d.environment ? { environment: d.environment } : {}),
    ...(d.options ? { options: d.options } : {}),
    ...(d.yaml_variables ? { yaml_variables: d.yaml_variables } : {}),
    ...(d.tag_list ? { tag_list: d.tag_list } : {}),
  }
}

/** A new job in place of `job` (RetryBuildService#reprocess!): same definition, started by `user`, in `status`; the old one is retried. */
function cloneJob(ctx: RuleCtx, job: JobRecord, user: UserRecord, status: string, now: string): JobRecord {
  const db = ctx.db
  db.tables.jobs.update(job.id, { retried: true })
  const { id: _id, ...definition } = job
  for (const key of RUN_ONLY) delete definition[key]
  // The spread keeps the record's key order; the fields after it only change values.
  const copy = db.tables.jobs.insert({ ...definition, ...NOT_RUN, user_id: user.id, status: 'created', created_at: now })
  publishJobCreated(ctx, copy)
  return status === 'created' ? copy : db.tables.jobs.update(copy.id, { status })
}

/**
 * `Ci::RetryPipelineService`: every latest failed or canceled build the caller may update is
 * replaced by a `created` copy, skipped builds become `created` again (generic commit statuses are
 * not retried: `pipeline.retryable_builds`, `builds.latest.skipped`), and the pipeline is processed.
 */
export function retryPipeline(ctx: RuleCtx, project: ProjectRecord, pipeline: PipelineRecord, user: UserRecord, now: string): PipelineRecord {
  const latestBuilds = () => latestJobs(ctx.db, pipeline.id).filter(isBuild)
  for (const job of latestBuilds()) {
    if ((job.status === 'failed' || job.status === 'canceled') && canUpdateJob(ctx, project, job)) cloneJob(ctx, job, user, 'created', now)
  }
  for (const job of latestBuilds()) if (job.status === 'skipped') publishJobStatus(ctx, ctx.db.tables.jobs.update(job.id, { status: 'created' }), 'skipped')
  return processPipeline(ctx, pipeline, now)
}

/**
 * `Ci::Pipeline#cancel_running`: its created, pending and running statuses, builds and generic
 * ones (`statuses.cancelable`), are canceled (manual ones stay).
 */
export function cancelPipeline(ctx: RuleCtx, pipeline: PipelineRecord, now: string): PipelineRecord {
  for (const job of latestJobs(ctx.db, pipeline.id)) if (CANCEL_RUNNING.has(job.status)) transition(ctx, job, 'canceled', now)
  return processPipeline(ctx, pipeline, now)
}

/** Deletes a pipeline with its jobs and variables (`Ci::DestroyPipelineService`). */
export function destroyPipeline(db: Db, pipeline: PipelineRecord): void {
  destroyRecords(db, 'pipelines', [pipeline.id])
}

/** The pipeline of a job (always there: jobs go with their pipeline). */
function pipelineOf(db: Db, job: JobRecord): PipelineRecord {
  return db.tables.pipelines.get(job.pipeline_id)!
}

// ---- jobs -----------------------------------------------------------------------------------

/** `Ci::Build#retryable?`: a latest job that succeeded, failed or was canceled. */
export function retryable(job: JobRecord): boolean {
  return !job.retried && (job.status === 'success' || job.status === 'failed' || job.status === 'canceled')
}

/** `Ci::Build#playable?`: a manual job waiting, or one that ran and may run again. */
export function playable(job: JobRecord): boolean {
  return job.when === 'manual' && (job.status === 'manual' || retryable(job))
}

/** `Ci::Build#erasable?`: complete, with a log to erase (fakelab stores no artifacts). */
export function erasable(job: JobRecord): boolean {
  return COMPLETED.has(job.status) && job.trace !== null
}

/**
 * `Ci::Build.retry` (RetryBuildService#execute): a `pending` copy started by `user`; skipped builds
 * of later stages become `created` again (`pipeline.processables.skipped.after_stage`); the
 * pipeline is processed.
 * @returns the new job.
 */
export function retryJob(ctx: RuleCtx, job: JobRecord, user: UserRecord, now: string): JobRecord {
  const db = ctx.db
  const copy = cloneJob(ctx, job, user, 'pending', now)
  publishJobStatus(ctx, copy, 'created') // the copy is enqueued: created → pending
  for (const other of latestJobs(db, job.pipeline_id)) {
    if (isBuild(other) && other.status === 'skipped' && other.stage_idx > job.stage_idx) publishJobStatus(ctx, db.tables.jobs.update(other.id, { status: 'created' }), 'skipped')
  }
  processPipeline(ctx, pipelineOf(db, job), now)
  return db.tables.jobs.get(copy.id)!
}

/** `CommitStatus#cancel`: a job not yet finished is canceled (a finished one is left as it is). */
export function cancelJob(ctx: RuleCtx, job: JobRecord, now: string): JobRecord {
  if (!CANCELABLE.has(job.status)) return job
  const canceled = transition(ctx, job, 'canceled', now)
  processPipeline(ctx, pipelineOf(ctx.db, job), now)
  return ctx.db.tables.jobs.get(canceled.id)!
}

/**
 * `Ci::PlayBuildService`: a waiting manual job is enqueued (`pending`, now the caller's); a finished
 * one is retried instead. Either way the job played is returned, as GitLab presents it.
 */
export function playJob(ctx: RuleCtx, job: JobRecord, user: UserRecord, now: string): JobRecord {
  if (job.status === 'manual') {
    transition(ctx, job, 'pending', now, { user_id: user.id })
    processPipeline(ctx, pipelineOf(ctx.db, job), now)
  } else retryJob(ctx, job, user, now)
  return ctx.db.tables.jobs.get(job.id)!
}

/** `Ci::Build#erase`: its log is removed. */
export function eraseJob(db: Db, job: JobRecord, now: string): JobRecord {
  return db.tables.jobs.update(job.id, { trace: null, erased_at: now })
}
