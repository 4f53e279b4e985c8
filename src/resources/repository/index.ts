/**
 * The repository area: a git object database per project, built from the scenario's `repository:`
 * sections on first use, the routes that read it (branches, tags, commits, tree, files, blobs,
 * compare, blame, contributors, merge base, a commit's signature), the routes that write it
 * (branches, tags, commits, cherry-pick, revert, files), protected branches, enforced on those
 * writes, a commit's comments (notes on the commit, which it registers as a noteable) and merge
 * requests; archives and snapshots.
 * gitlab: lib/api/branches.rb, tags.rb, commits.rb, repositories.rb, files.rb, protected_branches.rb,
 * project_snapshots.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { commitCommentRoutes } from './commit-comments.routes.js'
import { commitMergeRequestRoutes } from './commit-merge-requests.routes.js'
import { fileRoutes } from './files.routes.js'
import { archiveRoutes } from './repository.archive.js'
import { protectedBranchRoutes } from './protected-branches.routes.js'
import { repositoryWriteRoutes } from './repository-writes.routes.js'
import { repositoryRoutes } from './repository.routes.js'
import { snapshotRoutes } from './repository.snapshot.js'
import { repositoryFragment } from './repository.scenario.js'
import { repositoryTables } from './repository.tables.js'
// Registers the commit as a noteable with the notes area (it may not import this one).
import './repository.noteable.js'

export type { ProjectRepositoryRecord, RepositoryCommitSpec, RepositoryTagSpec } from './repository.tables.js'
export type { RepositoryFields } from './repository.scenario.js'

/** The repository area. */
export const repository: Area = {
  name: 'repository',
  routes: [...repositoryRoutes, ...commitCommentRoutes, ...archiveRoutes, ...repositoryWriteRoutes, ...fileRoutes, ...protectedBranchRoutes, ...snapshotRoutes, ...commitMergeRequestRoutes],
  tables: repositoryTables,
  scenario: repositoryFragment,
}
