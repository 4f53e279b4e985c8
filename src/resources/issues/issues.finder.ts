/**
 * `IssuesFinder` for the three issue lists: which projects a list covers, which of their issues the
 * caller may see, every filter (and its `not[...]` negation), the scope, and the sort, in the order
 * of `IssuableFinder#execute`. How the matches are found (walking an index set, or intersecting bit
 * sets over a big store) is the store's query planner's (`db/query.ts`): each filter here says where
 * its matches lie as well as how to test one issue.
 * Sources: api-spec.md "Issues"; gitlab-behaviour.md §4.2; gitlab: app/finders/issuable_finder.rb,
 * app/finders/issues_finder.rb, app/finders/issuable_finder/params.rb, app/models/issue.rb
 * (`sort_by_attribute`, due date scopes), app/models/concerns/issuable.rb (`sort_by_attribute`),
 * app/models/milestone.rb (`upcoming_ids`, `started`).
 * @module
 */
import { canReadProject, issueVisibleTo, projectLevels, seesAllConfidentialIssues, type ProjectLevels } from '../../rules/access.js'
import { fuzzySearch } from '../../rules/fuzzy-search.js'
import type { Db } from '../../db/db.js'
import { findRows, indexedAnyOf, rowList, type ColumnValue, type Narrowing, type Predicate as QueryPredicate, type RowList } from '../../db/query.js'
import type { GroupRecord, ProjectRecord, Tables, UserRecord } from '../../db/schema.js'
import { awardsByUser } from '../award-emoji/award-emoji.public.js'
import { allMilestones, milestoneById, milestonesOfGroup, milestonesOfProject, milestonesVersion } from '../milestones/milestones.public.js'
import { allLabels, labelPrioritiesOfProject, labelPrioritiesVersion } from '../labels/labels.public.js'
import type { IssueRecord } from './issues.tables.js'

type MilestoneRecord = Tables['milestones']

/** `order_by` values (gitlab: lib/api/helpers/issues_helpers.rb `sort_options`), with EE's `weight`. */
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
  'weight',
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

/**
 * The projects of a list the caller can read; a group list includes its subgroups' projects.
 * `levels` is the caller's access level per project (read once per request).
 */
function sourceProjects(ctx: FinderCtx, source: IssueListSource, levels: ProjectLevels): ProjectRecord[] {
  const { db, currentUser: user, today } = ctx
  if (source.kind === 'project') return [source.project]
  if (source.kind === 'group') {
    const groups = [source.group, ...db.groupDescendants(source.group)]
    const out: ProjectRecord[] = []
    for (const group of groups) {
      for (const project of db.tables.projects.where('namespace_id', group.id)) {
        if (project.namespace_type === 'group' && canReadProject(db, user, project, today, levels)) out.push(project)
      }
    }
    return out
  }
  return db.tables.projects.filter((project) => canReadProject(db, user, project, today, levels))
}

/** Ruby's `String#downcase` of a wildcard parameter (`'None'`, `'ANY'`). */
const lower = (value: unknown): string => String(value).toLowerCase()

/** A compiled filter: a predicate over one issue. */
type Predicate = QueryPredicate<IssueRecord>
/** Where a filter's matches lie (see `db/query.ts`). */
type IssueNarrowing = Narrowing<IssueRecord>
/**
 * Issues whose `column` holds `value` (or, for `label_ids`, contains it). The store keeps no index
 * on these columns (100,000 more index entries each at load); a big store's dense view reads the
 * column once per version instead.
 */
type IssueColumn = ColumnValue<IssueRecord>

/**
 * A filter by one column value that is also a narrowing: a big store finds its issues by the
 * column's bits (exact) instead of testing each issue.
 */
function byColumn(narrow: IssueNarrowing[] | undefined, column: IssueColumn['column'], value: unknown, test: Predicate): Predicate {
  narrow?.push({ all: [[{ column, value }]], exact: test })
  return test
}

/**
 * `by_label`: every named label must be on the issue, matched by title (exactly, as PostgreSQL
 * compares) among labels of any project or group; `None`/`Any` (any case) and the deprecated
 * `No Label` test for no label or some label. The title → ids lookup is built once per request.
 */
