/**
 * What other areas may use of the pipeline triggers and schedules area: the variables of the
 * schedule that made a pipeline (`pipeline.pipeline_schedule.job_variables`), which a job's
 * variables end with. Nothing here imports another area. gitlab (13.12):
 * app/models/ci/pipeline_schedule.rb (`job_variables`), app/models/concerns/ci/contextable.rb.
 * @module
 */
import type { Db } from '../../db/db.js'

/** One schedule variable as a job gets it. */
export interface ScheduleVariable {
  readonly key: string
  readonly value: string
  /** `env_var` or `file`. */
  readonly variable_type: 'env_var' | 'file'
}

/** The variables of the schedule that made the pipeline, in id order; empty for a pipeline no schedule made. */
export function scheduleVariablesOfPipeline(db: Db, pipelineId: number): ScheduleVariable[] {
  const link = db.tables.ci_pipeline_schedule_pipelines.where('pipeline_id', pipelineId)[0]
  if (!link) return []
  return db.tables.ci_pipeline_schedule_variables.where('pipeline_schedule_id', link.pipeline_schedule_id).map((v) => ({ key: v.key, value: v.value, variable_type: v.variable_type }))
}
