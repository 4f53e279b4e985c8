/**
 * Deployments: who may read and make them, the finder's filters and orders, the status machine, a
 * deployment made through the API, and what a successful one does (its environment updated, the
 * merge requests it shipped linked). gitlab (13.12): app/models/deployment.rb (state machine,
 * `update_status`), app/finders/deployments_finder.rb, app/services/deployments/create_service.rb,
 * update_service.rb, link_merge_requests_service.rb, update_environment_service.rb,
 * app/policies/project_policy.rb (`read_deployment` Reporter+, `create_deployment`/`update_deployment` Developer+).
 * @module
 */
import { recordNotFound, ValidationMessage, validationFailed } from '../../core/errors.js'
import type { Db } from '../../db/db.js'
import type { ProjectRecord } from '../../db/schema.js'
import type { PresentCtx } from '../../entities/urls.js'
import { AccessLevel, hasProjectAccess } from '../../rules/access.js'
import type { DomainEventHeader } from '../../rules/events.js'
import { deployedTo, environmentById, findOrCreateEnvironment } from '../environments/environments.public.js'
import { mergeRequestsOfProject } from '../merge-requests/merge-requests.public.js'
import { ancestors, repositoryOf } from '../repository/repository.public.js'
import { publishDeploymentStatus } from './deployments.events.js'
import type { DeploymentRecord, DeploymentStatus } from './deployments.tables.js'

/** Whether the caller may read (`read_deployment`: Reporter+) or make (`create_deployment`, `update_deployment`: Developer+) deployments; administrators may. */
export function canDeployments(ctx: PresentCtx, project: ProjectRecord, level: 'read' | 'write'): boolean {
  return hasProjectAccess(ctx.db, ctx.currentUser, project, level === 'read' ? AccessLevel.REPORTER : AccessLevel.DEVELOPER, ctx.today)
}

/** `DeploymentsFinder::ALLOWED_SORT_VALUES`. */
export const DEPLOYMENT_ORDER_BY = ['id', 'iid', 'created_at', 'updated_at', 'ref'] as const

/** The filters and order of `GET /projects/:id/deployments` (`DeploymentsFinder`). */
export interface DeploymentFilters {
  order_by: (typeof DEPLOYMENT_ORDER_BY)[number]
  sort: 'asc' | 'desc'
  updated_after?: string | undefined
  updated_before?: string | undefined
  environment?: string | undefined
  status?: DeploymentStatus | undefined
}

/**
 * `DeploymentsFinder#execute`: the project's deployments, `updated_at` strictly after / before the
 * bounds, of the environment named (none when no such environment), of the status, ordered by the
 * column (NULLs as PostgreSQL sorts them), ties by id in the same direction.
 */
export function findDeployments(db: Db, project: ProjectRecord, f: DeploymentFilters): DeploymentRecord[] {
  let rows = db.tables.deployments.where('project_id', project.id)
  if (f.updated_after !== undefined) rows = rows.filter((d) => Date.parse(d.updated_at) > Date.parse(f.updated_after!))
  if (f.updated_before !== undefined) rows = rows.filter((d) => Date.parse(d.updated_at) < Date.parse(f.updated_before!))
  if (f.environment !== undefined) rows = rows.filter((d) => environmentById(db, d.environment_id)?.name === f.environment)
  if (f.status !== undefined) rows = rows.filter((d) => d.status === f.status)
  const dir = f.sort === 'asc' ? 1 : -1
  const key = f.order_by
  return [...rows].sort((a, b) => {
    const x = a[key]
    const y = b[key]
    if (x !== y) {
      if (key === 'created_at' || key === 'updated_at') return (Date.parse(x as string) - Date.parse(y as string)) * dir || (a.id - b.id) * dir
      return (x < y ? -1 : 1) * dir
    }
    return (a.id - b.id) * dir
  })
}

/** `user_project.deployments.find(id)`. @throws ApiError 404 `{"message":"404 Not found"}`. */
export function findDeployment(db: Db, project: ProjectRecord, id: number): DeploymentRecord {
  const d = Number.isSafeInteger(id) ? db.tables.deployments.get(id) : undefined
  if (!d || d.project_id !== project.id) throw recordNotFound()
  return d
}

/** The deployment a job deploys with (`build.deployment`), or undefined. */
export function deploymentOfJob(db: Db, jobId: number): DeploymentRecord | undefined {
  return db.tables.deployments.where('deployable_id', jobId)[0]
}

/** What a new deployment is made of. */
export interface NewDeployment {
  readonly environmentId: number
  readonly sha: string
  readonly ref: string
  readonly tag: boolean
  readonly userId: number | null
  readonly deployableId: number | null
}

/**
 * `environment.deployments.build(...)` saved, `created`: the next iid of the project
 * (`has_internal_id`, initialised from the project's highest), the model's validations first.
 * @throws ApiError 400 `{"message":{"sha":["can't be blank"],"ref":["can't be blank"]}}`.
 */
export function insertDeployment(header: DomainEventHeader, db: Db, project: ProjectRecord, n: NewDeployment): DeploymentRecord {
  const errors: Record<string, string[]> = {}
  if (n.sha.trim() === '') errors.sha = [ValidationMessage.blank]
  if (n.ref.trim() === '') errors.ref = [ValidationMessage.blank]
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
  const iid = db.tables.deployments.where('project_id', project.id).reduce((max, d) => Math.max(max, d.iid), 0) + 1
  const d = db.tables.deployments.insert({
    iid, project_id: project.id, environment_id: n.environmentId, ref: n.ref, tag: n.tag, sha: n.sha, user_id: n.userId,
    deployable_id: n.deployableId, status: 'created', created_at: header.at, updated_at: header.at, finished_at: null,
  })
  publishDeploymentStatus(header, db, d, null)
  return d
}