function labelTitleMatcher(db: Db, names: readonly string[], narrow?: IssueNarrowing[]): Predicate {
  const lowered = names.map((name) => name.toLowerCase())
  if (lowered.includes(NONE) || lowered.some((name) => LEGACY_NO_LABEL.has(name))) return (issue) => issue.label_ids.length === 0
  if (lowered.includes(ANY)) return (issue) => issue.label_ids.length > 0
  const wanted = [...new Set(names.map((name) => name.trim()))]
  const idsByTitle = new Map<string, Set<number>>(wanted.map((title) => [title, new Set()]))
  for (const label of allLabels(db)) idsByTitle.get(label.title)?.add(label.id)
  const groups = [...idsByTitle.values()]
  // Plain loops: this runs once per issue of a 100,000-issue list.
  const test: Predicate = (issue) => {
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
  // Exact: the predicate holds for the issues carrying, for every title, one of its labels.
  narrow?.push({ all: groups.map((ids) => [...ids].map((id): IssueColumn => ({ column: 'label_ids', value: id }))), exact: test })
  return test
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
    consider(milestonesOfProject(db, project.id), `p${project.id}`)
    const group = db.projectGroup(project)
    for (const g of group ? db.groupSelfAndAncestors(group) : []) consider(milestonesOfGroup(db, g.id), `g${g.id}`)
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
  for (const m of allMilestones(db)) if (title === STARTED ? milestoneStarted(m, today) : m.title === title) ids.add(m.id)
  return ids
}

/** `by_milestone`: `None`, `Any`, `#upcoming`, `#started`, or a title (of any project or group). */
function milestoneMatcher(ctx: FinderCtx, projects: readonly ProjectRecord[], title: string, narrow?: IssueNarrowing[]): Predicate {
  const l = lower(title)
  if (l === NONE || title === LEGACY_NO_MILESTONE) return (issue) => issue.milestone_id === null
  if (l === ANY || title === LEGACY_ANY_MILESTONE) return (issue) => issue.milestone_id !== null
  const ids = milestoneIds(ctx, projects, title)!
  const test: Predicate = (issue) => issue.milestone_id !== null && ids.has(issue.milestone_id)
  // An issue has one milestone: the milestones' issue sets never overlap.
  narrow?.push({ all: [[...ids].map((id) => ctx.db.tables.issues.idsWhere('milestone_id', id))], exact: test })
  return test
}

/** `by_my_reaction_emoji`: `None`, `Any`, or an emoji name, over the caller's awards. */
function reactionMatcher(db: Db, user: UserRecord, emoji: string): Predicate {
  const awards = new Map<number, Set<string>>()
  for (const award of awardsByUser(db, user.id)) {
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

/**
 * `IssuableFinder#filter_items` and then `IssuesFinder#filter_items`, in their order: the
 * predicates every issue of the list passes, and the narrowings (`narrow`) their matches lie in.
 * `by_project` and `by_group` are the caller's narrowing to the list's projects, `by_non_archived`
 * its choice of projects. Null: `items.none` (a scope of the caller's own issues, anonymously).
 */
function filterItems(ctx: FinderCtx, projects: readonly ProjectRecord[], f: IssueListFilters, narrow: IssueNarrowing[]): Predicate[] | null {
  const user = ctx.currentUser
  const out: Predicate[] = []
  // by_scope: `return items.none if current_user_related? && !current_user`. The scope narrows a big
  // store's list to the caller's issues instead of testing every issue of every project.
  if (f.scope !== 'all' && !user) return null
  if (f.scope === 'created_by_me') out.push(byColumn(narrow, 'author_id', user!.id, (issue) => issue.author_id === user!.id))
  if (f.scope === 'assigned_to_me') out.push(byColumn(narrow, 'assignee_ids', user!.id, (issue) => issue.assignee_ids.includes(user!.id)))
  // by_created_at
  if (f.created_after !== undefined) {
    const t = ms(f.created_after)
    out.push((issue) => ms(issue.created_at) >= t)
  }
  if (f.created_before !== undefined) {
    const t = ms(f.created_before)
    out.push((issue) => ms(issue.created_at) <= t)
  }
  // by_updated_at
  if (f.updated_after !== undefined) {
    const t = ms(f.updated_after)
    out.push((issue) => ms(issue.updated_at) >= t)
  }
  if (f.updated_before !== undefined) {
    const t = ms(f.updated_before)
    out.push((issue) => ms(issue.updated_at) <= t)
  }
  // by_state
  if (f.state !== 'all') out.push(byColumn(narrow, 'state', f.state, (issue) => issue.state === f.state))
  // by_assignee, by_author, by_iids, by_milestone, by_label, by_my_reaction_emoji
  out.push(...negatableFilters(ctx, projects, f, false, narrow))
  // IssuesFinder: by_due_date, by_confidential, by_issue_types
  if (f.due_date !== undefined) {
    const due = dueDateMatcher(f.due_date, ctx.today)
    if (due) out.push(due)
  }
  if (f.confidential !== undefined) out.push((issue) => issue.confidential === f.confidential)
  if (f.issue_type !== undefined) out.push((issue) => issue.issue_type === f.issue_type)
  return out
}

/**
 * The filters `not[...]` can negate, in `filter_items` order (`filter_negated_items` runs the same
 * ones negated). Given `narrow`, the label, milestone, author and assignee filters also add where
 * their matches lie. Unknown users by username match nothing (positively) or exclude nothing
 * (negated).
 */
function negatableFilters(
  ctx: FinderCtx,
  projects: readonly ProjectRecord[],
  f: NegatableFilters,
  negated: boolean,
  narrow?: IssueNarrowing[],
): Predicate[] {
  const { db, currentUser } = ctx
  const out: Predicate[] = []
  const authored = (id: number) => byColumn(narrow, 'author_id', id, (issue) => issue.author_id === id)
  const assigned = (id: number) => byColumn(narrow, 'assignee_ids', id, (issue) => issue.assignee_ids.includes(id))
  // by_assignee
  if (f.assignee_id !== undefined) {
    const value = f.assignee_id
    if (typeof value === 'number') out.push(assigned(value))
    else if (lower(value) === NONE) out.push((issue) => issue.assignee_ids.length === 0)
    else out.push((issue) => issue.assignee_ids.length > 0)
  }
  if (f.assignee_username !== undefined && f.assignee_username.length > 0) {
    const assignee = db.findUserByUsername(f.assignee_username[0]!)
    out.push(assignee ? assigned(assignee.id) : () => negated)
  }
  // by_author
  if (f.author_id !== undefined) out.push(authored(f.author_id))
  if (f.author_username !== undefined) {
    const author = db.findUserByUsername(f.author_username)
    out.push(author ? authored(author.id) : () => negated)
  }
  // by_iids
  if (f.iids !== undefined && f.iids.length > 0) {
    const iids = new Set(f.iids)
    out.push((issue) => iids.has(issue.iid))
  }
  // by_milestone
  if (f.milestone !== undefined) out.push(milestoneMatcher(ctx, projects, f.milestone, narrow))
  // by_label
  if (f.labels !== undefined && f.labels.length > 0) out.push(labelTitleMatcher(db, f.labels, narrow))
  // by_my_reaction_emoji
  if (f.my_reaction_emoji !== undefined && currentUser) out.push(reactionMatcher(db, currentUser, f.my_reaction_emoji))
  return out
}

/** `by_search`, which `IssuableFinder#execute` runs after the other filters (and their negations). */
function bySearch(f: NegatableFilters): Predicate[] {
  return f.search !== undefined && f.search !== '' ? [searchMatcher(f.search, f.in)] : []
}

/**
 * A found list of issues, filtered and sorted: how many there are, and the rows of one stretch of
 * it, so that a page costs the page (a big store counts its matches by their bits and reads only
 * the page's ranks).
 */
export type IssueList = RowList<IssueRecord>

/** How {@link findIssues} works; the answer is the same either way. */
export interface FindOptions {
  /**
   * Through the store's dense view (bit sets, kept orders) or by walking an index set; default:
   * the query planner's choice (`db/query.ts`, dense for big stores). Tests set it to compare the two.
   */
  dense?: boolean
}

/**
 * The issues of a list, filtered and sorted (not yet paginated): {@link findIssueList}'s whole list.
 * Visibility: only projects the caller can read, and confidential issues only for administrators,
 * Reporter+ of the project, the author and the assignees (`with_confidentiality_access_check`).
 */
export function findIssues(ctx: FinderCtx, source: IssueListSource, filters: IssueListFilters, options: FindOptions = {}): IssueRecord[] {
  const list = findIssueList(ctx, source, filters, options)
  return list.slice(0, list.total)
}

/**
 * The issues of a list, filtered and sorted, as an {@link IssueList}: a page of it is read without
 * materialising the rest. Same rows, same order as {@link findIssues}. `IssuableFinder#execute`:
 * the collection (the list's projects, visibility), `filter_items`, `filter_negated_items`,
 * `by_search`, `sort`; the store's query planner (`db/query.ts`) decides how the matches are found.
 */
export function findIssueList(ctx: FinderCtx, source: IssueListSource, filters: IssueListFilters, options: FindOptions = {}): IssueList {
  const { db, currentUser: user, today } = ctx
  const issues = db.tables.issues
  // init_collection: the projects the caller can read (by_non_archived narrows them).
  const levels = projectLevels(db, user, today)
  let projects = sourceProjects(ctx, source, levels)
  if (filters.non_archived) projects = projects.filter((project) => !project.archived)
  // by_project, by_group: every match is an issue of the list's projects. Their bit set depends on
  // their ids only: a big store keeps it (a global list's thousands of projects are OR-ed once per
  // issues version and set of projects).
  const ofProjects = (list: readonly ProjectRecord[]) => indexedAnyOf(issues, 'project_id', list.map((project) => project.id), 'projects')
  const narrow: IssueNarrowing[] = [ofProjects(projects)]
  const items = filterItems(ctx, projects, filters, narrow)
  if (items === null) return rowList([])
  const notNarrow: IssueNarrowing[] = []
  const negatedItems = negatableFilters(ctx, projects, filters.not, true, notNarrow)
  return findRows(issues, {
    narrow,
    without: notNarrow,
    tests: [...items, ...bySearch(filters)],
    negativeTests: [...negatedItems, ...bySearch(filters.not)],
    // with_confidentiality_access_check, per issue: a project of the list, and visible there.
    admits() {
      const visibleIn = new Map(projects.map((project) => [project.id, issueVisibleTo(db, user, project, today, levels)]))
      return (issue) => visibleIn.get(issue.project_id)?.(issue) ?? false
    },
    // with_confidentiality_access_check, as bit sets: the confidential issues of the projects where
    // the caller is not Reporter+ are hidden, less the caller's own.
    hidden() {
      const unseen = projects.filter((project) => !seesAllConfidentialIssues(db, user, project, today, levels))
      if (unseen.length === 0) return undefined
      return {
        where: [{ all: [[{ column: 'confidential', value: true }]] }, ofProjects(unseen)],
        unless: user === null ? [] : [{ column: 'author_id', value: user.id }, { column: 'assignee_ids', value: user.id }],
      }
    },
    order: {
      key: `${filters.order_by}:${filters.sort}`,
      // The orders read milestones (due dates) and label priorities besides the issues.
      get reads() {
        return `${milestonesVersion(db)}:${labelPrioritiesVersion(db)}`
      },
      sort: (rows) => sortIssues(db, rows, filters.order_by, filters.sort),
    },
    ...(options.dense === undefined ? {} : { dense: options.dense }),
  })
}

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
      priorities = new Map(labelPrioritiesOfProject(db, issue.project_id).map((p) => [p.label_id, p.priority]))
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
  const milestoneDue = (issue: IssueRecord) => (issue.milestone_id === null ? null : (milestoneById(db, issue.milestone_id)?.due_date ?? null))
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
    case 'weight':
      // EE `order_weight_asc/desc`: nulls last either way, then `id DESC` (issue 23 item 10).
      compare = (a, b) => nullsLast(a.weight ?? null, b.weight ?? null, dir) || idDesc(a, b)
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
