/**
 * Deleting a project, a group or a user and everything that belongs to it, the way GitLab's
 * `dependent: :destroy` associations and foreign keys with `ON DELETE CASCADE` do, so a deleted
 * record vanishes from every list at once. This layer knows no area, so the rules go by GitLab's
 * column conventions rather than by table: a row belongs to a deleted `projects` row when its
 * `project_id` names it, or when a polymorphic pair (`source_type`/`source_id`,
 * `target_type`/`target_id`, …) points at a `Project`; `<kind>_ids` arrays lose the id. What the
 * conventions do not show (a `parent_id`, a `container_id`, a column set to null rather than
 * deleted) each area declares about its own tables (`Area.cascade`, a {@link CascadeRule} list the
 * store carries as `db.cascade`). Whatever is removed is cascaded in turn (a project's records take
 * their own dependants along).
 * Source: gitlab: app/services/projects/destroy_service.rb, app/services/groups/destroy_service.rb,
 * app/services/users/destroy_service.rb, app/services/users/migrate_to_ghost_user_service.rb,
 * db/structure.sql (foreign keys).
 * @module
 */
import type { Db } from '../db/db.js'
import type { CascadeRule, CascadeValue } from '../db/cascade.js'
import type { Row } from '../db/collection.js'
import type { TableName, UserRecord } from '../db/schema.js'


type AnyRow = Row & Record<string, unknown>

/** `merge_requests` → `merge_request`; a name without a plural `s` stays as it is. */
function singular(table: string): string {
  return table.endsWith('s') ? table.slice(0, -1) : table
}

/** `merge_request` → `mergerequest`: compared against lower-cased `*_type` values (`MergeRequest`, `project`). */
function modelKey(name: string): string {
  return name.replace(/_/g, '').toLowerCase()
}

/** The declared rules, looked up by `<table><<parent>` (and by parent for type names). */
interface Compiled {
  cascade: Map<string, Extract<CascadeRule, { kind: 'cascade' }>[]>
  nullify: Map<string, string>
  typeNames: Map<string, string[]>
  ghost: Map<string, string[]>
}

function compile(rules: readonly CascadeRule[]): Compiled {
  const out: Compiled = { cascade: new Map(), nullify: new Map(), typeNames: new Map(), ghost: new Map() }
  const add = <V>(map: Map<string, V[]>, key: string, value: V) => map.set(key, [...(map.get(key) ?? []), value])
  for (const rule of rules) {
    if (rule.kind === 'cascade') add(out.cascade, `${rule.table}<${rule.parent}`, rule)
    else if (rule.kind === 'nullify') out.nullify.set(`${rule.table}<${rule.parent}`, rule.column)
    else if (rule.kind === 'typeName') add(out.typeNames, rule.parent, modelKey(rule.name))
    else add(out.ghost, rule.table, rule.column)
  }
  return out
}

/** The polymorphic `*_type` values that name a row of `table`: its model name plus declared ones. */
function typeNames(table: string, rules: Compiled): Set<string> {
  return new Set([modelKey(singular(table)), ...(rules.typeNames.get(table) ?? [])])
}

/** What {@link destroyRecords} removed, by table: what a test or a log can report. */
export type Removed = Map<string, number[]>

/**
 * Deletes rows of `table` and, transitively, every row that belongs to them, by the column
 * conventions and the store's declared rules (`db.cascade`). Run it inside the request's
 * transaction: a later failure undoes all of it.
 * A user's authored records are not deleted here (see {@link migrateToGhost}).
 * @param table the table of the rows to delete (`projects`, `groups`, `users`, …).
 * @param ids ids of rows that exist in `table`.
 * @returns every deleted id, by table.
 */
export function destroyRecords(db: Db, table: TableName, ids: readonly number[]): Removed {
  const rules = compile(db.cascade)
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
    const types = typeNames(name, rules)
    for (const [other, collection] of Object.entries(tables)) {
      const dependents = new Set<number>()
      const declared = rules.cascade.get(`${other}<${name}`) ?? []
      const nullified = rules.nullify.get(`${other}<${name}`)
      for (const row of collection.all()) {
        if (belongsTo(row, fk, declared, types, gone)) {
          if (nullified !== undefined) collection.update(row.id, { [nullified]: null })
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

/** Whether `row` holds every value of a rule's `where`. */
function holds(row: AnyRow, where: Readonly<Record<string, CascadeValue>> | undefined): boolean {
  return where === undefined || Object.entries(where).every(([key, value]) => row[key] === value)
}

/** Whether `row` belongs to one of the deleted rows (`gone`) by convention or by a declared rule. */
function belongsTo(row: AnyRow, fk: string, declared: readonly Extract<CascadeRule, { kind: 'cascade' }>[], types: Set<string>, gone: Set<number>): boolean {
  if (typeof row[fk] === 'number' && gone.has(row[fk] as number)) return true
  for (const rule of declared) if (gone.has(row[rule.column] as number) && holds(row, rule.where)) return true
  for (const key of Object.keys(row)) {
    if (!key.endsWith('_type')) continue
    const kind = row[key]
    const target = row[`${key.slice(0, -5)}_id`]
    if (typeof kind === 'string' && types.has(modelKey(kind)) && typeof target === 'number' && gone.has(target)) return true
  }
  return false
}

/**
 * Moves a user's contributions to the ghost user before the user is deleted, as
 * `Users::MigrateToGhostUserService` does: every `author_id` naming the user, and the columns the
 * areas declare with `ghost` rules. Assignments and `*_by_id` columns (`closed_by_id`,
 * `merged_by_id`, `created_by_id`) are cleared, as their foreign keys' `ON DELETE SET NULL` does.
 * @param ghost gives the ghost user (the users area's `User.ghost`), called on first need only, so
 *   a user with no contributions creates none.
 */
export function migrateToGhost(db: Db, user: UserRecord, ghost: () => UserRecord): void {
  const rules = compile(db.cascade)
  const tables = db.tables as unknown as Record<string, { all(): AnyRow[]; update(id: number, patch: Record<string, unknown>): AnyRow }>
  let ghostUser: UserRecord | undefined
  for (const [name, collection] of Object.entries(tables)) {
    const columns = rules.ghost.get(name) ?? []
    for (const row of collection.all()) {
      const patch: Record<string, unknown> = {}
      const column = row.author_id === user.id ? 'author_id' : columns.find((c) => row[c] === user.id)
      if (column !== undefined) {
        ghostUser ??= ghost()
        patch[column] = ghostUser.id
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
