/**
 * The groups area's fact: a group's full path changed (`group_moved`), by a rename of its path
 * (`PUT /groups/:id` with `path`) or a transfer under another parent or to the top level. GitLab's
 * `Route` reacts to the same change of the group's route: `rename_descendants` rewrites every
 * route inside the old path and keeps each old one as a redirect (`create_redirect`), so a project
 * of the group stays reachable over git at its old path; the projects area subscribes to do that.
 * gitlab: app/models/route.rb (`rename_descendants`, `create_redirect_for_old_path`), 13.12.
 * @module
 */
import type { Db } from '../../db/db.js'
import type { GroupRecord } from '../../db/schema.js'
import { publish } from '../../rules/events.js'

/** A group whose full path changed; the paths of everything inside it changed with it. */
export interface GroupMovedFact {
  /** The group as it is now. */
  readonly group: GroupRecord
  /** Its full path before (`old-group`, `parent/old-group`). */
  readonly oldFullPath: string
  /** Its full path now. */
  readonly newFullPath: string
}

declare module '../../rules/events.js' {
  interface DomainEvents {
    /** A group's full path changed (see {@link GroupMovedFact}). */
    group_moved: GroupMovedFact
  }
}

/**
 * Publishes `group_moved` when `group`'s full path is not `oldFullPath` any more (a change of case
 * counts: GitLab's route changes too); nothing otherwise.
 * @param ctx the request's store, acting user, instant and base URL.
 */
export function publishGroupMoved(ctx: { readonly db: Db; readonly currentUser: { readonly id: number } | null; readonly now: string; readonly baseUrl: string }, group: GroupRecord, oldFullPath: string): void {
  const newFullPath = ctx.db.groupFullPath(group)
  if (newFullPath === oldFullPath) return
  publish(ctx.db, 'group_moved', { group, oldFullPath, newFullPath, actorId: ctx.currentUser?.id ?? null, at: ctx.now, baseUrl: ctx.baseUrl })
}
