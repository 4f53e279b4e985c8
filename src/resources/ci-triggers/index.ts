/**
 * The CI triggers area: pipeline trigger tokens and `POST /projects/:id/trigger/pipeline`
 * (`trigger` pipelines), pipeline schedules with their variables, `take_ownership` and `play`
 * (`schedule` pipelines); their tables and the projects' `triggers:` and `pipeline_schedules:`
 * scenario sections. Pipelines are the runners area's (`runners.public.ts` `createPipeline`).
 * gitlab: lib/api/triggers.rb, lib/api/ci/pipeline_schedules.rb (13.12).
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { ciTriggerFragment } from './ci-triggers.scenario.js'
import { ciTriggerTables } from './ci-triggers.tables.js'

export type { PipelineSchedulePipelineRecord, PipelineScheduleRecord, PipelineScheduleVariableRecord, TriggerRecord } from './ci-triggers.tables.js'
export type { CiTriggerFields } from './ci-triggers.scenario.js'

/** The CI triggers area. */
export const ciTriggers: Area = {
  name: 'ci-triggers',
  load: async () => {
    const [{ triggerRoutes }, { scheduleRoutes }] = await Promise.all([import('./triggers.routes.js'), import('./schedules.routes.js')])
    return { api: [...triggerRoutes, ...scheduleRoutes] }
  },
  tables: ciTriggerTables,
  scenario: ciTriggerFragment,
  // A schedule's pipeline links go with the pipeline; triggers and schedules outlive their owner.
  cascade: [
    { kind: 'cascade', table: 'ci_pipeline_schedule_pipelines', column: 'pipeline_id', parent: 'pipelines' },
    { kind: 'nullify', table: 'ci_triggers', column: 'owner_id', parent: 'users' },
    { kind: 'nullify', table: 'ci_pipeline_schedules', column: 'owner_id', parent: 'users' },
  ],
}
