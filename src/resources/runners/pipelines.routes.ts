/**
 * The pipelines API: a project's pipelines listed, read, created from its CI definition, retried,
 * canceled and deleted; the newest pipeline of a ref; a pipeline's variables and jobs.
 * GET routes are open to anonymous callers on public projects (`before { authenticate_non_get! }`);
 * a pipeline is found before it is authorized (`authorize! :read_pipeline, pipeline`), so an
 * unknown one is 404 `{"message":"404 Not found"}` before any 403.
 * Source: issue 25 item 3; gitlab: lib/api/ci/pipelines.rb (13.x), app/policies/ci/pipeline_policy.rb.
 * @module
 */
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { forbidden, grapeError, recordNotFound } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, noContent, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import { findProject } from '../../rules/finders.js'
import { Pipeline, PipelineBasic, PipelineVariable } from './pipelines.entities.js'
import { CI_STATUSES } from './pipelines.scenario.js'
import {
  canDestroyPipeline,
  canDevelop,
  canReadBuilds,
  canReadPipelineVariables,
  canUpdatePipeline,
  buildsOfPipeline,
  cancelPipeline,
  checkScopeNotCommaSeparated,
  createPipeline,
  destroyPipeline,
  findPipelines,
  latestPipeline,
  retryPipeline,
  type NewVariable,
  type PipelineFilters,
} from './pipelines.service.js'
import { Job } from './runners.entities.js'
import type { JobRecord, PipelineRecord } from './runners.tables.js'

const projectParam = { id: p.string({ required: true }) }
const pipelineParams = { ...projectParam, pipeline_id: p.integer({ required: true }) }

/** `::Ci::PipelinesFinder::ALLOWED_INDEXED_COLUMNS`. */
const ORDER_BY = ['id', 'status', 'ref', 'updated_at', 'user_id'] as const

/**
 * `read_pipeline` on the project (what the pipeline's jobs list asks first): Reporter+, any reader
 * of a public or internal project (`public_access`), or a guest when pipelines are public.
 */
function canReadProjectPipelines(ctx: Ctx<unknown>, project: ProjectRecord): boolean {
  return project.visibility !== 'private' || canReadBuilds(ctx, project)
}

/** `user_project.all_pipelines.find(params[:pipeline_id])`. @throws ApiError 404 `{"message":"404 Not found"}`. */
function findPipeline(ctx: Ctx<{ pipeline_id: number }>, project: ProjectRecord): PipelineRecord {
  const pipeline = ctx.db.tables.pipelines.get(ctx.params.pipeline_id)
  if (!pipeline || pipeline.project_id !== project.id) throw recordNotFound()
  return pipeline
}

/** A pipeline the caller may read. @throws ApiError 404, then 403 `{"message":"403 Forbidden"}`. */
function readablePipeline(ctx: Ctx<{ id: string; pipeline_id: number }>): { project: ProjectRecord; pipeline: PipelineRecord } {
  const project = findProject(ctx, ctx.params.id)
  const pipeline = findPipeline(ctx, project)
  if (!canReadBuilds(ctx, project)) throw forbidden()
  return { project, pipeline }
}

/**
 * The `variables` of `POST /projects/:id/pipeline` (Grape `optional :variables, Array`): a list of
 * `{key, value, variable_type}` hashes, read as given (not a declared param: Grape's `Array`
 * takes any element).
 * @throws ApiError 400 `{"error":"variables is invalid"}` for anything but a list.
 */
function variablesOf(raw: unknown): NewVariable[] {
  if (raw === undefined || raw === null || raw === '') return []
  const list = Array.isArray(raw) ? raw : typeof raw === 'object' ? Object.values(raw) : undefined
  if (!list) throw grapeError('variables is invalid')
  return list.map((item) => {
    const v = item !== null && typeof item === 'object' ? (item as Record<string, unknown>) : {}
    const text = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : '')
    // spec-gap: a variable without `variable_type` is `env_var` (the column default); a missing value is "".
    return { key: text(v.key), value: text(v.value), variable_type: v.variable_type === undefined ? 'env_var' : text(v.variable_type) }
  })
}

