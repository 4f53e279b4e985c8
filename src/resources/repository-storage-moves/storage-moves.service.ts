/**
 * Repository storage moves: listing, scheduling one, bulk scheduling, and where a repository is
 * now. A move's state follows the API requests made since it was scheduled and the scenario clock
 * (`rules/repository.ts` `storageMoveState`, `tickStorageMoves`); the destination storage's
 * settings (`repository_storages:` of the scenario) decide which of them move it, how long it
 * waits and runs on the clock, and whether it fails. Source: gitlab-behaviour.md §6; gitlab:
 * app/models/concerns/repository_storage_movable.rb, app/services/projects/update_repository_storage_service.rb,
 * app/services/concerns/schedule_bulk_repository_shard_moves_methods.rb,
 * app/models/application_setting_implementation.rb `pick_repository_storage`.
 * @module
 */
import { recordNotFound, validationFailed, ValidationMessage } from '../../core/errors.js'
import { isRepositoryReadOnly, repositoryStorage, storageMoveState, storageMoveTable, type StorageMoveState } from '../../rules/repository.js'
import type { Ctx } from '../../core/route.js'
import type { Row } from '../../db/collection.js'
import type { Db } from '../../db/db.js'
import type { ContainerKind } from './storage-moves.kinds.js'
import { RepositoryStorageMove, type RepositoryStorageMoveEntity } from './storage-moves.entities.js'
import type { RepositoryStorageMoveRecord, RepositoryStorageRecord } from './storage-moves.tables.js'

/** 13.x `container_repository_writable` (later revisions say `is read-only`). */
const READ_ONLY = 'is read only'

/** The configured storages, in scenario order. */
export function storages(db: Db): RepositoryStorageRecord[] {
  return db.tables.repository_storages.all()
}

/** Whether `name` is a configured storage (`Gitlab.config.repositories.storages.keys`). */
export function isStorage(db: Db, name: string): boolean {
  return storages(db).some((storage) => storage.name === name)
}

/** The moves of one kind, newest first (`order_created_at_desc`), optionally of one container. */
export function listMoves(db: Db, kind: ContainerKind<Row>, containerId?: number): RepositoryStorageMoveRecord[] {
  const table = db.tables[storageMoveTable(kind.type)]
  const moves = containerId === undefined ? table.all() : table.where('container_id', containerId)
  // spec-gap: GitLab orders by created_at only; equal instants (a frozen clock) fall back to id, newest first.
  return moves.sort((a, b) => (a.created_at === b.created_at ? b.id - a.id : a.created_at < b.created_at ? 1 : -1))
}

/**
 * A move of one kind by id, optionally of one container (`find`).
 * @throws ApiError 404 `{"message":"404 Not found"}` (gitlab-behaviour.md §14 item 13).
 */
export function findMove(db: Db, kind: ContainerKind<Row>, id: number, containerId?: number): RepositoryStorageMoveRecord {
  const move = db.tables[storageMoveTable(kind.type)].get(id)
  if (!move || (containerId !== undefined && move.container_id !== containerId)) throw recordNotFound()
  return move
}

/** Where a container's repository is at `now` (see core's {@link repositoryStorage}). */
export function currentStorage<C extends Row>(db: Db, kind: ContainerKind<C>, container: C, now: string): string {
  return repositoryStorage(db, kind.type, container.id, kind.initialStorage(db, container), now)
}

/**
 * `Repository.pick_storage_shard`: a storage drawn by weight among those of weight > 0 (from the
 * simulator's seeded faker), or undefined when every weight is 0.
 */
export function pickStorage(ctx: Ctx<unknown>): string | undefined {
  const weighted = storages(ctx.db).filter((storage) => storage.weight > 0)
  if (weighted.length === 0) return undefined
  return ctx.faker.helpers.weightedArrayElement(weighted.map((storage) => ({ weight: storage.weight, value: storage.name })))
}

/** Why a move cannot be scheduled (`storage_move.errors`), or null when it can. */
function moveErrors(ctx: Ctx<unknown>, kind: ContainerKind<Row>, containerId: number, source: string, destination: string | undefined): Record<string, string[]> | null {
  const errors: Record<string, string[]> = {}
  // Validation order of RepositoryStorageMovable: source, destination, then the container writable.
  if (!isStorage(ctx.db, source)) errors.source_storage_name = [ValidationMessage.notIncluded]
  if (!destination) errors.destination_storage_name = [ValidationMessage.blank, ValidationMessage.notIncluded]
  else if (!isStorage(ctx.db, destination)) errors.destination_storage_name = [ValidationMessage.notIncluded]
  if (isRepositoryReadOnly(ctx.db, kind.type, containerId, ctx.now)) errors[kind.type] = [READ_ONLY]
  return Object.keys(errors).length > 0 ? errors : null
}

