/**
 * `GroupsFinder` as the group lists use it (`GET /groups`, `GET /groups/:id/subgroups`,
 * `GET /groups/:id/descendant_groups`): which groups the caller sees, the list filters and the
 * order. Everything reads the namespace tree as it is now (`parent_id`), so a transfer shows at once.
 * Source: gitlab: lib/api/groups.rb (`group_list_params`, `find_groups`,
 * `reorder_groups_with_similarity_order_support`), app/finders/groups_finder.rb,
 * app/models/namespace.rb (`search`).
 * @module
 */
import { AccessLevel, canReadGroup, groupAccessLevel } from '../../rules/access.js'
import { fuzzySearch } from '../../rules/fuzzy-search.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import type { Db } from '../../db/db.js'
import type { GroupRecord, UserRecord } from '../../db/schema.js'

/**
 * `group_list_params`: the filters every group list shares. `statistics` is accepted and shows
 * nothing (spec-gap: fakelab keeps no storage statistics).
 */
export const groupListParams = {
  ...paginationParams,
  statistics: p.boolean({ default: false }),
  skip_groups: p.integers(),
  all_available: p.boolean(),
  search: p.string(),
  order_by: p.string({ default: 'name', values: ['name', 'path', 'id', 'similarity'] }),
  sort: p.string({ default: 'asc', values: ['asc', 'desc'], caseInsensitive: true }),
  owned: p.boolean({ default: false }),
  min_access_level: p.integer({ values: [10, 20, 30, 40, 50] }),
}

/** The validated {@link groupListParams} (and `top_level_only` of `GET /groups`). */
export interface GroupListParams {
  skip_groups?: number[]
  all_available?: boolean
  search?: string
  order_by: string
  sort: string
  owned: boolean
  min_access_level?: number
  top_level_only?: boolean
}

/** Where a list looks: everywhere, a group's children, or all of a group's descendants. */
export type GroupListScope = { kind: 'all' } | { kind: 'children'; parent: GroupRecord } | { kind: 'descendants'; parent: GroupRecord }

/**
 * The groups of a list, filtered and ordered (not yet paginated).
 * - `all_available` defaults to true for anonymous callers and administrators, false otherwise
 *   (`find_groups`: `current_user&.can_read_all_resources?`); without it a signed-in user sees the
 *   groups they hold access to, directly or through an ancestor.
 * - `owned` (Owner) and `min_access_level` count inherited access.
 * - `search` is GitLab's fuzzy search over the full path and full name in the top-level list
 *   (`include_parents: true`), over the group's own path and name under a parent.
 * - Ordered by `order_by` `sort`, then id ascending; `similarity` orders as `name`.
 */
export function findGroups(
  ctx: { db: Db; currentUser: UserRecord | null; today: string },
  params: GroupListParams,
  scope: GroupListScope = { kind: 'all' },
): GroupRecord[] {
  const { db, currentUser: user, today } = ctx
  const allAvailable = params.all_available ?? (!user || user.admin)
  const matches = params.search !== undefined ? fuzzySearch(params.search, { useMinimumCharLimit: false }) : undefined
  const skip = new Set(params.skip_groups ?? [])
  const minLevel = params.owned ? AccessLevel.OWNER : params.min_access_level
  const candidates =
    scope.kind === 'all' ? db.tables.groups.all() : scope.kind === 'children' ? db.tables.groups.where('parent_id', scope.parent.id) : db.groupDescendants(scope.parent)
  const rows = candidates.filter((group) => {
    if (skip.has(group.id)) return false
    if (params.top_level_only && group.parent_id !== null) return false
    if (matches) {
      const hit = scope.kind === 'all' ? matches(db.groupFullPath(group), db.groupFullName(group)) : matches(group.path, group.name)
      if (!hit) return false
    }
    // Anonymous: `owned` finds nothing, `min_access_level` is ignored (GroupsFinder#min_access_level?).
    if (params.owned && !user) return false
    if (minLevel !== undefined && user) return groupAccessLevel(db, user, group, today) >= minLevel
    if (allAvailable || !user) return canReadGroup(db, user, group, today)
    return groupAccessLevel(db, user, group, today) >= AccessLevel.GUEST
  })
  const key = (g: GroupRecord): string | number =>
    params.order_by === 'id' ? g.id : params.order_by === 'path' ? g.path.toLowerCase() : g.name.toLowerCase()
  const direction = params.sort === 'desc' ? -1 : 1
  return rows.sort((a, b) => {
    const x = key(a)
    const y = key(b)
    return (x < y ? -1 : x > y ? 1 : 0) * direction || a.id - b.id
  })
}
