/**
 * Commit statuses: the statuses of a commit's pipelines listed (`CommitStatus`, builds and generic
 * ones alike), and a status posted by an outside system (`GenericCommitStatus`): found or created
 * in the newest pipeline of the commit (an `external` pipeline when there is none), moved by the
 * CommitStatus state machine, older statuses of its name marked retried, and the pipeline's status
 * recomposed from its statuses (which publishes the `pipeline` fact).
 * Source: issue 26 item 2 ("commits … statuses"); gitlab (13.x): lib/api/commit_statuses.rb,
 * app/models/commit_status.rb (state machine, `update_older_statuses_retried!`),
 * app/models/generic_commit_status.rb (`external` stage, index 1,000,000, `target_url`
 * validation), app/services/ci/pipelines/add_job_service.rb, app/services/ci/process_pipeline_service.rb
 * (`update_retried`), app/validators/addressable_url_validator.rb, lib/gitlab/url_blocker.rb.
 * @module
 */
import { apiMessage, forbidden, notFound, validationFailed } from '../../core/errors.js'
import type { Db } from '../../db/db.js'
import type { ProjectRecord, UserRecord } from '../../db/schema.js'
import { ancestors, Commit, commitIdOf, repositoryOf } from '../repository/repository.public.js'
import { canUpdatePipeline, newJob, pipelineCommitFields, processPipeline, type RuleCtx } from './pipelines.service.js'
import { CommitStatusMessage } from './runners.messages.js'
import type { JobRecord, PipelineRecord } from './runners.tables.js'

/** `GenericCommitStatus::EXTERNAL_STAGE_IDX`: generic statuses come after every stage of builds. */
const EXTERNAL_STAGE_IDX = 1_000_000

/** The states `POST /projects/:id/statuses/:sha` takes (its `values:`). */
export const COMMIT_STATUS_STATES = ['pending', 'running', 'success', 'failed', 'canceled'] as const

/** A state of {@link COMMIT_STATUS_STATES}. */
export type CommitStatusState = (typeof COMMIT_STATUS_STATES)[number]

// ---- reading ----------------------------------------------------------------------------------

/** The filters of `GET /projects/:id/repository/commits/:sha/statuses`. */
export interface CommitStatusFilters {
  ref?: string | undefined
  stage?: string | undefined
  name?: string | undefined
  /** The `all` param as given (a String in 13.x, read with `to_boolean`). */
  all?: string | undefined
}

/** GitLab's `to_boolean` (lib/api/helpers.rb): true, false, or nil for anything else. */
function toBoolean(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined
  if (/^(true|t|yes|y|1|on)$/i.test(value)) return true
  if (/^(false|f|no|n|0|off)$/i.test(value)) return false
  return undefined
}

/**
 * `CommitStatus.where(pipeline: project.ci_pipelines.where(sha: sha))`: the statuses (builds and
 * generic ones) of the project's pipelines whose sha is exactly `sha` (the param as given: a short
 * sha or a branch name names no pipeline), the latest only (none retried) unless `all`, filtered by
 * `ref`, `stage` and `name` when given and not empty, in id order.
 */
export function commitStatuses(db: Db, project: ProjectRecord, sha: string, f: CommitStatusFilters): JobRecord[] {
  const all = toBoolean(f.all) === true
  const out: JobRecord[] = []
  for (const pipeline of db.tables.pipelines.where('project_id', project.id)) {
    if (pipeline.sha !== sha) continue
    for (const job of db.tables.jobs.where('pipeline_id', pipeline.id)) {
      if (!all && job.retried) continue
      if (f.ref && job.ref !== f.ref) continue
      if (f.stage && job.stage !== f.stage) continue
      if (f.name && job.name !== f.name) continue
      out.push(job)
    }
  }
  return out.sort((a, b) => a.id - b.id)
}

// ---- posting ----------------------------------------------------------------------------------

/** What `POST /projects/:id/statuses/:sha` was given (after Grape's coercion). */
export interface NewCommitStatus {
  state: CommitStatusState
  ref?: string | undefined
  name?: string | undefined
  context?: string | undefined
  target_url?: string | undefined
  description?: string | undefined
  coverage?: number | undefined
  pipeline_id?: number | undefined
}

