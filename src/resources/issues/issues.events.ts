/**
 * The `issue` fact the issues area publishes on the domain-event channel (`rules/events.ts`) each
 * time it saves an issue: opened, edited, closed (by a user, a move or a promotion) or reopened.
 * Resource events, the events API and webhooks subscribe to it.
 * gitlab: app/services/issues/create_service.rb, update_service.rb, close_service.rb,
 * reopen_service.rb, move_service.rb (each `execute_hooks` and `EventCreateService` call).
 * @module
 */
import type { Db } from '../../db/db.js'
import { publish } from '../../rules/events.js'
import type { IssueRecord } from './issues.tables.js'

/** What was done to the issue, in the words of GitLab's issue hook `action` (`open`, `update`, `close`, `reopen`). */
export type IssueAction = 'open' | 'update' | 'close' | 'reopen'

/** The `issue` fact: the issue as saved, and as it was (null when the write created it). */
export interface IssueFact {
  readonly action: IssueAction
  readonly issue: IssueRecord
  readonly before: IssueRecord | null
}

declare module '../../rules/events.js' {
  interface DomainEvents {
    /** An issue was saved (see {@link IssueFact}). */
    issue: IssueFact
  }
}

/** The action of a saved write: `open` for a create, `close`/`reopen` for a state change, else `update`. */
function issueAction(before: IssueRecord | null, after: IssueRecord): IssueAction {
  if (before === null) return 'open'
  if (before.state !== after.state) return after.state === 'closed' ? 'close' : 'reopen'
  return 'update'
}

/**
 * Publishes the `issue` fact of one saved write of an issue.
 * @param ctx the request's store, instant and base URL.
 * @param userId the acting user.
 */
export function publishIssue(ctx: { readonly db: Db; readonly now: string; readonly baseUrl: string }, before: IssueRecord | null, after: IssueRecord, userId: number): void {
  publish(ctx.db, 'issue', { action: issueAction(before, after), issue: after, before, actorId: userId, at: ctx.now, baseUrl: ctx.baseUrl })
}
