/**
 * Issue boards and their lists: which boards a project or group has, lookup, and the writes of
 * GitLab 13.12's board and list services (a new board gets its backlog and closed lists; label
 * lists take the next position; a move shifts the lists in between; a delete closes the gap).
 * gitlab: app/services/boards/{create,update,destroy}_service.rb,
 * app/services/boards/lists/{create,move,destroy}_service.rb, app/models/list.rb,
 * lib/api/boards_responses.rb, lib/api/helpers.rb (`available_labels_for`).
 * @module
 */
import { ApiError, recordNotFound, validationFailed } from '../../core/errors.js'
import type { Ctx } from '../../core/route.js'
import type { Db } from '../../db/db.js'
import { canReadGroup } from '../../rules/access.js'
import type { Source } from '../../rules/source.js'
import { labelsOfGroup, labelsOfProject } from '../labels/labels.public.js'
import type { BoardRecord, ListRecord } from './boards.tables.js'

/** `parent.boards`: the project's or group's boards, in id order. */
export function boardsOf(db: Db, source: Source): BoardRecord[] {
  return source.type === 'project' ? db.tables.boards.where('project_id', source.project.id) : db.tables.boards.where('group_id', source.group.id)
}

/**
 * `board_parent.boards.find(board_id)`.
 * @throws ApiError 404 `{"message":"404 Not found"}` when the parent has no such board.
 */
export function findBoard(db: Db, source: Source, id: number): BoardRecord {
  const board = Number.isSafeInteger(id) ? db.tables.boards.get(id) : undefined
  const mine = board && (source.type === 'project' ? board.project_id === source.project.id : board.group_id === source.group.id)
  if (!board || !mine) throw recordNotFound()
  return board
}

/** `board.lists.destroyable`: the label lists, by position (`List.ordered`). */
export function destroyableLists(db: Db, board: BoardRecord): ListRecord[] {
  return db.tables.lists
    .where('board_id', board.id)
    .filter((l) => l.list_type === 'label')
    .sort((a, b) => (a.position ?? 0) - (b.position ?? 0) || a.id - b.id)
}

/**
 * `board_lists.find(list_id)`: a label list of the board.
 * @throws ApiError 404 `{"message":"404 Not found"}` otherwise.
 */
export function findList(db: Db, board: BoardRecord, id: number): ListRecord {
  const list = destroyableLists(db, board).find((l) => l.id === id)
  if (!list) throw recordNotFound()
  return list
}

/** What a client sets on a board (13.12 CE `update_params`). */
export interface BoardAttributes {
  name?: string | undefined
  hide_backlog_list?: boolean | undefined
  hide_closed_list?: boolean | undefined
}

/**
 * `Boards::CreateService#create_board!`: a board of the parent with the given name, and its
 * backlog and closed lists.
 */
export function createBoard(db: Db, source: Source, name: string, now: string): BoardRecord {
  const board = db.tables.boards.insert({
    project_id: source.type === 'project' ? source.project.id : null,
    group_id: source.type === 'group' ? source.group.id : null,
    name,
    hide_backlog_list: false,
    hide_closed_list: false,
    created_at: now,
    updated_at: now,
  })
  for (const list_type of ['backlog', 'closed'] as const) {
    db.tables.lists.insert({ board_id: board.id, list_type, label_id: null, position: null, created_at: now, updated_at: now })
  }
  return board
}

/** `Boards::UpdateService`: the given attributes over the stored ones; `updated_at` moves on a change. */
export function updateBoard(db: Db, board: BoardRecord, attrs: BoardAttributes, now: string): BoardRecord {
  const values = {
    name: attrs.name ?? board.name,
    hide_backlog_list: attrs.hide_backlog_list ?? board.hide_backlog_list,
    hide_closed_list: attrs.hide_closed_list ?? board.hide_closed_list,
  }
  const changed = (Object.keys(values) as (keyof typeof values)[]).some((key) => values[key] !== board[key])
  return changed ? db.tables.boards.update(board.id, { ...values, updated_at: now }) : board
}

/** `Boards::DestroyService`: the board and all its lists. */
export function destroyBoard(db: Db, board: BoardRecord): void {
  for (const list of db.tables.lists.where('board_id', board.id)) db.tables.lists.delete(list.id)
  db.tables.boards.delete(board.id)
}

/**
 * `available_labels_for(board_parent)` (`include_ancestor_groups: true, only_group_labels: true`):
 * a project's labels and those of its group and the group's ancestors, or a group's and its
 * ancestors', of the groups the caller can read.
 */
function availableLabelIds(ctx: Ctx<unknown>, source: Source): Set<number> {
  const { db } = ctx
  const ids = new Set<number>()
  const group = source.type === 'project' ? db.projectGroup(source.project) : source.group
  if (source.type === 'project') for (const label of labelsOfProject(db, source.project.id)) ids.add(label.id)
  if (group) {
    for (const g of db.groupSelfAndAncestors(group)) {
      if (canReadGroup(db, ctx.currentUser, g, ctx.today)) for (const label of labelsOfGroup(db, g.id)) ids.add(label.id)
    }
  }
  return ids
}

/**
 * `authorize_list_type_resource!`: the label must be one of the parent's available labels.
 * @throws ApiError 400 `{"message":{"error":"Label not found!"}}` otherwise (`render_api_error!` wraps its hash).
 */
export function checkListLabel(ctx: Ctx<unknown>, source: Source, labelId: number): void {
  if (!availableLabelIds(ctx, source).has(labelId)) throw new ApiError(400, { message: { error: 'Label not found!' } })
}

/**
 * `Boards::Lists::CreateService`: a label list at the next position (after the last label list).
 * @throws ApiError 400 `{"message":{"label":["has already been taken"]}}` when the board has a
 *   list of this label (`validates :label, uniqueness: { scope: :board_id }`).
 */
export function createList(db: Db, board: BoardRecord, labelId: number, now: string): ListRecord {
  const lists = destroyableLists(db, board)
  if (lists.some((l) => l.label_id === labelId)) throw validationFailed({ label: ['has already been taken'] })
  const position = lists.reduce((max, l) => Math.max(max, l.position ?? -1), -1) + 1
  return db.tables.lists.insert({ board_id: board.id, list_type: 'label', label_id: labelId, position, created_at: now, updated_at: now })
}

/**
 * `Boards::Lists::MoveService`: moves a label list to `position` (0-based among the label lists),
 * shifting the lists in between by one. False (nothing changes) when the position is the list's
 * own, negative, or past the last label list.
 */
export function moveList(db: Db, board: BoardRecord, list: ListRecord, position: number, now: string): ListRecord | false {
  const lists = destroyableLists(db, board)
  const old = list.position ?? 0
  if (position === old || position < 0 || position >= lists.length) return false
  for (const other of lists) {
    const at = other.position ?? 0
    if (other.id === list.id) continue
    if (old < position && at > old && at <= position) db.tables.lists.update(other.id, { position: at - 1, updated_at: now })
    if (old > position && at >= position && at < old) db.tables.lists.update(other.id, { position: at + 1, updated_at: now })
  }
  return db.tables.lists.update(list.id, { position, updated_at: now })
}

/** `Boards::Lists::DestroyService`: deletes a label list and moves the later ones up by one. */
export function destroyList(db: Db, board: BoardRecord, list: ListRecord, now: string): void {
  for (const other of destroyableLists(db, board)) {
    if ((other.position ?? 0) > (list.position ?? 0)) db.tables.lists.update(other.id, { position: (other.position ?? 0) - 1, updated_at: now })
  }
  db.tables.lists.delete(list.id)
}
