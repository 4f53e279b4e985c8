/**
 * What other areas may use of the environments area: an environment read by id or name, found or
 * created by name as CI jobs and the deployments API do (`environments.find_or_create_by_name`), its
 * external URL and state changed by a deployment (`Deployments::UpdateEnvironmentService`,
 * a stop job), and the `EnvironmentBasic` entity a deployment shows. Nothing here imports another area.
 * gitlab (13.12): app/models/environment.rb, app/services/deployments/update_environment_service.rb.
 * @module
 */
import type { Db } from '../../db/db.js'
import type { ProjectRecord } from '../../db/schema.js'
import type { EventCtx } from '../../rules/events.js'
import { generateSlug, validateEnvironment } from './environments.service.js'
import type { EnvironmentRecord } from './environments.tables.js'

export { EnvironmentBasic } from './environments.entities.js'
export { registerLastDeploymentLookup } from './environments.last-deployment.js'

/** An environment by id, or undefined. */
export function environmentById(db: Db, id: number): EnvironmentRecord | undefined {
  return db.tables.environments.get(id)
}

/** The project's environment named `name`, or undefined. */
export function environmentByName(db: Db, projectId: number, name: string): EnvironmentRecord | undefined {
  return db.tables.environments.where('project_id', projectId).find((env) => env.name === name)
}

/** Six letters and digits derived from the project and name: the slug suffix of an environment a job or a request makes without a faker at hand. */
function derivedSuffix(projectId: number, name: string, salt: number): string {
  const chars = 'abcdefghijklmnopqrstuvwxyz0123456789'
  let h = 2166136261 ^ salt
  for (const c of `${projectId}/${name}`) h = Math.imul(h ^ c.charCodeAt(0), 16777619)
  let out = ''
  for (let i = 0; i < 6; i++) {
    h = Math.imul(h ^ (h >>> 15), 2246822507) >>> 0
    out += chars[h % chars.length]
  }
  return out
}

/**
 * `project.environments.find_or_create_by_name(name)`: the existing one, else a new `available`
 * one (validated as `POST …/environments` validates; its slug's random suffix derived from the
 * project and the name, or `suffix` when given).
 * @throws ApiError 400 `{"message":{"name":[…]}}` when the name is not a valid environment name.
 */
export function findOrCreateEnvironment(ctx: Pick<EventCtx, 'db' | 'now'>, project: ProjectRecord, name: string, suffix?: string): EnvironmentRecord {
  const existing = environmentByName(ctx.db, project.id, name)
  if (existing) return existing
  validateEnvironment(ctx.db, project, name, null)
  const slug = generateSlug(name, suffix ?? derivedSuffix(project.id, name, ctx.db.tables.environments.all().length))
  return ctx.db.tables.environments.insert({ project_id: project.id, name, slug, external_url: null, state: 'available', created_at: ctx.now, updated_at: ctx.now })
}

/**
 * What a successful deployment does to its environment (`Deployments::UpdateEnvironmentService`):
 * the job's `environment: url` (when given) becomes its external URL, and a stopped environment
 * is available again (`environment.fire_state_event(:start)`).
 */
export function deployedTo(ctx: Pick<EventCtx, 'db' | 'now'>, env: EnvironmentRecord, externalUrl: string | null): EnvironmentRecord {
  const url = externalUrl ?? env.external_url
  if (env.state === 'available' && url === env.external_url) return env
  return ctx.db.tables.environments.update(env.id, { state: 'available', external_url: url, updated_at: ctx.now })
}

/** A stop job succeeded (`BuildSuccessWorker#stop_environment`: `environment.fire_state_event(:stop)`): the environment is stopped. */
export function stoppedBy(ctx: Pick<EventCtx, 'db' | 'now'>, env: EnvironmentRecord): EnvironmentRecord {
  if (env.state === 'stopped') return env
  return ctx.db.tables.environments.update(env.id, { state: 'stopped', updated_at: ctx.now })
}
