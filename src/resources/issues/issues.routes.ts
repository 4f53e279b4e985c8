/**
 * Issue routes: the global, group and project lists, a group or project milestone's issues, and
 * the sub-resources of a project issue (time tracking, participants, user agent detail, metric
 * images). An issue's related and closing merge requests are the merge requests area's routes. `POST …/issues/:issue_iid/todo` lives in the to-dos area, notes in the notes area.
 * Reads allow anonymous callers on public projects (`authenticate_non_get!`); writes need a user.
 * Sources: api-spec.md "Issues"; gitlab-behaviour.md §4, §5, §14 items 7 and 10; gitlab:
 * lib/api/issues.rb, lib/api/milestone_responses.rb, lib/api/time_tracking_endpoints.rb,
 * ee/lib/ee/api/issues.rb.
 * @module
 */
import { AccessLevel, issueVisibleTo, projectAccessLevel } from '../../rules/access.js'
import { SOURCE_TYPES, SOURCES } from '../../rules/source.js'
import { apiMessage, badRequest, forbidden, notFound, unauthorized } from '../../core/errors.js'
import { IssueMessage } from './issues.messages.js'
import { findGroup, findProject } from '../../rules/finders.js'
import { paginate, paginateList, paginationParams } from '../../core/pagination.js'
import { p, uploadedBytes } from '../../core/params.js'
import { created, noContent, ok, paginated } from '../../core/respond.js'
import { storedBytes } from '../../rules/uploads.js'
import { route, type Ctx, type Reply, type Route } from '../../core/route.js'
import { IssuableTimeStats, type ReferenceFrom } from '../../entities/issuable.js'
import { findParentMilestone, milestoneIssuables } from '../milestones/milestones.public.js'
import { IssuablePageLookups, Issue, IssueBasic, issuePageFacts } from './issue.entities.js'
import { UserBasic } from '../../entities/user.js'
import { MetricImage, UserAgentDetail } from './issues.entities.js'
import { findIssueList, type IssueListSource } from './issues.finder.js'
import { userAgentDetailOf } from './issues.generate.js'
import { globalListParams, groupListParams, issueListFilters, issueListRules, projectListParams } from './issues.params.js'
import {
  addSpentTime,
  canAdminIssue,
  findProjectIssue,
  METRIC_IMAGE_MAX_BYTES,
  metricImages,
  participants,
  resetSpentTime,
  resetTimeEstimate,
  setTimeEstimate,
} from './issues.service.js'

type ListParams = Record<string, unknown> & { page: number; per_page: number; with_labels_details: boolean }

/** Finds, filters, sorts, paginates and presents one list; relational facts once per page. */
function listReply(ctx: Ctx<ListParams>, list: 'global' | 'group' | 'project', source: IssueListSource, from: ReferenceFrom): Reply {
  const filters = issueListFilters(list, ctx.params)
  const found = findIssueList(ctx, source, filters)
  const page = paginateList(ctx, found.total, found.slice)
  const facts = issuePageFacts(ctx, page.rows)
  const options = { from, withLabelsDetails: ctx.params.with_labels_details }
  return { status: 200, body: page.rows.map((issue) => Issue(issue, ctx, facts, options)), headers: page.headers }
}

const projectId = { id: p.string({ required: true }) }
const issueIid = { ...projectId, issue_iid: p.integer({ required: true }) }

/** `user_project` and `find_project_issue`: 404 Project Not Found, then 404 Not found. */
function projectIssue(ctx: Ctx<{ id: string; issue_iid: number }>) {
  const project = findProject(ctx, ctx.params.id)
  return { project, issue: findProjectIssue(ctx, project, ctx.params.issue_iid) }
}

/**
 * The issue for a time tracking write: found, then `authorize! :admin_issue` (Reporter+).
 * @throws ApiError 404 (project, issue), 403 `{"message":"403 Forbidden"}`.
 */
function adminIssue(ctx: Ctx<{ id: string; issue_iid: number }>) {
  const found = projectIssue(ctx)
  if (!canAdminIssue(ctx, found.project)) throw forbidden()
  return found
}

