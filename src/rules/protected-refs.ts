/**
 * What protected branches and protected tags share in GitLab: `RefMatcher` (a ref name or a
 * wildcard pattern), the words for an access level (`ProtectedRefAccess::HUMAN_ACCESS_LEVELS`) and
 * the `push_code` ability both check before any protection. The repository area (protected
 * branches) and the protected tags area each build their own rules on these.
 * gitlab: app/models/ref_matcher.rb, app/models/concerns/protected_ref_access.rb,
 * app/policies/project_policy.rb (`push_code`), 13.x.
 * Browser-safe.
 * @module
 */
import type { Db } from '../db/db.js'
import type { ProjectRecord, UserRecord } from '../db/schema.js'
import { AccessLevel, projectAccessLevel } from './access.js'

/**
 * `RefMatcher#matches?`: a name without `*` matches only itself; with `*`, each `*` stands for any
 * run of characters (slashes included) and the whole name must match.
 */
export function refMatches(pattern: string, name: string): boolean {
  if (!pattern.includes('*')) return pattern === name
  const source = pattern.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*?')
  return new RegExp(`^${source}$`).test(name)
}

/** `ProtectedRefAccess::HUMAN_ACCESS_LEVELS`: the words for a role, or null for a level it has none for. */
export function humanAccessLevel(level: number | null): string | null {
  if (level === AccessLevel.MAINTAINER) return 'Maintainers'
  if (level === AccessLevel.DEVELOPER) return 'Developers + Maintainers'
  if (level === AccessLevel.NO_ACCESS) return 'No one'
  return null
}

/** Who asks, as the `push_code` check needs it (a route's context, or a presenter's). */
export interface PusherCtx {
  readonly db: Db
  readonly currentUser: UserRecord | null
  /** Today's UTC date (`YYYY-MM-DD`): memberships expire by it. */
  readonly today: string
}

/** `push_code`: Developer+ on a project that is not archived, or an administrator. */
export function canPushCode(ctx: PusherCtx, project: ProjectRecord): boolean {
  const user = ctx.currentUser
  if (!user || project.archived) return false
  return user.admin || projectAccessLevel(ctx.db, user, project, ctx.today) >= AccessLevel.DEVELOPER
}
