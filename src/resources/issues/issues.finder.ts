/**
 * `IssuesFinder` for the three issue lists: which projects a list covers, which of their issues the
 * caller may see, every filter (and its `not[...]` negation), the scope, and the sort.
 * Sources: api-spec.md "Issues"; gitlab-behaviour.md §4.2; gitlab: app/finders/issuable_finder.rb,
 * app/finders/issues_finder.rb, app/finders/issuable_finder/params.rb, app/models/issue.rb
 * (`sort_by_attribute`, due date scopes), app/models/concerns/issuable.rb (`sort_by_attribute`),
 * app/models/milestone.rb (`upcoming_ids`, `started`).
 * @module
 */
import { canReadProject, issueVisibleTo } from '../../core/access.js'
import { fuzzySearch } from '../../core/fuzzy-search.js'
import type { Db } from '../../db/db.js'
import type { GroupRecord, ProjectRecord, Tables, UserRecord } from '../../db/schema.js'
import type { IssueRecord } from './issues.tables.js'

type MilestoneRecord = Tables['milestones']

/** `order_by` values of the community edition (gitlab: lib/api/helpers/issues_helpers.rb `sort_options`). */
export const ORDER_BY = [
  'created_at',
  'updated_at',
  'priority',
  'due_date',
  'relative_position',
  'label_priority',
  'milestone_due',
  'popularity',
  'title',
] as const

/** One `order_by` value. */
export type IssueOrderBy = (typeof ORDER_BY)[number]

/**
 * Filters that `not[...]` can negate. Wildcards (`None`, `Any`) are kept as given; ids are numbers.
 * An absent key filters nothing.
 */
export interface NegatableFilters {
  labels?: string[]
  milestone?: string
  iids?: number[]
  author_id?: number
  author_username?: string
  /** A user id, or `None`/`Any` (any case). */
  assignee_id?: number | string
  /** At most one username in the community edition. */
  assignee_username?: string[]
  my_reaction_emoji?: string
  search?: string
  in?: string
}

/** Everything a list call filters and sorts by, as validated by the route. */
export interface IssueListFilters extends NegatableFilters {
  state: 'opened' | 'closed' | 'all'
  scope: 'created_by_me' | 'assigned_to_me' | 'all'
  order_by: IssueOrderBy
  sort: 'asc' | 'desc'
  confidential?: boolean
  created_after?: string
  created_before?: string
  updated_after?: string
  updated_before?: string
  due_date?: string
  issue_type?: IssueRecord['issue_type']
  /** Only issues of projects that are not archived (global and group lists). */
  non_archived?: boolean
  not: NegatableFilters
}

/** Which projects a list covers: every project (global), a group and its subgroups, or one project. */
export type IssueListSource = { kind: 'global' } | { kind: 'group'; group: GroupRecord } | { kind: 'project'; project: ProjectRecord }

/** What the finder needs besides the store: who is asking, and today's date by the scenario clock. */
export interface FinderCtx {
  readonly db: Db
  readonly currentUser: UserRecord | null
  /** `YYYY-MM-DD`. */
  readonly today: string
}

const NONE = 'none'
const ANY = 'any'
/** `Label::NONE`, the deprecated spelling of "no label" (`No+Label` in a URL, `No Label` decoded). */
const LEGACY_NO_LABEL = new Set(['no label', 'no+label'])
/** `Milestone::None.title`, the deprecated spelling of "no milestone". */
const LEGACY_NO_MILESTONE = 'No Milestone'
/** `Milestone::Any.title`. */
const LEGACY_ANY_MILESTONE = 'Any Milestone'
/** `Milestone::Upcoming.name` and `Milestone::Started.name`: the predefined milestone filters. */
const UPCOMING = '#upcoming'
const STARTED = '#started'

/** The projects of a list the caller can read; a group list includes its subgroups' projects. */
function sourceProjects(ctx: FinderCtx, source: IssueListSource): ProjectRecord[] {
  const { db, currentUser: user, today } = ctx
  if (source.kind === 'project') return [source.project]
  if (source.kind === 'group') {
    const groups = [source.group, ...db.groupDescendants(source.group)]
    const out: ProjectRecord[] = []
    for (const group of groups) {
      for (const project of db.tables.projects.where('namespace_id', group.id)) {
        if (project.namespace_type === 'group' && canReadProject(db, user, project, today)) out.push(project)
      }
    }
    return out
  }
  return db.tables.projects.filter((project) => canReadProject(db, user, project, today))
}