/**
 * EE `IssuablePolicy` `is_project_member` (`project.team.member?`): a member of the project at Guest
 * or above, directly or through its groups. Being an administrator does not count: `~is_project_member`
 * prevents uploading and deleting metric images for everyone else (issue 23 item 4, GitLab 13.12).
 */
function isProjectMember(ctx: Ctx<unknown>, project: ReturnType<typeof projectIssue>['project']): boolean {
  return projectAccessLevel(ctx.db, ctx.currentUser, project, ctx.today) >= AccessLevel.GUEST
}

/**
 * Whether the caller may delete a metric image: `destroy_issuable_metric_image`, granted to the
 * issue's author and to anyone allowed to create and update issues (Reporter+ here), and prevented
 * for anyone who is not a member of the project, administrators included (gitlab-behaviour.md §4.3).
 */
function canDestroyMetricImage(ctx: Ctx<unknown>, projectIssueFound: ReturnType<typeof projectIssue>): boolean {
  const user = ctx.currentUser
  if (!user || !isProjectMember(ctx, projectIssueFound.project)) return false
  const level = projectAccessLevel(ctx.db, user, projectIssueFound.project, ctx.today)
  if (user.admin || level >= AccessLevel.REPORTER) return true
  return projectIssueFound.issue.author_id === user.id
}

