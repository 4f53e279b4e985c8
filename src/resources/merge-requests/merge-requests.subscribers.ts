/**
 * The merge requests area's subscribers to the domain-event channel (`rules/events.ts`): merge when
 * the pipeline succeeds, `merge_request.*` push options, the diff versions a new merge request
 * and a push to its source branch make, and a destroyed milestone's unassignment. Loaded by the area's `register` (issue 39 item 4), before
 * the first request. gitlab: app/services/merge_requests/refresh_service.rb,
 * app/services/auto_merge/merge_when_pipeline_succeeds_service.rb, lib/gitlab/push_options.rb,
 * app/services/milestones/destroy_service.rb.
 * @module
 */
import { eventCtx, subscribe } from '../../rules/events.js'
import { mergeWhenPipelineSucceeds } from './merge-requests.auto-merge.js'
import { handlePushOptions } from './merge-requests.push-options.js'
import { recordPushVersions, recordVersion } from './merge-requests.versions.js'

// A merge request set to merge when its pipeline succeeds merges when that pipeline does.
subscribe('pipeline', (db, event) => mergeWhenPipelineSucceeds(eventCtx(db, event), event.pipeline))
// A git push's `merge_request.*` options open or update a merge request (issue 35).
subscribe('push', (db, event) => handlePushOptions(db, event))
// A new merge request gets its first diff version; a push to its source branch another (issue 34).
subscribe('merge_request', (db, event) => {
  if (event.action === 'open') recordVersion(db, event.mergeRequest, event.at)
})
subscribe('push', (db, event) => {
  for (const update of event.refs) {
    if (update.ref.startsWith('refs/heads/') && update.after !== null) recordPushVersions(db, event.project.id, update.ref.slice('refs/heads/'.length), event.at)
  }
})
// `Milestones::DestroyService` unassigns a destroyed milestone from its merge requests: each loses
// it, and its `updated_at` moves.
subscribe('milestone', (db, event) => {
  if (event.action !== 'destroy') return
  for (const mr of db.tables.merge_requests.filter((m) => m.milestone_id === event.milestone.id)) {
    db.tables.merge_requests.update(mr.id, { milestone_id: null, updated_at: event.at })
  }
})
