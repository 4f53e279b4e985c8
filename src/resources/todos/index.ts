/**
 * The to-dos area: `/todos` routes and the issue `…/todo` route, the `todos` table, and `todos:`
 * of scenario projects. gitlab: lib/api/todos.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { todoFragment } from './todos.scenario.js'
import { todoTables } from './todos.tables.js'
import type { Todo as TodoPresenter } from './todos.entities.js'

export type { TodoRecord } from './todos.tables.js'
export type { TodoFields } from './todos.scenario.js'

/** GitLab's `Todo` entity, as fakelab sends it. */
export type Todo = ReturnType<typeof TodoPresenter>

/** The to-dos area. */
export const todos: Area = {
  name: 'todos',
  load: async () => {
    const { todoRoutes } = await import('./todos.routes.js')
    return { api: todoRoutes }
  },
  tables: todoTables,
  scenario: todoFragment,
}
