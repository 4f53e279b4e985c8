/**
 * The one name index of a scenario: users by username, groups and projects by full path (with
 * their ancestor chains), and titled records (labels, milestones) by title per group or project.
 * Reference checking and loading both build it with the same code, from the same kind of
 * {@link Entry}s: checking from the raw YAML values (problems are reported, with their places),
 * loading from the parsed scenario (the loader then turns entries into ids).
 * Names compare as GitLab compares them: usernames and paths case-insensitively, titles exactly.
 * @module
 */
import { items, str, type Entry, type Model } from './entries.js'
import { at, where, type Report } from './problems.js'

/**
 * Titled records an area keeps unique per group or project (`labels` by `name`, `milestones` by
 * `title`); the index finds them by title for references (`issues[].labels`).
 */
export interface TitleSpec {
  /** The list field holding the records, on groups and projects (`labels`). */
  readonly field: string
  /** The field holding the title (`name`, `title`). */
  readonly key: string
  /** The record's name in messages (`label`). */
  readonly noun: string
  /** Compare titles with surrounding whitespace stripped (as the schema stores them). */
  readonly trim?: boolean
  /** A title must also be unique among the ancestor groups' (GitLab's label rule). */
  readonly uniqueWithAncestors?: boolean
}

/** A project's namespace: its groups nearest first, or the user owning a personal project. */
export interface Namespace {
  /** The namespace group and its ancestors that exist, nearest first; empty for a user namespace. */
  readonly groups: Entry[]
  /** The owner of a personal project, else null. */
  readonly owner: Entry | null
}

/** See the module comment. Built with {@link NameIndex.build}; titles added with {@link NameIndex.defineTitles}. */
export class NameIndex {
  /** Users by lower-case username (the first one written, when duplicated). */
  readonly users = new Map<string, Entry>()
  /** Groups by lower-case full path. */
  readonly groups = new Map<string, Entry>()
  /** Projects by lower-case full path. */
  readonly projects = new Map<string, Entry>()
  /** Full paths as written, of every group and project that has one. */
  private readonly fullPaths = new Map<Entry, string>()
  private readonly namespaces = new Map<Entry, Namespace>()
  /** field → group or project → title → record. */
  private readonly titles = new Map<string, Map<Entry, Map<string, Entry>>>()
  private groupOrder: Entry[] = []
  private readonly report: Report

  private constructor(report: Report) {
    this.report = report
  }

  /**
   * Indexes the users, groups and projects of `model`, reporting duplicate names, a group path taken
   * by a user namespace, unknown parents (and parent cycles), unknown namespaces and a project
   * whose full path is a group's.
   */
  static build(model: Model, report: Report): NameIndex {
    const index = new NameIndex(report)
    index.indexUsers(model.user)
    index.indexGroups(model.group)
    index.indexProjects(model.project)
    return index
  }

  /** The full path of a group or project as written (`acme/Platform`), when it has one. */
  fullPath(entry: Entry): string | undefined {
    return this.fullPaths.get(entry)
  }

  /** The groups of `fullPath` and of its ancestors that exist, nearest first. */
  groupChain(fullPath: string): Entry[] {
    const segments = fullPath.toLowerCase().split('/')
    const chain: Entry[] = []
    for (let n = segments.length; n > 0; n--) {
      const group = this.groups.get(segments.slice(0, n).join('/'))
      if (group) chain.push(group)
    }
    return chain
  }

  /** A group's ancestor groups that exist, nearest first. */
  ancestors(group: Entry): Entry[] {
    const fullPath = this.fullPaths.get(group)
    return fullPath === undefined ? [] : this.groupChain(fullPath).slice(1)
  }

  /** A project's namespace, or undefined when it names nothing in the scenario (reported). */
  namespace(project: Entry): Namespace | undefined {
    return this.namespaces.get(project)
  }

  /**
   * Every group, ancestors before descendants (file order within a depth), then the groups without
   * a usable path: the order in which inherited names are known when a subgroup is looked at.
   */
  groupsInOrder(): readonly Entry[] {
    return this.groupOrder
  }

  /**
   * Indexes the titled records of every group (in {@link groupsInOrder}) and project, reporting a
   * title used twice in one parent and, with `uniqueWithAncestors`, one an ancestor group has.
   * A duplicated group keeps its own titles to itself: references find the first one.
   */
  defineTitles(spec: TitleSpec, groups: readonly Entry[], projects: readonly Entry[]): void {
    const byParent = new Map<Entry, Map<string, Entry>>()
    this.titles.set(spec.field, byParent)
    const define = (parent: Entry, ancestors: Entry[]): void => {
      const own = new Map<string, Entry>()
      byParent.set(parent, own)
      for (const item of items(parent, spec.field)) {
        const written = str(item.value[spec.key])
        const title = spec.trim ? written?.trim() : written
        if (title === undefined) continue
        const first = own.get(title)
        const inherited = spec.uniqueWithAncestors ? ancestors.find((g) => byParent.get(g)?.has(title)) : undefined
        if (first) this.report(at(item, spec.key), `duplicate ${spec.noun} "${title}" (first defined by ${where(first, item)})`)
        else if (inherited) {
          this.report(at(item, spec.key), `${spec.noun} "${title}" already exists in ancestor group "${this.fullPaths.get(inherited)}"`)
        } else own.set(title, item)
      }
    }
    for (const group of groups) define(group, this.ancestors(group))
    for (const project of projects) define(project, [...(this.namespaces.get(project)?.groups ?? [])])
  }

