/**
 * The merge requests area: so far the `merge_requests` table and `merge_requests:` of scenario
 * projects, which milestone and label routes read; the merge request routes
 * (lib/api/merge_requests.rb) are to come here.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { mergeRequestImporter } from './merge-requests.import.js'
import { mergeRequestFragment } from './merge-requests.scenario.js'
import { mergeRequestTables } from './merge-requests.tables.js'
import type { MergeRequestBasic as MergeRequestBasicPresenter, MergeRequest as MergeRequestPresenter } from './merge-requests.entities.js'

export type { MergeRequestRecord } from './merge-requests.tables.js'
export type { MergeRequestFields } from './merge-requests.scenario.js'

/** GitLab's `MergeRequestBasic` entity, as fakelab sends it. */
export type MergeRequestBasic = ReturnType<typeof MergeRequestBasicPresenter>
/** GitLab's `MergeRequest` entity, as fakelab sends it. */
export type MergeRequest = ReturnType<typeof MergeRequestPresenter>

/** The merge requests area. */
export const mergeRequests: Area = { name: 'merge-requests', routes: [], tables: mergeRequestTables, scenario: mergeRequestFragment, importer: mergeRequestImporter }
