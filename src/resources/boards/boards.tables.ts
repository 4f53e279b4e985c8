/**
 * The boards area's tables: issue boards of projects and groups (`boards`) and their lists
 * (`lists`: the backlog and closed lists every board gets, and one list per label).
 * gitlab: db/structure.sql (`boards`, `lists`), app/models/board.rb, app/models/list.rb (13.12).
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** An issue board of a project (`project_id` set) or of a group (`group_id` set). */
export interface BoardRecord extends Row {
  project_id: number | null
  group_id: number | null
  name: string
  /** Hide the Open (backlog) list. */
  hide_backlog_list: boolean
  /** Hide the Closed list. */
  hide_closed_list: boolean
  created_at: Timestamp
  updated_at: Timestamp
}

/** `List.list_types` (13.12 CE): the lists every board has, and label lists. */
export type ListType = 'backlog' | 'label' | 'closed'

/** A list of a board: its type, its label (label lists) and its place among the label lists. */
export interface ListRecord extends Row {
  board_id: number
  list_type: ListType
  /** The label a `label` list shows; null for the backlog and closed lists. */
  label_id: number | null
  /** 0-based place among the board's label lists; null for the backlog and closed lists. */
  position: number | null
  created_at: Timestamp
  updated_at: Timestamp
}

declare module '../../db/schema.js' {
  interface Tables {
    boards: BoardRecord
    lists: ListRecord
  }
}

/** The tables and their indexes: boards by project and group, lists by board and label. */
export const boardTables = {
  boards: table<BoardRecord>(['project_id', 'group_id']),
  lists: table<ListRecord>(['board_id', 'label_id']),
}
