/**
 * The `milestone` fact the milestones area publishes on the domain-event channel
 * (`rules/events.ts`): a group or project milestone was created, edited, closed, reopened or
 * destroyed through the API, inside the request's transaction. The events API writes the
 * contribution events of project milestones from it. gitlab: app/services/milestones/
 * {create,update,close,reopen,destroy}_service.rb (13.12).
 * @module
 */
import type { Ctx } from '../../core/route.js'
import { publish } from '../../rules/events.js'
import type { MilestoneRecord } from './milestones.tables.js'

/** What happened to the milestone: an update that changes the state is a `close` or `reopen`. */
export type MilestoneAction = 'create' | 'update' | 'close' | 'reopen' | 'destroy'

/** The `milestone` fact. */
export interface MilestoneFact {
  readonly action: MilestoneAction
  /** The milestone as saved (as it was, for a destroy). */
  readonly milestone: MilestoneRecord
}

declare module '../../rules/events.js' {
  interface DomainEvents {
    /** A milestone created, updated, closed, reopened or destroyed (see {@link MilestoneFact}). */
    milestone: MilestoneFact
  }
}

/**
 * Publishes the `milestone` fact of one write by the request's user; for an update, the action
 * follows the state change (`UpdateService` hands `state_event` to `CloseService`/`ReopenService`).
 * @param before the milestone before an update (undefined otherwise).
 */
export function publishMilestone(ctx: Ctx<unknown>, action: 'create' | 'update' | 'destroy', milestone: MilestoneRecord, before?: MilestoneRecord): void {
  let name: MilestoneAction = action
  if (action === 'update' && before && before.state !== milestone.state) name = milestone.state === 'closed' ? 'close' : 'reopen'
  publish(ctx.db, 'milestone', { action: name, milestone, actorId: ctx.currentUser?.id ?? null, at: ctx.now, baseUrl: ctx.baseUrl })
}
