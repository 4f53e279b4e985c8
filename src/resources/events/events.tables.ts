/**
 * The `events` table: one row per contribution event (`Event`), written by the events area's
 * subscribers to the domain-event channel. gitlab: db/structure.sql (`events`,
 * `push_event_payloads`), app/models/event.rb, app/models/push_event_payload.rb (13.12).
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** `Event.actions` (13.12), the `action` column's values in GitLab's order. */
export const EVENT_ACTIONS = ['created', 'updated', 'closed', 'reopened', 'pushed', 'commented', 'merged', 'joined', 'left', 'destroyed', 'expired', 'approved'] as const

/** One of {@link EVENT_ACTIONS}. */
export type EventAction = (typeof EVENT_ACTIONS)[number]

/** What an event is about: `Event::TARGET_TYPES`' class names that fakelab writes. */
export type EventTargetType = 'Issue' | 'MergeRequest' | 'Note' | 'Milestone' | 'Snippet' | 'WikiPage::Meta'

/** `PushEventPayload`: one pushed ref. gitlab: app/models/push_event_payload.rb. */
export interface PushEventPayloadRecord {
  /** Commits the push added to the ref. */
  commit_count: number
  /** `created` (a new ref), `removed` (a deleted one) or `pushed`. */
  action: 'created' | 'removed' | 'pushed'
  ref_type: 'branch' | 'tag'
  /** The old tip; null for a new ref. */
  commit_from: string | null
  /** The new tip; null for a deleted ref. */
  commit_to: string | null
  /** The ref's short name (`main`, `v1.0`); null on a bulk push. */
  ref: string | null
  /** The newest pushed commit's title, cut to 70 characters; null when none. */
  commit_title: string | null
  /** Refs of a bulk push; null for one ref. */
  ref_count: number | null
}

/** A contribution event. */
export interface EventRecord extends Row {
  project_id: number | null
  author_id: number
  action: EventAction
  target_type: EventTargetType | null
  /** The target's global id (a note's id for `commented`); null for a push or a project event. */
  target_id: number | null
  created_at: Timestamp
  /** The pushed ref, on a `pushed` event only. */
  push_data: PushEventPayloadRecord | null
  /**
   * A wiki page event's page title (`WikiPage::Meta#title`, which outlives the page); absent on
   * other events, whose target's title is read live.
   */
  target_title?: string | null
}

declare module '../../db/schema.js' {
  interface Tables {
    events: EventRecord
  }
}

/** The table. */
export const eventTables = {
  events: table<EventRecord>(['author_id', 'project_id']),
}