/** The events of the status machine, by the status they lead to, and the statuses each leaves from. */
const FROM: Record<Exclude<DeploymentStatus, 'created'>, (s: DeploymentStatus) => boolean> = {
  running: (s) => s === 'created', // event :run, created → running
  success: (s) => s !== 'success', // event :succeed, any - [:success]
  failed: (s) => s !== 'failed', // event :drop
  canceled: (s) => s !== 'canceled', // event :cancel
  skipped: (s) => s !== 'skipped', // event :skip
}

/**
 * `Deployment#update_status` (its state machine's event for `status`): false when the event does
 * not apply (`run` from anything but `created`, `succeed` of a successful one...), else the
 * deployment takes the status (`finished_at` on success, failure and cancel), the `deployment`
 * fact is published, and a success does what `Deployments::SuccessWorker` and
 * `LinkMergeRequestWorker` do (the environment updated with `externalUrl`, merged merge requests linked).
 * @returns the deployment as stored, or false.
 */
export function transitionDeployment(header: DomainEventHeader, db: Db, d: DeploymentRecord, status: Exclude<DeploymentStatus, 'created'>, externalUrl: string | null = null): DeploymentRecord | false {
  if (!FROM[status](d.status)) return false
  const finished = status === 'success' || status === 'failed' || status === 'canceled'
  const stored = db.tables.deployments.update(d.id, { status, updated_at: header.at, ...(finished ? { finished_at: header.at } : {}) })
  if (status === 'success') {
    const env = environmentById(db, stored.environment_id)
    if (env) deployedTo({ db, now: header.at }, env, externalUrl)
    linkMergeRequests(db, stored)
  }
  publishDeploymentStatus(header, db, stored, d.status)
  return stored
}

/** `Environment#environment_type`: the part of its name before the first `/` when it has one (review apps), else null. */
function environmentType(name: string): string | null {
  const at = name.indexOf('/')
  return at > 0 ? name.slice(0, at) : null
}

/**
 * `Deployments::LinkMergeRequestsService`: nothing for a review app's environment (a typed name);
 * else after the environment's previous successful deployment, the merged merge requests whose
 * merge commit is among the commits between its sha and this one; with none before, every merged
 * merge request into the deployed ref. Each linked once.
 */
function linkMergeRequests(db: Db, d: DeploymentRecord): void {
  const env = environmentById(db, d.environment_id)
  if (!env || environmentType(env.name) !== null) return
  const project = db.tables.projects.get(d.project_id)
  if (!project) return
  let previous: DeploymentRecord | undefined
  for (const o of db.tables.deployments.where('environment_id', d.environment_id)) if (o.id !== d.id && o.status === 'success' && (!previous || o.id > previous.id)) previous = o
  const merged = mergeRequestsOfProject(db, project.id).filter((mr) => mr.state === 'merged')
  let shipped: typeof merged
  if (previous) {
    const repo = repositoryOf(db, project)
    if (!repo.objects.commit(d.sha)) return
    const before = repo.objects.commit(previous.sha) ? ancestors(repo, previous.sha) : new Set<string>()
    const commits = new Set([...ancestors(repo, d.sha)].filter((id) => !before.has(id)))
    shipped = merged.filter((mr) => mr.merge_commit_sha !== null && commits.has(mr.merge_commit_sha))
  } else shipped = merged.filter((mr) => mr.target_branch === d.ref)
  const linked = new Set(db.tables.deployment_merge_requests.where('deployment_id', d.id).map((l) => l.merge_request_id))
  for (const mr of shipped) if (!linked.has(mr.id)) db.tables.deployment_merge_requests.insert({ deployment_id: d.id, merge_request_id: mr.id })
}

/** The merge requests linked to a deployment (`deployment.merge_requests`), by id. */
export function linkedMergeRequestIds(db: Db, d: DeploymentRecord): Set<number> {
  return new Set(db.tables.deployment_merge_requests.where('deployment_id', d.id).map((l) => l.merge_request_id))
}

/** What `POST /projects/:id/deployments` gives (`declared_params`). */
export interface DeploymentInput {
  readonly environment: string
  readonly sha: string
  readonly ref: string
  readonly tag: boolean
  readonly status: 'running' | 'success' | 'failed' | 'canceled'
}

/**
 * `POST /projects/:id/deployments`: the environment found or created by name, then
 * `Deployments::CreateService` (the deployment built, `update_status(status)` saving it).
 * @param suffix six random letters and digits for a new environment's slug.
 * @throws ApiError 400 `{"message":{"name":[…]}}` for an environment name GitLab refuses, or the deployment's validations.
 */
export function createDeployment(header: DomainEventHeader, db: Db, project: ProjectRecord, input: DeploymentInput, suffix: string): DeploymentRecord {
  const env = findOrCreateEnvironment({ db, now: header.at }, project, input.environment, suffix)
  const d = insertDeployment(header, db, project, { environmentId: env.id, sha: input.sha, ref: input.ref, tag: input.tag, userId: header.actorId, deployableId: null })
  return transitionDeployment(header, db, d, input.status) || d
}
