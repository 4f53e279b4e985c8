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

/** What happened to the group, as `SystemHooksService#execute_hooks_for(group, event)` names it. */
export type GroupAction = 'create' | 'rename' | 'destroy'

/**
 * The `group` fact: a group created (`Group#post_create_hook`), its path changed
 * (`Group#path_changed_hook`, `after_update … if: :saved_change_to_path?`: a rename of the path,
 * not a move under another parent) or destroyed (`Group#post_destroy_hook`). System hooks send
 * `group_create`, `group_rename`, `group_destroy`. gitlab: app/models/group.rb (13.12).
 */
export interface GroupFact {
  readonly action: GroupAction
  /** The group as saved (as it was, for a destroy). */
  readonly group: GroupRecord
  /** Its full path (`parent/child`) as saved. */
  readonly fullPath: string
  /** On a rename: the path before (`path_before_last_save`); null otherwise. */
  readonly oldPath: string | null
  /** On a rename: the full path before (`full_path_before_last_save`); null otherwise. */
  readonly oldFullPath: string | null
  /**
   * The group's `updated_at` as the hook reports it: the instant of this save (fakelab keeps no
   * `updated_at` on groups; a destroyed group's is that of its last save, here the destroy's instant).
   */
  readonly updatedAt: string
}

declare module '../../rules/events.js' {
  interface DomainEvents {
    /** A group created, renamed or destroyed (see {@link GroupFact}). */
    group: GroupFact
  }
}

/**
 * Publishes the `group` fact of one write, acted by the request's user.
 * @param fullPath the group's full path; pass it for a group already deleted.
 * @param ctx the request's store, acting user, instant and base URL.
 */
export function publishGroup(
  ctx: { readonly db: Db; readonly currentUser: { readonly id: number } | null; readonly now: string; readonly baseUrl: string },
  action: GroupAction,
  group: GroupRecord,
  old: { readonly path: string; readonly fullPath: string } | null = null,
  fullPath: string = ctx.db.groupFullPath(group),
): void {
  publish(ctx.db, 'group', { action, group, fullPath, oldPath: old?.path ?? null, oldFullPath: old?.fullPath ?? null, updatedAt: ctx.now, actorId: ctx.currentUser?.id ?? null, at: ctx.now, baseUrl: ctx.baseUrl })
}
