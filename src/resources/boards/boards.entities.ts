/**
 * The board entities of GitLab 13.12 CE: `Board` (with its project and its label lists) and `List`.
 * gitlab: lib/api/entities/board.rb, lib/api/entities/list.rb (CE; EE adds group, milestone,
 * assignee, labels, weight and the lists' limits).
 * @module
 */
import type { PresentCtx } from '../../entities/urls.js'
import { BasicProjectDetails } from '../../entities/project.js'
import { labelById, LabelBasic } from '../labels/labels.public.js'
import type { BoardRecord, ListRecord } from './boards.tables.js'
import { destroyableLists } from './boards.service.js'

/** `Entities::List`: `{id, label, position}` (the label as `LabelBasic`). */
export function List(list: ListRecord, ctx: PresentCtx) {
  const label = list.label_id === null ? undefined : labelById(ctx.db, list.label_id)
  return {
    id: list.id,
    label: label ? LabelBasic(label, ctx) : null,
    position: list.position,
  }
}

/**
 * `Entities::Board`: `{id, name, hide_backlog_list, hide_closed_list, project, lists}`: `project`
 * as `BasicProjectDetails` (null for a group's board), `lists` the label lists in position order.
 */
export function Board(board: BoardRecord, ctx: PresentCtx) {
  const project = board.project_id === null ? undefined : ctx.db.tables.projects.get(board.project_id)
  return {
    id: board.id,
    name: board.name,
    hide_backlog_list: board.hide_backlog_list,
    hide_closed_list: board.hide_closed_list,
    project: project ? BasicProjectDetails(project, ctx) : null,
    lists: destroyableLists(ctx.db, board).map((list) => List(list, ctx)),
  }
}
