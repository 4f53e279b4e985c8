/**
 * Resource label, milestone and state events of issues and merge requests: list (paginated) and
 * get one. The routes are made from one definition looped over the eventables, as GitLab's
 * `API::ResourceLabelEvents` loops over its eventable types. Every route needs a signed-in user
 * (`before { authenticate! }`). Label and milestone routes name the eventable `:eventable_id`
 * (an iid, `types: [Integer, String]`) and the event `:event_id` (a String); the state routes
 * name them `:eventable_iid` and `:event_id`, both Integers.
 * Who sees which events: the eventable must be readable (`find_noteable`: 404 Not found); a label
 * event also needs its label readable, and the list filters the page after paginating it (so a page
 * may hold fewer than `per_page`, as in GitLab); a milestone event needs its milestone's parent
 * readable, filtered before paginating (`ResourceMilestoneEventFinder`).
 * Sources: issue 25 item 5; gitlab: lib/api/resource_label_events.rb, resource_milestone_events.rb,
 * resource_state_events.rb (13.x).
 * @module
 */
import { notFound, recordNotFound } from '../../core/errors.js'
import { paginate, paginationParams } from '../../core/pagination.js'
import { p, type ParamSpecs } from '../../core/params.js'
import { ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import { findProject } from '../../rules/finders.js'
import { ResourceLabelEvent, ResourceMilestoneEvent, ResourceStateEvent } from './resource-events.entities.js'
import { findEventable, labelEventReader, labelEventsOf, milestoneEventReader, milestoneEventsOf, stateEventsOf, type EventableKind } from './resource-events.service.js'

/** The eventables under `/projects/:id`: their model name and path segment. */
const EVENTABLES: readonly { type: EventableKind; segment: string }[] = [
  { type: 'Issue', segment: 'issues' },
  { type: 'MergeRequest', segment: 'merge_requests' },
]

type EventParams = { id: string; eventable_id?: string; eventable_iid?: number; event_id: string | number }

/** The project and the eventable the path names. */
function eventable(ctx: Ctx<EventParams>, type: EventableKind) {
  const project = findProject(ctx, ctx.params.id)
  return findEventable(ctx, project, type, (ctx.params.eventable_id ?? ctx.params.eventable_iid)!)
}

/** `eventable.<events>.find(params[:event_id])`: a String id that is not a number finds nothing. */
function byId<T extends { id: number }>(rows: readonly T[], id: string | number): T {
  const n = typeof id === 'number' ? id : /^\d+$/.test(id) ? Number(id) : NaN
  const row = rows.find((r) => r.id === n)
  if (!row) throw recordNotFound()
  return row
}

/** The routes of one eventable. */
function eventRoutes(type: EventableKind, segment: string): Route[] {
  const base = `/projects/:id/${segment}`
  const byIdParams: ParamSpecs = { id: p.string({ required: true }), eventable_id: p.string({ required: true }) }
  const byIidParams: ParamSpecs = { id: p.string({ required: true }), eventable_iid: p.integer({ required: true }) }
  return [
    route(`GET ${base}/:eventable_id/resource_label_events`, {
      params: { ...byIdParams, ...paginationParams } as ParamSpecs,
      handler(ctx) {
        const found = eventable(ctx as unknown as Ctx<EventParams>, type)
        // `visible_to_user?(current_user, paginate(events))`: the page first, then the filter.
        const page = paginate(ctx as never, labelEventsOf(ctx.db, found))
        const readable = labelEventReader(ctx)
        return ok(page.rows.filter(readable).map((event) => ResourceLabelEvent(event, ctx)), page.headers)
      },
    }),
    route(`GET ${base}/:eventable_id/resource_label_events/:event_id`, {
      params: { ...byIdParams, event_id: p.string({ required: true }) },
      handler(ctx) {
        const found = eventable(ctx as unknown as Ctx<EventParams>, type)
        const event = byId(labelEventsOf(ctx.db, found), ctx.params.event_id as string)
        if (!labelEventReader(ctx)(event)) throw notFound('ResourceLabelEvent')
        return ok(ResourceLabelEvent(event, ctx))
      },
    }),
    route(`GET ${base}/:eventable_id/resource_milestone_events`, {
      params: { ...byIdParams, ...paginationParams } as ParamSpecs,
      handler(ctx) {
        const found = eventable(ctx as unknown as Ctx<EventParams>, type)
        const events = milestoneEventsOf(ctx.db, found).filter(milestoneEventReader(ctx))
        return paginated(ctx as never, events, (event) => ResourceMilestoneEvent(event, ctx))
      },
    }),
    route(`GET ${base}/:eventable_id/resource_milestone_events/:event_id`, {
      params: { ...byIdParams, event_id: p.string({ required: true }) },
      handler(ctx) {
        const found = eventable(ctx as unknown as Ctx<EventParams>, type)
        const event = byId(milestoneEventsOf(ctx.db, found), ctx.params.event_id as string)
        if (!milestoneEventReader(ctx)(event)) throw notFound('ResourceMilestoneEvent')
        return ok(ResourceMilestoneEvent(event, ctx))
      },
    }),
    route(`GET ${base}/:eventable_iid/resource_state_events`, {
      params: { ...byIidParams, ...paginationParams } as ParamSpecs,
      handler(ctx) {
        const found = eventable(ctx as unknown as Ctx<EventParams>, type)
        return paginated(ctx as never, stateEventsOf(ctx.db, found), (event) => ResourceStateEvent(event, ctx))
      },
    }),
    route(`GET ${base}/:eventable_iid/resource_state_events/:event_id`, {
      params: { ...byIidParams, event_id: p.integer({ required: true }) },
      handler(ctx) {
        const found = eventable(ctx as unknown as Ctx<EventParams>, type)
        return ok(ResourceStateEvent(byId(stateEventsOf(ctx.db, found), ctx.params.event_id as number), ctx))
      },
    }),
  ]
}

/** The resource event routes: for each eventable, its label, milestone and state events. */
export const resourceEventRoutes: Route[] = EVENTABLES.flatMap(({ type, segment }) => eventRoutes(type, segment))
