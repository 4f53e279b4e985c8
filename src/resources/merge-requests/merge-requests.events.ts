/**
 * The `merge_request` fact the merge requests area publishes on the domain-event channel
 * (`rules/events.ts`) each time it saves a merge request: opened, edited, closed, reopened or
 * merged. Resource events, the events API and webhooks subscribe to it.
 * gitlab: app/services/merge_requests/create_service.rb, update_service.rb, close_service.rb,
 * reopen_service.rb, post_merge_service.rb (each `execute_hooks` and `EventCreateService` call).
 * @module
 */
import type { Db } from '../../db/db.js'
import { publish } from '../../rules/events.js'
import type { MergeRequestRecord } from './merge-requests.tables.js'

/**
 * What was done, in the words of GitLab's merge request hook `action` (`approved` and `unapproved`:
 * an approval given or taken back, the merge request itself unchanged).
 */
export type MergeRequestAction = 'open' | 'update' | 'close' | 'reopen' | 'merge' | 'approved' | 'unapproved'

/** The `merge_request` fact: the merge request as saved, and as it was (null when the write created it). */
export interface MergeRequestFact {
  readonly action: MergeRequestAction
  readonly mergeRequest: MergeRequestRecord
  readonly before: MergeRequestRecord | null
}

declare module '../../rules/events.js' {
  interface DomainEvents {
    /** A merge request was saved (see {@link MergeRequestFact}). */
    merge_request: MergeRequestFact
  }
}

/** The action of a saved write: `open` for a create, `merge`, `close` and `reopen` for state changes, else `update`. */
function mergeRequestAction(before: MergeRequestRecord | null, after: MergeRequestRecord): MergeRequestAction {
  if (before === null) return 'open'
  if (before.state !== after.state) return after.state === 'merged' ? 'merge' : after.state === 'closed' ? 'close' : after.state === 'opened' ? 'reopen' : 'update'
  return 'update'
}

/**
 * Publishes the `merge_request` fact of one saved write.
 * @param ctx the request's store, instant and base URL.
 * @param userId the acting user.
 */
export function publishMergeRequest(ctx: { readonly db: Db; readonly now: string; readonly baseUrl: string }, before: MergeRequestRecord | null, after: MergeRequestRecord, userId: number): void {
  publish(ctx.db, 'merge_request', { action: mergeRequestAction(before, after), mergeRequest: after, before, actorId: userId, at: ctx.now, baseUrl: ctx.baseUrl })
}

/**
 * Publishes an approval given or taken back (`ApprovalService#execute_approval_hooks`,
 * `RemoveApprovalService#trigger_approval_hooks`: `execute_hooks(merge_request, 'approved')`).
 */
export function publishApproval(ctx: { readonly db: Db; readonly now: string; readonly baseUrl: string }, mr: MergeRequestRecord, action: 'approved' | 'unapproved', userId: number): void {
  publish(ctx.db, 'merge_request', { action, mergeRequest: mr, before: mr, actorId: userId, at: ctx.now, baseUrl: ctx.baseUrl })
}
