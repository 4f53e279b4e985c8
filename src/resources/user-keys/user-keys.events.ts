/**
 * The `key` fact the user keys area publishes on the domain-event channel (`rules/events.ts`): a
 * user's SSH key added (`Key#post_create_hook`) or deleted (`Key#post_destroy_hook`) through the
 * API, inside the request's transaction. System hooks send `key_create` and `key_destroy`.
 * gitlab: app/models/key.rb, app/services/system_hooks_service.rb (13.12).
 * @module
 */
import type { Db } from '../../db/db.js'
import { publish } from '../../rules/events.js'
import type { KeyRecord } from './user-keys.tables.js'

/** What happened to the key. */
export type KeyAction = 'create' | 'destroy'

/** The `key` fact. */
export interface KeyFact {
  readonly action: KeyAction
  /** The key as saved (as it was, for a destroy). */
  readonly key: KeyRecord
}

declare module '../../rules/events.js' {
  interface DomainEvents {
    /** A user's SSH key added or deleted (see {@link KeyFact}). */
    key: KeyFact
  }
}

/**
 * Publishes the `key` fact of one write, acted by the request's user.
 * @param ctx the request's store, acting user, instant and base URL.
 */
export function publishKey(
  ctx: { readonly db: Db; readonly currentUser: { readonly id: number } | null; readonly now: string; readonly baseUrl: string },
  action: KeyAction,
  key: KeyRecord,
): void {
  publish(ctx.db, 'key', { action, key, actorId: ctx.currentUser?.id ?? null, at: ctx.now, baseUrl: ctx.baseUrl })
}
