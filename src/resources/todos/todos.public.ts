/**
 * What other areas may use of the to-dos area: the `TodoService` steps other models' services
 * take (an assignment creates a to-do; commenting, closing or awarding resolves the user's pending
 * ones), and the registration of a kind of to-do target by the area that owns it (todos.targets.ts).
 * Its public module: besides `index.ts`, the only file of this folder another area imports.
 * Nothing here imports another area. gitlab: app/services/todo_service.rb.
 * @module
 */
import type { Db } from '../../db/db.js'
import type { TodoRecord } from './todos.tables.js'

export { registerTodoTargetKind } from './todos.targets.js'

/**
 * `TodoService#resolve_todos_for_target`: the user's pending to-dos on the target become done
 * (`updated_at` moves to `now`).
 */
export function resolveTodosForTarget(db: Db, userId: number, targetType: TodoRecord['target_type'], targetId: number, now: string): void {
  for (const todo of db.tables.todos.where('user_id', userId)) {
    if (todo.state === 'pending' && todo.target_type === targetType && todo.target_id === targetId) {
      db.tables.todos.update(todo.id, { state: 'done', updated_at: now })
    }
  }
}

/** A pending to-do with no note (`TodoService#create_todos`): who, what, by whom, why, when. */
export interface NewTodo {
  user_id: number
  project_id: number
  author_id: number
  target_type: TodoRecord['target_type']
  target_id: number
  action_name: TodoRecord['action_name']
  now: string
}

/** `TodoService#create_todos` for one user: a pending to-do, created and updated `now`. */
export function createTodo(db: Db, todo: NewTodo): TodoRecord {
  return db.tables.todos.insert({
    user_id: todo.user_id,
    project_id: todo.project_id,
    author_id: todo.author_id,
    target_type: todo.target_type,
    target_id: todo.target_id,
    action_name: todo.action_name,
    state: 'pending',
    note: null,
    created_at: todo.now,
    updated_at: todo.now,
  })
}
