/**
 * The triggers' and schedules' entities: `Trigger` (the token in full only for its owner, else
 * its first 4 characters: `Ci::TriggerPresenter#token`), `PipelineSchedule`,
 * `PipelineScheduleDetails` (its last pipeline and variables) and a schedule variable
 * (`Ci::Variable` without protected/masked/environment_scope, which the model has not).
 * gitlab: lib/api/entities/trigger.rb, lib/api/entities/ci/pipeline_schedule.rb,
 * pipeline_schedule_details.rb, variable.rb, app/presenters/ci/trigger_presenter.rb (13.12).
 * @module
 */
import type { PresentCtx } from '../../entities/urls.js'
import { UserBasic } from '../../entities/user.js'
import { PipelineBasic, type PipelineRecord } from '../runners/runners.public.js'
import type { PipelineScheduleRecord, PipelineScheduleVariableRecord, TriggerRecord } from './ci-triggers.tables.js'

/** A trigger, key by key; `fullToken`: whether the caller may see its whole token (`admin_trigger`). */
export function Trigger(t: TriggerRecord, fullToken: boolean, ctx: PresentCtx) {
  const owner = t.owner_id === null ? undefined : ctx.db.tables.users.get(t.owner_id)
  return {
    id: t.id,
    token: fullToken ? t.token : t.token.slice(0, 4),
    description: t.description,
    created_at: t.created_at,
    updated_at: t.updated_at,
    last_used: t.last_used,
    owner: owner ? UserBasic(owner, ctx) : null,
  }
}

/** A schedule variable. */
export function ScheduleVariable(v: PipelineScheduleVariableRecord) {
  return { variable_type: v.variable_type, key: v.key, value: v.value }
}

/** A pipeline schedule, key by key. */
export function PipelineSchedule(s: PipelineScheduleRecord, ctx: PresentCtx) {
  const owner = s.owner_id === null ? undefined : ctx.db.tables.users.get(s.owner_id)
  return {
    id: s.id,
    description: s.description,
    ref: s.ref,
    cron: s.cron,
    cron_timezone: s.cron_timezone,
    next_run_at: s.next_run_at,
    active: s.active,
    created_at: s.created_at,
    updated_at: s.updated_at,
    owner: owner ? UserBasic(owner, ctx) : null,
  }
}

/** A pipeline schedule with its last pipeline (or null) and its variables. */
export function PipelineScheduleDetails(s: PipelineScheduleRecord, lastPipeline: PipelineRecord | undefined, variables: readonly PipelineScheduleVariableRecord[], ctx: PresentCtx) {
  return {
    ...PipelineSchedule(s, ctx),
    last_pipeline: lastPipeline ? PipelineBasic(lastPipeline, ctx) : null,
    variables: variables.map(ScheduleVariable),
  }
}
