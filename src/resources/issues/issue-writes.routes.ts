/**
 * Single issues and the issue writes: get (`/projects/:id/issues/:issue_iid`, and `/issues/:id` for
 * administrators), create, edit (with `state_event`), delete, move, subscribe and unsubscribe.
 * Not in api-spec.md ("create, edit, delete, move, subscribe …: not shown"), so GitLab 13.x decides
 * every parameter, status and message (issue 16 part 1).
 * Sources: gitlab: lib/api/issues.rb, lib/api/subscriptions.rb, lib/api/helpers/issues_helpers.rb,
 * app/policies/issue_policy.rb, app/policies/project_policy.rb.
 * @module
 */
import { AccessLevel, projectAccessLevel } from '../../rules/access.js'
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { forbidden, notFound, notModified, recordNotFound } from '../../core/errors.js'
import { findProject } from '../../rules/finders.js'
import { p } from '../../core/params.js'
import { created, noContent, ok } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import { Issue, issuePageFacts } from './issue.entities.js'
import {
  canSetIssueMetadata,
  createIssue,
  destroyIssue,
  moveIssue,
  setIssueSubscription,
  subscribedToIssue,
  updateIssue,
  type RequestFacts,
} from './issue-writes.service.js'
import { issueByIid as findIssueByIid } from './issues.public.js'
import { findProjectIssue } from './issues.service.js'
import type { IssueRecord } from './issues.tables.js'

const projectId = { id: p.string({ required: true }) }
const issueIid = { ...projectId, issue_iid: p.integer({ required: true }) }

/** `issue_params_ce` (lib/api/issues.rb): what create and update both accept. */
const issueParams = {
  description: p.string(),
  assignee_ids: p.integers(),
  assignee_id: p.integer(),
  milestone_id: p.integer(),
  labels: p.strings(),
  add_labels: p.strings(),
  remove_labels: p.strings(),
  due_date: p.string(),
  confidential: p.boolean(),
  discussion_locked: p.boolean(),
  issue_type: p.string({ values: ['issue', 'incident', 'test_case'] as const }),
}

/** `Helpers::IssuesHelpers.update_params_at_least_one_of` (13.x, community edition). */
const UPDATE_AT_LEAST_ONE_OF = [
  'assignee_id',
  'assignee_ids',
  'confidential',
  'created_at',
  'description',
  'discussion_locked',
  'due_date',
  'labels',
  'add_labels',
  'remove_labels',
  'milestone_id',
  'state_event',
  'title',
  'issue_type',
]

/** `present issue, with: Entities::Issue, current_user:, project:`: a single issue, with `subscribed`. */
function presentIssue(ctx: Ctx<unknown>, issue: IssueRecord, from: ProjectRecord) {
  return Issue(issue, ctx, issuePageFacts(ctx, [issue]), { from: { project: from }, subscribed: subscribedToIssue(ctx.db, issue, ctx.currentUser) })
}

/** The project and its issue (`find_project_issue`): 404 Project Not Found, then 404 Not found. */
function projectIssue(ctx: Ctx<{ id: string; issue_iid: number }>) {
  const project = findProject(ctx, ctx.params.id)
  return { project, issue: findProjectIssue(ctx, project, ctx.params.issue_iid) }
}

/** `user_project.issues.find_by(iid:)`: the project's issue with that iid, visible or not. */
function issueByIid(ctx: Ctx<unknown>, project: ProjectRecord, iid: number): IssueRecord | undefined {
  return findIssueByIid(ctx.db, project.id, iid)
}

/**
 * Where the request came from, as the spam check records it: the `User-Agent` header and the
 * client's address.
 * spec-gap: the transport-neutral request carries no peer address, so the address is the first
 * `X-Forwarded-For` entry when a proxy sent one, else `127.0.0.1` (a client on the same machine).
 */
function requestFacts(ctx: Ctx<unknown>): RequestFacts {
  const forwarded = ctx.request.header('x-forwarded-for')?.split(',')[0]?.trim()
  return { userAgent: ctx.request.header('user-agent') ?? '', ipAddress: forwarded || '127.0.0.1' }
}

/** `update_issue`: Reporter+ (`admin_issue`), administrators, and the issue's author or assignees. */
function canUpdateIssue(ctx: Ctx<unknown>, project: ProjectRecord, issue: IssueRecord): boolean {
  const user = ctx.currentUser
  if (!user) return false
  if (user.admin || projectAccessLevel(ctx.db, user, project, ctx.today) >= AccessLevel.REPORTER) return true
  return issue.author_id === user.id || issue.assignee_ids.includes(user.id)
}

