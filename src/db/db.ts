/**
 * The store: one {@link Collection} per table definition it is given (core's from `schema.ts`, the
 * areas' from the composition root), transactions, snapshots, internal ids and the few relational
 * readers (paths, ancestry) that routes and entities share.
 * This folder is the only place that knows how records are kept; it knows no area.
 * @module
 */
import type { CascadeRule } from './cascade.js'
import { Collection, type Journal, type Undo } from './collection.js'
import type {
  GroupRecord,
  InternalIdRecord,
  ProjectRecord,
  TableDefs,
  TableName,
  Tables,
  UserRecord,
} from './schema.js'

/**
 * Every table's records and sequence position (`db.dump()`), for `restore()` and scenario export;
 * serialisable. The records are shared with the store, never changed in place (see `Collection.dump`).
 */
export type DbState = { [K in TableName]: { rows: Tables[K][]; nextId: number } }

/** The in-memory database of one simulator. */
export class Db {
  /** The tables, by GitLab name: `db.tables.projects.get(1)`. */
  readonly tables: { [K in TableName]: Collection<Tables[K]> }
  /** The areas' delete rules, composed (see `rules/cascade.ts`); empty when none were given. */
  readonly cascade: readonly CascadeRule[]
  private journals: Undo[][] = []
  /** Tasks queued by {@link onCommit} in the outermost open transaction. */
  #onCommit: (() => void)[] = []
  #writes = 0

  /**
   * @param definitions every table and its indexes: `CORE_TABLES` plus each area's tables, as the
   *   composition root (`src/simulator.ts` `createDb`) puts them together.
   * @param options.cascade every area's delete rules (`Area.cascade`), as the composition root collects them.
   */
  constructor(definitions: TableDefs, options: { cascade?: readonly CascadeRule[] } = {}) {
    this.cascade = options.cascade ?? []
    const journal = (): Journal | undefined => {
      const top = this.journals[this.journals.length - 1]
      return top ? { push: (undo) => top.push(undo) } : undefined
    }
    // One write counter for all tables, so a table's version is never reused (Collection.version).
    const tick = () => ++this.#writes
    const tables = {} as Record<string, Collection<never>>
    // `for...in` rather than `Object.entries`: no pair array per table at every start (issue 39).
    for (const name in definitions) {
      tables[name] = new Collection(name, definitions[name as TableName].indexes as never[], journal, tick)
    }
    this.tables = tables as unknown as Db['tables']
  }

  /**
   * The store's write counter: it grows with every write to any table (insert, update, delete,
   * load, and each undo of a rolled-back write), so an equal value means nothing has changed since.
   */
  get writes(): number {
    return this.#writes
  }

  /**
   * Runs `fn`; if it throws, every mutation it made is undone (in reverse order) and the error
   * rethrown. Nested calls join the outer transaction. This is how "a failed request changes
   * nothing" is guaranteed: the simulator runs every request inside one.
   */
  transaction<R>(fn: () => R): R {
    const nested = this.journals.length > 0
    const log: Undo[] = []
    this.journals.push(log)
    const queued = this.#onCommit.length
    try {
      const result = fn()
      this.journals.pop()
      if (nested) this.journals[this.journals.length - 1]!.push(...log)
      else this.#runCommitted()
      return result
    } catch (error) {
      this.journals.pop()
      for (let i = log.length - 1; i >= 0; i--) log[i]!()
      // What the failed transaction queued goes with it (a nested one's only its own).
      this.#onCommit.length = queued
      throw error
    }
  }

  /**
   * Queues `task` to run once the outermost transaction open now has committed, in queue order; a
   * rollback drops it. Outside a transaction it runs at once. For work that must not happen unless
   * the change that caused it is kept, such as a webhook's HTTP delivery (`rules/events.ts`). A
   * task that throws is reported to `console.error` and does not stop the others: the change is
   * committed already.
   */
  onCommit(task: () => void): void {
    if (this.journals.length === 0) runTask(task)
    else this.#onCommit.push(task)
  }

