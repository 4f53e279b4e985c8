/**
 * Finding the eventable (an issue or a merge request) as `find_noteable` does, an eventable's
 * events, and who may read which: a label event needs the label to be readable (its project or
 * group), a milestone event the milestone's parent (`read_milestone`), a state event only the
 * eventable itself.
 * gitlab: lib/api/helpers/notes_helpers.rb (`find_noteable`), app/finders/notes_finder.rb (`target`),
 * app/policies/resource_label_event_policy.rb, app/finders/resource_milestone_event_finder.rb,
 * app/finders/resource_state_event_finder.rb, app/policies/label_policy.rb.
 * @module
 */
import { recordNotFound } from '../../core/errors.js'
import type { Db } from '../../db/db.js'
import type { ProjectRecord, Tables, UserRecord } from '../../db/schema.js'
import { canReadGroup, canReadProject } from '../../rules/access.js'
import { milestoneById } from '../milestones/milestones.public.js'
import { labelById } from '../labels/labels.public.js'
import { readableNoteable } from '../notes/notes.public.js'
import type { ResourceLabelEventRecord, ResourceMilestoneEventRecord, ResourceStateEventRecord } from './resource-events.tables.js'

/** Who is asking and when. */
export interface EventsCtx {
  readonly db: Db
  readonly currentUser: UserRecord | null
  readonly today: string
}

/** The eventables under a project, as the route paths name them. */
export type EventableKind = 'Issue' | 'MergeRequest'

/** An issue or a merge request whose events are asked for. */
export interface Eventable {
  readonly type: EventableKind
  /** Its global id (`resource_id`). */
  readonly id: number
  readonly project: ProjectRecord
}

/**
 * `find_noteable(type, iid)`: `NotesFinder#target` looks the iid up among the project's issues
 * (`IssuesFinder`) or merge requests (`MergeRequestsFinder`) the caller can see, so a missing
 * eventable, a confidential issue, or merge requests hidden from the caller raise `RecordNotFound`.
 * A path value that is not a number finds nothing.
 * @throws ApiError 404 `{"message":"404 Not found"}`.
 */
export function findEventable(ctx: EventsCtx, project: ProjectRecord, type: EventableKind, iid: string | number): Eventable {
  const n = typeof iid === 'number' ? iid : /^\d+$/.test(iid) ? Number(iid) : NaN
  // The notes area's `find_noteable`: the issue and merge request kinds are registered there.
  const record = Number.isSafeInteger(n) ? readableNoteable(ctx, project, type, n) : undefined
  if (!record || record.id === null) throw recordNotFound()
  return { type, id: record.id, project }
}

/** The column naming the eventable in an events table. */
function column(eventable: Eventable): 'issue_id' | 'merge_request_id' {
  return eventable.type === 'Issue' ? 'issue_id' : 'merge_request_id'
}

/** The eventable's label events, oldest first (`eventable.resource_label_events`, by id). */
export function labelEventsOf(db: Db, eventable: Eventable): ResourceLabelEventRecord[] {
  return db.tables.resource_label_events.where(column(eventable), eventable.id)
}

/** The eventable's milestone events, oldest first. */
export function milestoneEventsOf(db: Db, eventable: Eventable): ResourceMilestoneEventRecord[] {
  return db.tables.resource_milestone_events.where(column(eventable), eventable.id)
}

/** The eventable's state events, oldest first. */
export function stateEventsOf(db: Db, eventable: Eventable): ResourceStateEventRecord[] {
  return db.tables.resource_state_events.where(column(eventable), eventable.id)
}

/** `read_label`: a project label to whoever reads its project, a group label to whoever reads its group. */
function canReadLabel(ctx: EventsCtx, label: Tables['labels']): boolean {
  if (label.project_id !== null) {
    const project = ctx.db.tables.projects.get(label.project_id)
    return project !== undefined && canReadProject(ctx.db, ctx.currentUser, project, ctx.today)
  }
  const group = label.group_id === null ? undefined : ctx.db.tables.groups.get(label.group_id)
  return group !== undefined && canReadGroup(ctx.db, ctx.currentUser, group, ctx.today)
}

/**
 * `ResourceLabelEventPolicy` `read_resource_label_event` once the eventable is readable: an event
 * whose label is gone (`label_id` null) is readable; otherwise the label must be. Returns a
 * predicate, so a page is filtered with one lookup per label.
 */
export function labelEventReader(ctx: EventsCtx): (event: ResourceLabelEventRecord) => boolean {
  const seen = new Map<number, boolean>()
  return (event) => {
    if (event.label_id === null) return true
    let yes = seen.get(event.label_id)
    if (yes === undefined) {
      const label = labelById(ctx.db, event.label_id)
      // A label deleted without its events' `label_id` cleared reads as the nullified one.
      yes = label === undefined || canReadLabel(ctx, label)
      seen.set(event.label_id, yes)
    }
    return yes
  }
}

/**
 * `read_milestone` on the event's milestone's parent (`ResourceMilestoneEventFinder`, and the single
 * event's `can?(current_user, :read_milestone, event.milestone_parent)`): its project or group must
 * be readable. An event whose milestone is gone is not shown (its row cascades in GitLab).
 */
export function milestoneEventReader(ctx: EventsCtx): (event: ResourceMilestoneEventRecord) => boolean {
  const seen = new Map<number, boolean>()
  return (event) => {
    let yes = seen.get(event.milestone_id)
    if (yes === undefined) {
      const milestone = milestoneById(ctx.db, event.milestone_id)
      if (!milestone) yes = false
      else if (milestone.project_id !== null) {
        const project = ctx.db.tables.projects.get(milestone.project_id)
        yes = project !== undefined && canReadProject(ctx.db, ctx.currentUser, project, ctx.today)
      } else {
        const group = milestone.group_id === null ? undefined : ctx.db.tables.groups.get(milestone.group_id)
        yes = group !== undefined && canReadGroup(ctx.db, ctx.currentUser, group, ctx.today)
      }
      seen.set(event.milestone_id, yes)
    }
    return yes
  }
}
