/**
 * Sources: what members, labels, access tokens, notification settings, storage moves and runner
 * lists hang off, a project or a group (GitLab's `source_type`). GitLab declares such twins once
 * and loops over the source type (lib/api/members.rb `%w[group project].each do |source_type|`,
 * resource_access_tokens.rb); an area does the same here:
 *
 * ```ts
 * for (const sourceType of SOURCE_TYPES) {
 *   const source = SOURCES[sourceType]
 *   routes.push(route(`GET ${source.prefix}/members`, { handler(ctx) { const parent = source.find(ctx, ctx.params.id) … } }))
 * }
 * ```
 * Source: STYLE.md §4; gitlab: lib/api/helpers/members_helpers.rb (`find_source`).
 * @module
 */
import type { GroupRecord, ProjectRecord } from '../db/schema.js'
import { hasGroupAccess, hasProjectAccess } from './access.js'
import { findGroup, findProject } from './finders.js'
import type { Ctx } from '../core/route.js'

/** GitLab's `source_type`, in our (lower-case) spelling. */
export type SourceType = 'project' | 'group'

/** The source types, in the order twin routes are declared. */
export const SOURCE_TYPES = ['project', 'group'] as const satisfies readonly SourceType[]

/** A project as a source. */
export interface ProjectSource {
  readonly type: 'project'
  readonly project: ProjectRecord
}

/** A group as a source. */
export interface GroupSource {
  readonly type: 'group'
  readonly group: GroupRecord
}

/** A project or a group something hangs off (GitLab's `source`, `label_parent`). */
export type Source = ProjectSource | GroupSource

/** The source record type of a source type. */
export type SourceOf<T extends SourceType> = Extract<Source, { type: T }>

/** What twin routes need to know of a source type. */
export interface SourceKind<T extends SourceType> {
  readonly type: T
  /** Where its routes hang: `/projects/:id` or `/groups/:id` (`:id` a numeric id or a full path). */
  readonly prefix: `/${T}s/:id`
  /**
   * `find_source(source_type, id)`: the project or group for an `:id`, readable by the caller.
   * @throws ApiError 404 `{"message":"404 Project Not Found"}` / `"404 Group Not Found"`.
   */
  find(ctx: Ctx<unknown>, id: string | number): SourceOf<T>
}

/** The two source types. */
export const SOURCES: { readonly [T in SourceType]: SourceKind<T> } = {
  project: {
    type: 'project',
    prefix: '/projects/:id',
    find: (ctx, id) => ({ type: 'project', project: findProject(ctx, id) }),
  },
  group: {
    type: 'group',
    prefix: '/groups/:id',
    find: (ctx, id) => ({ type: 'group', group: findGroup(ctx, id) }),
  },
}

/** Whether the current user holds at least `level` in the source (administrators always do). */
export function hasSourceAccess(ctx: Ctx<unknown>, source: Source, level: number): boolean {
  return source.type === 'project'
    ? hasProjectAccess(ctx.db, ctx.currentUser, source.project, level, ctx.today)
    : hasGroupAccess(ctx.db, ctx.currentUser, source.group, level, ctx.today)
}
