/**
 * The merge requests area: the merge request lists, get, update, delete and sub-resources
 * (participants, closing issues, pipelines, subscriptions, time tracking) over the
 * `merge_requests` table and `merge_requests:` of scenario projects, which milestone, label,
 * issue and to-do routes read too; create, changes, commits, merge ref, merge, rebase and the
 * merge when the pipeline succeeds over the project's repository. gitlab: lib/api/merge_requests.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { eventCtx, subscribe } from '../../rules/events.js'
import { registerBranchesInUse } from '../repository/repository.public.js'
import { mergeWhenPipelineSucceeds } from './merge-requests.auto-merge.js'
import { handlePushOptions } from './merge-requests.push-options.js'
import { openMergeRequestBranches } from './merge-requests.public.js'
import { recordPushVersions, recordVersion } from './merge-requests.versions.js'
// Registers the kind with the notes, award emoji and to-dos areas (they may not import this one).
import './merge-requests.kinds.js'
import { mergeRequestImporter } from './merge-requests.import.js'
import { mergeRequestFragment } from './merge-requests.scenario.js'
import { mergeRequestTables } from './merge-requests.tables.js'
import type { MergeRequestBasic as MergeRequestBasicPresenter, MergeRequest as MergeRequestPresenter } from './merge-requests.entities.js'

export type { MergeRequestApprovalRecord, MergeRequestDiffRecord, MergeRequestRecord } from './merge-requests.tables.js'
export type { MergeRequestFields } from './merge-requests.scenario.js'
export type { MergeRequestAction, MergeRequestFact } from './merge-requests.events.js'

/** GitLab's `MergeRequestBasic` entity, as fakelab sends it. */
export type MergeRequestBasic = ReturnType<typeof MergeRequestBasicPresenter>
/** GitLab's `MergeRequest` entity, as fakelab sends it. */
export type MergeRequest = ReturnType<typeof MergeRequestPresenter>

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

// The repository keeps an open merge request's branches when it deletes merged ones.
registerBranchesInUse((db, projectId) => openMergeRequestBranches(db, projectId))

/** The merge requests area. */
export const mergeRequests: Area = {
  name: 'merge-requests',
  load: async () => {
    const [{ mergeRequestRoutes }, { mergeRequestRepositoryRoutes }, { mergeRequestReviewRoutes }, { commitMergeRequestRoutes }] = await Promise.all([
      import('./merge-requests.routes.js'),
      import('./merge-requests-repository.routes.js'),
      import('./merge-requests-review.routes.js'),
      import('./commit-merge-requests.routes.js'),
    ])
    return { api: [...mergeRequestRoutes, ...mergeRequestRepositoryRoutes, ...mergeRequestReviewRoutes, ...commitMergeRequestRoutes] }
  },
  tables: mergeRequestTables,
  // Subscribing to a merge request (the subscriptions table serves labels, issues and merge requests);
  // the issues a merge request's text closes (`cache_merge_request_closes_issues!`).
  writes: ['subscriptions', 'merge_requests_closing_issues'],
  scenario: mergeRequestFragment,
  importer: mergeRequestImporter,
}