/**
 * `AddressableUrlValidator` (schemes http and https, local addresses allowed) and the column's
 * length, as Addressable and `Gitlab::UrlBlocker.validate!` read a URL: the messages, in order.
 * spec-gap: GitLab also resolves the host (`Host cannot be resolved or invalid`); fakelab resolves
 * no names, so any well-formed host is accepted.
 */
function targetUrlErrors(url: string): string[] {
  const errors: string[] = []
  const problem = urlProblem(url)
  if (problem) errors.push(problem)
  if (url.length > 255) errors.push(CommitStatusMessage.urlTooLong)
  return errors
}

/** The `is blocked: …` message for a target URL, or null. */
function urlProblem(url: string): string | null {
  // `Addressable::URI.parse` (RFC 3986's regular expression): a scheme, then `//authority`.
  if (/[\r\n]/.test(url)) return CommitStatusMessage.urlInvalid
  const m = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?/.exec(url)!
  const scheme = m[1]
  if (scheme !== undefined && !/^[A-Za-z][A-Za-z0-9+.-]*$/.test(scheme)) return CommitStatusMessage.urlInvalid
  const authority = m[2]
  let host = ''
  if (authority !== undefined) {
    const hostPort = authority.slice(authority.lastIndexOf('@') + 1)
    const bracket = /^(\[[^\]]*\])(?::(.*))?$/.exec(hostPort)
    const [hostPart, port] = bracket ? [bracket[1]!, bracket[2]] : [hostPort.replace(/:[^:]*$/, ''), /:([^:]*)$/.exec(hostPort)?.[1]]
    if (port !== undefined && port !== '' && !/^\d+$/.test(port)) return CommitStatusMessage.urlInvalid
    host = hostPart
  }
  if (scheme !== 'http' && scheme !== 'https') return CommitStatusMessage.urlScheme
  // `validate_hostname`: blank, an IP address, or starting with a letter or digit.
  if (host !== '' && !host.startsWith('[') && !/^[\p{L}\p{N}]/u.test(host)) return CommitStatusMessage.urlHostname
  return null
}

/**
 * `repository.branch_names_contains(sha).first`: the first branch, in name order, whose history
 * holds the commit; undefined when none does.
 */
