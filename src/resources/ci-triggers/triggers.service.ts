/**
 * Pipeline triggers: who may manage them (`admin_build`: Maintainer+; `admin_trigger`: also its
 * owner), their tokens, and a pipeline triggered with one (`Ci::PipelineTriggerService`: the
 * trigger's project must be the path's, the pipeline runs as the trigger's owner with source
 * `trigger`, its `variables[KEY]` the pipeline's own).
 * gitlab: lib/api/triggers.rb, app/services/ci/pipeline_trigger_service.rb,
 * app/policies/ci/trigger_policy.rb, app/models/ci/trigger.rb (13.12).
 * @module
 */
import { recordNotFound, validationFailed } from '../../core/errors.js'
import type { Ctx } from '../../core/route.js'
import type { Db } from '../../db/db.js'
import type { ProjectRecord } from '../../db/schema.js'
import type { PresentCtx } from '../../entities/urls.js'
import { AccessLevel, projectAccessLevel } from '../../rules/access.js'
import { canCreatePipeline, createPipeline, type NewVariable, type PipelineRecord } from '../runners/runners.public.js'
import type { TriggerRecord } from './ci-triggers.tables.js'

/** `admin_build` on the project: Maintainer+ (administrators too). */
export function canAdminBuild(ctx: PresentCtx, project: ProjectRecord): boolean {
  const user = ctx.currentUser
  if (!user) return false
  return user.admin || projectAccessLevel(ctx.db, user, project, ctx.today) >= AccessLevel.MAINTAINER
}

/** `admin_trigger`: `admin_build` and the trigger's owner (or a legacy trigger without one). */
export function canAdminTrigger(ctx: PresentCtx, project: ProjectRecord, trigger: TriggerRecord): boolean {
  return canAdminBuild(ctx, project) && (trigger.owner_id === null || trigger.owner_id === ctx.currentUser?.id)
}

/** A project's triggers, in id order. */
export function triggersOf(db: Db, project: ProjectRecord): TriggerRecord[] {
  return db.tables.ci_triggers.where('project_id', project.id)
}

/** `user_project.triggers.find(id)`. @throws ApiError 404 `{"message":"404 Not found"}`. */
export function findTrigger(db: Db, project: ProjectRecord, id: number): TriggerRecord {
  const trigger = db.tables.ci_triggers.get(id)
  if (!trigger || trigger.project_id !== project.id) throw recordNotFound()
  return trigger
}

/** A new trigger token: 40 lowercase hexadecimal characters, unique. */
function newToken(ctx: Ctx<unknown>): string {
  for (;;) {
    const token = ctx.faker.string.hexadecimal({ length: 40, casing: 'lower', prefix: '' })
    if (ctx.db.tables.ci_triggers.where('token', token).length === 0) return token
  }
}

/** Creates a trigger owned by the caller. */
export function createTrigger(ctx: Ctx<unknown>, project: ProjectRecord, description: string): TriggerRecord {
  return ctx.db.tables.ci_triggers.insert({ project_id: project.id, owner_id: ctx.currentUser!.id, token: newToken(ctx), description, created_at: ctx.now, updated_at: ctx.now, last_used: null })
}

/**
 * Triggers a pipeline (`Ci::PipelineTriggerService#create_pipeline_from_trigger`): the trigger of
 * `token` must belong to the project; the pipeline runs as its owner, source `trigger`.
 * @returns undefined when no trigger of the project has the token (the route answers 404).
 * @throws ApiError 400 `{"message":{"base":[...]}}` when the owner may not create pipelines or
 *   the pipeline is refused (see the runners area's `createPipeline`).
 */
export function triggerPipeline(ctx: Ctx<unknown>, project: ProjectRecord, token: string, ref: string, variables: readonly NewVariable[]): PipelineRecord | undefined {
  const trigger = ctx.db.tables.ci_triggers.where('token', token)[0]
  if (!trigger || trigger.project_id !== project.id) return undefined
  const owner = trigger.owner_id === null ? undefined : ctx.db.tables.users.get(trigger.owner_id)
  const asOwner: PresentCtx = { db: ctx.db, baseUrl: ctx.baseUrl, today: ctx.today, now: ctx.now, currentUser: owner ?? null }
  // Chain::Validate::Abilities.
  if (!owner || owner.state !== 'active' || !canCreatePipeline(asOwner, project)) throw validationFailed({ base: ['Insufficient permissions to create a new pipeline'] })
  const pipeline = createPipeline(asOwner, project, owner, ref, variables, ctx.now, { source: 'trigger' })
  ctx.db.tables.ci_triggers.update(trigger.id, { last_used: ctx.now })
  return pipeline
}
