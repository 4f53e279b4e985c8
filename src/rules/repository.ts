/**
 * Repositories and their read-only state. A repository being moved to another storage is read-only
 * from the moment the move is scheduled until it is replicated or fails (gitlab:
 * app/models/concerns/repository_storage_movable.rb `set_repository_read_only!`,
 * `set_repository_writable!`). Of fakelab's routes only scheduling another move of the container
 * is refused meanwhile (`container_repository_writable`): none of the others writes to a git
 * repository (GitLab refuses pushes, the files and commits APIs and wiki edits, none simulated).
 * A finished move leaves the container on its destination storage ({@link repositoryStorage}).
 * Source: api-spec.md "Repository storage move `state`"; gitlab-behaviour.md §6.
 * @module
 */
import type { Row } from '../db/collection.js'
import type { Db } from '../db/db.js'

/** What holds a repository: GitLab's storage-move container types. */
export type RepositoryContainerType = 'project' | 'group' | 'snippet'

/** GitLab's storage-move states, by their human names (`cleanup failed` has a space). */
export type StorageMoveState = 'initial' | 'scheduled' | 'started' | 'finished' | 'failed' | 'replicated' | 'cleanup failed'

/**
 * A scheduled storage move as the store keeps it. The state is not stored: it follows from the
 * clock (`scheduled` until `started_at`, `started` until `finished_at`, then `outcome`), so the
 * scenario clock alone drives the state machine and a read never writes.
 */
export interface StorageMoveTiming {
  container_id: number
  /** When the worker picks the move up (`scheduled` → `started`). */
  started_at: string
  /** When the move ends (`started` → `outcome`). */
  finished_at: string
  /** How it ends: GitLab's `finish_cleanup` (`finished`) or `do_fail` (`failed`). */
  outcome: 'finished' | 'failed'
}

/** The store table holding the moves of one container type. */
export function storageMoveTable(type: RepositoryContainerType) {
  return `${type}_repository_storage_moves` as const
}

/**
 * The state of a move at `now` (an ISO 8601 instant): `scheduled`, `started`, then its outcome.
 */
export function storageMoveState(move: StorageMoveTiming, now: string): StorageMoveState {
  if (now < move.started_at) return 'scheduled'
  if (now < move.finished_at) return 'started'
  return move.outcome
}

/**
 * Whether the container's repository is read-only at `now`: a move of it is `scheduled` or
 * `started`. Reads only the moves of that container (an indexed lookup).
 */
export function isRepositoryReadOnly(db: Db, type: RepositoryContainerType, containerId: number, now: string): boolean {
  const table = db.tables[storageMoveTable(type)] as { where(column: 'container_id', value: number): StorageMoveTiming[] } | undefined
  if (!table) return false
  return table.where('container_id', containerId).some((move) => {
    const state = storageMoveState(move, now)
    return state === 'scheduled' || state === 'started'
  })
}

type MoveRow = Row & StorageMoveTiming & { destination_storage_name: string }

/**
 * Where a container's repository lives at `now` (an ISO 8601 instant): the destination of its
 * latest move that has `finished` by then, else `initial` (the storage it was created on). A
 * `failed` move leaves it where it was. Derived rather than stored, like the move's state, so the
 * scenario clock alone moves repositories (gitlab: app/services/projects/update_repository_storage_service.rb
 * and its snippet and group twins set `repository_storage` on success).
 * Moves of one container never overlap (the repository is read-only while one runs), so the
 * latest finished one is the one that finished last.
 */
export function repositoryStorage(db: Db, type: RepositoryContainerType, containerId: number, initial: string, now: string): string {
  const table = db.tables[storageMoveTable(type)] as { where(column: 'container_id', value: number): MoveRow[] } | undefined
  let latest: MoveRow | undefined
  for (const move of table?.where('container_id', containerId) ?? []) {
    if (storageMoveState(move, now) !== 'finished') continue
    if (!latest || move.finished_at > latest.finished_at || (move.finished_at === latest.finished_at && move.id > latest.id)) latest = move
  }
  return latest?.destination_storage_name ?? initial
}
