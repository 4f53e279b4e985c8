/**
 * Issue boards of projects and groups and their label lists, as GitLab 13.12 CE answers them:
 * boards list/get/update (and, for projects, create and delete: multiple project boards are free
 * since 12.1), lists list/get/create (`label_id`)/move/delete. Every route needs a signed-in caller
 * (`authenticate!`); reads need a readable parent (`read_issue_board`), writes Reporter+
 * (`admin_issue_board`, `admin_issue_board_list`). A group's `POST`/`DELETE …/boards` are GitLab
 * Premium's (python-gitlab's test_boards calls them), answered as Premium does.
 * gitlab: lib/api/boards.rb, lib/api/group_boards.rb, lib/api/boards_responses.rb,
 * ee/lib/ee/api/boards_responses.rb, app/policies/project_policy.rb, group_policy.rb.
 * @module
 */
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { ApiError, forbidden } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, noContent, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import { AccessLevel } from '../../rules/access.js'
import { hasSourceAccess, SOURCES, type Source, type SourceType } from '../../rules/source.js'
import { Board, List } from './boards.entities.js'
import {
  boardsOf,
  checkListLabel,
  createBoard,
  createList,
  destroyableLists,
  destroyBoard,
  destroyList,
  findBoard,
  findList,
  moveList,
  updateBoard,
} from './boards.service.js'

/**
 * `authorize!(:admin_issue_board[_list], board_parent)`: Reporter+ (administrators always).
 * @throws ApiError 403 `{"message":"403 Forbidden"}`.
 */
function authorizeAdmin(ctx: Ctx<unknown>, source: Source): void {
  if (!hasSourceAccess(ctx, source, AccessLevel.REPORTER)) throw forbidden()
}

function boardRoutes(type: SourceType): Route[] {
  const { prefix } = SOURCES[type]
  const find = (ctx: Ctx<{ id: string }>): Source => SOURCES[type].find(ctx, ctx.params.id)
  const idParam = { id: p.string({ required: true }) }
  const boardParam = { ...idParam, board_id: p.integer({ required: true }) }
  const listParam = { ...boardParam, list_id: p.integer({ required: true }) }
  const updateParams = { name: p.string(), hide_backlog_list: p.boolean(), hide_closed_list: p.boolean() }

  const routes: Route[] = [
    route(`GET ${prefix}/boards`, {
      params: { ...idParam, ...paginationParams },
      handler(ctx) {
        return paginated(ctx, boardsOf(ctx.db, find(ctx)), (board) => Board(board, ctx))
      },
    }),

    route(`GET ${prefix}/boards/:board_id`, {
      params: boardParam,
      handler(ctx) {
        return ok(Board(findBoard(ctx.db, find(ctx), ctx.params.board_id), ctx))
      },
    }),

    // Project boards: CE since 12.1. Group boards: ee/lib/ee/api/boards_responses.rb (Premium).
    route(`POST ${prefix}/boards`, {
      params: { ...idParam, name: p.string({ required: true }) },
      handler(ctx) {
        const source = find(ctx)
        authorizeAdmin(ctx, source)
        return created(Board(createBoard(ctx.db, source, ctx.params.name, ctx.now), ctx))
      },
    }),

    route(`PUT ${prefix}/boards/:board_id`, {
      params: { ...boardParam, ...updateParams },
      handler(ctx) {
        const source = find(ctx)
        authorizeAdmin(ctx, source)
        const board = findBoard(ctx.db, source, ctx.params.board_id)
        const { name, hide_backlog_list, hide_closed_list } = ctx.params
        return ok(Board(updateBoard(ctx.db, board, { name, hide_backlog_list, hide_closed_list }, ctx.now), ctx))
      },
    }),

    route(`DELETE ${prefix}/boards/:board_id`, {
      params: boardParam,
      handler(ctx) {
        const source = find(ctx)
        authorizeAdmin(ctx, source)
        const board = findBoard(ctx.db, source, ctx.params.board_id)
        checkUnmodifiedSince(ctx, board.updated_at) // destroy_conditionally!
        destroyBoard(ctx.db, board)
        return noContent()
      },
    }),

    route(`GET ${prefix}/boards/:board_id/lists`, {
      params: { ...boardParam, ...paginationParams },
      handler(ctx) {
        const board = findBoard(ctx.db, find(ctx), ctx.params.board_id)
        return paginated(ctx, destroyableLists(ctx.db, board), (list) => List(list, ctx))
      },
    }),

    route(`GET ${prefix}/boards/:board_id/lists/:list_id`, {
      params: listParam,
      handler(ctx) {
        const board = findBoard(ctx.db, find(ctx), ctx.params.board_id)
        return ok(List(findList(ctx.db, board, ctx.params.list_id), ctx))
      },
    }),

    route(`POST ${prefix}/boards/:board_id/lists`, {
      params: { ...boardParam, label_id: p.integer({ required: true }) },
      handler(ctx) {
        const source = find(ctx)
        // authorize_list_type_resource! runs before the permission check.
        checkListLabel(ctx, source, ctx.params.label_id)
        authorizeAdmin(ctx, source)
        const board = findBoard(ctx.db, source, ctx.params.board_id)
        return created(List(createList(ctx.db, board, ctx.params.label_id, ctx.now), ctx))
      },
    }),

    route(`PUT ${prefix}/boards/:board_id/lists/:list_id`, {
      params: { ...listParam, position: p.integer({ required: true }) },
      handler(ctx) {
        const source = find(ctx)
        const board = findBoard(ctx.db, source, ctx.params.board_id)
        const list = findList(ctx.db, board, ctx.params.list_id)
        authorizeAdmin(ctx, source)
        const moved = moveList(ctx.db, board, list, ctx.params.position, ctx.now)
        if (!moved) throw new ApiError(400, { message: { error: 'List could not be moved!' } })
        return ok(List(moved, ctx))
      },
    }),

    route(`DELETE ${prefix}/boards/:board_id/lists/:list_id`, {
      params: listParam,
      handler(ctx) {
        const source = find(ctx)
        authorizeAdmin(ctx, source)
        const board = findBoard(ctx.db, source, ctx.params.board_id)
        const list = findList(ctx.db, board, ctx.params.list_id)
        checkUnmodifiedSince(ctx, list.updated_at) // destroy_conditionally!
        destroyList(ctx.db, board, list, ctx.now)
        return noContent()
      },
    }),
  ]
  return routes
}

/** The board routes: the project's (lib/api/boards.rb), then the group's (lib/api/group_boards.rb). */
export const boardRouteList: Route[] = [...boardRoutes('project'), ...boardRoutes('group')]
