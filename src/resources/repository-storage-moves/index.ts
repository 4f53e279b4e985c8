/**
 * The repository storage moves area: the eighteen storage-move routes of projects, groups and
 * snippets, the configured storages, snippets (as scenario fixtures) and group wiki storages.
 * gitlab: lib/api/{project,group,snippet}_repository_storage_moves.rb.
 * @module
 */
import { tickStorageMoves } from '../../rules/repository.js'
import type { Area } from '../../scenario/area.js'
import { storageMoveFragment } from './storage-moves.scenario.js'
import { storageMoveTables } from './storage-moves.tables.js'
import type { RepositoryStorageMoveEntity } from './storage-moves.entities.js'

export type { RepositoryStorageMoveRecord, RepositoryStorageRecord, GroupWikiRepositoryRecord } from './storage-moves.tables.js'
export type { GroupStorageFields, RepositoryStoragesFields } from './storage-moves.scenario.js'

/**
 * GitLab's `<Kind>RepositoryStorageMove` entity; its container is under `project`, `group` or
 * `snippet`.
 */
export type RepositoryStorageMove = RepositoryStorageMoveEntity

/** The repository storage moves area. */
export const repositoryStorageMoves: Area = {
  name: 'repository-storage-moves',
  load: async () => {
    const { storageMoveRoutes } = await import('./storage-moves.routes.js')
    return { api: storageMoveRoutes }
  },
  tables: storageMoveTables,
  scenario: storageMoveFragment,
  // Each move goes with the project, group or snippet it moved (`container_id`).
  cascade: [
    { kind: 'cascade', table: 'project_repository_storage_moves', column: 'container_id', parent: 'projects' },
    { kind: 'cascade', table: 'group_repository_storage_moves', column: 'container_id', parent: 'groups' },
    { kind: 'cascade', table: 'snippet_repository_storage_moves', column: 'container_id', parent: 'snippets' },
  ],
  // Moves to storages with `progress: requests` count each API request as a tick (rules/repository.ts).
  beforeRequest: tickStorageMoves,
}
