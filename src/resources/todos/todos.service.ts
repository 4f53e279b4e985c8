/**
 * To-dos: the finder (filters, visibility, order) and the state changes, as GitLab 13.x's
 * `TodosFinder` and `TodoService` do them. Source: api-spec.md "To-dos", "To-do `state`";
 * gitlab-behaviour.md §8, §4.3; gitlab: app/finders/todos_finder.rb, app/services/todo_service.rb.
 * @module
 */
import { canReadProject } from '../../rules/access.js'
import { recordNotFound } from '../../core/errors.js'
import { rubyToI } from '../../core/ruby.js'
import type { Db } from '../../db/db.js'
import type { UserRecord } from '../../db/schema.js'
import type { TodoAction, TodoRecord } from './todos.tables.js'
import { todoTargetKind } from './todos.targets.js'

/** The filters of `GET /todos` and `POST /todos/mark_as_done`, as declared (see the routes). */
export interface TodoFilters {
  action?: TodoAction
  author_id?: number
  /** An integer on `GET /todos` (the spec's type); raw on `POST /todos/mark_as_done`, as GitLab passes it to `Project.find`. */
  project_id?: number | string
  /** An integer on `GET /todos` (the spec's type); raw on `POST /todos/mark_as_done`, as GitLab passes it to `Group.find`. */
  group_id?: number | string
  state?: 'pending' | 'done'
  type?: string
}

/** `present?`: blank strings count as absent. */
function given(value: number | string | undefined): value is number | string {
  return value !== undefined && String(value).trim() !== ''
}

/**
 * `TodosFinder.new(current_user, params).execute`: the user's to-dos matching every filter, on
 * projects the user can still read, newest id first (`order_id_desc`). No `state` means pending.
 * @throws ApiError 404 `{"message":"404 Not found"}` for an `author_id`, `project_id` or `group_id`
 *   naming no record (`User.find`, `Project.find`, `Group.find`).
 */
export function findTodos(db: Db, user: UserRecord, filters: TodoFilters, today: string): TodoRecord[] {
  if (filters.author_id !== undefined && !db.tables.users.get(filters.author_id)) throw recordNotFound()
  // gitlab: ActiveRecord `find` casts the raw value as `to_i` does: "20abc" is 20, "abc" finds nothing.
  const project = given(filters.project_id) ? db.tables.projects.get(rubyToI(filters.project_id)) : undefined
  if (given(filters.project_id) && !project) throw recordNotFound()
  const group = given(filters.group_id) ? db.tables.groups.get(rubyToI(filters.group_id)) : undefined
  if (given(filters.group_id) && !group) throw recordNotFound()
  // `for_group_ids_and_descendants`: to-dos on projects of the group or of its subgroups.
  const groupIds = group ? new Set([group, ...db.groupDescendants(group)].map((g) => g.id)) : undefined
  const state = filters.state ?? 'pending'
  const readable = new Map<number, boolean>()
  const canRead = (projectId: number) => {
    let ok = readable.get(projectId)
    if (ok === undefined) {
      const p = db.tables.projects.get(projectId)
      ok = p !== undefined && canReadProject(db, user, p, today)
      readable.set(projectId, ok)
    }
    return ok
  }
  return db.tables.todos
    .where('user_id', user.id)
    .filter((todo) => {
      if (todo.state !== state) return false
      if (filters.action !== undefined && todo.action_name !== filters.action) return false
      if (filters.author_id !== undefined && todo.author_id !== filters.author_id) return false
      if (filters.type !== undefined && todo.target_type !== filters.type) return false
      if (project && todo.project_id !== project.id) return false
      if (groupIds) {
        const p = db.tables.projects.get(todo.project_id)
        if (!p || p.namespace_type !== 'group' || !groupIds.has(p.namespace_id)) return false
      }
      return canRead(todo.project_id)
    })
    .sort((a, b) => b.id - a.id)
}

/**
 * `current_user.todos.find(id)` after `mark_todos_as_done_by_ids`: the user's own to-do, done.
 * A done to-do stays as it is (`batch_update` skips rows already in the state).
 * @param now the new `updated_at` (13.x `Todo.batch_update` sets it).
 * @throws ApiError 404 `{"message":"404 Not found"}` for a to-do of someone else or none.
 */
export function markTodoAsDone(db: Db, user: UserRecord, id: number, now: string): TodoRecord {
  const todo = Number.isSafeInteger(id) ? db.tables.todos.get(id) : undefined
  if (!todo || todo.user_id !== user.id) throw recordNotFound()
  markTodosAsDone(db, [todo], now)
  return db.tables.todos.get(todo.id)!
}

/**
 * `TodoService#mark_todos_as_done`: every given to-do that is not done yet becomes done, with
 * `updated_at` now (gitlab: app/models/todo.rb `batch_update`, 13.x). The target is not touched:
 * `update_all` runs no callbacks.
 */
export function markTodosAsDone(db: Db, todos: readonly TodoRecord[], now: string): void {
  for (const todo of todos) if (todo.state !== 'done') db.tables.todos.update(todo.id, { state: 'done', updated_at: now })
}

/** What {@link markTodo} marks: an issue (or merge request) of a project. */
export interface TodoTarget {
  type: TodoRecord['target_type']
  id: number
  project_id: number
}

/**
 * `TodoService#mark_todo`: a pending `marked` to-do of the user, by the user, about `target`.
 * @returns the new to-do, or undefined when the user already has a pending to-do on that target
 *   (any action: `pending_todos` compares project, target and commit only), which GitLab answers 304.
 */
export function markTodo(db: Db, user: UserRecord, target: TodoTarget, now: string): TodoRecord | undefined {
  const pending = db.tables.todos
    .where('user_id', user.id)
    .some((t) => t.state === 'pending' && t.target_type === target.type && t.target_id === target.id && t.project_id === target.project_id)
  if (pending) return undefined
  // gitlab: app/models/todo.rb `belongs_to :target, polymorphic: true, touch: true`: saving the
  // to-do moves the target's updated_at.
  todoTargetKind(target.type).touch(db, target.id, now)
  return db.tables.todos.insert({
    user_id: user.id,
    project_id: target.project_id,
    author_id: user.id,
    target_type: target.type,
    target_id: target.id,
    action_name: 'marked',
    state: 'pending',
    note: null,
    created_at: now,
    updated_at: now,
  })
}
