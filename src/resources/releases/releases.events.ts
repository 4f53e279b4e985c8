/**
 * The `release` fact the releases area publishes on the domain-event channel (`rules/events.ts`)
 * when a release is created, updated or deleted, after the store holds the change, within the
 * request. GitLab 13.12's services call `release.execute_hooks('create' | 'update')`
 * (`Releases::CreateService`, `UpdateService`; deleting sends no hook before 15.x), which webhooks
 * subscribe to. Nothing here imports another area.
 * gitlab: app/services/releases/{create,update,destroy}_service.rb, app/models/release.rb (13.12).
 * @module
 */
import type { Ctx } from '../../core/route.js'
import { publish } from '../../rules/events.js'
import type { ReleaseLinkRecord, ReleaseRecord } from './releases.tables.js'

/** The `release` fact: the release as stored now (as it was, for a delete), its links, and what happened. */
export interface ReleaseFact {
  readonly release: ReleaseRecord
  /** Its asset links, in id order (empty after a delete). */
  readonly links: readonly ReleaseLinkRecord[]
  readonly action: 'create' | 'update' | 'delete'
}

declare module '../../rules/events.js' {
  interface DomainEvents {
    /** A release was created, updated or deleted (see {@link ReleaseFact}). */
    release: ReleaseFact
  }
}

/** Publishes the `release` fact for `release`, the request's user as the actor. */
export function publishRelease(ctx: Ctx<unknown>, release: ReleaseRecord, links: readonly ReleaseLinkRecord[], action: ReleaseFact['action']): void {
  publish(ctx.db, 'release', { release, links: [...links], action, actorId: ctx.currentUser?.id ?? null, at: ctx.now, baseUrl: ctx.baseUrl })
}
