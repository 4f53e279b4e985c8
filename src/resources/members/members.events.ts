/**
 * The `member` fact the members area publishes on the domain-event channel (`rules/events.ts`)
 * each time a project or group membership in force is created, updated (access level or expiry) or
 * destroyed, inside the request's transaction. GitLab hangs the same reactions off `Member`'s
 * callbacks: `post_create_hook`, `post_update_hook`, `post_destroy_hook` (the system hooks
 * `user_add_to_team`… and, for a project, the `joined`/`left`/`expired` contribution events). A
 * pending invitation (no user yet) is not a member in force and publishes nothing (GitLab skips the
 * hooks of `pending?` members). gitlab: app/models/member.rb, app/models/project_member.rb,
 * app/models/group_member.rb, app/services/members/{create,update,destroy}_service.rb (13.12).
 * @module
 */
import type { Db } from '../../db/db.js'
import type { MemberRecord } from '../../db/schema.js'
import { publish } from '../../rules/events.js'

/** What happened to the membership, in the words of `SystemHooksService` (`:create`, `:update`, `:destroy`). */
export type MemberAction = 'create' | 'update' | 'destroy'

/** The `member` fact. */
export interface MemberFact {
  readonly action: MemberAction
  /** The membership as saved (as it was, for a destroy). */
  readonly member: MemberRecord
  /** The membership before an update; null for a create or a destroy. */
  readonly before: MemberRecord | null
  /** On a destroy: whether the membership had expired (`Member#expired?`: the `expired` event instead of `left`). */
  readonly expired: boolean
}

declare module '../../rules/events.js' {
  interface DomainEvents {
    /** A project or group membership created, updated or destroyed (see {@link MemberFact}). */
    member: MemberFact
  }
}

/**
 * Publishes the `member` fact of one membership write.
 * @param ctx the request's store, instant, base URL and acting user (null for none).
 */
export function publishMember(
  ctx: { readonly db: Db; readonly now: string; readonly today: string; readonly baseUrl: string; readonly currentUser: { readonly id: number } | null },
  action: MemberAction,
  member: MemberRecord,
  before: MemberRecord | null = null,
): void {
  const expired = action === 'destroy' && member.expires_at !== null && member.expires_at <= ctx.today
  publish(ctx.db, 'member', { action, member, before, expired, actorId: ctx.currentUser?.id ?? null, at: ctx.now, baseUrl: ctx.baseUrl })
}
