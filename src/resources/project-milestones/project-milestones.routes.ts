/**
 * Project milestones: list, get, create, update, delete, the issues and merge requests of a
 * milestone, and promotion to a group milestone. Every route needs a signed-in user
 * (`before { authenticate! }`), even on a public project; a project the caller cannot read is
 * `404 Project Not Found` (so `read_milestone` holds for whoever gets past it: 13.x enables it for
 * guests and for anyone who can read a public or internal project); a milestone is looked up by
 * its global id among the project's own milestones (`404 Not found` otherwise).
 * The rules (finder, validations, issuables) are the group milestones area's, shared through its
 * public module. Source: gitlab: lib/api/project_milestones.rb, lib/api/milestone_responses.rb,
 * app/policies/project_policy.rb, spec/requests/api/project_milestones_spec.rb,
 * spec/support/shared_examples/requests/api/milestones_shared_examples.rb.
 * @module
 */
import { AccessLevel, hasGroupAccess, hasProjectAccess } from '../../rules/access.js'
import { forbidden, recordNotFound } from '../../core/errors.js'
import { findProject } from '../../rules/finders.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { rubyToI } from '../../core/ruby.js'
import { created, noContent, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { GroupRecord, ProjectRecord } from '../../db/schema.js'
import type { ProjectSource } from '../../rules/source.js'
import type { MilestoneRecord } from '../group-milestones/index.js'
import {
  createMilestone,
  destroyMilestone,
  listMilestones,
  Milestone,
  milestoneById,
  milestoneIssues,
  milestoneMergeRequests,
  updateMilestone,
  type Issuables,
} from '../group-milestones/group-milestones.public.js'
import { IssuablePageLookups, IssueBasic, issuesOfProject, unsetIssuesMilestone } from '../issues/issues.public.js'
import { MergeRequestBasic, mergeRequestsOfProject, unsetMergeRequestsMilestone } from '../merge-requests/merge-requests.public.js'
import { promoteMilestone } from './project-milestones.promote.js'

/**
 * `authorize! :admin_milestone, user_project`: Developer+ (administrators always); an archived
 * project is read-only, so nobody may change its milestones.
 * gitlab: app/policies/project_policy.rb (13.x: `can?(:developer_access)` enables `admin_milestone`;
 * `archived` prevents the milestone feature's write abilities).
 * @throws ApiError 403 `{"message":"403 Forbidden"}`.
 */
function authorizeAdminMilestone(ctx: Ctx<unknown>, project: ProjectRecord): void {
  if (project.archived || !hasProjectAccess(ctx.db, ctx.currentUser, project, AccessLevel.DEVELOPER, ctx.today)) throw forbidden()
}

/**
 * `authorize! :admin_milestone, user_project.group`: Developer+ of the group (or an ancestor), or
 * an administrator. A project in a user's namespace has no group, and nobody may act on nil.
 * gitlab: app/policies/group_policy.rb (13.x: `developer` enables `admin_milestone`).
 * @throws ApiError 403 `{"message":"403 Forbidden"}`.
 */
function authorizeAdminGroupMilestone(ctx: Ctx<unknown>, project: ProjectRecord): GroupRecord {
  const group = project.namespace_type === 'group' ? ctx.db.tables.groups.get(project.namespace_id) : undefined
  if (!group || !hasGroupAccess(ctx.db, ctx.currentUser, group, AccessLevel.DEVELOPER, ctx.today)) throw forbidden()
  return group
}

/**
 * `user_project.milestones.find(id)`: group milestones, even the project's group's, are not found.
 * @throws ApiError 404 `{"message":"404 Not found"}` (ActiveRecord::RecordNotFound).
 */
function findMilestone(ctx: Ctx<unknown>, project: ProjectRecord, id: number): MilestoneRecord {
  const milestone = milestoneById(ctx.db, id)
  if (!milestone || milestone.project_id !== project.id) throw recordNotFound()
  return milestone
}

function source(project: ProjectRecord): ProjectSource {
  return { type: 'project', project }
}

/** The issues and merge requests areas' finders the shared milestone rules work on. */
const issuables: Issuables = { issuesOfProject, mergeRequestsOfProject, unsetIssuesMilestone, unsetMergeRequestsMilestone }

const projectId = { id: p.string({ required: true }) }

/**
 * GitLab's `optional_params` (all `type: String`). JSON `null` reaches the service as null, as
 * Grape passes `nil` through: python-gitlab clears a due date that way.
 */
const optionalParams = {
  description: p.string({ nullable: true }),
  due_date: p.string({ nullable: true }),
  start_date: p.string({ nullable: true }),
}

/** Project milestone routes (gitlab: lib/api/project_milestones.rb). */
export const projectMilestoneRoutes: Route[] = [
  route('GET /projects/:id/milestones', {
    params: {
      ...projectId,
      state: p.string({ values: ['active', 'closed', 'all'], default: 'all' }),
      iids: p.integers(),
      title: p.string(),
      search: p.string(),
      include_parent_milestones: p.boolean({ default: false }),
      ...paginationParams,
    },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      const sort = ctx.raw.sort
      const rows = listMilestones(ctx.db, source(project), ctx.currentUser, {
        state: ctx.params.state,
        iids: ctx.params.iids,
        title: ctx.params.title,
        search: ctx.params.search,
        include_parent_milestones: ctx.params.include_parent_milestones,
        // `list_milestones_for` hands the whole `params` to MilestonesFinder: an undeclared `sort` orders.
        sort: typeof sort === 'string' ? sort : undefined,
      }, ctx.today)
      return paginated(ctx, rows, (milestone) => Milestone(milestone, ctx))
    },
  }),

  route('GET /projects/:id/milestones/:milestone_id', {
    params: { ...projectId, milestone_id: p.integer({ required: true }) },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      return ok(Milestone(findMilestone(ctx, project, ctx.params.milestone_id), ctx))
    },
  }),

  route('POST /projects/:id/milestones', {
    params: { ...projectId, title: p.string({ required: true }), ...optionalParams },
    handler(ctx) {
      const { params } = ctx
      const project = findProject(ctx, params.id)
      authorizeAdminMilestone(ctx, project)
      const milestone = createMilestone(ctx.db, source(project), {
        title: params.title,
        description: params.description,
        due_date: params.due_date,
        start_date: params.start_date,
      }, ctx.now)
      return created(Milestone(milestone, ctx))
    },
  }),

  route('PUT /projects/:id/milestones/:milestone_id', {
    params: {
      ...projectId,
      milestone_id: p.integer({ required: true }),
      title: p.string(),
      state_event: p.string({ values: ['close', 'activate'] }),
      ...optionalParams,
    },
    // gitlab: lib/api/milestone_responses.rb (`update_params`), in its declaration order.
    rules: { atLeastOneOf: ['title', 'description', 'start_date', 'due_date', 'state_event'] },
    handler(ctx) {
      const { params } = ctx
      const project = findProject(ctx, params.id)
      authorizeAdminMilestone(ctx, project)
      const milestone = findMilestone(ctx, project, params.milestone_id)
      // Only what the client sent (`declared_params(include_missing: false)`): absent stays undefined.
      const updated = updateMilestone(ctx.db, source(project), milestone, {
        title: params.title,
        state_event: params.state_event,
        description: params.description,
        due_date: params.due_date,
        start_date: params.start_date,
      }, ctx.now)
      return ok(Milestone(updated, ctx))
    },
  }),

  // No `milestone_id` is declared here, so `abc` is not a 400: it reaches `find` and is not found
  // (after the permission check).
  route('DELETE /projects/:id/milestones/:milestone_id', {
    params: { ...projectId },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      authorizeAdminMilestone(ctx, project)
      const milestone = findMilestone(ctx, project, rubyToI(ctx.raw.milestone_id))
      destroyMilestone(ctx.db, issuables, milestone, ctx.now)
      return noContent()
    },
  }),

  route('GET /projects/:id/milestones/:milestone_id/issues', {
    params: { ...projectId, milestone_id: p.integer({ required: true }), ...paginationParams },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      const milestone = findMilestone(ctx, project, ctx.params.milestone_id)
      const rows = milestoneIssues(ctx.db, issuables, source(project), milestone, ctx.currentUser, ctx.today)
      // One page's users, milestones and project paths, looked up once for all its rows.
      const lookups = new IssuablePageLookups(ctx)
      return paginated(ctx, rows, (issue) => IssueBasic(issue, ctx, { lookups }))
    },
  }),

  route('GET /projects/:id/milestones/:milestone_id/merge_requests', {
    params: { ...projectId, milestone_id: p.integer({ required: true }), ...paginationParams },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      const milestone = findMilestone(ctx, project, ctx.params.milestone_id)
      const rows = milestoneMergeRequests(ctx.db, issuables, source(project), milestone, ctx.currentUser, ctx.today)
      return paginated(ctx, rows, (mergeRequest) => MergeRequestBasic(mergeRequest, ctx))
    },
  }),

  // `admin_milestone` on the project, then on its group (403 for a project in a user's
  // namespace), then `milestones.find` (no `milestone_id` declared: `abc` is not found). The
  // answer is `status(200)`'s value, which Grape renders as the JSON number `200`.
  // spec-gap: `PromoteMilestoneError` ("Promotion failed - …", 400) cannot arise through the API:
  // the milestone is the project's and the project has a group, and the copy is not re-validated
  // for its title.
  route('POST /projects/:id/milestones/:milestone_id/promote', {
    params: { ...projectId },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      authorizeAdminMilestone(ctx, project)
      const group = authorizeAdminGroupMilestone(ctx, project)
      const milestone = findMilestone(ctx, project, rubyToI(ctx.raw.milestone_id))
      promoteMilestone(ctx.db, issuables, group, milestone, ctx.now)
      return ok(200)
    },
  }),
]
