/**
 * The deployments API: a project's deployments listed (filters, orders), read, created (the
 * environment made when missing) and updated (only one the API made: a job's follows the job),
 * and the merge requests a deployment shipped. Every route needs a signed-in user
 * (`before { authenticate! }`); then the project (404 `{"message":"404 Project Not Found"}`), then
 * `read_deployment` (Reporter+) and the write's abilities (`create_deployment` and
 * `create_environment`, `update_deployment`: Developer+): 403 `{"message":"403 Forbidden"}`.
 * gitlab (13.12): lib/api/deployments.rb.
 * @module
 */
import { forbidden, validationFailed } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import type { DomainEventHeader } from '../../rules/events.js'
import { findProject } from '../../rules/finders.js'
import { canReadMergeRequest, MergeRequestBasic, mergeRequestsOfProject } from '../merge-requests/merge-requests.public.js'
import { Deployment, DeploymentExtended } from './deployments.entities.js'
import { canDeployments, createDeployment, DEPLOYMENT_ORDER_BY, findDeployment, findDeployments, linkedMergeRequestIds, transitionDeployment } from './deployments.service.js'
import { DEPLOYMENT_STATUSES } from './deployments.tables.js'

const projectId = { id: p.string({ required: true }) }
const deploymentId = { ...projectId, deployment_id: p.integer({ required: true }) }
const WRITE_STATUSES = ['running', 'success', 'failed', 'canceled'] as const

/** The project, then `read_deployment`. @throws ApiError 404, then 403. */
function readable(ctx: Ctx<{ id: string }>): ProjectRecord {
  const project = findProject(ctx, ctx.params.id)
  if (!canDeployments(ctx, project, 'read')) throw forbidden()
  return project
}

/** The fact header of a change the request makes. */
function header(ctx: Ctx<unknown>): DomainEventHeader {
  return { actorId: ctx.currentUser?.id ?? null, at: ctx.now, baseUrl: ctx.baseUrl }
}

/** The deployments routes. */
export const deploymentRoutes: Route[] = [
  route('GET /projects/:id/deployments', {
    params: {
      ...projectId,
      ...paginationParams,
      order_by: p.string({ values: DEPLOYMENT_ORDER_BY, default: 'id' }),
      sort: p.string({ values: ['asc', 'desc'], default: 'asc' }),
      updated_after: p.datetime(),
      updated_before: p.datetime(),
      environment: p.string(),
      status: p.string({ values: DEPLOYMENT_STATUSES }),
    },
    handler(ctx) {
      const project = readable(ctx)
      const { order_by, sort, updated_after, updated_before, environment, status } = ctx.params
      return paginated(ctx, findDeployments(ctx.db, project, { order_by, sort, updated_after, updated_before, environment, status }), (d) => Deployment(d, ctx))
    },
  }),

  route('GET /projects/:id/deployments/:deployment_id', {
    params: deploymentId,
    handler(ctx) {
      const project = readable(ctx)
      return ok(DeploymentExtended(findDeployment(ctx.db, project, ctx.params.deployment_id), ctx))
    },
  }),

  route('POST /projects/:id/deployments', {
    params: {
      ...projectId,
      environment: p.string({ required: true }),
      sha: p.string({ required: true }),
      ref: p.string({ required: true }),
      tag: p.boolean({ required: true }),
      status: p.string({ required: true, values: WRITE_STATUSES }),
    },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      // `authorize!(:create_deployment)`, `authorize!(:create_environment)`: both Developer+.
      if (!canDeployments(ctx, project, 'write')) throw forbidden()
      const { environment, sha, ref, tag, status } = ctx.params
      const d = createDeployment(header(ctx), ctx.db, project, { environment, sha, ref, tag, status }, ctx.faker.string.fromCharacters('abcdefghijklmnopqrstuvwxyz0123456789', 6))
      return created(DeploymentExtended(d, ctx))
    },
  }),

  route('PUT /projects/:id/deployments/:deployment_id', {
    params: { ...deploymentId, status: p.string({ required: true, values: WRITE_STATUSES }) },
    handler(ctx) {
      const project = readable(ctx)
      const d = findDeployment(ctx.db, project, ctx.params.deployment_id)
      if (!canDeployments(ctx, project, 'write')) throw forbidden()
      if (d.deployable_id !== null) throw forbidden('Deployments created using GitLab CI can not be updated using the API')
      const updated = transitionDeployment(header(ctx), ctx.db, d, ctx.params.status)
      // `render_validation_error!(deployment)`: a refused transition leaves no errors on the model.
      if (!updated) throw validationFailed({})
      return ok(DeploymentExtended(updated, ctx))
    },
  }),

  route('GET /projects/:id/deployments/:deployment_id/merge_requests', {
    params: {
      ...deploymentId,
      ...paginationParams,
      state: p.string({ values: ['opened', 'closed', 'locked', 'merged', 'all'], default: 'all' }),
      order_by: p.string({ values: ['created_at', 'updated_at'], default: 'created_at' }),
      sort: p.string({ values: ['asc', 'desc'], default: 'desc' }),
    },
    handler(ctx) {
      const project = readable(ctx)
      // `MergeRequestsFinder` with `deployment_id`: the linked ones the caller may read (a deployment of another project links none).
      const d = ctx.db.tables.deployments.get(ctx.params.deployment_id)
      const ids = d && d.project_id === project.id ? linkedMergeRequestIds(ctx.db, d) : new Set<number>()
      const { state, order_by, sort } = ctx.params
      const dir = sort === 'asc' ? 1 : -1
      const rows = mergeRequestsOfProject(ctx.db, project.id)
        .filter((mr) => ids.has(mr.id) && (state === 'all' || mr.state === state) && canReadMergeRequest(ctx, project, mr))
        .sort((a, b) => (Date.parse(a[order_by]) - Date.parse(b[order_by])) * dir || (a.id - b.id) * dir)
      return paginated(ctx, rows, (mr) => MergeRequestBasic(mr, ctx))
    },
  }),
]
