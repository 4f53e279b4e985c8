/**
 * Repositories and their read-only state. A repository being moved to another storage is read-only
 * from the moment the move is scheduled until it is replicated or fails (gitlab:
 * app/models/concerns/repository_storage_movable.rb `set_repository_read_only!`,
 * `set_repository_writable!`). Any route that writes to a repository (commits, files, wiki pages,
 * snippet contents) calls {@link assertRepositoryWritable} before writing.
 * Source: api-spec.md "Repository storage move `state`"; gitlab-behaviour.md §6.
 * @module
 */
import type { Db } from '../db/db.js'
import { apiMessage } from './errors.js'
import type { Ctx } from './route.js'

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

/** What GitLab answers a write to a read-only repository (gitlab: lib/gitlab/git_access.rb `read_only`). */
export const READ_ONLY_REPOSITORY_MESSAGE = 'The repository is temporarily read-only. Please try again later.'

/**
 * Refuses a write to a repository that a storage move holds read-only.
 * spec-gap: the spec says only that pushes are rejected with a "temporarily read-only" message.
 * GitLab refuses the push in its pre-receive check (git_access.rb); API writes that commit (the
 * files and commits APIs) surface that pre-receive error as `render_api_error!(message, 400)`,
 * so the API answer is 400 `{"message":"The repository is temporarily read-only. Please try again later."}`.
 * @throws ApiError 400 as above.
 */
export function assertRepositoryWritable(ctx: Ctx<unknown>, type: RepositoryContainerType, containerId: number): void {
  if (isRepositoryReadOnly(ctx.db, type, containerId, ctx.now)) throw apiMessage(400, READ_ONLY_REPOSITORY_MESSAGE)
}
