/**
 * Branches that other records hold on to, which `DELETE /projects/:id/repository/merged_branches`
 * keeps: the source and target branches of the project's open merge requests. Merge requests are
 * another area, which imports this one; so that the repository area needs no import of it (no
 * cycle), the merge requests area registers its lookup here when it loads
 * (`registerBranchesInUse`), and without one no branch is held.
 * gitlab: app/services/branches/delete_merged_service.rb (13.12).
 * @module
 */
import type { Db } from '../../db/db.js'

/** Names the branches of a project (by id) that must not be deleted as merged. Must only read the store. */
export type BranchesInUseLookup = (db: Db, projectId: number) => Iterable<string>

let lookup: BranchesInUseLookup | null = null

/** Sets where the repository finds branches in use (the merge requests area calls this once, as it loads). */
export function registerBranchesInUse(next: BranchesInUseLookup): void {
  lookup = next
}

/** The project's branches in use, as a set of names; empty without a registered lookup. */
export function branchesInUse(db: Db, projectId: number): Set<string> {
  return new Set(lookup ? lookup(db, projectId) : [])
}
