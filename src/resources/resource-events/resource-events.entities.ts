/**
 * `Entities::ResourceLabelEvent`, `ResourceMilestoneEvent` and `ResourceStateEvent` (13.x):
 * `{id, user, created_at, resource_type, resource_id, …}`, where `resource_type` is the eventable's
 * model name (`Issue`, `MergeRequest`) and `resource_id` its global id (not its iid); `user` is
 * `UserBasic`, null once the user is deleted.
 * gitlab: lib/api/entities/resource_label_event.rb, resource_milestone_event.rb, resource_state_event.rb.
 * @module
 */
import { userBasicOrNull } from '../../entities/user.js'
import type { PresentCtx } from '../../entities/urls.js'
import { issuableMilestone } from '../milestones/milestones.public.js'
import { LabelBasic, labelById } from '../labels/labels.public.js'
import type { ResourceLabelEventRecord, ResourceMilestoneEventRecord, ResourceStateEventRecord } from './resource-events.tables.js'

type EventRow = ResourceLabelEventRecord | ResourceMilestoneEventRecord | ResourceStateEventRecord

/** The fields every resource event starts with. */
function eventHead(event: EventRow, ctx: PresentCtx) {
  return {
    id: event.id,
    user: userBasicOrNull(ctx, event.user_id),
    created_at: event.created_at,
    resource_type: event.issue_id !== null ? 'Issue' : 'MergeRequest',
    resource_id: (event.issue_id ?? event.merge_request_id)!,
  }
}

/** `ResourceLabelEvent`: then `label` (`LabelBasic`, null once deleted) and `action` (`add`, `remove`). */
export function ResourceLabelEvent(event: ResourceLabelEventRecord, ctx: PresentCtx) {
  const label = event.label_id === null ? undefined : labelById(ctx.db, event.label_id)
  return { ...eventHead(event, ctx), label: label ? LabelBasic(label, ctx) : null, action: event.action }
}

/**
 * `ResourceMilestoneEvent`: then `milestone` (`Milestone`), `action` (`add`, `remove`) and `state`,
 * the issuable's state when its milestone changed.
 */
export function ResourceMilestoneEvent(event: ResourceMilestoneEventRecord, ctx: PresentCtx) {
  return { ...eventHead(event, ctx), milestone: issuableMilestone(ctx, event.milestone_id), action: event.action, state: event.state }
}

/** `ResourceStateEvent`: then `state` (`closed`, `reopened`, `merged`, …). */
export function ResourceStateEvent(event: ResourceStateEventRecord, ctx: PresentCtx) {
  return { ...eventHead(event, ctx), state: event.state }
}
