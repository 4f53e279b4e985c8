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

export type { MergeRequestRecord } from './merge-requests.tables.js'
export type { MergeRequestFields } from './merge-requests.scenario.js'

/** The merge requests area. */
export const mergeRequests: Area = { name: 'merge-requests', routes: [], tables: mergeRequestTables, scenario: mergeRequestFragment, importer: mergeRequestImporter }
