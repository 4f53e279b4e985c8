/**
 * The issues area's subscribers to the domain-event channel (`rules/events.ts`): a destroyed
 * milestone's unassignment. Loaded by the area's `register` (issue 39 item 4), before the first
 * request. gitlab: app/services/milestones/destroy_service.rb.
 * @module
 */
import { subscribe } from '../../rules/events.js'

// `Milestones::DestroyService` unassigns a destroyed milestone from its issues: each loses it, and
// its `updated_at` moves.
subscribe('milestone', (db, event) => {
  if (event.action !== 'destroy') return
  for (const issue of db.tables.issues.filter((i) => i.milestone_id === event.milestone.id)) {
    db.tables.issues.update(issue.id, { milestone_id: null, updated_at: event.at })
  }
})