function insertMove(ctx: Ctx<unknown>, kind: ContainerKind<Row>, containerId: number, source: string, destination: string): RepositoryStorageMoveRecord {
  const settings = storages(ctx.db).find((storage) => storage.name === destination)!
  const now = ctx.clock.now().getTime()
  const started = now + settings.start_after_seconds * 1000
  // gitlab: Projects::UpdateRepositoryStorageService raises SameFilesystemError right after `start!`,
  // so a move onto the storage it is already on fails as soon as it starts.
  const same = source === destination
  const byRequests = settings.progress === 'requests'
  return ctx.db.tables[storageMoveTable(kind.type)].insert({
    container_id: containerId,
    source_storage_name: source,
    destination_storage_name: destination,
    started_at: new Date(started).toISOString(),
    finished_at: new Date(same ? started : started + settings.run_seconds * 1000).toISOString(),
    outcome: same || settings.fail_moves ? 'failed' : 'finished',
    // By requests: the next API request starts it, the one after ends it (a same-storage move ends as it starts).
    ticks: 0,
    start_ticks: byRequests ? 1 : null,
    end_ticks: byRequests ? (same ? 1 : 2) : null,
    ticking: byRequests,
    created_at: ctx.now,
    updated_at: ctx.now,
  })
}

/**
 * Schedules a move of `container` from where it is now to `destination` (picked by weight when
 * undefined). The container's repository is read-only from now until the move ends.
 * @throws ApiError 400 `{"message":{"destination_storage_name":["is not included in the list"]}}`,
 *   `{"message":{"<kind>":["is read only"]}}` and the like (`render_validation_error!`).
 */
export function scheduleMove<C extends Row>(ctx: Ctx<unknown>, kind: ContainerKind<C>, container: C, destination: string | undefined): RepositoryStorageMoveRecord {
  const anyKind = kind as ContainerKind<Row>
  const source = currentStorage(ctx.db, kind, container, ctx.now)
  const target = destination ?? pickStorage(ctx)
  const errors = moveErrors(ctx, anyKind, container.id, source, target)
  if (errors) throw validationFailed(errors)
  return insertMove(ctx, anyKind, container.id, source, target!)
}

/**
 * The bulk schedule (`ScheduleBulkRepositoryShardMovesService`): one move for each container
 * whose repository is on `source` now, to `destination` or a storage picked by weight for each;
 * containers whose move would be invalid (read-only ones, say) are skipped, as GitLab logs and skips them.
 * @returns the moves scheduled.
 */
export function scheduleBulkMoves<C extends Row>(ctx: Ctx<unknown>, kind: ContainerKind<C>, source: string, destination: string | undefined): RepositoryStorageMoveRecord[] {
  const anyKind = kind as ContainerKind<Row>
  const scheduled: RepositoryStorageMoveRecord[] = []
  // One indexed lookup of each container's moves, as its read-only check below makes anyway.
  for (const container of kind.all(ctx.db)) {
    const storage = currentStorage(ctx.db, kind, container, ctx.now)
    if (storage !== source) continue
    const target = destination ?? pickStorage(ctx)
    if (moveErrors(ctx, anyKind, container.id, storage, target)) continue
    scheduled.push(insertMove(ctx, anyKind, container.id, storage, target!))
  }
  return scheduled
}

/**
 * Presents a page of moves: their containers are looked up once per page.
 */
export function presentMoves<C extends Row>(ctx: Ctx<unknown>, kind: ContainerKind<C>, moves: readonly RepositoryStorageMoveRecord[]): RepositoryStorageMoveEntity[] {
  const containers = new Map<number, C | undefined>()
  for (const move of moves) if (!containers.has(move.container_id)) containers.set(move.container_id, kind.get(ctx.db, move.container_id))
  return moves.map((move) => presentMove(ctx, kind, move, containers.get(move.container_id)))
}

/**
 * Presents one move with its state now, or with `state` given (a move just scheduled is presented
 * as `scheduled` whatever its storage's start delay).
 */
export function presentMove<C extends Row>(ctx: Ctx<unknown>, kind: ContainerKind<C>, move: RepositoryStorageMoveRecord, container: C | undefined, state: StorageMoveState = storageMoveState(move, ctx.now)): RepositoryStorageMoveEntity {
  return RepositoryStorageMove(move, state, kind.type, container ? kind.present(container, ctx) : null)
}
