/**
 * Group and project milestones from one definition, as GitLab declares them once in
 * `lib/api/milestone_responses.rb` and mounts them in group_milestones.rb and
 * project_milestones.rb: list, get, create, update and delete. The issues and merge requests of a
 * milestone (`…/milestones/:milestone_id/issues`, `…/merge_requests`) are the issues and merge
 * requests areas' routes, over this area's public `milestoneIssuables`. Every route needs a signed-in user (`before { authenticate! }`), even on a public
 * group or project; a parent the caller cannot read is `404 Group Not Found` / `404 Project Not
 * Found` (so `read_milestone` holds for whoever gets past it: 13.x enables it for guests and for
 * anyone who can read a public or internal parent); a milestone is looked up by its global id
 * among the parent's own milestones (`404 Not found` otherwise: a project never sees its group's).
 * After the loop, the routes only one parent has: a group milestone's (higher-tier) burndown events
 * and a project milestone's promotion to a group milestone. Source: api-spec.md "Group milestones", "Milestone state";
 * gitlab-behaviour.md §9; gitlab: lib/api/milestone_responses.rb, lib/api/group_milestones.rb,
 * lib/api/project_milestones.rb, ee/lib/ee/api/group_milestones.rb, spec/support/shared_examples/requests/api/milestones_shared_examples.rb.
 * @module
 */
