/**
 * Pipeline presenters other areas show (a merge request's `pipeline`, `head_pipeline` and
 * `…/pipelines`, a commit's `last_pipeline`): `PipelineBasic` and `Pipeline`, with the pipeline's
 * `detailed_status`; and `CommitStatus`, a commit's statuses.
 * Field order follows GitLab 13.x lib/api/entities/ci/pipeline_basic.rb, ci/pipeline.rb,
 * lib/api/entities/commit_status.rb and app/serializers/detailed_status_entity.rb; the status
 * texts follow lib/gitlab/ci/status/*.rb.
 * @module
 */
import { projectWebUrl, type PresentCtx } from '../../entities/urls.js'
import { userBasicOrNull } from '../../entities/user.js'
import type { JobRecord, PipelineRecord, PipelineVariableRecord } from './runners.tables.js'

/** `Gitlab::Git::BLANK_SHA`: the `before_sha` of a pipeline with no previous commit. */
const BLANK_SHA = '0000000000000000000000000000000000000000'

/** The pipeline's page, `https://host/<project>/-/pipelines/<id>` (or its path, `relative`). */
function pipelinePath(ctx: PresentCtx, pipeline: PipelineRecord, relative: boolean): string {
  const project = ctx.db.tables.projects.get(pipeline.project_id)
  const url = `${project ? projectWebUrl(ctx, project) : ctx.baseUrl}/-/pipelines/${pipeline.id}`
  return relative ? url.slice(ctx.baseUrl.length) : url
}

/**
 * `PipelineBasic` (13.12, lib/api/entities/ci/pipeline_basic.rb): `{id, project_id, sha, ref,
 * status, created_at, updated_at, web_url}`. `Pipeline`, a job's `pipeline`, a merge request's
 * `pipeline` and `head_pipeline` and a commit's `last_pipeline` start with it.
 */
export function PipelineBasic(pipeline: PipelineRecord, ctx: PresentCtx) {
  return {
    id: pipeline.id,
    project_id: pipeline.project_id,
    sha: pipeline.sha,
    ref: pipeline.ref,
    status: pipeline.status,
    created_at: pipeline.created_at,
    updated_at: pipeline.updated_at,
    web_url: pipelinePath(ctx, pipeline, false),
  }
}

/** Status → `[icon, text and label, group]` (gitlab: lib/gitlab/ci/status/{success,failed,…}.rb). */
const STATUS_TEXT: Record<string, readonly [string, string, string]> = {
  created: ['status_created', 'created', 'created'],
  waiting_for_resource: ['status_pending', 'waiting', 'waiting-for-resource'],
  preparing: ['status_preparing', 'preparing', 'preparing'],
  pending: ['status_pending', 'pending', 'pending'],
  running: ['status_running', 'running', 'running'],
  success: ['status_success', 'passed', 'success'],
  failed: ['status_failed', 'failed', 'failed'],
  canceled: ['status_canceled', 'canceled', 'canceled'],
  skipped: ['status_skipped', 'skipped', 'skipped'],
  manual: ['status_manual', 'manual action', 'manual'],
  scheduled: ['status_scheduled', 'delayed', 'scheduled'],
}

/**
 * `DetailedStatusEntity` of a pipeline: `{icon, text, label, group, tooltip, has_details,
 * details_path, illustration, favicon}`.
 * spec-gap: GitLab's `favicon` is a fingerprinted asset path; fakelab serves no assets, so it is the
 * undigested path.
 */
function detailedStatus(pipeline: PipelineRecord, ctx: PresentCtx) {
  const [icon, text, group] = STATUS_TEXT[pipeline.status] ?? ['status_notfound', pipeline.status, pipeline.status]
  return {
    icon,
    text,
    label: text,
    group,
    tooltip: text,
    has_details: true,
    details_path: pipelinePath(ctx, pipeline, true),
    illustration: null,
    favicon: `/assets/ci_favicons/favicon_${icon}.png`,
  }
}

/** Statuses after which a pipeline has a `finished_at`. */
const FINISHED = new Set(['success', 'failed', 'canceled', 'skipped'])

/**
 * `Entities::Ci::Pipeline` (13.x): {@link PipelineBasic}, then `before_sha, tag, yaml_errors,
 * user (UserBasic), started_at, finished_at, committed_at, duration, coverage, detailed_status`.
 * Times come from the pipeline's jobs: the first start, the last finish of a finished pipeline;
 * `duration` in whole seconds between them; `coverage` the jobs' mean as GitLab's `"%.2f"`.
 */
export function Pipeline(pipeline: PipelineRecord, ctx: PresentCtx) {
  const jobs = ctx.db.tables.jobs.where('pipeline_id', pipeline.id).filter((job) => !job.retried)
  const starts = jobs.flatMap((job) => (job.started_at ? [job.started_at] : [])).sort()
  const ends = jobs.flatMap((job) => (job.finished_at ? [job.finished_at] : [])).sort()
  const started_at = starts[0] ?? null
  const finished_at = FINISHED.has(pipeline.status) ? (ends.at(-1) ?? null) : null
  const coverages = jobs.flatMap((job) => (job.coverage === null ? [] : [job.coverage]))
  return {
    ...PipelineBasic(pipeline, ctx),
    // A pipeline created through the API or for a merge request has no push before it (`before_sha` blank).
    before_sha: pipeline.before_sha ?? (pipeline.source === 'api' || pipeline.source === 'merge_request_event' ? BLANK_SHA : (pipeline.parent_ids[0] ?? BLANK_SHA)),
    tag: pipeline.tag,
    yaml_errors: pipeline.yaml_errors ?? null,
    user: userBasicOrNull(ctx, pipeline.user_id),
    started_at,
    finished_at,
    committed_at: null,
    duration: started_at && finished_at ? Math.round((Date.parse(finished_at) - Date.parse(started_at)) / 1000) : null,
    coverage: coverages.length > 0 ? (coverages.reduce((a, b) => a + b, 0) / coverages.length).toFixed(2) : null,
    detailed_status: detailedStatus(pipeline, ctx),
  }
}

/**
 * `Entities::Ci::Variable` of a pipeline variable: `{variable_type, key, value}` (a pipeline
 * variable answers none of `protected?`, `masked?`, `environment_scope`, which the entity shows
 * only when the record has them). gitlab: lib/api/entities/ci/variable.rb (13.x).
 */
export function PipelineVariable(variable: PipelineVariableRecord) {
  return { variable_type: variable.variable_type, key: variable.key, value: variable.value }
}

/**
 * `Entities::CommitStatus` (13.x) of a build or a generic commit status: `{id, sha, ref, status,
 * name, target_url, description, created_at, started_at, finished_at, allow_failure, coverage,
 * author}`; `sha` is its pipeline's, `author` its user (UserBasic) or null.
 */
export function CommitStatus(job: JobRecord, ctx: PresentCtx) {
  return {
    id: job.id,
    sha: ctx.db.tables.pipelines.get(job.pipeline_id)?.sha ?? null,
    ref: job.ref,
    status: job.status,
    name: job.name,
    target_url: job.target_url,
    description: job.description,
    created_at: job.created_at,
    started_at: job.started_at,
    finished_at: job.finished_at,
    allow_failure: job.allow_failure,
    coverage: job.coverage,
    author: userBasicOrNull(ctx, job.user_id),
  }
}
