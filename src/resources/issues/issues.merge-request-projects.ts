/**
 * The project of a merge request, which the `Issue` entity's `merge_requests_count` needs (the
 * closing merge requests the caller can read). Merge requests are another area, which imports this
 * one; so that the issues area needs no import of it (no cycle), the merge requests area registers
 * its lookup here as it loads (`registerMergeRequestProject`); without one no merge request is
 * counted. gitlab: app/models/merge_requests_closing_issues.rb (`count_for_collection`).
 * @module
 */
import type { Db } from '../../db/db.js'

/** The project id of a merge request (by id), undefined when there is none. Must only read the store. */
export type MergeRequestProjectLookup = (db: Db, mergeRequestId: number) => number | undefined

let lookup: MergeRequestProjectLookup = () => undefined

/** Sets where the issues area finds a merge request's project (the merge requests area calls this once, as it loads). */
export function registerMergeRequestProject(next: MergeRequestProjectLookup): void {
  lookup = next
}

/** The project id of the merge request, through the registered lookup. */
export function mergeRequestProjectId(db: Db, mergeRequestId: number): number | undefined {
  return lookup(db, mergeRequestId)
}
