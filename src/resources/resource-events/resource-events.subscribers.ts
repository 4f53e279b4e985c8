/**
 * The resource events area's subscribers on the domain-event channel (`rules/events.ts`): every
 * saved write of an issue (the `issue` fact) or a merge request (`merge_request`) records what
 * changed in its labels, milestone and state, as GitLab's services do through
 * `Issuable::CommonSystemNotesService` (labels, milestone) and `SystemNoteService.change_status`
 * (state), in the same transaction. The area's `index.ts` imports this module, so the
 * subscriptions are there from the start; nothing here imports another area.
 * gitlab: app/services/resource_events/change_labels_service.rb, change_milestone_service.rb,
 * change_state_service.rb, app/services/issuable/common_system_notes_service.rb,
 * app/services/issuable_base_service.rb, app/models/resource_state_event.rb.
 * @module
 */
import type { Db } from '../../db/db.js'
import { subscribe } from '../../rules/events.js'
import type { MilestoneEventState, StateEventState } from './resource-events.tables.js'

/** What the events compare of an issuable, before and after a write. */
interface IssuableFacts {
  readonly label_ids: readonly number[]
  readonly milestone_id: number | null
  /** `opened`, `closed`, and for merge requests `merged` or `locked`. */
  readonly state: string
}

/** One saved write of an issue or a merge request, as {@link recordIssuableChange} reads it. */
interface IssuableChange {
  /** The issuable: its model name and its global id. */
  readonly resource: { readonly type: 'Issue' | 'MergeRequest'; readonly id: number }
  /** Who made the change (the acting user: the sudo user under `Sudo`). */
  readonly userId: number
  /** The write's instant (ISO 8601), every event's `created_at`. */
  readonly now: string
  /** The issuable before the write; null when the write created it (labels and milestone start empty). */
  readonly before: IssuableFacts | null
  /** The issuable as saved. */
  readonly after: IssuableFacts
}

/** The state event a state change writes: closing, reopening, merging; none for other moves. */
function stateEventFor(before: string, after: string): StateEventState | null {
  if (before === after) return null
  if (after === 'closed' || after === 'merged') return after
  if (after === 'opened' && before === 'closed') return 'reopened'
  return null
}

/**
 * Records the events of one saved write: a `resource_state_events` row when the state was closed,
 * reopened (`reopened`) or merged; a `resource_milestone_events` row when the milestone changed
 * (`add` with the new one, else `remove` with the old one, and the issuable's state after the
 * write); a `resource_label_events` row per label added (`add`, in label id order), then per label
 * removed (`remove`). A create compares against no labels and no milestone and writes no state
 * event. Every row has the same `created_at`, `now`.
 * gitlab: `ResourceEvents::ChangeLabelsService#execute`, `ChangeMilestoneService#build_resource_args`,
 * `ChangeStateService#execute`.
 */
function recordIssuableChange(db: Db, change: IssuableChange): void {
  const { resource, userId: user_id, now: created_at, after } = change
  const before = change.before ?? { label_ids: [], milestone_id: null, state: after.state }
  const owner = resource.type === 'Issue' ? { issue_id: resource.id, merge_request_id: null } : { issue_id: null, merge_request_id: resource.id }
  const state = stateEventFor(before.state, after.state)
  if (state) db.tables.resource_state_events.insert({ ...owner, user_id, state, created_at })
  if (before.milestone_id !== after.milestone_id) {
    const action = after.milestone_id === null ? 'remove' : 'add'
    const milestone_id = (after.milestone_id ?? before.milestone_id)!
    db.tables.resource_milestone_events.insert({ ...owner, milestone_id, user_id, action, state: after.state as MilestoneEventState, created_at })
  }
  const added = after.label_ids.filter((id) => !before.label_ids.includes(id)).sort((a, b) => a - b)
  const removed = before.label_ids.filter((id) => !after.label_ids.includes(id)).sort((a, b) => a - b)
  for (const label_id of added) db.tables.resource_label_events.insert({ ...owner, label_id, user_id, action: 'add', created_at })
  for (const label_id of removed) db.tables.resource_label_events.insert({ ...owner, label_id, user_id, action: 'remove', created_at })
}

subscribe('issue', (db, event) => {
  recordIssuableChange(db, { resource: { type: 'Issue', id: event.issue.id }, userId: event.actorId!, now: event.at, before: event.before, after: event.issue })
})

// A merge request's creation writes no events here (fakelab's behaviour before the channel; see
// docs/spec-gaps.md); its edits, closing, reopening and merging do (`PostMergeService` →
// `SystemNoteService.change_status` → a `merged` state event).
subscribe('merge_request', (db, event) => {
  if (event.action === 'open') return
  recordIssuableChange(db, { resource: { type: 'MergeRequest', id: event.mergeRequest.id }, userId: event.actorId!, now: event.at, before: event.before, after: event.mergeRequest })
})
