/**
 * Merge request lists GitLab serves under other resources' paths, from this area because they list
 * and present merge requests:
 * - `GET /projects/:id/repository/commits/:sha/merge_requests`: the project's merge requests whose
 *   latest diff has the commit (`MergeRequestsFinder` with `commit_sha`, the merge requests the
 *   caller can read, newest first), as `MergeRequestBasic`. A merge request's diff has the commits
 *   its `commits` route lists (its `merge_request_diff_commits`); a scenario merge request whose
 *   stored SHAs are not in the repository has none. Needs `download_code` (the commits API's
 *   `before`), which covers `read_merge_request` on the project. gitlab: lib/api/commits.rb;
 * - `GET /groups/:id/milestones/:milestone_id/merge_requests` and its project twin: the milestone's
 *   (`milestone_issuables_for`, the milestones area's `milestoneIssuables`), all states, as
 *   `MergeRequestBasic`. gitlab: lib/api/milestone_responses.rb;
 * - `GET /projects/:id/issues/:issue_iid/related_merge_requests` and `…/closed_by`, as the full
 *   `MergeRequest` (the spec lists the same fields for both: gitlab-behaviour.md §14 item 7b, the
 *   spec wins; 13.x presents `MergeRequestBasic` for `closed_by`). gitlab: lib/api/issues.rb.
 * gitlab: app/finders/merge_requests_finder.rb (13.x).
 * @module
 */
import { canReadProject } from '../../rules/access.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import { findProject } from '../../rules/finders.js'
import { SOURCE_TYPES, SOURCES } from '../../rules/source.js'
import type { ProjectRecord, Tables } from '../../db/schema.js'
import { findProjectIssue } from '../issues/issues.public.js'
import { findParentMilestone, milestoneIssuables } from '../milestones/milestones.public.js'
import { commitNamed, readableRepository } from '../repository/repository.public.js'
import { MergeRequest, MergeRequestBasic } from './merge-requests.entities.js'
import { mergeRequestCommits } from './merge-requests.git.js'
import { canMergeMergeRequest, canReadMergeRequest, canReadProjectMergeRequests } from './merge-requests.policy.js'
import { mergeRequestsOfProject } from './merge-requests.public.js'
import type { MergeRequestRecord } from './merge-requests.tables.js'

/** The issues area's record (areas read each other's tables, never each other's code). */
type IssueRecord = Tables['issues']

const issueIid = { id: p.string({ required: true }), issue_iid: p.integer({ required: true }), ...paginationParams }

/** Merge requests linked to the issue by "closes" links, in id order. */
function closingMergeRequests(ctx: Ctx<unknown>, issue: IssueRecord): MergeRequestRecord[] {
  const out: MergeRequestRecord[] = []
  for (const link of ctx.db.tables.merge_requests_closing_issues.where('issue_id', issue.id)) {
    const mr = ctx.db.tables.merge_requests.get(link.merge_request_id)
    if (mr) out.push(mr)
  }
  return out.sort((a, b) => a.id - b.id)
}

/**
 * `related_merge_requests`: merge requests that reference the issue (the scenario's "closes" and
 * "mentions" links), in projects the caller can read, sorted by id.
 * gitlab: app/models/issue.rb (`related_merge_requests`: `merge_requests.sort_by(&:id)`).
 */
function relatedMergeRequests(ctx: Ctx<unknown>, issue: IssueRecord): MergeRequestRecord[] {
  const { db } = ctx
  const ids = new Set<number>()
  for (const link of db.tables.merge_requests_closing_issues.where('issue_id', issue.id)) ids.add(link.merge_request_id)
  for (const mention of db.tables.merge_request_mentions.where('issue_id', issue.id)) ids.add(mention.merge_request_id)
  const out: MergeRequestRecord[] = []
  for (const id of [...ids].sort((a, b) => a - b)) {
    const mr = db.tables.merge_requests.get(id)
    const project = mr ? db.tables.projects.get(mr.project_id) : undefined
    if (mr && project && canReadProject(db, ctx.currentUser, project, ctx.today)) out.push(mr)
  }
  return out
}

/** The full `MergeRequest` of an issue's list, `user.can_merge` on the merge request's own project. */
function presentForIssue(ctx: Ctx<unknown>, project: ProjectRecord, mr: MergeRequestRecord) {
  const own = ctx.db.tables.projects.get(mr.project_id) ?? project
  return MergeRequest(mr, ctx, { from: { project }, canMerge: canMergeMergeRequest(ctx, own, mr) })
}

/** The routes. */
export const mergeRequestsOfRoutes: Route[] = [
  route('GET /projects/:id/repository/commits/:sha/merge_requests', {
    auth: 'optional',
    params: { id: p.string({ required: true }), sha: p.string({ required: true }), ...paginationParams },
    handler(ctx) {
      const { project, repo } = readableRepository(ctx)
      const id = commitNamed(repo, project, ctx.params.sha)
      const found = mergeRequestsOfProject(ctx.db, project.id)
        .filter((mr) => canReadMergeRequest(ctx, project, mr))
        .filter((mr) => mergeRequestCommits(ctx.db, mr)?.ids.includes(id) ?? false)
        .sort((a, b) => b.id - a.id)
      return paginated(ctx, found, (mr) => MergeRequestBasic(mr, ctx))
    },
  }),

  ...SOURCE_TYPES.map((sourceType) => route(`GET ${SOURCES[sourceType].prefix}/milestones/:milestone_id/merge_requests`, {
    params: { id: p.string({ required: true }), milestone_id: p.integer({ required: true }), ...paginationParams },
    handler(ctx) {
      const parent = SOURCES[sourceType].find(ctx, ctx.params.id)
      const milestone = findParentMilestone(ctx.db, parent, ctx.params.milestone_id)
      const rows = milestoneIssuables(ctx.db, parent, milestone, ctx.currentUser, ctx.today, (project) =>
        canReadProjectMergeRequests(ctx, project) ? mergeRequestsOfProject(ctx.db, project.id) : [])
      return paginated(ctx, rows, (mergeRequest) => MergeRequestBasic(mergeRequest, ctx))
    },
  })),

  route('GET /projects/:id/issues/:issue_iid/related_merge_requests', {
    auth: 'optional',
    params: issueIid,
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      const issue = findProjectIssue(ctx, project, ctx.params.issue_iid)
      return paginated(ctx, relatedMergeRequests(ctx, issue), (mr) => presentForIssue(ctx, project, mr))
    },
  }),

  route('GET /projects/:id/issues/:issue_iid/closed_by', {
    auth: 'optional',
    params: issueIid,
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      const issue = findProjectIssue(ctx, project, ctx.params.issue_iid)
      // `MergeRequestsFinder` with the issue's project: its own merge requests, newest first.
      const found = closingMergeRequests(ctx, issue).filter((mr) => mr.project_id === project.id).reverse()
      return paginated(ctx, found, (mr) => presentForIssue(ctx, project, mr))
    },
  }),
]
