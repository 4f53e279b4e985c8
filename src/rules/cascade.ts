/**
 * Deleting a project, a group or a user and everything that belongs to it, the way GitLab's
 * `dependent: :destroy` associations and foreign keys with `ON DELETE CASCADE` do, so a deleted
 * record vanishes from every list at once. Core knows no area, so the rules go by GitLab's column
 * conventions rather than by table: a row belongs to a deleted `issues` row when its `issue_id`
 * names it, or when a polymorphic pair (`noteable_type`/`noteable_id`, `source_type`/`source_id`,
 * `target_type`/`target_id`, …) points at an `Issue`; `<kind>_repository_storage_moves` rows go
 * with their `container_id`; `<kind>_ids` arrays (an issue's `label_ids`) lose the id. Whatever is
 * removed is cascaded in turn (a project's issues take their notes, award emoji and to-dos along).
 * Source: gitlab: app/services/projects/destroy_service.rb, app/services/groups/destroy_service.rb,
 * app/services/users/destroy_service.rb, app/services/users/migrate_to_ghost_user_service.rb,
 * db/structure.sql (foreign keys).
 * @module
 */
import type { Db } from '../db/db.js'
import type { Row } from '../db/collection.js'
import type { TableName, UserRecord } from '../db/schema.js'
import { newUserRecord } from './user-record.js'

type AnyRow = Row & Record<string, unknown>

/** `merge_requests` → `merge_request`; `award_emoji` stays as it is. */
function singular(table: string): string {
  return table.endsWith('s') ? table.slice(0, -1) : table
}

/** `merge_request` → `mergerequest`: compared against lower-cased `*_type` values (`MergeRequest`, `project`). */
function modelKey(name: string): string {
  return name.replace(/_/g, '').toLowerCase()
}

/** The polymorphic `*_type` values that name a row of `table` (groups are `Namespace` too). */
function typeNames(table: string): Set<string> {
  const names = new Set([modelKey(singular(table))])
  if (table === 'groups') names.add('namespace')
  return names
}

/** Columns that keep a row when the user they name is deleted: GitLab nullifies them (ON DELETE SET NULL). */
const NULLIFIED_USER_TABLES = new Set(['pipelines', 'jobs'])

/** What {@link destroyRecords} removed, by table: what a test or a log can report. */
export type Removed = Map<string, number[]>

/**
 * Deletes rows of `table` and, transitively, every row that belongs to them. Run it inside the
 * request's transaction: a later failure undoes all of it.
 * Personal projects go with their user (`namespace_type: 'user'`), group projects and subgroups
 * with their group; a user's authored records are not deleted here (see {@link migrateToGhost}).
 * @param table the table of the rows to delete (`projects`, `groups`, `users`, …).
 * @param ids ids of rows that exist in `table`.
 * @returns every deleted id, by table.
 */
export function destroyRecords(db: Db, table: TableName, ids: readonly number[]): Removed {
  const removed: Removed = new Map()
  const queue: [string, Set<number>][] = [[table, new Set(ids)]]
  const tables = db.tables as unknown as Record<string, {
    get(id: number): AnyRow | undefined
    all(): AnyRow[]
    delete(id: number): AnyRow
    update(id: number, patch: Record<string, unknown>): AnyRow
  }>
  while (queue.length > 0) {
    const [name, doomed] = queue.shift()!
    const live = [...doomed].filter((id) => tables[name]!.get(id) !== undefined)
    if (live.length === 0) continue
    for (const id of live) tables[name]!.delete(id)
    removed.set(name, [...(removed.get(name) ?? []), ...live])
    const gone = new Set(live)
    const fk = `${singular(name)}_id`
    const arrayFk = `${singular(name)}_ids`
    const types = typeNames(name)
    for (const [other, collection] of Object.entries(tables)) {
      const dependents = new Set<number>()
      for (const row of collection.all()) {
        if (belongsTo(row, other, name, fk, types, gone)) {
          if (name === 'users' && NULLIFIED_USER_TABLES.has(other)) collection.update(row.id, { [fk]: null })
          else dependents.add(row.id)
          continue
        }
        const list = row[arrayFk]
        if (Array.isArray(list) && list.some((v) => gone.has(v as number))) {
          collection.update(row.id, { [arrayFk]: list.filter((v) => !gone.has(v as number)) })
        }
      }
      if (dependents.size > 0) queue.push([other, dependents])
    }
  }
  return removed
}

