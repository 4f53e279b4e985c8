/**
 * The repository area: a git object database per project, built from the scenario's `repository:`
 * sections on first use, and the routes that read it (branches, tags, commits, tree, files, blobs,
 * compare). gitlab: lib/api/branches.rb, tags.rb, commits.rb, repositories.rb, files.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { repositoryRoutes } from './repository.routes.js'
import { repositoryFragment } from './repository.scenario.js'
import { repositoryTables } from './repository.tables.js'

export type { ProjectRepositoryRecord, RepositoryCommitSpec, RepositoryTagSpec } from './repository.tables.js'
export type { RepositoryFields } from './repository.scenario.js'

/** The repository area. */
export const repository: Area = {
  name: 'repository',
  routes: repositoryRoutes,
  tables: repositoryTables,
  scenario: repositoryFragment,
}
