/**
 * The tables of the repository storage moves area: the configured storages and their weights,
 * the storage of each group's wiki, and one table of moves per
 * container type. gitlab: db/structure.sql (`project_repository_storage_moves`,
 * `snippet_repository_storage_moves`, `group_repository_storage_moves`,
 * `group_wiki_repositories`), config/gitlab.yml `repositories.storages`, application settings
 * `repository_storages_weighted`.
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'
import type { StorageMoveTiming } from '../../rules/repository.js'

/** A configured repository storage (a Gitaly shard) and how moves to it behave in the simulator. */
export interface RepositoryStorageRecord extends Row {
  name: string
  /** `repository_storages_weighted` value, 0–100: the chance of being picked as a destination. */
  weight: number
  /** Seconds between scheduling a move to this storage and its start. */
  start_after_seconds: number
  /** Seconds a move to this storage runs before it ends. */
  run_seconds: number
  /** Moves to this storage end `failed` instead of `finished`. */
  fail_moves: boolean
  /**
   * What moves a move to this storage on: `requests` (each later API request is a tick, and the
   * clock too, whichever is first) or `clock` alone. See `rules/repository.ts`.
   */
  progress: 'requests' | 'clock'
}

/** Where a group's wiki repository lives (`group_wiki_repositories.shard`). */
export interface GroupWikiRepositoryRecord extends Row {
  group_id: number
  shard_name: string
}

/** A repository storage move of a project, group or snippet (`container_id`). */
export interface RepositoryStorageMoveRecord extends Row, StorageMoveTiming {
  source_storage_name: string
  destination_storage_name: string
  created_at: Timestamp
  updated_at: Timestamp
}

declare module '../../db/schema.js' {
  interface Tables {
    repository_storages: RepositoryStorageRecord
    group_wiki_repositories: GroupWikiRepositoryRecord
    project_repository_storage_moves: RepositoryStorageMoveRecord
    group_repository_storage_moves: RepositoryStorageMoveRecord
    snippet_repository_storage_moves: RepositoryStorageMoveRecord
  }
}

/** The tables and their indexes. */
export const storageMoveTables = {
  repository_storages: table<RepositoryStorageRecord>(),
  group_wiki_repositories: table<GroupWikiRepositoryRecord>(['group_id']),
  project_repository_storage_moves: table<RepositoryStorageMoveRecord>(['container_id', 'ticking']),
  group_repository_storage_moves: table<RepositoryStorageMoveRecord>(['container_id', 'ticking']),
  snippet_repository_storage_moves: table<RepositoryStorageMoveRecord>(['container_id', 'ticking']),
}