/** Whether `row` of table `other` belongs to one of the deleted rows of `table`. */
function belongsTo(row: AnyRow, other: string, table: string, fk: string, types: Set<string>, gone: Set<number>): boolean {
  if (typeof row[fk] === 'number' && gone.has(row[fk] as number)) return true
  if (other === `${singular(table)}_repository_storage_moves` && gone.has(row.container_id as number)) return true
  if (other === 'projects' && (table === 'groups' || table === 'users')) {
    return row.namespace_type === singular(table) && gone.has(row.namespace_id as number)
  }
  if (other === 'groups' && table === 'groups') return gone.has(row.parent_id as number)
  if (other === 'runner_namespaces' && table === 'groups') return gone.has(row.namespace_id as number)
  for (const key of Object.keys(row)) {
    if (!key.endsWith('_type')) continue
    const kind = row[key]
    const target = row[`${key.slice(0, -5)}_id`]
    if (typeof kind === 'string' && types.has(modelKey(kind)) && typeof target === 'number' && gone.has(target)) return true
  }
  return false
}

/**
 * GitLab's ghost user (`User.ghost`): the one account deleted users' contributions move to,
 * created on first use. gitlab: app/models/user.rb (`ghost`, `user_type: :ghost`, blocked).
 */
export function ghostUser(db: Db, now: string): UserRecord {
  const existing = db.tables.users.find((u) => u.user_type === 'ghost')
  if (existing) return existing
  let username = 'ghost'
  for (let n = 1; db.findUserByUsername(username); n++) username = `ghost${n}`
  return db.tables.users.insert(
    newUserRecord({
      username,
      name: 'Ghost User',
      email: `${username}@example.com`,
      created_at: now,
      state: 'blocked',
      bio: 'This is a "Ghost User", created to hold all issues authored by users that have since been deleted. This user cannot be removed.',
      user_type: 'ghost',
      can_create_group: false,
      projects_limit: 0,
    }),
  )
}

/**
 * Moves a user's contributions to the ghost user before the user is deleted, as
 * `Users::MigrateToGhostUserService` does for issues, merge requests, notes, snippets and award
 * emoji: every `author_id` naming the user, and the user's award emoji (`user_id`). Assignments
 * and `*_by_id` columns (`closed_by_id`, `merged_by_id`, a member's `created_by_id`) are cleared,
 * as their foreign keys' `ON DELETE SET NULL` does.
 */
export function migrateToGhost(db: Db, user: UserRecord, now: string): void {
  const tables = db.tables as unknown as Record<string, { all(): AnyRow[]; update(id: number, patch: Record<string, unknown>): AnyRow }>
  let ghost: UserRecord | undefined
  for (const [name, collection] of Object.entries(tables)) {
    for (const row of collection.all()) {
      const patch: Record<string, unknown> = {}
      if (row.author_id === user.id || (name === 'award_emoji' && row.user_id === user.id)) {
        ghost ??= ghostUser(db, now)
        patch[row.author_id === user.id ? 'author_id' : 'user_id'] = ghost.id
      }
      for (const key of Object.keys(row)) {
        if (key.endsWith('_by_id') && row[key] === user.id) patch[key] = null
      }
      if (Array.isArray(row.assignee_ids) && row.assignee_ids.includes(user.id)) {
        patch.assignee_ids = row.assignee_ids.filter((id) => id !== user.id)
      }
      if (Object.keys(patch).length > 0) collection.update(row.id, patch)
    }
  }
}
