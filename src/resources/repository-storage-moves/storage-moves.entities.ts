/**
 * The repository storage move entity and the snippet it nests. Source: api-spec.md "Repository
 * storage move"; gitlab-behaviour.md §6; gitlab: lib/api/entities/basic_repository_storage_move.rb,
 * lib/api/entities/{project,group,snippet}_repository_storage_move.rb,
 * (the snippet's `BasicSnippet` is the snippets area's).
 * @module
 */
import type { StorageMoveState } from '../../rules/repository.js'
import type { RepositoryStorageMoveRecord } from './storage-moves.tables.js'

/** A move as presented: `{id, created_at, state, source_storage_name, destination_storage_name, <kind>}`. */
export type RepositoryStorageMoveEntity = {
  id: number
  created_at: string
  state: StorageMoveState
  source_storage_name: string
  destination_storage_name: string
} & { [kind: string]: unknown }

/**
 * `Entities::<Kind>RepositoryStorageMove` (13.x: no `error_message`, added later).
 * @param state the move's state now (see `storageMoveState`).
 * @param key `project`, `group` or `snippet`.
 * @param container the container's nested object, already presented.
 */
export function RepositoryStorageMove(move: RepositoryStorageMoveRecord, state: StorageMoveState, key: string, container: unknown): RepositoryStorageMoveEntity {
  return {
    id: move.id,
    created_at: move.created_at,
    state,
    source_storage_name: move.source_storage_name,
    destination_storage_name: move.destination_storage_name,
    [key]: container,
  }
}
