/**
 * Group milestones: list, get, create, update, delete, and the issues and merge requests of a
 * milestone, and (higher-tier) its burndown events. Every route needs a signed-in user (`before { authenticate! }`), even on a public
 * group; a group the caller cannot read is `404 Group Not Found`; a milestone is looked up by its
 * global id among the group's own milestones (`404 Not found` otherwise).
 * Source: api-spec.md "Group milestones", "Milestone state"; gitlab-behaviour.md §9;
 * gitlab: lib/api/group_milestones.rb, lib/api/milestone_responses.rb.
 * @module
 */
import { AccessLevel, hasGroupAccess } from '../../rules/access.js'
import { forbidden, recordNotFound } from '../../core/errors.js'
import { findGroup } from '../../rules/finders.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { rubyToI } from '../../core/ruby.js'
import { created, noContent, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { GroupRecord } from '../../db/schema.js'
import type { MilestoneRecord } from './milestones.tables.js'
import { IssuablePageLookups, IssueBasic, issuesOfProject, unsetIssuesMilestone } from '../issues/issues.public.js'
import { MergeRequestBasic, mergeRequestsOfProject, unsetMergeRequestsMilestone } from '../merge-requests/merge-requests.public.js'
import { Milestone } from './milestones.entities.js'
import { burndownEvents } from './group-milestones.burndown.js'
import { findGroupMilestone, listMilestones } from './group-milestones.finder.js'
import { milestoneIssues, milestoneMergeRequests, type Issuables } from './group-milestones.issuables.js'
import { createMilestone, destroyMilestone, updateMilestone } from './group-milestones.service.js'

/**
 * `authorize! :admin_milestone, user_group`: Developer+ of the group (or an ancestor), or an
 * administrator. gitlab: app/policies/group_policy.rb (13.x: `rule { developer }.enable :admin_milestone`).
 * @throws ApiError 403 `{"message":"403 Forbidden"}`.
 */
function authorizeAdminMilestone(ctx: Ctx<unknown>, group: GroupRecord): void {
  if (!hasGroupAccess(ctx.db, ctx.currentUser, group, AccessLevel.DEVELOPER, ctx.today)) throw forbidden()
}

/**
 * `user_group.milestones.find(id)`.
 * @throws ApiError 404 `{"message":"404 Not found"}` (ActiveRecord::RecordNotFound).
 */
function findMilestone(ctx: Ctx<unknown>, group: GroupRecord, id: number): MilestoneRecord {
  const milestone = findGroupMilestone(ctx.db, group, id)
  if (!milestone) throw recordNotFound()
  return milestone
}

/** The issues and merge requests areas' finders the milestone rules work on. */
const issuables: Issuables = { issuesOfProject, mergeRequestsOfProject, unsetIssuesMilestone, unsetMergeRequestsMilestone }

const groupId = { id: p.string({ required: true }) }

/**
 * GitLab's `optional_params` (all `type: String`). JSON `null` reaches the service as null, as
 * Grape passes `nil` through: python-gitlab clears a due date that way.
 */
const optionalParams = {
  description: p.string({ nullable: true }),
  due_date: p.string({ nullable: true }),
  start_date: p.string({ nullable: true }),
}

/** Group milestone routes (gitlab: lib/api/group_milestones.rb). */
export const groupMilestoneRoutes: Route[] = [
  route('GET /groups/:id/milestones', {
    params: {
      ...groupId,
      // spec-gap: api-spec.md lists `active` and `closed`; 13.x also takes `all`, the default, and the
      // spec states no default, so GitLab wins (gitlab-behaviour.md §14 item 11).
      state: p.string({ values: ['active', 'closed', 'all'], default: 'all' }),
      iids: p.integers(),
      title: p.string(),
      search: p.string(),
      include_parent_milestones: p.boolean({ default: false }),
      // 13.x declares no updated_before/updated_after (added in later versions).
      ...paginationParams,
    },
    handler(ctx) {
      const group = findGroup(ctx, ctx.params.id)
      const sort = ctx.raw.sort
      const rows = listMilestones(ctx.db, { type: 'group', group }, ctx.currentUser, {
        state: ctx.params.state,
        iids: ctx.params.iids,
        title: ctx.params.title,
        search: ctx.params.search,
        include_parent_milestones: ctx.params.include_parent_milestones,
        // gitlab: lib/api/milestone_responses.rb hands the whole `params` (undeclared ones too)
        // to MilestonesFinder, so a `sort` sent by the client still orders the list.
        sort: typeof sort === 'string' ? sort : undefined,
      }, ctx.today)
      return paginated(ctx, rows, (milestone) => Milestone(milestone, ctx))
    },
  }),

  route('GET /groups/:id/milestones/:milestone_id', {
    params: { ...groupId, milestone_id: p.integer({ required: true }) },
    handler(ctx) {
      const group = findGroup(ctx, ctx.params.id)
      return ok(Milestone(findMilestone(ctx, group, ctx.params.milestone_id), ctx))
    },
  }),

  route('POST /groups/:id/milestones', {
    params: { ...groupId, title: p.string({ required: true }), ...optionalParams },
    handler(ctx) {
      const { params } = ctx
      const group = findGroup(ctx, params.id)
      authorizeAdminMilestone(ctx, group)
      const milestone = createMilestone(ctx.db, { type: 'group', group }, {
        title: params.title,
        description: params.description,
        due_date: params.due_date,
        start_date: params.start_date,
      }, ctx.now)
      return created(Milestone(milestone, ctx))
    },
  }),

  route('PUT /groups/:id/milestones/:milestone_id', {
    params: {
      ...groupId,
      milestone_id: p.integer({ required: true }),
      title: p.string(),
      state_event: p.string({ values: ['close', 'activate'] }),
      ...optionalParams,
    },
    // gitlab: lib/api/milestone_responses.rb (`update_params`), in its declaration order.
    rules: { atLeastOneOf: ['title', 'description', 'start_date', 'due_date', 'state_event'] },
    handler(ctx) {
      const { params } = ctx
      const group = findGroup(ctx, params.id)
      authorizeAdminMilestone(ctx, group)
      const milestone = findMilestone(ctx, group, params.milestone_id)
      // Only what the client sent (`declared_params(include_missing: false)`): absent stays undefined.
      const updated = updateMilestone(ctx.db, { type: 'group', group }, milestone, {
        title: params.title,
        state_event: params.state_event,
        description: params.description,
        due_date: params.due_date,
        start_date: params.start_date,
      }, ctx.now)
      return ok(Milestone(updated, ctx))
    },
  }),

  // gitlab: lib/api/group_milestones.rb declares no `milestone_id` here, so `abc` is not a 400:
  // it reaches `find` and is not found (after the permission check).
  route('DELETE /groups/:id/milestones/:milestone_id', {
    params: { ...groupId },
    handler(ctx) {
      const group = findGroup(ctx, ctx.params.id)
      authorizeAdminMilestone(ctx, group)
      const milestone = findMilestone(ctx, group, rubyToI(ctx.raw.milestone_id))
      destroyMilestone(ctx.db, issuables, milestone, ctx.now)
      return noContent()
    },
  }),

  route('GET /groups/:id/milestones/:milestone_id/issues', {
    params: { ...groupId, milestone_id: p.integer({ required: true }), ...paginationParams },
    handler(ctx) {
      const group = findGroup(ctx, ctx.params.id)
      const milestone = findMilestone(ctx, group, ctx.params.milestone_id)
      const rows = milestoneIssues(ctx.db, issuables, { type: 'group', group }, milestone, ctx.currentUser, ctx.today)
      // One page's users, milestones and project paths, looked up once for all its rows.
      const lookups = new IssuablePageLookups(ctx)
      return paginated(ctx, rows, (issue) => IssueBasic(issue, ctx, { lookups }))
    },
  }),

  route('GET /groups/:id/milestones/:milestone_id/merge_requests', {
    params: { ...groupId, milestone_id: p.integer({ required: true }), ...paginationParams },
    handler(ctx) {
      const group = findGroup(ctx, ctx.params.id)
      const milestone = findMilestone(ctx, group, ctx.params.milestone_id)
      const rows = milestoneMergeRequests(ctx.db, issuables, { type: 'group', group }, milestone, ctx.currentUser, ctx.today)
      return paginated(ctx, rows, (mergeRequest) => MergeRequestBasic(mergeRequest, ctx))
    },
  }),

  // Higher-tier (ee/lib/ee/api/group_milestones.rb), answered as GitLab Premium does (issue 23
  // item 10): `authorize! :read_group`, then `milestones.find` (no `milestone_id` declared, so
  // `abc` is not found rather than a 400), then the events as a plain, unpaginated array.
  route('GET /groups/:id/milestones/:milestone_id/burndown_events', {
    params: { ...groupId },
    handler(ctx) {
      const group = findGroup(ctx, ctx.params.id)
      const milestone = findMilestone(ctx, group, rubyToI(ctx.raw.milestone_id))
      return ok(burndownEvents(ctx.db, group, milestone, ctx.currentUser, ctx.today))
    },
  }),
]