  /** The titled record of `field` (`labels`) that `title` names, looking in `parents` in order. */
  findTitle(field: string, parents: readonly Entry[], title: string): Entry | undefined {
    const byParent = this.titles.get(field)
    for (const parent of parents) {
      const found = byParent?.get(parent)?.get(title)
      if (found) return found
    }
    return undefined
  }

  /** Every title of `field` (`labels`) the records of `parents` define, for did-you-mean suggestions. */
  titlesIn(field: string, parents: readonly Entry[]): string[] {
    const byParent = this.titles.get(field)
    return parents.flatMap((parent) => [...(byParent?.get(parent)?.keys() ?? [])])
  }

  private indexUsers(users: Entry[]): void {
    for (const user of users) {
      const username = str(user.value.username)
      if (username === undefined) continue
      const first = this.users.get(username.toLowerCase())
      if (first) this.report(at(user, 'username'), `duplicate username "${username}" (first defined by ${where(first, user)})`)
      else this.users.set(username.toLowerCase(), user)
    }
  }

  private indexGroups(groups: Entry[]): void {
    // Full paths first: a parent may come later in the file than its subgroups.
    for (const group of groups) {
      const path = str(group.value.path)
      const parent = str(group.value.parent)
      if (path === undefined || (group.value.parent != null && parent === undefined)) continue
      const fullPath = parent ? `${parent}/${path}` : path
      this.fullPaths.set(group, fullPath)
      const first = this.groups.get(fullPath.toLowerCase())
      if (first) this.report(at(group, 'path'), `duplicate group "${fullPath}" (first defined by ${where(first, group)})`)
      else this.groups.set(fullPath.toLowerCase(), group)
      if (!parent && this.users.has(path.toLowerCase())) {
        this.report(at(group, 'path'), `"${path}" is already taken by the personal namespace of user "${path}"`)
      }
    }
    const depth = (group: Entry): number => this.fullPaths.get(group)!.split('/').length
    const withPaths = groups.filter((group) => this.fullPaths.has(group)).sort((a, b) => depth(a) - depth(b))
    this.groupOrder = [...withPaths, ...groups.filter((group) => !this.fullPaths.has(group))]
    for (const group of withPaths) {
      const parent = str(group.value.parent)
      if (!parent || this.groups.has(parent.toLowerCase())) continue
      const cycle = this.parentCycle(group, groups)
      if (cycle) {
        const names = [...cycle, group].map((g) => str(g.value.path)).join(' -> ')
        this.report(at(group, 'parent'), `parent groups form a cycle: ${names} (a group cannot be its own ancestor)`)
      } else {
        this.report(at(group, 'parent'), `unknown parent group "${parent}" (must be the full path of a group in the scenario)`)
      }
    }
  }

  /**
   * When `group`'s parent names no group, whether the author meant a cycle: following each `parent`
   * to the one group whose own `path` is that parent's last segment leads back to `group`.
   * (Written as full paths, a cycle cannot resolve: each group's full path would need the other's.)
   * @returns the groups of the cycle, starting with `group`, or undefined.
   */
  private parentCycle(group: Entry, groups: Entry[]): Entry[] | undefined {
    const cycle = [group]
    let current = group
    for (let step = 0; step < groups.length; step++) {
      const parent = str(current.value.parent)
      if (!parent || (current !== group && this.groups.has(parent.toLowerCase()))) return undefined
      const segment = parent.split('/').pop()!.toLowerCase()
      const named = groups.filter((g) => str(g.value.path)?.toLowerCase() === segment)
      if (named.length !== 1) return undefined
      const next = named[0]!
      if (next === group) return cycle
      if (cycle.includes(next)) return undefined
      cycle.push(next)
      current = next
    }
    return undefined
  }

  private indexProjects(projects: Entry[]): void {
    for (const project of projects) {
      const namespace = str(project.value.namespace)
      const path = str(project.value.path)
      if (namespace !== undefined) {
        const key = namespace.toLowerCase()
        const owner = namespace.includes('/') ? undefined : this.users.get(key)
        if (this.groups.has(key)) this.namespaces.set(project, { groups: this.groupChain(key), owner: null })
        else if (owner) this.namespaces.set(project, { groups: [], owner })
        else {
          this.report(at(project, 'namespace'), `unknown namespace "${namespace}" (neither a group full path nor a username in the scenario)`)
        }
      }
      if (namespace === undefined || path === undefined) continue
      const fullPath = `${namespace}/${path}`
      this.fullPaths.set(project, fullPath)
      const first = this.projects.get(fullPath.toLowerCase())
      if (first) this.report(at(project, 'path'), `duplicate project "${fullPath}" (first defined by ${where(first, project)})`)
      else this.projects.set(fullPath.toLowerCase(), project)
      if (this.groups.has(fullPath.toLowerCase())) this.report(at(project, 'path'), `"${fullPath}" is already the full path of a group`)
    }
  }
}
