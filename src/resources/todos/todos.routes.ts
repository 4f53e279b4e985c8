/**
 * To-dos of the current user: list, complete one, complete all; and marking an issue as a to-do
 * (`POST /projects/:id/issues/:issue_iid/todo`), which lives here as in GitLab's todos.rb. Every
 * route needs a signed-in user (`before { authenticate! }`).
 * Source: api-spec.md "To-dos", "To-do `state`", "Events"; gitlab-behaviour.md §8, §4.3, §13,
 * §14 items 10, 13 and 19; gitlab: lib/api/todos.rb (13.x).
 * @module
 */
import { forbidden, notModified, recordNotFound } from '../../core/errors.js'
import { findProject } from '../../rules/finders.js'
import { paginate, paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, noContent } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import { Todo, todoPageFacts } from './todos.entities.js'
import { findTodos, markTodo, markTodoAsDone, markTodosAsDone, type TodoFilters } from './todos.service.js'
import { TODO_ACTIONS } from './todos.tables.js'
import { todoTargetKind } from './todos.targets.js'

/**
 * The `TodosFinder` filters. spec-gap: 13.x declared none of them (an unknown `action` was ignored,
 * an unknown `type` raised a 500, an unknown `state` matched nothing); we validate them as later
 * GitLab does, `{"error":"<p> does not have a valid value"}` (gitlab-behaviour.md §8, §14 item 19).
 * `review_requested` (13.8+) is accepted besides the spec's actions.
 */
const filterParams = {
  action: p.string({ values: TODO_ACTIONS }),
  author_id: p.integer(),
  // gitlab: lib/api/todos.rb leaves project_id and group_id undeclared; TodosFinder `find`s them.
  project_id: p.string(),
  group_id: p.string(),
  state: p.string({ values: ['pending', 'done'] as const }),
  type: p.string({ values: ['Issue', 'MergeRequest', 'DesignManagement::Design', 'AlertManagement::Alert'] as const }),
}

/** The declared filters of a request, for the finder. */
function filtersOf(params: TodoFilters): TodoFilters {
  const { action, author_id, project_id, group_id, state, type } = params
  return { action, author_id, project_id, group_id, state, type }
}

/** The signed-in user (every route here runs after `authenticate!`). */
function currentUser(ctx: Ctx<unknown>) {
  return ctx.currentUser!
}

/**
 * The list's filters: the spec types `project_id` and `group_id` as integers and lists 400 for a
 * failed validation, so a non-integer is `{"error":"project_id is invalid"}`, as later GitLab
 * declares them (gitlab-behaviour.md §14 item 19; 13.x left them undeclared, which
 * `POST /todos/mark_as_done`, "none" in the spec, keeps).
 */
const listParams = { ...filterParams, project_id: p.integer(), group_id: p.integer() }

/** Every to-do route. */
export const todoRoutes: Route[] = [
  route('GET /todos', {
    params: { ...listParams, ...paginationParams },
    handler(ctx) {
      const todos = findTodos(ctx.db, currentUser(ctx), filtersOf(ctx.params), ctx.today)
      const page = paginate(ctx, todos)
      const facts = todoPageFacts(ctx, page.rows)
      return { status: 200, body: page.rows.map((todo) => Todo(todo, ctx, facts, true)), headers: page.headers }
    },
  }),

  route('POST /todos/:id/mark_as_done', {
    params: { id: p.integer({ required: true }) },
    handler(ctx) {
      // gitlab: lib/api/todos.rb answers 201 (a POST without `status`), and `current_user.todos.find`
      // gives 404 "Not found" for someone else's to-do (gitlab-behaviour.md §14 items 10, 13).
      return created(Todo(markTodoAsDone(ctx.db, currentUser(ctx), ctx.params.id, ctx.now), ctx))
    },
  }),

  route('POST /todos/mark_as_done', {
    // gitlab: lib/api/todos.rb passes every param to TodosFinder, so the list filters apply here too.
    params: filterParams,
    handler(ctx) {
      markTodosAsDone(ctx.db, findTodos(ctx.db, currentUser(ctx), filtersOf(ctx.params), ctx.today), ctx.now)
      return noContent()
    },
  }),

  route('POST /projects/:id/issues/:issue_iid/todo', {
    params: { id: p.string({ required: true }), issue_iid: p.integer({ required: true }) },
    handler(ctx) {
      const user = currentUser(ctx)
      // gitlab: lib/api/helpers.rb `find_project_issue`: IssuesFinder `find_by!(iid:)`, so an issue
      // that is missing or confidential to the caller is 404 "Not found".
      const project = findProject(ctx, ctx.params.id)
      const kind = todoTargetKind('Issue')
      const issue = kind.byIid(ctx.db, project.id, ctx.params.issue_iid)
      if (!issue || !kind.canRead(ctx, project, issue)) throw recordNotFound()
      const todo = markTodo(ctx.db, user, { type: 'Issue', id: issue.id, project_id: project.id }, ctx.now)
      if (!todo) throw notModified()
      return created(Todo(todo, ctx))
    },
  }),

  route('POST /projects/:id/merge_requests/:merge_request_iid/todo', {
    params: { id: p.string({ required: true }), merge_request_iid: p.integer({ required: true }) },
    handler(ctx) {
      const user = currentUser(ctx)
      // gitlab: lib/api/todos.rb `find_merge_request_with_access`: `find_by!(iid:)` (404 Not found),
      // then `authorize! :read_merge_request` (403).
      const project = findProject(ctx, ctx.params.id)
      const kind = todoTargetKind('MergeRequest')
      const mergeRequest = kind.byIid(ctx.db, project.id, ctx.params.merge_request_iid)
      if (!mergeRequest) throw recordNotFound()
      if (!kind.canRead(ctx, project, mergeRequest)) throw forbidden()
      const todo = markTodo(ctx.db, user, { type: 'MergeRequest', id: mergeRequest.id, project_id: project.id }, ctx.now)
      if (!todo) throw notModified()
      return created(Todo(todo, ctx))
    },
  }),
]