/** The issue routes. */
export const issueRoutes: Route[] = [
  route('GET /issues', {
    auth: 'optional',
    params: globalListParams,
    rules: issueListRules,
    handler(ctx) {
      // `authenticate! unless params[:scope] == 'all'`: compared before the dashed forms are converted.
      if (ctx.params.scope !== 'all' && !ctx.currentUser) throw unauthorized()
      return listReply(ctx as unknown as Ctx<ListParams>, 'global', { kind: 'global' }, null)
    },
  }),

  route('GET /groups/:id/issues', {
    auth: 'optional',
    params: groupListParams,
    rules: issueListRules,
    handler(ctx) {
      const group = findGroup(ctx, ctx.params.id)
      return listReply(ctx as unknown as Ctx<ListParams>, 'group', { kind: 'group', group }, { group })
    },
  }),

  route('GET /projects/:id/issues', {
    auth: 'optional',
    params: projectListParams,
    rules: issueListRules,
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      return listReply(ctx as unknown as Ctx<ListParams>, 'project', { kind: 'project', project }, { project })
    },
  }),

  // A group or project milestone's issues (`milestone_issuables_for`): every route of
  // milestone_responses.rb needs a signed-in user; the parent's projects the caller can read, the
  // issues the caller may see, all states, `sort: label_priority`.
  ...SOURCE_TYPES.map((sourceType) => route(`GET ${SOURCES[sourceType].prefix}/milestones/:milestone_id/issues`, {
    params: { id: p.string({ required: true }), milestone_id: p.integer({ required: true }), ...paginationParams },
    handler(ctx) {
      const parent = SOURCES[sourceType].find(ctx, ctx.params.id)
      const milestone = findParentMilestone(ctx.db, parent, ctx.params.milestone_id)
      const rows = milestoneIssuables(ctx.db, parent, milestone, ctx.currentUser, ctx.today, (project) =>
        ctx.db.tables.issues.where('project_id', project.id).filter(issueVisibleTo(ctx.db, ctx.currentUser, project, ctx.today)))
      // One page's users, milestones and project paths, looked up once for all its rows.
      const lookups = new IssuablePageLookups(ctx)
      return paginated(ctx, rows, (issue) => IssueBasic(issue, ctx, { lookups }))
    },
  })),

  // ---- time tracking (lib/api/time_tracking_endpoints.rb) ---------------------------------------

  route('POST /projects/:id/issues/:issue_iid/time_estimate', {
    params: { ...issueIid, duration: p.string({ required: true }) },
    handler(ctx) {
      const { issue } = adminIssue(ctx)
      // `status :ok`: 200, not POST's 201 (gitlab-behaviour.md §14 item 10).
      return ok(IssuableTimeStats(setTimeEstimate(ctx, issue, ctx.params.duration)))
    },
  }),

  route('POST /projects/:id/issues/:issue_iid/reset_time_estimate', {
    params: issueIid,
    handler(ctx) {
      const { issue } = adminIssue(ctx)
      return ok(IssuableTimeStats(resetTimeEstimate(ctx, issue)))
    },
  }),

  route('POST /projects/:id/issues/:issue_iid/add_spent_time', {
    params: { ...issueIid, duration: p.string({ required: true }) },
    handler(ctx) {
      const { issue } = adminIssue(ctx)
      return created(IssuableTimeStats(addSpentTime(ctx, issue, ctx.params.duration)))
    },
  }),

  route('POST /projects/:id/issues/:issue_iid/reset_spent_time', {
    params: issueIid,
    handler(ctx) {
      const { issue } = adminIssue(ctx)
      return ok(IssuableTimeStats(resetSpentTime(ctx, issue)))
    },
  }),

  route('GET /projects/:id/issues/:issue_iid/time_stats', {
    auth: 'optional',
    params: issueIid,
    handler(ctx) {
      return ok(IssuableTimeStats(projectIssue(ctx).issue))
    },
  }),

  // ---- people and merge requests ---------------------------------------------------------------

  route('GET /projects/:id/issues/:issue_iid/participants', {
    auth: 'optional',
    params: { ...issueIid, ...paginationParams },
    handler(ctx) {
      const { project, issue } = projectIssue(ctx)
      return paginated(ctx, participants(ctx, project, issue), (user) => UserBasic(user, ctx))
    },
  }),

  route('GET /projects/:id/issues/:issue_iid/user_agent_detail', {
    // `authenticated_as_admin!` before anything else: anonymous 401, others 403.
    auth: 'admin',
    params: issueIid,
    handler(ctx) {
      const { issue } = projectIssue(ctx)
      const detail = userAgentDetailOf(ctx.db.tables.user_agent_details.where('subject_id', issue.id), issue.id)
      if (!detail) throw notFound('UserAgentDetail')
      return ok(UserAgentDetail(detail))
    },
  }),

  // ---- metric images (ee/lib/ee/api/issues.rb; the community edition has none) -------------------

  route('POST /projects/:id/issues/:issue_iid/metric_images', {
    params: { ...issueIid, file: p.file({ required: true }), url: p.string() },
    handler(ctx) {
      const found = projectIssue(ctx)
      // `upload_issuable_metric_image`: incidents only, for project members who may update the issue.
      const allowed = canAdminIssue(ctx, found.project) && isProjectMember(ctx, found.project)
      if (found.issue.issue_type !== 'incident' || !allowed) throw apiMessage(403, IssueMessage.metricImageNotAllowed)
      const file = ctx.params.file
      if (file.size > METRIC_IMAGE_MAX_BYTES) throw badRequest(IssueMessage.metricImageTooLarge)
      return uploadReply(ctx, found.issue.id, file)
    },
  }),

  route('GET /projects/:id/issues/:issue_iid/metric_images', {
    auth: 'optional',
    params: issueIid,
    handler(ctx) {
      const { issue } = projectIssue(ctx)
      // Not paginated (gitlab-behaviour.md §4.3).
      return ok(metricImages(ctx.db, issue).map(MetricImage))
    },
  }),

  // spec-gap: GitLab names the parameter `metric_image_id`; api-spec.md names it `image_id`.
  route('DELETE /projects/:id/issues/:issue_iid/metric_images/:image_id', {
    params: { ...issueIid, image_id: p.integer({ required: true }) },
    handler(ctx) {
      const found = projectIssue(ctx)
      if (!canDestroyMetricImage(ctx, found)) throw forbidden()
      const image = metricImages(ctx.db, found.issue).find((row) => row.id === ctx.params.image_id)
      if (!image) throw apiMessage(404, IssueMessage.metricImageNotFound)
      ctx.db.tables.issuable_metric_images.delete(image.id)
      return noContent()
    },
  }),
]

/** Stores an uploaded metric image (its bytes were read with the request body, see `uploadedBytes`). */
function uploadReply(ctx: Ctx<{ url?: string }>, issueId: number, file: Blob): Reply {
  const bytes = uploadedBytes(file)
  const image = ctx.db.tables.issuable_metric_images.insert({
    issue_id: issueId,
    filename: file instanceof File ? file.name : 'blob',
    data: storedBytes(bytes),
    content_type: file.type,
    url: ctx.params.url ?? null,
    created_at: ctx.now,
  })
  return created(MetricImage(image))
}
