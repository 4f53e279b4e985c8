/**
 * The to-dos table. gitlab: db/structure.sql (`todos`); the action is stored by name rather than
 * as GitLab's integer (`Todo::ASSIGNED` = 1 …), since only the name is ever shown.
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** What raised a to-do (`action_name`). gitlab: app/models/todo.rb `ACTION_NAMES` (13.x). */
export const TODO_ACTIONS = [
  'assigned',
  'mentioned',
  'build_failed',
  'marked',
  'approval_required',
  'unmergeable',
  'directly_addressed',
  'merge_train_removed',
  'review_requested',
] as const

/** One of {@link TODO_ACTIONS}. */
export type TodoAction = (typeof TODO_ACTIONS)[number]

/** The target types the store can hold (issues and merge requests). */
export type TodoTargetType = 'Issue' | 'MergeRequest'

/** A to-do of one user about one issue or merge request of a project. */
export interface TodoRecord extends Row {
  /** The owner: only they see and complete it. */
  user_id: number
  project_id: number
  /** Who caused it (for `marked`, the owner). */
  author_id: number
  target_type: TodoTargetType
  /** The global id of the issue or merge request. */
  target_id: number
  action_name: TodoAction
  state: 'pending' | 'done'
  /** The text of the note that raised it, or null: then `body` shows the target's title. */
  note: string | null
  created_at: Timestamp
  updated_at: Timestamp
}

declare module '../../db/schema.js' {
  interface Tables {
    todos: TodoRecord
  }
}

/** The table and its index: to-dos by owner (every read is the current user's). */
export const todoTables = {
  todos: table<TodoRecord>(['user_id']),
}
