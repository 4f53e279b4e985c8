/**
 * The `user` fact the users area publishes on the domain-event channel (`rules/events.ts`): an
 * account created (`User#post_create_hook`), its username changed (`User#username_changed_hook`,
 * `after_update … if: :saved_change_to_username?`) or the account destroyed
 * (`User#post_destroy_hook`), inside the request's transaction. System hooks send `user_create`,
 * `user_rename` and `user_destroy`. gitlab: app/models/user.rb, lib/gitlab/hook_data/user_builder.rb (13.12).
 * @module
 */
import type { Db } from '../../db/db.js'
import type { UserRecord } from '../../db/schema.js'
import { publish } from '../../rules/events.js'

/** What happened to the account, as `SystemHooksService#execute_hooks_for(user, event)` names it. */
export type UserAction = 'create' | 'rename' | 'destroy'

/** The `user` fact. */
export interface UserFact {
  readonly action: UserAction
  /** The account as saved (as it was, for a destroy). */
  readonly user: UserRecord
  /** On a rename: the username before (`username_before_last_save`); null otherwise. */
  readonly oldUsername: string | null
  /**
   * The account's `updated_at` as the hook reports it: the instant of this save (fakelab keeps no
   * `updated_at` on users; a destroyed account's is that of its last save, here the destroy's instant).
   */
  readonly updatedAt: string
}

declare module '../../rules/events.js' {
  interface DomainEvents {
    /** An account created, renamed or destroyed (see {@link UserFact}). */
    user: UserFact
  }
}

/**
 * Publishes the `user` fact of one write, acted by the request's user.
 * @param ctx the request's store, acting user, instant and base URL.
 */
export function publishUser(
  ctx: { readonly db: Db; readonly currentUser: { readonly id: number } | null; readonly now: string; readonly baseUrl: string },
  action: UserAction,
  user: UserRecord,
  oldUsername: string | null = null,
): void {
  publish(ctx.db, 'user', { action, user, oldUsername, updatedAt: ctx.now, actorId: ctx.currentUser?.id ?? null, at: ctx.now, baseUrl: ctx.baseUrl })
}
