/**
 * The resource events area's tables: what happened to an issue's or a merge request's labels,
 * milestone and state, one row per change, written by every API write that changes them
 * (`recordIssuableChange`) and by a scenario's `resource_events:`. Exactly one of `issue_id` and
 * `merge_request_id` is set (`ResourceEvent#exactly_one_issuable`).
 * Foreign keys: `issue_id`, `merge_request_id` and `milestone_id` cascade; `label_id` and `user_id`
 * are set to null (`on_delete: :nullify`), declared in the area's `cascade`.
 * gitlab: db/migrate/20180726172057_create_resource_label_events.rb,
 * db/migrate/*_add_resource_milestone_events_table.rb, *_add_resource_state_events_table.rb,
 * app/models/resource_{label,milestone,state}_event.rb.
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** A label added to or removed from an issuable (`resource_label_events`). */
export interface ResourceLabelEventRecord extends Row {
  issue_id: number | null
  merge_request_id: number | null
  /** null once the label is deleted. */
  label_id: number | null
  /** Who changed it; null once that user is deleted. */
  user_id: number | null
  action: 'add' | 'remove'
  created_at: Timestamp
}

/** An issuable's state when its milestone changed (`ResourceMilestoneEvent.states`). */
export type MilestoneEventState = 'opened' | 'closed' | 'merged' | 'locked'

/** A milestone set on or taken off an issuable (`resource_milestone_events`). */
export interface ResourceMilestoneEventRecord extends Row {
  issue_id: number | null
  merge_request_id: number | null
  /** For `add` the new milestone, for `remove` the old one. */
  milestone_id: number
  user_id: number | null
  action: 'add' | 'remove'
  /** The issuable's state when the milestone changed. */
  state: MilestoneEventState
  created_at: Timestamp
}

/** What an issuable's state became (`ResourceStateEvent.states`; reopening is its own state). */
export type StateEventState = 'opened' | 'closed' | 'reopened' | 'merged' | 'locked'

/** An issuable closed, reopened or merged (`resource_state_events`). */
export interface ResourceStateEventRecord extends Row {
  issue_id: number | null
  merge_request_id: number | null
  user_id: number | null
  state: StateEventState
  created_at: Timestamp
}

declare module '../../db/schema.js' {
  interface Tables {
    resource_label_events: ResourceLabelEventRecord
    resource_milestone_events: ResourceMilestoneEventRecord
    resource_state_events: ResourceStateEventRecord
  }
}

/** The tables and their indexes: by issue and by merge request (an issuable's events). */
export const resourceEventTables = {
  resource_label_events: table<ResourceLabelEventRecord>(['issue_id', 'merge_request_id']),
  resource_milestone_events: table<ResourceMilestoneEventRecord>(['issue_id', 'merge_request_id']),
  resource_state_events: table<ResourceStateEventRecord>(['issue_id', 'merge_request_id']),
}
