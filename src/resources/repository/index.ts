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
import { repositoryFragment } from './repository.scenario.js'
import { repositoryTables } from './repository.tables.js'

export type { ProjectRepositoryRecord, RepositoryCommitSpec, RepositoryTagSpec } from './repository.tables.js'
export type { RepositoryFields } from './repository.scenario.js'
export type { PushFact, Pusher, RefUpdate } from './repository.write.js'

/** The repository area. */
export const repository: Area = {
  name: 'repository',
  load: async () => {
    const [{ repositoryRoutes }, { commitCommentRoutes }, { archiveRoutes }, { repositoryWriteRoutes }, { fileRoutes }, { protectedBranchRoutes }, { snapshotRoutes }] = await Promise.all([import('./repository.routes.js'), import('./commit-comments.routes.js'), import('./repository.archive.js'), import('./repository-writes.routes.js'), import('./files.routes.js'), import('./protected-branches.routes.js'), import('./repository.snapshot.js')])
    return { api: [...repositoryRoutes, ...commitCommentRoutes, ...archiveRoutes, ...repositoryWriteRoutes, ...fileRoutes, ...protectedBranchRoutes, ...snapshotRoutes] }
  },
  register: async () => {
    // Registers the commit as a noteable with the notes area (it may not import this one).
    await import('./repository.noteable.js')
  },
  tables: repositoryTables,
  scenario: repositoryFragment,
}
