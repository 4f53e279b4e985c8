/**
 * The to-do entity. Source: api-spec.md "To-do"; gitlab-behaviour.md §8;
 * gitlab: lib/api/entities/todo.rb, lib/api/helpers/related_resources_helpers.rb (13.x).
 * @module
 */
import { userBasicOrNull } from '../../entities/user.js'
import { ProjectIdentity } from '../../entities/project.js'
import type { PresentCtx } from '../../entities/urls.js'
import type { TodoRecord, TodoTargetType } from './todos.tables.js'
import { todoTargetKind, todoTargetKinds } from './todos.targets.js'

/**
 * `{id, project, author, action_name, target_type, target, target_url, body, state, created_at,
 * updated_at}`. `project` is `ProjectIdentity`; `target` the full entity of the issue (or merge
 * request), as its registered kind presents it (todos.targets.ts); `body` the text of the note that
 * raised the to-do, else the target's title.
 * GitLab's `group` key (group to-dos, epics) never appears: every stored to-do has a project.
 * `target` is null when the target is gone (GitLab deletes such to-dos with the target).
 * @param facts the targets' facts, computed once for a page by {@link todoPageFacts}.
 * @param inList whether this is `GET /todos`, whose merge request targets leave out `subscribed`
 *   (`batch_load_issuable_metadata` sets `include_subscribed: false`).
 */
export function Todo(todo: TodoRecord, ctx: PresentCtx, facts: TodoPageFacts = todoPageFacts(ctx, [todo]), inList = false) {
  const project = ctx.db.tables.projects.get(todo.project_id)
  const kind = todoTargetKind(todo.target_type)
  const target = kind.byId(ctx.db, todo.target_id)
  return {
    id: todo.id,
    ...(project ? { project: ProjectIdentity(project, ctx) } : {}),
    author: userBasicOrNull(ctx, todo.author_id),
    action_name: todo.action_name,
    target_type: todo.target_type,
    target: target ? kind.present(target, ctx, facts.get(todo.target_type), inList) : null,
    // `project_issue_url` / `project_merge_request_url`; no `#note_<id>` anchor, as notes are not kept.
    target_url: target ? kind.webUrl(ctx, target) : null,
    body: todo.note ?? (target ? target.title : null),
    state: todo.state,
    created_at: todo.created_at,
    updated_at: todo.updated_at,
  }
}

/** What a page of to-dos' targets need, by target type (see {@link todoPageFacts}). */
export type TodoPageFacts = ReadonlyMap<TodoTargetType, unknown>

/**
 * The facts the targets of a page of to-dos need (an issue's closing merge requests), computed
 * once for the page and each kind of target as GitLab's `batch_load_issuable_metadata` does
 * (gitlab: lib/api/todos.rb).
 */
export function todoPageFacts(ctx: PresentCtx, todos: readonly TodoRecord[]): TodoPageFacts {
  const facts = new Map<TodoTargetType, unknown>()
  for (const kind of todoTargetKinds()) {
    const targets = todos.flatMap((todo) => {
      const target = todo.target_type === kind.type ? kind.byId(ctx.db, todo.target_id) : undefined
      return target ? [target] : []
    })
    facts.set(kind.type, kind.pageFacts(ctx, targets))
  }
  return facts
}