/** Every pipelines route. */
export const pipelineRoutes: Route[] = [
  route('GET /projects/:id/pipelines', {
    auth: 'optional',
    params: {
      ...projectParam,
      ...paginationParams,
      scope: p.string({ values: ['running', 'pending', 'finished', 'branches', 'tags'] }),
      status: p.string({ values: CI_STATUSES }),
      ref: p.string(),
      sha: p.string(),
      yaml_errors: p.boolean(),
      name: p.string(),
      username: p.string(),
      updated_before: p.datetime(),
      updated_after: p.datetime(),
      order_by: p.string({ values: ORDER_BY, default: 'id' }),
      sort: p.string({ values: ['asc', 'desc'], default: 'desc' }),
    },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      // `authorize! :read_pipeline` then `authorize! :read_build`, both on the project.
      if (!canReadBuilds(ctx, project)) throw forbidden()
      const pipelines = findPipelines(ctx, project, ctx.params as PipelineFilters)
      return paginated(ctx, pipelines, (pipeline) => PipelineBasic(pipeline, ctx))
    },
  }),

  route('POST /projects/:id/pipeline', {
    params: { ...projectParam, ref: p.string({ required: true }) },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      if (!canDevelop(ctx, project)) throw forbidden()
      const pipeline = createPipeline(ctx, project, ctx.currentUser!, ctx.params.ref, variablesOf(ctx.raw.variables), ctx.now)
      return created(Pipeline(pipeline, ctx))
    },
  }),

  route('GET /projects/:id/pipelines/latest', {
    auth: 'optional',
    params: { ...projectParam, ref: p.string() },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      // `authorize! :read_pipeline, latest_pipeline`: no pipeline is a nil subject, which nobody may read.
      const pipeline = latestPipeline(ctx, project, ctx.params.ref)
      if (!pipeline || !canReadBuilds(ctx, project)) throw forbidden()
      return ok(Pipeline(pipeline, ctx))
    },
  }),

  route('GET /projects/:id/pipelines/:pipeline_id', {
    auth: 'optional',
    params: pipelineParams,
    handler(ctx) {
      const { pipeline } = readablePipeline(ctx)
      return ok(Pipeline(pipeline, ctx))
    },
  }),

  route('GET /projects/:id/pipelines/:pipeline_id/jobs', {
    auth: 'optional',
    params: {
      ...pipelineParams,
      include_retried: p.boolean({ default: false }),
      scope: p.strings({ values: CI_STATUSES }),
      ...paginationParams,
    },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      if (!canReadProjectPipelines(ctx, project)) throw forbidden()
      const pipeline = findPipeline(ctx, project)
      // Ci::JobsFinder (`pipeline.builds`: no generic commit statuses): newest first; without
      // `read_build` an empty list rather than a refusal.
      let jobs: JobRecord[] = canReadBuilds(ctx, project) ? buildsOfPipeline(ctx.db, pipeline.id).reverse() : []
      if (!ctx.params.include_retried) jobs = jobs.filter((job) => !job.retried)
      checkScopeNotCommaSeparated(ctx.raw.scope)
      const scope = ctx.params.scope
      if (scope && scope.length > 0) jobs = jobs.filter((job) => (scope as readonly string[]).includes(job.status))
      return paginated(ctx, jobs, (job) => Job(job, ctx))
    },
  }),

  // gitlab (13.12) lib/api/ci/pipelines.rb: `authorize!(:read_build, user_project)`, then the
  // pipeline (`all_pipelines.find`), then `Ci::JobsFinder` with `type: ::Ci::Bridge`. fakelab makes
  // no bridge (a `trigger:` job is not read: docs/spec-gaps.md), so the list is the empty page.
  route('GET /projects/:id/pipelines/:pipeline_id/bridges', {
    auth: 'optional',
    params: { ...pipelineParams, scope: p.strings({ values: CI_STATUSES }), ...paginationParams },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      if (!canReadBuilds(ctx, project)) throw forbidden()
      findPipeline(ctx, project)
      checkScopeNotCommaSeparated(ctx.raw.scope)
      return paginated(ctx, [] as JobRecord[], (job) => Job(job, ctx))
    },
  }),

  // gitlab (13.12) lib/api/ci/pipelines.rb: the pipeline (404), `authorize! :read_build, pipeline`,
  // `pipeline.test_reports` as `TestReportEntity` (details). fakelab keeps no `junit` reports (the
  // runner API stores archives only), so every pipeline's report is the empty one.
  route('GET /projects/:id/pipelines/:pipeline_id/test_report', {
    auth: 'optional',
    params: pipelineParams,
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      findPipeline(ctx, project)
      if (!canReadBuilds(ctx, project)) throw forbidden()
      return ok({ total_time: 0, total_count: 0, success_count: 0, failed_count: 0, skipped_count: 0, error_count: 0, test_suites: [] })
    },
  }),

  route('GET /projects/:id/pipelines/:pipeline_id/variables', {
    auth: 'optional',
    params: pipelineParams,
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      const pipeline = findPipeline(ctx, project)
      if (!canReadPipelineVariables(ctx, project, pipeline)) throw forbidden()
      return ok(ctx.db.tables.pipeline_variables.where('pipeline_id', pipeline.id).map(PipelineVariable))
    },
  }),

  route('DELETE /projects/:id/pipelines/:pipeline_id', {
    params: pipelineParams,
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      const pipeline = findPipeline(ctx, project)
      if (!canDestroyPipeline(ctx, project)) throw forbidden()
      checkUnmodifiedSince(ctx, pipeline.updated_at) // destroy_conditionally!
      destroyPipeline(ctx.db, pipeline)
      return noContent()
    },
  }),

  route('POST /projects/:id/pipelines/:pipeline_id/retry', {
    params: pipelineParams,
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      const pipeline = findPipeline(ctx, project)
      if (!canUpdatePipeline(ctx, project, pipeline)) throw forbidden()
      return created(Pipeline(retryPipeline(ctx, project, pipeline, ctx.currentUser!, ctx.now), ctx))
    },
  }),

  route('POST /projects/:id/pipelines/:pipeline_id/cancel', {
    params: pipelineParams,
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      const pipeline = findPipeline(ctx, project)
      if (!canUpdatePipeline(ctx, project, pipeline)) throw forbidden()
      // gitlab: `status 200` after `cancel_running`.
      return ok(Pipeline(cancelPipeline(ctx, pipeline, ctx.now), ctx))
    },
  }),
]