/** Ruby's `String#downcase` of a wildcard parameter (`'None'`, `'ANY'`). */
const lower = (value: unknown): string => String(value).toLowerCase()

/** A compiled filter: a predicate over one issue, or `undefined` when the filter is not given. */
type Predicate = (issue: IssueRecord) => boolean

/**
 * `by_label`: every named label must be on the issue, matched by title (exactly, as PostgreSQL
 * compares) among labels of any project or group; `None`/`Any` (any case) and the deprecated
 * `No Label` test for no label or some label. The title → ids lookup is built once per request.
 */
function labelTitleMatcher(db: Db, names: readonly string[]): Predicate {
  const lowered = names.map((name) => name.toLowerCase())
  if (lowered.includes(NONE) || lowered.some((name) => LEGACY_NO_LABEL.has(name))) return (issue) => issue.label_ids.length === 0
  if (lowered.includes(ANY)) return (issue) => issue.label_ids.length > 0
  const wanted = [...new Set(names.map((name) => name.trim()))]
  const idsByTitle = new Map<string, Set<number>>(wanted.map((title) => [title, new Set()]))
  for (const label of db.tables.labels.all()) idsByTitle.get(label.title)?.add(label.id)
  const groups = [...idsByTitle.values()]
  // Plain loops: this runs once per issue of a 100,000-issue list.
  return (issue) => {
    for (const ids of groups) {
      let hit = false
      for (const id of issue.label_ids) {
        if (ids.has(id)) {
          hit = true
          break
        }
      }
      if (!hit) return false
    }
    return true
  }
}

/**
 * `Milestone.upcoming_ids`: for each project and group of the list, its active milestone with the
 * nearest due date after today.
 */
function upcomingMilestoneIds(db: Db, projects: readonly ProjectRecord[], today: string): Set<number> {
  const ids = new Set<number>()
  const owners = new Set<string>()
  const consider = (milestones: MilestoneRecord[], key: string) => {
    if (owners.has(key)) return
    owners.add(key)
    let best: MilestoneRecord | undefined
    for (const m of milestones) {
      if (m.state !== 'active' || m.due_date === null || m.due_date <= today) continue
      if (!best || m.due_date < best.due_date! || (m.due_date === best.due_date && m.id < best.id)) best = m
    }
    if (best) ids.add(best.id)
  }
  for (const project of projects) {
    consider(db.tables.milestones.where('project_id', project.id), `p${project.id}`)
    const group = db.projectGroup(project)
    for (const g of group ? db.groupSelfAndAncestors(group) : []) consider(db.tables.milestones.where('group_id', g.id), `g${g.id}`)
  }
  return ids
}

/** `Milestone.started`: active, started by today, and not yet past its due date. */
function milestoneStarted(m: MilestoneRecord, today: string): boolean {
  return m.state === 'active' && m.start_date !== null && m.start_date <= today && (m.due_date === null || m.due_date >= today)
}

/**
 * The ids of the milestones a `milestone` filter names (`#upcoming`, `#started`, or a title of any
 * project or group), found once per request; null for `None`/`Any`, which test presence instead.
 */
function milestoneIds(ctx: FinderCtx, projects: readonly ProjectRecord[], title: string): Set<number> | null {
  const { db, today } = ctx
  const l = lower(title)
  if (l === NONE || title === LEGACY_NO_MILESTONE || l === ANY || title === LEGACY_ANY_MILESTONE) return null
  if (title === UPCOMING) return upcomingMilestoneIds(db, projects, today)
  const ids = new Set<number>()
  for (const m of db.tables.milestones.all()) if (title === STARTED ? milestoneStarted(m, today) : m.title === title) ids.add(m.id)
  return ids
}

/** `by_milestone`: `None`, `Any`, `#upcoming`, `#started`, or a title (of any project or group). */
function milestoneMatcher(ctx: FinderCtx, projects: readonly ProjectRecord[], title: string): Predicate {
  const l = lower(title)
  if (l === NONE || title === LEGACY_NO_MILESTONE) return (issue) => issue.milestone_id === null
  if (l === ANY || title === LEGACY_ANY_MILESTONE) return (issue) => issue.milestone_id !== null
  const ids = milestoneIds(ctx, projects, title)!
  return (issue) => issue.milestone_id !== null && ids.has(issue.milestone_id)
}

