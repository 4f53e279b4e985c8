/**
 * Repository storage moves of projects, groups and snippets: six routes per kind, eighteen in all,
 * written once and looped over the kinds. Every route is for administrators only
 * (`before { authenticated_as_admin! }`: anonymous 401, others 403 `{"message":"403 Forbidden"}`,
 * both before parameter validation). Source: api-spec.md "Repository storage moves";
 * gitlab-behaviour.md §6, §13, §14 items 13 and 14; gitlab: lib/api/project_repository_storage_moves.rb,
 * lib/api/group_repository_storage_moves.rb, lib/api/snippet_repository_storage_moves.rb (13.9–13.12).
 * @module
 */
import { grapeError } from '../../core/errors.js'
import { paginate, paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { acceptedReply, created, ok } from '../../core/respond.js'
import { route, type Route } from '../../core/route.js'
import type { Row } from '../../db/collection.js'
import { groupKind, projectKind, snippetKind, type ContainerKind } from './storage-moves.kinds.js'
import { findMove, isStorage, listMoves, presentMove, presentMoves, scheduleBulkMoves, scheduleMove } from './storage-moves.service.js'

const moveId = { repository_storage_move_id: p.integer({ required: true }) }

/** The six routes of one kind. */
function kindRoutes<C extends Row>(kind: ContainerKind<C>): Route[] {
  const anyKind = kind as unknown as ContainerKind<Row>
  const containerId = { id: kind.idParam }
  return [
    route(`GET ${kind.collection}`, {
      auth: 'admin',
      params: { ...paginationParams },
      handler(ctx) {
        const page = paginate(ctx, listMoves(ctx.db, anyKind))
        return ok(presentMoves(ctx, kind, page.rows), page.headers)
      },
    }),

    route(`GET ${kind.collection}/:repository_storage_move_id`, {
      auth: 'admin',
      params: moveId,
      handler(ctx) {
        const move = findMove(ctx.db, anyKind, ctx.params.repository_storage_move_id)
        return ok(presentMove(ctx, kind, move, kind.get(ctx.db, move.container_id)))
      },
    }),

    route(`POST ${kind.collection}`, {
      auth: 'admin',
      params: { source_storage_name: p.string({ required: true }), destination_storage_name: p.string() },
      handler(ctx) {
        // `values: -> { storages.keys }` on both: Grape's messages, in declaration order.
        const { source_storage_name: source, destination_storage_name: destination } = ctx.params
        const invalid = [
          ...(isStorage(ctx.db, source) ? [] : ['source_storage_name does not have a valid value']),
          ...(destination === undefined || isStorage(ctx.db, destination) ? [] : ['destination_storage_name does not have a valid value']),
        ]
        if (invalid.length > 0) throw grapeError(invalid.join(', '))
        scheduleBulkMoves(ctx, kind, source, destination)
        // gitlab: the bulk routes end with `accepted!` (202 {"message":"202 Accepted"}); see §14 item 14.
        return acceptedReply()
      },
    }),

    route(`GET ${kind.prefix}/repository_storage_moves`, {
      auth: 'admin',
      params: { ...containerId, ...paginationParams },
      handler(ctx) {
        const container = kind.find(ctx, ctx.params.id as string | number)
        const page = paginate(ctx, listMoves(ctx.db, anyKind, container.id))
        return ok(presentMoves(ctx, kind, page.rows), page.headers)
      },
    }),

    route(`GET ${kind.prefix}/repository_storage_moves/:repository_storage_move_id`, {
      auth: 'admin',
      params: { ...containerId, ...moveId },
      handler(ctx) {
        const container = kind.find(ctx, ctx.params.id as string | number)
        const move = findMove(ctx.db, anyKind, ctx.params.repository_storage_move_id, container.id)
        return ok(presentMove(ctx, kind, move, container))
      },
    }),

    route(`POST ${kind.prefix}/repository_storage_moves`, {
      auth: 'admin',
      params: { ...containerId, destination_storage_name: p.string() },
      handler(ctx) {
        const container = kind.find(ctx, ctx.params.id as string | number)
        const move = scheduleMove(ctx, kind, container, ctx.params.destination_storage_name)
        return created(presentMove(ctx, kind, move, container, 'scheduled'))
      },
    }),
  ]
}

/** The eighteen routes: group, project and snippet moves, in the spec's order. */
export const storageMoveRoutes: Route[] = [groupKind, projectKind, snippetKind].flatMap((kind) => kindRoutes(kind as ContainerKind<Row>))
