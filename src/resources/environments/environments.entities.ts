/**
 * The environment entities, in GitLab 13.12's field order.
 * gitlab: lib/api/entities/environment_basic.rb, lib/api/entities/environment.rb.
 * @module
 */
import { BasicProjectDetails } from '../../entities/project.js'
import type { PresentCtx } from '../../entities/urls.js'
import type { ProjectRecord } from '../../db/schema.js'
import type { EnvironmentRecord } from './environments.tables.js'
import { lastDeploymentOf } from './environments.last-deployment.js'

/** `EnvironmentBasic`: `{id, name, slug, external_url}`. */
export function EnvironmentBasic(env: EnvironmentRecord) {
  return { id: env.id, name: env.name, slug: env.slug, external_url: env.external_url }
}

/** `Environment` as lists, create, update and stop answer: `EnvironmentBasic`, `project`, `state`. */
export function Environment(env: EnvironmentRecord, project: ProjectRecord, ctx: PresentCtx) {
  return { ...EnvironmentBasic(env), project: BasicProjectDetails(project, ctx), state: env.state }
}

/**
 * `Environment` as `GET …/environments/:id` answers it (`except: [:project, {last_deployment:
 * [:environment]}]`, `last_deployment: true`): `EnvironmentBasic`, `last_deployment` (its newest
 * successful deployment as `Deployment` without `environment`, null for none), `state`.
 */
export function EnvironmentDetail(env: EnvironmentRecord, ctx: PresentCtx) {
  return { ...EnvironmentBasic(env), last_deployment: lastDeploymentOf(ctx, env.id), state: env.state }
}