/** `by_my_reaction_emoji`: `None`, `Any`, or an emoji name, over the caller's awards. */
function reactionMatcher(db: Db, user: UserRecord, emoji: string): Predicate {
  const awards = new Map<number, Set<string>>()
  for (const award of db.tables.award_emoji.where('user_id', user.id)) {
    if (award.awardable_type !== 'Issue') continue
    let names = awards.get(award.awardable_id)
    if (!names) awards.set(award.awardable_id, (names = new Set()))
    names.add(award.name)
  }
  const l = lower(emoji)
  if (l === NONE) return (issue) => !awards.has(issue.id)
  if (l === ANY) return (issue) => awards.has(issue.id)
  return (issue) => awards.get(issue.id)?.has(emoji) ?? false
}

/** `in`: the searched columns, `title` and/or `description` (unknown words ignored; none given: both). */
function searchColumns(value: string | undefined): { title: boolean; description: boolean } {
  const words = (value ?? '').split(',').map((word) => word.trim().toLowerCase())
  const title = words.includes('title')
  const description = words.includes('description')
  return title || description ? { title, description } : { title: true, description: true }
}

/** `by_search`: GitLab's fuzzy search over the columns `in` names. */
function searchMatcher(search: string, columns: string | undefined): Predicate {
  const matches = fuzzySearch(search, { useMinimumCharLimit: true })
  const { title, description } = searchColumns(columns)
  return (issue) => matches(title ? issue.title : null, description ? issue.description : null)
}

/**
 * The predicates of the negatable filters, in `IssuableFinder` order. Unknown users by username
 * match nothing (positively) or exclude nothing (negated).
 */
function negatableMatchers(ctx: FinderCtx, projects: readonly ProjectRecord[], f: NegatableFilters, negated: boolean): Predicate[] {
  const { db, currentUser } = ctx
  const out: Predicate[] = []
  if (f.labels !== undefined && f.labels.length > 0) out.push(labelTitleMatcher(db, f.labels))
  if (f.milestone !== undefined) out.push(milestoneMatcher(ctx, projects, f.milestone))
  if (f.iids !== undefined && f.iids.length > 0) {
    const iids = new Set(f.iids)
    out.push((issue) => iids.has(issue.iid))
  }
  if (f.author_id !== undefined) {
    const id = f.author_id
    out.push((issue) => issue.author_id === id)
  }
  if (f.author_username !== undefined) {
    const author = db.findUserByUsername(f.author_username)
    out.push(author ? (issue) => issue.author_id === author.id : () => negated)
  }
  if (f.assignee_id !== undefined) {
    const value = f.assignee_id
    if (typeof value === 'number') out.push((issue) => issue.assignee_ids.includes(value))
    else if (lower(value) === NONE) out.push((issue) => issue.assignee_ids.length === 0)
    else out.push((issue) => issue.assignee_ids.length > 0)
  }
  if (f.assignee_username !== undefined && f.assignee_username.length > 0) {
    const assignee = db.findUserByUsername(f.assignee_username[0]!)
    out.push(assignee ? (issue) => issue.assignee_ids.includes(assignee.id) : () => negated)
  }
  if (f.my_reaction_emoji !== undefined && currentUser) out.push(reactionMatcher(db, currentUser, f.my_reaction_emoji))
  if (f.search !== undefined && f.search !== '') out.push(searchMatcher(f.search, f.in))
  return out
}

/** Monday of `today`'s week and Sunday after it (Rails `beginning_of_week`, `end_of_week`). */
function weekOf(today: string): [string, string] {
  const date = new Date(`${today}T00:00:00Z`)
  const monday = new Date(date.getTime() - ((date.getUTCDay() + 6) % 7) * 86_400_000)
  const sunday = new Date(monday.getTime() + 6 * 86_400_000)
  return [monday.toISOString().slice(0, 10), sunday.toISOString().slice(0, 10)]
}

/** The last day of the month `offset` months after `today`'s. */
function endOfMonth(today: string, offset: number): string {
  const date = new Date(`${today}T00:00:00Z`)
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + offset + 1, 0)).toISOString().slice(0, 10)
}

