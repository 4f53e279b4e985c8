/**
 * Repositories and their read-only state. A repository being moved to another storage is read-only
 * from the moment the move is scheduled until it is replicated or fails (gitlab:
 * app/models/concerns/repository_storage_movable.rb `set_repository_read_only!`,
 * `set_repository_writable!`). Of fakelab's routes only scheduling another move of the container
 * is refused meanwhile (`container_repository_writable`): none of the others writes to a git
 * repository (GitLab refuses pushes, the files and commits APIs and wiki edits, none simulated).
 * A finished move leaves the container on its destination storage ({@link repositoryStorage}).
 * Moves progress by the clock and, on storages that say so, by API requests ({@link tickStorageMoves}).
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
 * A scheduled storage move as the store keeps it. The state is not stored: it follows from two
 * measures of progress, whichever gets there first (see {@link storageMoveState}):
 * - the clock: `scheduled` until `started_at`, `started` until `finished_at`, then `outcome`;
 * - API requests (moves to a storage with `progress: requests`): each API request made after the
 *   move was scheduled is one tick ({@link tickStorageMoves}); `start_ticks` ticks make it
 *   `started`, `end_ticks` make it end. GitLab's moves finish within seconds of being scheduled,
 *   which on a frozen clock never pass: the requests a polling client makes stand in for them.
 */
export interface StorageMoveTiming {
  container_id: number
  /** When the worker picks the move up (`scheduled` → `started`). */
  started_at: string
  /** When the move ends (`started` → `outcome`). */
  finished_at: string
  /** How it ends: GitLab's `finish_cleanup` (`finished`) or `do_fail` (`failed`). */
  outcome: 'finished' | 'failed'
  /** API requests counted since the move was scheduled (only while `ticking`). */
  ticks: number
  /** Ticks after which it is `started`; null when only the clock moves it. */
  start_ticks: number | null
  /** Ticks after which it ends; null when only the clock moves it. */
  end_ticks: number | null
  /** Whether API requests still count for it: it moves by requests and has not ended (indexed). */
  ticking: boolean
}

/** The store table holding the moves of one container type. */
export function storageMoveTable(type: RepositoryContainerType) {
  return `${type}_repository_storage_moves` as const
}

/**
 * The state of a move at `now` (an ISO 8601 instant) after the ticks it has counted: `scheduled`,
 * `started`, then its outcome, by the clock or by ticks, whichever is further.
 */
export function storageMoveState(move: StorageMoveTiming, now: string): StorageMoveState {
  if (now >= move.finished_at || (move.end_ticks !== null && move.ticks >= move.end_ticks)) return move.outcome
  if (now >= move.started_at || (move.start_ticks !== null && move.ticks >= move.start_ticks)) return 'started'
  return 'scheduled'
}

/** The three move tables as {@link tickStorageMoves} sees them. */
type TickTable = {
  idsWhere(column: 'ticking', value: boolean): ReadonlySet<number>
  get(id: number): StorageMoveTiming | undefined
  update(id: number, patch: Partial<StorageMoveTiming>): StorageMoveTiming
}

const CONTAINER_TYPES: readonly RepositoryContainerType[] = ['project', 'group', 'snippet']
/** The move tables' names, worked out once: {@link tickStorageMoves} reads them before every request. */
const MOVE_TABLES = CONTAINER_TYPES.map(storageMoveTable)

/**
 * One tick of every move that progresses by requests: called once for each API request, before it
 * is routed (and before a kept answer is looked for), at `now`. Each such move counts the request
 * (`ticks` + 1) and stops counting once it has ended, by ticks or by the clock. Every tick is a
 * store write, so `Db.writes` moves and no answer kept from before it is given again (the reply
 * memo, `core/reply-memo.ts`); with no move in progress it writes nothing and costs three index
 * look-ups. Deterministic: the state depends on the order of requests only, never on time.
 */
export function tickStorageMoves(db: Db, now: Date): void {
  let iso: string | undefined
  for (const name of MOVE_TABLES) {
    const table = db.tables[name] as unknown as TickTable | undefined
    const ids = table?.idsWhere('ticking', true)
    if (!table || !ids || ids.size === 0) continue
    iso ??= now.toISOString()
    // A copy: the updates below change the index being read.
    for (const id of [...ids]) {
      const move = table.get(id)!
      const ticks = move.ticks + 1
      const ended = iso >= move.finished_at || (move.end_ticks !== null && ticks >= move.end_ticks)
      table.update(id, { ticks, ticking: !ended })
    }
  }
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
 * move's progress alone moves repositories (gitlab: app/services/projects/update_repository_storage_service.rb
 * and its snippet and group twins set `repository_storage` on success).
 * Moves of one container never overlap (the repository is read-only while one runs), so the
 * latest finished one is the last scheduled of those finished (by ticks, `finished_at` is not when).
 */
export function repositoryStorage(db: Db, type: RepositoryContainerType, containerId: number, initial: string, now: string): string {
  const table = db.tables[storageMoveTable(type)] as { where(column: 'container_id', value: number): MoveRow[] } | undefined
  let latest: MoveRow | undefined
  for (const move of table?.where('container_id', containerId) ?? []) {
    if (storageMoveState(move, now) !== 'finished') continue
    if (!latest || move.id > latest.id) latest = move
  }
  return latest?.destination_storage_name ?? initial
}
