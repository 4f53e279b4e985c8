/**
 * Merge when the pipeline succeeds, the later half: when a pipeline's status changes, the open
 * merge requests of its project set to merge automatically whose head pipeline it is are merged
 * once it succeeds, as the user who set them (`AutoMergeProcessWorker` →
 * `AutoMerge::MergeWhenPipelineSucceedsService#process` → `MergeService`). A pipeline that fails or
 * is canceled changes nothing: the merge request stays set, and a later successful pipeline for
 * the same head merges it (13.x cancels nothing on failure). A push to the source branch since
 * cancels it (see `autoMergeEnabled`).
 * Sources: gitlab: app/models/ci/pipeline.rb (13.x `after_transition any => completed_statuses`),
 * app/services/auto_merge/merge_when_pipeline_succeeds_service.rb, app/services/merge_requests/
 * merge_service.rb (`validate!`: `authorization_check!`, `error_check!`, `updated_check!`).
 * @module
 */
import type { EventCtx } from '../../rules/events.js'
import type { PipelineRecord } from '../runners/runners.public.js'
import { headPipeline } from './merge-requests.entities.js'
import { autoMergeEnabled, liveDiff } from './merge-requests.git.js'
import { actingAs, executeMerge, mergeable } from './merge-requests.merge.js'
import { canMergeMergeRequest } from './merge-requests.policy.js'

/**
 * The area's subscriber to the `pipeline` fact (`index.ts`): for a pipeline that turned `success`,
 * merges each open merge request of its project set to merge when the pipeline succeeds whose head
 * pipeline it is and which is `mergeable?` (13.x `process` returns quietly otherwise). A merge user
 * who may no longer merge, or a head that moved since the merge was asked for, leaves the merge
 * request open with `MergeService`'s `merge_error`.
 */
export function mergeWhenPipelineSucceeds(ctx: EventCtx, pipeline: PipelineRecord): void {
  if (pipeline.status !== 'success') return
  const { db } = ctx
  for (const mr of db.tables.merge_requests.where('project_id', pipeline.project_id)) {
    if (mr.source_project_id !== pipeline.project_id || !autoMergeEnabled(db, mr)) continue
    if (headPipeline(ctx, mr)?.id !== pipeline.id) continue
    const project = db.tables.projects.get(mr.project_id)
    const user = mr.merge_user_id == null ? undefined : db.tables.users.get(mr.merge_user_id)
    if (!project || !user) continue
    const acting = actingAs(ctx, user)
    if (!mergeable(acting, project, mr)) continue
    const params = mr.merge_params ?? {}
    let error: string | null = null
    if (!canMergeMergeRequest(acting, project, mr)) error = 'You are not allowed to merge this merge request'
    else if (params.sha !== undefined && params.sha !== liveDiff(db, mr)?.sha) error = 'Branch has been updated since the merge was requested. Please review the changes.'
    else if (!executeMerge(acting, user, project, mr, params)) error = 'Conflicts detected during merge'
    if (error !== null) db.tables.merge_requests.update(mr.id, { merge_error: error })
  }
}