/** `by_due_date`: `0` (none), `overdue`, `week`, `month`, `next_month_and_previous_two_weeks`. */
function dueDateMatcher(value: string, today: string): Predicate | undefined {
  const between = (from: string, to: string): Predicate => (issue) => issue.due_date !== null && issue.due_date >= from && issue.due_date <= to
  switch (value) {
    case '0':
      return (issue) => issue.due_date === null
    case 'overdue':
      return (issue) => issue.due_date !== null && issue.due_date < today
    case 'week': {
      const [from, to] = weekOf(today)
      return between(from, to)
    }
    case 'month':
      return between(`${today.slice(0, 8)}01`, endOfMonth(today, 0))
    case 'next_month_and_previous_two_weeks': {
      const from = new Date(new Date(`${today}T00:00:00Z`).getTime() - 14 * 86_400_000).toISOString().slice(0, 10)
      return between(from, endOfMonth(today, 1))
    }
    default:
      return undefined // '' filters nothing
  }
}

/**
 * Timestamps are stored as `YYYY-MM-DDTHH:MM:SS.sssZ` and datetime params are coerced to the same
 * form, so they compare as strings: no parsing per row of a 100,000-issue list.
 */
const ms = (timestamp: string): string => timestamp

/** Every non-negatable filter, the scope, and the state. */
function plainMatchers(ctx: FinderCtx, f: IssueListFilters): Predicate[] | null {
  const user = ctx.currentUser
  const out: Predicate[] = []
  // `return items.none if current_user_related? && !current_user` (IssuableFinder#by_scope).
  if (f.scope !== 'all' && !user) return null
  if (f.scope === 'created_by_me') out.push((issue) => issue.author_id === user!.id)
  if (f.scope === 'assigned_to_me') out.push((issue) => issue.assignee_ids.includes(user!.id))
  if (f.state !== 'all') out.push((issue) => issue.state === f.state)
  if (f.confidential !== undefined) out.push((issue) => issue.confidential === f.confidential)
  if (f.issue_type !== undefined) out.push((issue) => issue.issue_type === f.issue_type)
  if (f.created_after !== undefined) {
    const t = ms(f.created_after)
    out.push((issue) => ms(issue.created_at) >= t)
  }
  if (f.created_before !== undefined) {
    const t = ms(f.created_before)
    out.push((issue) => ms(issue.created_at) <= t)
  }
  if (f.updated_after !== undefined) {
    const t = ms(f.updated_after)
    out.push((issue) => ms(issue.updated_at) >= t)
  }
  if (f.updated_before !== undefined) {
    const t = ms(f.updated_before)
    out.push((issue) => ms(issue.updated_at) <= t)
  }
  if (f.due_date !== undefined) {
    const due = dueDateMatcher(f.due_date, ctx.today)
    if (due) out.push(due)
  }
  return out
}

/**
 * The issues of a list, filtered and sorted (not yet paginated).
 * Visibility: only projects the caller can read, and confidential issues only for administrators,
 * Reporter+ of the project, the author and the assignees (`with_confidentiality_access_check`).
 */
export function findIssues(ctx: FinderCtx, source: IssueListSource, filters: IssueListFilters): IssueRecord[] {
  const { db } = ctx
  let projects = sourceProjects(ctx, source)
  if (filters.non_archived) projects = projects.filter((project) => !project.archived)
  const plain = plainMatchers(ctx, filters)
  if (plain === null) return []
  const positive = [...plain, ...negatableMatchers(ctx, projects, filters, false)]
  const negative = negatableMatchers(ctx, projects, filters.not, true)
  const rows: IssueRecord[] = []
  const visibleIn = new Map(projects.map((project) => [project.id, issueVisibleTo(db, ctx.currentUser, project, ctx.today)]))
  next: for (const issue of candidates(ctx, projects, filters)) {
    const visible = visibleIn.get(issue.project_id)
    if (!visible) continue
    for (const test of positive) if (!test(issue)) continue next
    for (const test of negative) if (test(issue)) continue next
    if (!visible(issue)) continue
    rows.push(issue)
  }
  return sortIssues(db, rows, filters.order_by, filters.sort)
}

/**
 * The issues worth testing: those of the named milestones when a `milestone` filter names some (the
 * `milestone_id` index narrows a 100,000-issue project to a fraction), else every issue of the
 * list's projects. Rows of other projects are dropped by the caller.
 */
function candidates(ctx: FinderCtx, projects: readonly ProjectRecord[], filters: IssueListFilters): IssueRecord[] {
  const issues = ctx.db.tables.issues
  const ids = filters.milestone !== undefined ? milestoneIds(ctx, projects, filters.milestone) : null
  if (ids) return [...ids].flatMap((id) => issues.where('milestone_id', id))
  return projects.length === 1 ? issues.where('project_id', projects[0]!.id) : projects.flatMap((project) => issues.where('project_id', project.id))
}