import { AccessLevel } from '../../rules/access.js'
import { forbidden } from '../../core/errors.js'
import { findProject } from '../../rules/finders.js'
import { p } from '../../core/params.js'
import { rubyToI } from '../../core/ruby.js'
import { paginationParams } from '../../core/pagination.js'
import { created, noContent, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import { hasSourceAccess, SOURCE_TYPES, SOURCES, type Source, type SourceType } from '../../rules/source.js'
import type { GroupRecord, ProjectRecord } from '../../db/schema.js'
import { Milestone } from './milestones.entities.js'
import { burndownEvents } from './milestones.burndown.js'
import { findParentMilestone, listMilestones } from './milestones.finder.js'
import { promoteMilestone } from './milestones.promote.js'
import { publishMilestone } from './milestones.events.js'
import { createMilestone, destroyMilestone, updateMilestone } from './milestones.service.js'

/**
 * `authorize! :admin_milestone, <parent>`: Developer+ of the project, or of the group or an
 * ancestor (administrators always). An archived project is read-only, so nobody may change its
 * milestones. gitlab: app/policies/project_policy.rb, app/policies/group_policy.rb (13.x:
 * `developer` enables `admin_milestone`; a project's `archived` prevents the feature's writes).
 * @throws ApiError 403 `{"message":"403 Forbidden"}`.
 */
function authorizeAdminMilestone(ctx: Ctx<unknown>, parent: Source): void {
  if (parent.type === 'project' && parent.project.archived) throw forbidden()
  if (!hasSourceAccess(ctx, parent, AccessLevel.DEVELOPER)) throw forbidden()
}

const id = p.string({ required: true })

/**
 * GitLab's `optional_params` (all `type: String`). JSON `null` reaches the service as null, as
 * Grape passes `nil` through: python-gitlab clears a due date that way.
 */
const optionalParams = {
  description: p.string({ nullable: true }),
  due_date: p.string({ nullable: true }),
  start_date: p.string({ nullable: true }),
}

/**
 * `authorize! :admin_milestone, user_project.group`: Developer+ of the group (or an ancestor), or
 * an administrator. A project in a user's namespace has no group, and nobody may act on nil.
 * gitlab: app/policies/group_policy.rb (13.x: `developer` enables `admin_milestone`).
 * @throws ApiError 403 `{"message":"403 Forbidden"}`.
 */
function authorizeAdminGroupMilestone(ctx: Ctx<unknown>, project: ProjectRecord): GroupRecord {
  const group = project.namespace_type === 'group' ? ctx.db.tables.groups.get(project.namespace_id) : undefined
  if (!group) throw forbidden()
  authorizeAdminMilestone(ctx, { type: 'group', group })
  return group
}

/**
 * The milestone routes of one parent type, `/groups/:id/milestones…` or `/projects/:id/milestones…`
 * (`MilestoneResponses`, which both APIs include).
 */
function parentRoutes(sourceType: SourceType): Route[] {
  const source = SOURCES[sourceType]
  const milestones = `${source.prefix}/milestones`
  return [
    route(`GET ${milestones}`, {
      params: {
        id,
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
        const parent = source.find(ctx, ctx.params.id)
        const sort = ctx.raw.sort
        const rows = listMilestones(ctx.db, parent, ctx.currentUser, {
          state: ctx.params.state,
          iids: ctx.params.iids,
          title: ctx.params.title,
          search: ctx.params.search,
          include_parent_milestones: ctx.params.include_parent_milestones,
          // `list_milestones_for` hands the whole `params` (undeclared ones too) to
          // MilestonesFinder, so a `sort` sent by the client still orders the list.
          sort: typeof sort === 'string' ? sort : undefined,
        }, ctx.today)
        return paginated(ctx, rows, (milestone) => Milestone(milestone, ctx))
      },
    }),

    route(`GET ${milestones}/:milestone_id`, {
      params: { id, milestone_id: p.integer({ required: true }) },
      handler(ctx) {
        const parent = source.find(ctx, ctx.params.id)
        return ok(Milestone(findParentMilestone(ctx.db, parent, ctx.params.milestone_id), ctx))
      },
    }),

    route(`POST ${milestones}`, {
      params: { id, title: p.string({ required: true }), ...optionalParams },
      handler(ctx) {
        const { params } = ctx
        const parent = source.find(ctx, params.id)
        authorizeAdminMilestone(ctx, parent)
        const milestone = createMilestone(ctx.db, parent, {
          title: params.title,
          description: params.description,
          due_date: params.due_date,
          start_date: params.start_date,
        }, ctx.now)
        publishMilestone(ctx, 'create', milestone)
        return created(Milestone(milestone, ctx))
      },
    }),

    route(`PUT ${milestones}/:milestone_id`, {
      params: {
        id,
        milestone_id: p.integer({ required: true }),
        title: p.string(),
        state_event: p.string({ values: ['close', 'activate'] }),
        ...optionalParams,
      },
      // gitlab: lib/api/milestone_responses.rb (`update_params`), in its declaration order.
      rules: { atLeastOneOf: ['title', 'description', 'start_date', 'due_date', 'state_event'] },
      handler(ctx) {
        const { params } = ctx
        const parent = source.find(ctx, params.id)
        authorizeAdminMilestone(ctx, parent)
        const milestone = findParentMilestone(ctx.db, parent, params.milestone_id)
        // Only what the client sent (`declared_params(include_missing: false)`): absent stays undefined.
        const updated = updateMilestone(ctx.db, parent, milestone, {
          title: params.title,
          state_event: params.state_event,
          description: params.description,
          due_date: params.due_date,
          start_date: params.start_date,
        }, ctx.now)
        if (updated !== milestone) publishMilestone(ctx, 'update', updated, milestone)
        return ok(Milestone(updated, ctx))
      },
    }),

    // No `milestone_id` is declared here, so `abc` is not a 400: it reaches `find` and is not
    // found (after the permission check).
    route(`DELETE ${milestones}/:milestone_id`, {
      params: { id },
      handler(ctx) {
        const parent = source.find(ctx, ctx.params.id)
        authorizeAdminMilestone(ctx, parent)
        const milestone = findParentMilestone(ctx.db, parent, rubyToI(ctx.raw.milestone_id))
        destroyMilestone(ctx.db, milestone)
        publishMilestone(ctx, 'destroy', milestone)
        return noContent()
      },
    }),
  ]
}

/** Every milestone route (gitlab: lib/api/group_milestones.rb, lib/api/project_milestones.rb). */
export const milestoneRoutes: Route[] = [
  ...SOURCE_TYPES.flatMap(parentRoutes),

  // Higher-tier (ee/lib/ee/api/group_milestones.rb), answered as GitLab Premium does (issue 23
  // item 10): `authorize! :read_group`, then `milestones.find` (no `milestone_id` declared, so
  // `abc` is not found rather than a 400), then the events as a plain, unpaginated array.
  route('GET /groups/:id/milestones/:milestone_id/burndown_events', {
    params: { id },
    handler(ctx) {
      const { group } = SOURCES.group.find(ctx, ctx.params.id)
      const milestone = findParentMilestone(ctx.db, { type: 'group', group }, rubyToI(ctx.raw.milestone_id))
      return ok(burndownEvents(ctx.db, group, milestone, ctx.currentUser, ctx.today))
    },
  }),

  // `admin_milestone` on the project, then on its group (403 for a project in a user's
  // namespace), then `milestones.find` (no `milestone_id` declared: `abc` is not found). The
  // answer is `status(200)`'s value, which Grape renders as the JSON number `200`.
  // spec-gap: `PromoteMilestoneError` ("Promotion failed - …", 400) cannot arise through the API:
  // the milestone is the project's and the project has a group, and the copy is not re-validated
  // for its title.
  route('POST /projects/:id/milestones/:milestone_id/promote', {
    params: { id },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      authorizeAdminMilestone(ctx, { type: 'project', project })
      const group = authorizeAdminGroupMilestone(ctx, project)
      const milestone = findParentMilestone(ctx.db, { type: 'project', project }, rubyToI(ctx.raw.milestone_id))
      promoteMilestone(ctx.db, group, milestone, ctx.now)
      return ok(200)
    },
  }),
]