  #runCommitted(): void {
    if (this.#onCommit.length === 0) return
    const tasks = this.#onCommit
    this.#onCommit = []
    for (const task of tasks) runTask(task)
  }

  /** Every table's records (shared, see {@link DbState}) and sequence position. */
  dump(): DbState {
    const state = {} as Record<string, unknown>
    const tables = this.tables as unknown as Record<string, Collection<never>>
    for (const name in tables) state[name] = tables[name]!.dump()
    return state as DbState
  }

  /**
   * Replaces all tables with a deep copy of a {@link dump}.
   * @param adopt keep the given records instead of copying them (see `Collection.load`).
   */
  load(state: DbState, adopt = false): void {
    const tables = this.tables as unknown as Record<string, Collection<never>>
    const given = state as unknown as Record<string, { rows: never[]; nextId: number } | undefined>
    for (const name in tables) tables[name]!.load(given[name] ?? EMPTY_TABLE, adopt)
  }

  /**
   * Allocates the next internal id (`iid`) for a parent, like GitLab's `InternalId`: iids grow per
   * project or group and are never reused, even after a delete.
   */
  nextIid(usage: InternalIdRecord['usage'], scopeType: 'project' | 'group', scopeId: number): number {
    const counters = this.tables.internal_ids
    const existing = counters.where('scope_id', scopeId).find((c) => c.usage === usage && c.scope_type === scopeType)
    if (existing) return counters.update(existing.id, { last_value: existing.last_value + 1 }).last_value
    return counters.insert({ usage, scope_type: scopeType, scope_id: scopeId, last_value: 1 }).last_value
  }

  /**
   * Allocates `count` consecutive iids at once, as `count` calls of {@link nextIid} would, with one
   * counter write (a generated 100,000-issue project needs them all).
   * @returns the first of them; none are allocated when `count` is 0.
   */
  nextIids(usage: InternalIdRecord['usage'], scopeType: 'project' | 'group', scopeId: number, count: number): number {
    const counters = this.tables.internal_ids
    const existing = counters.where('scope_id', scopeId).find((c) => c.usage === usage && c.scope_type === scopeType)
    const first = (existing?.last_value ?? 0) + 1
    if (count <= 0) return first
    if (existing) counters.update(existing.id, { last_value: existing.last_value + count })
    else counters.insert({ usage, scope_type: scopeType, scope_id: scopeId, last_value: count })
    return first
  }

  /** Moves an iid counter past `value` (scenario loading keeps explicit iids unique). */
  bumpIid(usage: InternalIdRecord['usage'], scopeType: 'project' | 'group', scopeId: number, value: number): void {
    const counters = this.tables.internal_ids
    const existing = counters.where('scope_id', scopeId).find((c) => c.usage === usage && c.scope_type === scopeType)
    if (!existing) counters.insert({ usage, scope_type: scopeType, scope_id: scopeId, last_value: value })
    else if (existing.last_value < value) counters.update(existing.id, { last_value: value })
  }

  // ---- relational readers -------------------------------------------------------------------

  /** The group and its ancestors, nearest first: `[group, parent, grandparent, ...]`. */
  groupSelfAndAncestors(group: GroupRecord): GroupRecord[] {
    const chain: GroupRecord[] = [group]
    let current = group
    while (current.parent_id !== null) {
      const parent = this.tables.groups.get(current.parent_id)
      if (!parent || chain.includes(parent)) break
      chain.push(parent)
      current = parent
    }
    return chain
  }

  /** The group's descendants (subgroups at any depth), breadth first; the group itself excluded. */
  groupDescendants(group: GroupRecord): GroupRecord[] {
    const out: GroupRecord[] = []
    const queue = [group.id]
    while (queue.length > 0) {
      for (const child of this.tables.groups.where('parent_id', queue.shift()!)) {
        out.push(child)
        queue.push(child.id)
      }
    }
    return out
  }

