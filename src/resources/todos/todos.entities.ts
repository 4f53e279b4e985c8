/**
 * The to-do entity. Source: api-spec.md "To-do"; gitlab-behaviour.md §8;
 * gitlab: lib/api/entities/todo.rb, lib/api/helpers/related_resources_helpers.rb (13.x).
 * @module
 */
import { userBasicOrNull } from '../../entities/user.js'
import { ProjectIdentity } from '../../entities/project.js'
import type { PresentCtx } from '../../entities/urls.js'
import type { Tables } from '../../db/schema.js'
import { Issue, issueById, issuePageFacts, issueWebUrl, type IssuePageFacts } from '../issues/issues.public.js'
import { MergeRequest, mergeRequestById, mergeRequestWebUrl } from '../merge-requests/merge-requests.public.js'
import type { TodoRecord } from './todos.tables.js'

/**
 * `{id, project, author, action_name, target_type, target, target_url, body, state, created_at,
 * updated_at}`. `project` is `ProjectIdentity`; `target` the full entity of the issue (or merge
 * request); `body` the text of the note that raised the to-do, else the target's title.
 * GitLab's `group` key (group to-dos, epics) never appears: every stored to-do has a project.
 * `target` is null when the target is gone (GitLab deletes such to-dos with the target).
 * @param facts the issue targets' facts, computed once for a page by {@link todoPageFacts}.
 * @param inList whether this is `GET /todos`, whose merge request targets leave out `subscribed`
 *   (`batch_load_issuable_metadata` sets `include_subscribed: false`).
 */
export function Todo(todo: TodoRecord, ctx: PresentCtx, facts: IssuePageFacts = todoPageFacts(ctx, [todo]), inList = false) {
  const project = ctx.db.tables.projects.get(todo.project_id)
  const target = findTarget(todo, ctx)
  return {
    id: todo.id,
    ...(project ? { project: ProjectIdentity(project, ctx) } : {}),
    author: userBasicOrNull(ctx, todo.author_id),
    action_name: todo.action_name,
    target_type: todo.target_type,
    target: target ? presentTarget(target, ctx, facts, inList) : null,
    // `project_issue_url` / `project_merge_request_url`; no `#note_<id>` anchor, as notes are not kept.
    target_url: target ? (target.type === 'Issue' ? issueWebUrl(ctx, target.issue) : mergeRequestWebUrl(ctx, target.mergeRequest)) : null,
    body: todo.note ?? (target ? (target.type === 'Issue' ? target.issue.title : target.mergeRequest.title) : null),
    state: todo.state,
    created_at: todo.created_at,
    updated_at: todo.updated_at,
  }
}

/**
 * The facts the issue targets of a page of to-dos need (closing merge requests), computed once for
 * the page as GitLab's `batch_load_issuable_metadata` does (gitlab: lib/api/todos.rb).
 */
export function todoPageFacts(ctx: PresentCtx, todos: readonly TodoRecord[]): IssuePageFacts {
  const issues = todos.flatMap((todo) => {
    const issue = todo.target_type === 'Issue' ? issueById(ctx.db, todo.target_id) : undefined
    return issue ? [issue] : []
  })
  return issuePageFacts(ctx, issues)
}

type Target = { type: 'Issue'; issue: Tables['issues'] } | { type: 'MergeRequest'; mergeRequest: Tables['merge_requests'] }

/** The stored target of a to-do, or undefined when it is gone. */
function findTarget(todo: TodoRecord, ctx: PresentCtx): Target | undefined {
  if (todo.target_type === 'Issue') {
    const issue = issueById(ctx.db, todo.target_id)
    return issue && { type: 'Issue', issue }
  }
  const mergeRequest = mergeRequestById(ctx.db, todo.target_id)
  return mergeRequest && { type: 'MergeRequest', mergeRequest }
}

/**
 * The target as `todo_target_class(type).represent(target, options[type])`: the options carry no
 * `current_user` and no project, so an issue's `subscribed` is false and `references.relative` is
 * the short form (gitlab: lib/api/todos.rb `batch_load_issuable_metadata`, subscribable.rb).
 * A merge request is the full `Entities::MergeRequest` (issue 23 item 7): without a project option
 * it has no build fields and no `head_pipeline`, `user.can_merge` is false (no user), and
 * `subscribed` (false, no user) is left out in the list.
 */
function presentTarget(target: Target, ctx: PresentCtx, facts: IssuePageFacts, inList: boolean) {
  if (target.type === 'Issue') return Issue(target.issue, ctx, facts, { from: null, subscribed: false })
  return MergeRequest(target.mergeRequest, ctx, {
    from: null,
    canMerge: false,
    ...(inList ? {} : { subscribed: false }),
    withBuilds: false,
    withHeadPipeline: false,
  })
}
