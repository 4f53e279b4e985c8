/**
 * Reading memberships: the direct members of a project or group, the members including inherited
 * ones (`/all`), one member, and the `query` / `user_ids` filters, as GitLab's members helpers
 * read them. A membership past its `expires_at` counts as gone, as it does for every permission
 * check (rules/access.ts `activeMembership`).
 * Source: api-spec.md "### Members"; gitlab-behaviour.md §11.2;
 * gitlab: lib/api/helpers/members_helpers.rb (`retrieve_members`, `find_all_members`),
 * app/finders/members_finder.rb, app/models/user.rb (`User.search`).
 * @module
 */
import { activeMembership } from '../../rules/access.js'
import { recordNotFound } from '../../core/errors.js'
import { fuzzySearch } from '../../rules/fuzzy-search.js'
import type { Ctx } from '../../core/route.js'
import type { Source } from '../../rules/source.js'
import type { Db } from '../../db/db.js'
import type { GroupRecord, MemberRecord, UserRecord } from '../../db/schema.js'

/** The `source_type` and `source_id` a source's own memberships carry. */
export function sourceKey(source: Source): { type: 'project' | 'group'; id: number } {
  return source.type === 'project' ? { type: 'project', id: source.project.id } : { type: 'group', id: source.group.id }
}

/** The group a source inherits members from: the group itself, or a project's group (none for a personal project). */
export function inheritingGroup(db: Db, source: Source): GroupRecord | null {
  return source.type === 'group' ? source.group : db.projectGroup(source.project)
}

/** The memberships in force that a source itself holds, by member id (`source.members`). */
export function directMembers(db: Db, source: Source, today: string): MemberRecord[] {
  const { type, id } = sourceKey(source)
  return db.tables.members
    .where('source_id', id)
    .filter((m) => m.source_type === type && activeMembership(m, today))
    .sort((a, b) => a.id - b.id)
}

/**
 * `find_all_members`: the source's members and those of its ancestor groups (for a project, of
 * its group and the group's ancestors), one membership per user, the one with the highest
 * `access_level` (the nearest source breaks a tie), ordered by membership id.
 * // gitlab: app/finders/members_finder.rb (`distinct_on(user_id)` ordered by `access_level DESC`)
 * // spec-gap: GitLab also adds the members of groups a project is shared with; fakelab has no
 * // group shares, so there are none to add.
 */
export function allMembers(db: Db, source: Source, today: string): MemberRecord[] {
  const sources: Source[] = [source]
  const group = inheritingGroup(db, source)
  if (group) {
    for (const g of db.groupSelfAndAncestors(group)) if (source.type !== 'group' || g.id !== source.group.id) sources.push({ type: 'group', group: g })
  }
  const best = new Map<number, MemberRecord>()
  for (const s of sources) {
    for (const m of directMembers(db, s, today)) {
      const seen = best.get(m.user_id)
      if (!seen || m.access_level > seen.access_level) best.set(m.user_id, m)
    }
  }
  return [...best.values()].sort((a, b) => a.id - b.id)
}

/**
 * `User.search(query)` as a predicate over users: a leading `@` dropped, then a fuzzy match on
 * `name` or `username`, or the whole query equal to the `email` (case-insensitive).
 * // gitlab: app/models/user.rb (`search`: `fuzzy_arel_match(:name)`, `(:username)`, `email = query`)
 */
export function userSearch(query: string): (user: UserRecord) => boolean {
  const text = query.startsWith('@') ? query.slice(1) : query
  const fuzzy = fuzzySearch(text, { useMinimumCharLimit: true })
  const email = text.toLowerCase()
  return (user) => fuzzy(user.name, user.username) || user.email.toLowerCase() === email
}

/** The `query` and `user_ids` filters of the member lists (`retrieve_members`). */
export interface MemberFilters {
  query?: string | undefined
  user_ids?: number[] | undefined
}

/** Applies {@link MemberFilters} to memberships; each filter only when given and not blank. */
export function filterMembers(db: Db, members: MemberRecord[], filters: MemberFilters): MemberRecord[] {
  let rows = members
  if (filters.query !== undefined && filters.query.trim() !== '') {
    const matches = userSearch(filters.query)
    rows = rows.filter((m) => {
      const user = db.tables.users.get(m.user_id)
      return user !== undefined && matches(user)
    })
  }
  if (filters.user_ids !== undefined && filters.user_ids.length > 0) {
    const ids = new Set(filters.user_ids)
    rows = rows.filter((m) => ids.has(m.user_id))
  }
  return rows
}

/**
 * `members.find_by!(user_id:)` in a list of memberships.
 * @throws ApiError 404 `{"message":"404 Not found"}` (ActiveRecord's `RecordNotFound`).
 */
export function memberOf(members: readonly MemberRecord[], userId: number): MemberRecord {
  const member = members.find((m) => m.user_id === userId)
  if (!member) throw recordNotFound()
  return member
}

/** The direct membership of `userId` in the source, or a 404 `{"message":"404 Not found"}`. */
export function findDirectMember(ctx: Ctx<unknown>, source: Source, userId: number): MemberRecord {
  return memberOf(directMembers(ctx.db, source, ctx.today), userId)
}