// ---- sorting ----------------------------------------------------------------------------------

/** Compares possibly-null keys, nulls last in both directions (`nulls_last_order`). */
function nullsLast<K extends string | number>(a: K | null, b: K | null, dir: 1 | -1): number {
  if (a === b) return 0
  if (a === null) return 1
  if (b === null) return -1
  return (a < b ? -1 : 1) * dir
}

/**
 * The highest priority (lowest number) the issue's labels have in its project, or null.
 * gitlab: app/models/concerns/issuable.rb (`highest_label_priority`).
 */
function labelPriorityOf(db: Db): (issue: IssueRecord) => number | null {
  const byProject = new Map<number, Map<number, number>>()
  return (issue) => {
    let priorities = byProject.get(issue.project_id)
    if (!priorities) {
      priorities = new Map(db.tables.label_priorities.where('project_id', issue.project_id).map((p) => [p.label_id, p.priority]))
      byProject.set(issue.project_id, priorities)
    }
    let best: number | null = null
    for (const id of issue.label_ids) {
      const p = priorities.get(id)
      if (p !== undefined && (best === null || p < best)) best = p
    }
    return best
  }
}

/**
 * `sort_by_attribute("<order_by>_<sort>")` with the id tie-breaker. `created_at`/`updated_at` break
 * ties by id in the same direction (gitlab-behaviour.md §4.2); the other orders end with `id DESC`
 * (`with_order_id_desc`, app/models/concerns/issuable.rb).
 */
export function sortIssues(db: Db, rows: IssueRecord[], orderBy: IssueOrderBy, sort: 'asc' | 'desc'): IssueRecord[] {
  const dir: 1 | -1 = sort === 'asc' ? 1 : -1
  const idDesc = (a: IssueRecord, b: IssueRecord) => b.id - a.id
  const milestoneDue = (issue: IssueRecord) => (issue.milestone_id === null ? null : (db.tables.milestones.get(issue.milestone_id)?.due_date ?? null))
  let compare: (a: IssueRecord, b: IssueRecord) => number
  switch (orderBy) {
    case 'created_at':
    case 'updated_at': {
      // Same-format timestamps compare as strings (see `ms`).
      const key = orderBy
      return rows.sort((a, b) => (a[key] === b[key] ? a.id - b.id : a[key] < b[key] ? -1 : 1) * dir)
    }
    case 'title':
      compare = (a, b) => (a.title === b.title ? 0 : (a.title < b.title ? -1 : 1) * dir) || idDesc(a, b)
      break
    case 'due_date':
      // `order_due_date_asc/desc`: nulls last either way.
      compare = (a, b) => nullsLast(a.due_date, b.due_date, dir) || idDesc(a, b)
      break
    case 'relative_position':
      // `relative_position_asc` is Issue's own order; `_desc` falls through to `order_by`, which
      // knows no such sort and keeps the finder's order, so both read ascending, nulls last.
      compare = (a, b) => nullsLast(a.relative_position, b.relative_position, 1) || idDesc(a, b)
      break
    case 'popularity':
      compare = (a, b) => (a.upvotes - b.upvotes) * dir || idDesc(a, b)
      break
    case 'milestone_due': {
      const due = new Map(rows.map((row) => [row.id, milestoneDue(row)]))
      compare = (a, b) => nullsLast(due.get(a.id)!, due.get(b.id)!, dir) || idDesc(a, b)
      break
    }
    case 'label_priority': {
      const of = labelPriorityOf(db)
      const priority = new Map(rows.map((row) => [row.id, of(row)]))
      compare = (a, b) => nullsLast(priority.get(a.id)!, priority.get(b.id)!, dir) || idDesc(a, b)
      break
    }
    case 'priority': {
      // `order_due_date_and_labels_priority`: milestone due date, then label priority.
      const of = labelPriorityOf(db)
      const keys = new Map(rows.map((row) => [row.id, [milestoneDue(row), of(row)] as const]))
      compare = (a, b) => {
        const ka = keys.get(a.id)!
        const kb = keys.get(b.id)!
        return nullsLast(ka[0], kb[0], dir) || nullsLast(ka[1], kb[1], dir) || idDesc(a, b)
      }
      break
    }
  }
  return rows.sort(compare)
}
