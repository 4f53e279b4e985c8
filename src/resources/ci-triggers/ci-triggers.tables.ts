/**
 * The pipeline trigger and schedule tables. gitlab: db/structure.sql (`ci_triggers`,
 * `ci_trigger_requests`, `ci_pipeline_schedules`, `ci_pipeline_schedule_variables`,
 * `ci_pipelines.pipeline_schedule_id`).
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** A pipeline trigger token of a project (`Ci::Trigger`). */
export interface TriggerRecord extends Row {
  project_id: number
  /** Who made it; its pipelines run as this user. Null: a legacy trigger (no owner). */
  owner_id: number | null
  /** 40 hexadecimal characters (`SecureRandom.hex(20)`); shown in full to its owner only. */
  token: string
  description: string
  created_at: Timestamp
  updated_at: Timestamp
  /** When a pipeline was last triggered with it (`trigger_requests.last.created_at`); null: never. */
  last_used: Timestamp | null
}

/** A pipeline schedule of a project (`Ci::PipelineSchedule`). */
export interface PipelineScheduleRecord extends Row {
  project_id: number
  owner_id: number | null
  description: string
  /** The branch or tag its pipelines run for, as given. */
  ref: string
  /** A cron expression (fugit's grammar). */
  cron: string
  /** The cron's time zone (IANA or ActiveSupport name). */
  cron_timezone: string
  /** The next time the scheduler runs it (`Schedulable#set_next_run_at`). */
  next_run_at: Timestamp | null
  active: boolean
  created_at: Timestamp
  updated_at: Timestamp
}

/** A variable of a pipeline schedule (`Ci::PipelineScheduleVariable`): unique by key in its schedule. */
export interface PipelineScheduleVariableRecord extends Row {
  pipeline_schedule_id: number
  key: string
  value: string
  /** `env_var` or `file`. */
  variable_type: 'env_var' | 'file'
}

/** A pipeline a schedule made (`ci_pipelines.pipeline_schedule_id`, kept beside the runners' pipelines). */
export interface PipelineSchedulePipelineRecord extends Row {
  pipeline_schedule_id: number
  pipeline_id: number
}

declare module '../../db/schema.js' {
  interface Tables {
    ci_triggers: TriggerRecord
    ci_pipeline_schedules: PipelineScheduleRecord
    ci_pipeline_schedule_variables: PipelineScheduleVariableRecord
    ci_pipeline_schedule_pipelines: PipelineSchedulePipelineRecord
  }
}

/** The tables and their indexes. */
export const ciTriggerTables = {
  ci_triggers: table<TriggerRecord>(['project_id', 'token']),
  ci_pipeline_schedules: table<PipelineScheduleRecord>(['project_id']),
  ci_pipeline_schedule_variables: table<PipelineScheduleVariableRecord>(['pipeline_schedule_id']),
  ci_pipeline_schedule_pipelines: table<PipelineSchedulePipelineRecord>(['pipeline_schedule_id', 'pipeline_id']),
}