function firstBranchContaining(db: Db, project: ProjectRecord, sha: string): string | undefined {
  const repo = repositoryOf(db, project)
  const names = [...repo.branches.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  return names.find((name) => {
    const tip = repo.branches.get(name)!
    return tip === sha || ancestors(repo, tip).has(sha)
  })
}

/** `project.ci_pipelines.create!(source: :external, sha:, ref:, user:)`: a new pipeline, `created`, with the commit's fields. */
function createExternalPipeline(ctx: RuleCtx, project: ProjectRecord, user: UserRecord, sha: string, ref: string, now: string): PipelineRecord {
  const commit = Commit(repositoryOf(ctx.db, project), sha, project, ctx)
  return ctx.db.tables.pipelines.insert({
    project_id: project.id,
    sha,
    ref,
    tag: false,
    status: 'created',
    source: 'external',
    user_id: user.id,
    created_at: now,
    updated_at: now,
    ...pipelineCommitFields(commit),
  })
}

/**
 * The CommitStatus state machine's events for a posted state, applied to a status that is
 * `created` (new), `pending` or `running` (the ones `running_or_pending` finds): `pending` →
 * `enqueue!`; `running` → `enqueue` (quietly refused when already pending or running), `run!`;
 * `success` → `success!`; `failed` → `drop!`; `canceled` → `cancel!`. `started_at` is set on
 * entering `running`, `finished_at` on success, failure or cancel.
 * @returns the fields to store.
 * @throws ApiError 400 `{"message":"Cannot transition status via :enqueue from :pending (Reason(s): …)"}`.
 */
function transitionFields(from: string, state: CommitStatusState, now: string): Partial<JobRecord> {
  switch (state) {
    case 'pending':
      if (from !== 'created') throw apiMessage(400, CommitStatusMessage.invalidTransition('enqueue', from))
      return { status: 'pending' }
    case 'running':
      if (from === 'running') throw apiMessage(400, CommitStatusMessage.invalidTransition('run', from))
      return { status: 'running', started_at: now }
    default:
      return { status: state, finished_at: now }
  }
}

/**
 * `POST /projects/:id/statuses/:sha` after its permission check (`create_commit_status`): the
 * commit (any revision `Project#commit` reads), the newest pipeline of its sha (for `ref` and
 * `pipeline_id` when given), the ref (given, else that pipeline's, else the first branch holding
 * the commit), the pipeline (created `external` when none), `update_pipeline` on it, the generic
 * status of that name, ref and user that is pending or running (else a new one in the `external`
 * stage), its `target_url`, `description` and `coverage` when given, validated, the state's
 * transition, older statuses of its name in the pipeline retried, and the pipeline processed.
 * @returns the status as stored.
 * @throws ApiError 404 `Commit` / `References for commit`, 403 without `update_pipeline`, 400
 *   `{"message":{"name":["can't be blank"],"target_url":[…]}}`, 400 for a refused transition.
 */
export function postCommitStatus(ctx: RuleCtx, project: ProjectRecord, user: UserRecord, revision: string, params: NewCommitStatus, now: string): JobRecord {
  const db = ctx.db
  // `Project#commit(revision)`: a branch, tag, sha or `HEAD`.
  const sha = commitIdOf(ctx, project, revision)
  if (sha === undefined) throw notFound('Commit')
  // `all_matching_pipelines.first`: newest first, for the ref and the id when given (a given empty ref matches none).
  let pipeline = db.tables.pipelines
    .where('project_id', project.id)
    .filter((p) => p.sha === sha && (params.ref === undefined || p.ref === params.ref) && (params.pipeline_id === undefined || p.id === params.pipeline_id))
    .sort((a, b) => b.id - a.id)[0]
  const ref = params.ref ?? pipeline?.ref ?? firstBranchContaining(db, project, sha)
  if (ref === undefined) throw notFound('References for commit')
  // spec-gap: GitLab's `create!` raises on an empty ref (`Ref can't be blank`) and answers 500; fakelab answers its validation error.
  if (ref === '') throw validationFailed({ ref: [CommitStatusMessage.blank] })
  const name = params.name ?? params.context ?? 'default'
  pipeline ??= createExternalPipeline(ctx, project, user, sha, ref, now)
  if (!canUpdatePipeline(ctx, project, pipeline)) throw forbidden()

  // `GenericCommitStatus.running_or_pending.find_or_initialize_by(project:, pipeline:, name:, ref:, user:)`.
  const found = db.tables.jobs
    .where('pipeline_id', pipeline.id)
    .find((j) => j.type === 'GenericCommitStatus' && (j.status === 'pending' || j.status === 'running') && j.name === name && j.ref === ref && j.user_id === user.id)
  // `attributes_for_keys`: a param counts when present (an empty string does not).
  const given: Partial<JobRecord> = {}
  if (params.target_url) given.target_url = params.target_url
  if (params.description) given.description = params.description
  if (params.coverage !== undefined) given.coverage = params.coverage
  const targetUrl = given.target_url ?? found?.target_url ?? null

  // `status.valid?`: CommitStatus's `name` presence, then GenericCommitStatus's `target_url`.
  const errors: Record<string, string[]> = {}
  if (name === '') errors['name'] = [CommitStatusMessage.blank]
  const urlErrors = targetUrl === null ? [] : targetUrlErrors(targetUrl)
  if (urlErrors.length > 0) errors['target_url'] = urlErrors
  if (Object.keys(errors).length > 0) throw validationFailed(errors)

  const change = transitionFields(found?.status ?? 'created', params.state, now)
  const status = found
    ? db.tables.jobs.update(found.id, { ...given, ...change })
    : db.tables.jobs.insert({
        ...newJob({
          type: 'GenericCommitStatus',
          project_id: project.id,
          pipeline_id: pipeline.id,
          user_id: user.id,
          stage: 'external',
          name,
          // AddJobService: a job takes its pipeline's ref.
          ref: pipeline.ref,
          tag: pipeline.tag,
          allow_failure: false,
          when: 'on_success',
          stage_idx: EXTERNAL_STAGE_IDX,
          created_at: now,
        }),
        ...given,
        ...change,
      })
  // ProcessPipelineService#update_retried: of the latest statuses of that name (builds too), the newest stays, the others are retried.
  const sameName = db.tables.jobs.where('pipeline_id', pipeline.id).filter((j) => j.name === status.name && !j.retried)
  const newest = Math.max(...sameName.map((j) => j.id))
  for (const other of sameName) if (other.id !== newest) db.tables.jobs.update(other.id, { retried: true })
  processPipeline(ctx, pipeline, now)
  return db.tables.jobs.get(status.id)!
}
