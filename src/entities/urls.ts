/**
 * Web and API URLs GitLab builds from its configured host. We use the simulator's base URL
 * (the request origin unless configured), so links work wherever fakelab listens.
 * @module
 */
import type { Db } from '../db/db.js'
import type { GroupRecord, ProjectRecord, UserRecord } from '../db/schema.js'

/** Whatever an entity needs to build URLs and relations: the store and the base URL. */
export interface PresentCtx {
  readonly db: Db
  readonly baseUrl: string
  /** Today's UTC date, for derived fields such as milestone `expired`. */
  readonly today: string
  /** The scenario clock's instant (ISO 8601), for state that follows the clock (a repository's storage). */
  readonly now: string
  readonly currentUser: UserRecord | null
}

/** `https://host/<namespace>/<project>`. */
export function projectWebUrl(ctx: PresentCtx, project: ProjectRecord): string {
  return `${ctx.baseUrl}/${ctx.db.projectFullPath(project)}`
}

/** `https://host/groups/<full_path>`. */
export function groupWebUrl(ctx: PresentCtx, group: GroupRecord): string {
  return `${ctx.baseUrl}/groups/${ctx.db.groupFullPath(group)}`
}

/** `https://host/<username>`. */
export function userWebUrl(ctx: PresentCtx, user: UserRecord): string {
  return `${ctx.baseUrl}/${user.username}`
}

/** `https://host/api/v4/projects/<id>`. */
export function projectApiUrl(ctx: PresentCtx, project: ProjectRecord): string {
  return `${ctx.baseUrl}/api/v4/projects/${project.id}`
}