  /** `parent/child/grandchild`: the group's full path. */
  groupFullPath(group: GroupRecord): string {
    return this.groupSelfAndAncestors(group).map((g) => g.path).reverse().join('/')
  }

  /** `Parent / Child`: the group's full name, as GitLab shows it. */
  groupFullName(group: GroupRecord): string {
    return this.groupSelfAndAncestors(group).map((g) => g.name).reverse().join(' / ')
  }

  /** The group owning the project, or null for a personal project. */
  projectGroup(project: ProjectRecord): GroupRecord | null {
    return project.namespace_type === 'group' ? this.tables.groups.get(project.namespace_id) ?? null : null
  }

  /** The user owning a personal project, or null for a group project. */
  projectOwner(project: ProjectRecord): UserRecord | null {
    return project.namespace_type === 'user' ? this.tables.users.get(project.namespace_id) ?? null : null
  }

  /** Path of the project's namespace: a group full path or a username. */
  namespaceFullPath(project: ProjectRecord): string {
    const group = this.projectGroup(project)
    if (group) return this.groupFullPath(group)
    return this.projectOwner(project)?.username ?? ''
  }

  /** Name of the project's namespace: a group full name or a user's name. */
  namespaceFullName(project: ProjectRecord): string {
    const group = this.projectGroup(project)
    if (group) return this.groupFullName(group)
    return this.projectOwner(project)?.name ?? ''
  }

  /** `namespace/path`. */
  projectFullPath(project: ProjectRecord): string {
    return `${this.namespaceFullPath(project)}/${project.path}`
  }

  /** `Namespace Name / Project Name`. */
  projectFullName(project: ProjectRecord): string {
    return `${this.namespaceFullName(project)} / ${project.name}`
  }

  /** A group by full path (case-insensitive, as GitLab routes are). */
  findGroupByFullPath(fullPath: string): GroupRecord | undefined {
    let parentId: number | null = null
    let found: GroupRecord | undefined
    for (const segment of fullPath.toLowerCase().split('/')) {
      found = this.tables.groups.where('parent_id', parentId).find((g) => g.path.toLowerCase() === segment)
      if (!found) return undefined
      parentId = found.id
    }
    return found
  }

  /** A user by username, case-insensitively. */
  findUserByUsername(username: string): UserRecord | undefined {
    const wanted = username.toLowerCase()
    return this.tables.users.find((u) => u.username.toLowerCase() === wanted)
  }

  /** A project by `namespace/path` (case-insensitive). */
  findProjectByFullPath(fullPath: string): ProjectRecord | undefined {
    const slash = fullPath.lastIndexOf('/')
    if (slash <= 0) return undefined
    const namespacePath = fullPath.slice(0, slash)
    const path = fullPath.slice(slash + 1).toLowerCase()
    const group = this.findGroupByFullPath(namespacePath)
    const candidates = group
      ? this.tables.projects.where('namespace_id', group.id).filter((p) => p.namespace_type === 'group')
      : namespacePath.includes('/')
        ? []
        : this.tables.projects
            .where('namespace_id', this.findUserByUsername(namespacePath)?.id ?? -1)
            .filter((p) => p.namespace_type === 'user')
    return candidates.find((p) => p.path.toLowerCase() === path)
  }
}

/** What {@link Db.load} loads into a table its state does not name: no rows (read, never kept or changed). */
const EMPTY_TABLE: { rows: never[]; nextId: number } = Object.freeze({ rows: Object.freeze([]) as unknown as never[], nextId: 1 })

/** Runs a committed task, reporting (not rethrowing) what it throws. */
function runTask(task: () => void): void {
  try {
    task()
  } catch (error) {
    console.error('[fakelab] a task queued for after a commit failed:', error)
  }
}
