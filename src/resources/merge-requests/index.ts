/**
 * The merge requests area: the merge request lists, get, update, delete and sub-resources
 * (participants, closing issues, pipelines, subscriptions, time tracking) over the
 * `merge_requests` table and `merge_requests:` of scenario projects, which milestone, label,
 * issue and to-do routes read too; create, changes, commits, merge ref, merge, rebase and the
 * merge when the pipeline succeeds over the project's repository. gitlab: lib/api/merge_requests.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
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

/** The merge requests area. */
export const mergeRequests: Area = {
  name: 'merge-requests',
  load: async () => {
    const [{ mergeRequestRoutes }, { mergeRequestRepositoryRoutes }, { mergeRequestReviewRoutes }, { mergeRequestsOfRoutes }] = await Promise.all([
      import('./merge-requests.routes.js'),
      import('./merge-requests-repository.routes.js'),
      import('./merge-requests-review.routes.js'),
      import('./merge-requests-of.routes.js'),
    ])
    return { api: [...mergeRequestRoutes, ...mergeRequestRepositoryRoutes, ...mergeRequestReviewRoutes, ...mergeRequestsOfRoutes] }
  },
  register: async () => {
    // Registers the kind with the notes, award emoji and to-dos areas (they may not import this one).
    await import('./merge-requests.kinds.js')
    await import('./merge-requests.subscribers.js')
    await import('./merge-requests.registrations.js')
  },
  tables: mergeRequestTables,
  // Subscribing to a merge request (the subscriptions table serves labels, issues and merge requests);
  // the issues a merge request's text closes (`cache_merge_request_closes_issues!`) and a scenario
  // merge request's `mentions:`.
  writes: ['subscriptions', 'merge_requests_closing_issues', 'merge_request_mentions'],
  scenario: mergeRequestFragment,
  importer: mergeRequestImporter,
}