/** Subscribe or unsubscribe (lib/api/subscriptions.rb): 201 with the issue, 304 when unchanged. */
function subscription(ctx: Ctx<{ id: string; issue_iid: number }>, subscribe: boolean) {
  // gitlab: lib/api/subscriptions.rb finds the issue with `find_project_issue` (404 Not found).
  const { project, issue } = projectIssue(ctx)
  if (subscribedToIssue(ctx.db, issue, ctx.currentUser) === subscribe) throw notModified()
  setIssueSubscription(ctx.db, issue, ctx.currentUser!, subscribe)
  return created(presentIssue(ctx, issue, project))
}

/** The single-issue routes and the issue writes. */
export const issueWriteRoutes: Route[] = [
  route('GET /projects/:id/issues/:issue_iid', {
    auth: 'optional',
    params: issueIid,
    handler(ctx) {
      const { project, issue } = projectIssue(ctx)
      return ok(presentIssue(ctx, issue, project))
    },
  }),

  route('GET /issues/:id', {
    // `authenticated_as_admin!`, then `Issue.find` (404 Not found).
    auth: 'admin',
    params: { id: p.integer({ required: true }) },
    handler(ctx) {
      const issue = ctx.db.tables.issues.get(ctx.params.id)
      const project = issue ? ctx.db.tables.projects.get(issue.project_id) : undefined
      if (!issue || !project) throw recordNotFound()
      return ok(presentIssue(ctx, issue, project))
    },
  }),

  route('POST /projects/:id/issues', {
    params: {
      ...projectId,
      title: p.string({ required: true }),
      iid: p.integer(),
      created_at: p.datetime(),
      merge_request_to_resolve_discussions_of: p.integer(),
      discussion_to_resolve: p.string(),
      ...issueParams,
    },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      // `create_issue`: anyone who can read the project and is signed in (guest access).
      // spec-gap: `merge_request_to_resolve_discussions_of`/`discussion_to_resolve` are accepted and
      // change nothing: fakelab's merge requests have no discussions to resolve, which is what CE
      // does for a merge request without unresolved discussions.
      const issue = createIssue(ctx, ctx.currentUser!, project, ctx.params, requestFacts(ctx))
      return created(presentIssue(ctx, issue, project))
    },
  }),

  route('PUT /projects/:id/issues/:issue_iid', {
    params: {
      ...issueIid,
      title: p.string(),
      updated_at: p.datetime({ allowBlank: false }),
      state_event: p.string({ values: ['reopen', 'close'] as const }),
      ...issueParams,
    },
    rules: { atLeastOneOf: UPDATE_AT_LEAST_ONE_OF },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      // gitlab: `user_project.issues.find_by!(iid:)` (404 Not found, no visibility check), then
      // `authorize! :update_issue` (403, also for a confidential issue the caller cannot see).
      const issue = issueByIid(ctx, project, ctx.params.issue_iid)
      if (!issue) throw recordNotFound()
      if (!canUpdateIssue(ctx, project, issue)) throw forbidden()
      return ok(presentIssue(ctx, updateIssue(ctx, ctx.currentUser!, project, issue, ctx.params), project))
    },
  }),

  route('DELETE /projects/:id/issues/:issue_iid', {
    params: issueIid,
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      // gitlab: `find_by(iid:)` then `not_found!('Issue')`, then `authorize!(:destroy_issue, issue)`.
      const issue = issueByIid(ctx, project, ctx.params.issue_iid)
      if (!issue) throw notFound('Issue')
      // `destroy_issue`: project owners and administrators.
      if (!canSetIssueMetadata(ctx.db, ctx.currentUser!, project, ctx.today)) throw forbidden()
      // `destroy_conditionally!`: 412 when If-Unmodified-Since is older than the issue.
      checkUnmodifiedSince(ctx, issue.updated_at)
      destroyIssue(ctx.db, issue)
      return noContent()
    },
  }),

  route('POST /projects/:id/issues/:issue_iid/move', {
    params: { ...issueIid, to_project_id: p.integer({ required: true }) },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      // gitlab: lib/api/issues.rb `user_project.issues.find_by(iid:)` then `not_found!('Issue')` (no
      // confidentiality check: a hidden issue fails `can_move?` instead, 400); `Project.find_by(id:)`
      // then `not_found!('Project')`.
      const issue = issueByIid(ctx, project, ctx.params.issue_iid)
      if (!issue) throw notFound('Issue')
      const target = ctx.db.tables.projects.get(ctx.params.to_project_id)
      if (!target) throw notFound('Project')
      const moved = moveIssue(ctx, ctx.currentUser!, project, issue, target)
      return created(presentIssue(ctx, moved, project))
    },
  }),

  route('POST /projects/:id/issues/:issue_iid/subscribe', {
    params: issueIid,
    handler: (ctx) => subscription(ctx, true),
  }),

  route('POST /projects/:id/issues/:issue_iid/unsubscribe', {
    params: issueIid,
    handler: (ctx) => subscription(ctx, false),
  }),
]
