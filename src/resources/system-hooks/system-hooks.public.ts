/**
 * What other areas may read of system hooks: the hooks to deliver an event to.
 * @module
 */
import type { Db } from '../../db/db.js'
import type { SystemHookRecord } from './system-hooks.tables.js'

export type { SystemHookRecord } from './system-hooks.tables.js'

/**
 * The instance's system hooks, by id; with `event`, only those that receive it (`push_events`,
 * `tag_push_events`, `merge_requests_events`, `repository_update_events`). System events (project,
 * user, group, member changes) go to every hook: pass no `event`.
 */
export function systemHooks(db: Db, event?: 'push_events' | 'tag_push_events' | 'merge_requests_events' | 'repository_update_events'): SystemHookRecord[] {
  const rows = db.tables.system_hooks.all().sort((a, b) => a.id - b.id)
  return event ? rows.filter((hook) => hook[event]) : rows
}
