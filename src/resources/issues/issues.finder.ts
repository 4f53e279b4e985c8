/**
 * `IssuesFinder` for the three issue lists: which projects a list covers, which of their issues the
 * caller may see, every filter (and its `not[...]` negation), the scope, and the sort.
 * Sources: api-spec.md "Issues"; gitlab-behaviour.md §4.2; gitlab: app/finders/issuable_finder.rb,
 * app/finders/issues_finder.rb, app/finders/issuable_finder/params.rb, app/models/issue.rb
 * (`sort_by_attribute`, due date scopes), app/models/concerns/issuable.rb (`sort_by_attribute`),
 * app/models/milestone.rb (`upcoming_ids`, `started`).
 * @module
 */
import { canReadProject, issueVisibleTo, projectLevels, seesAllConfidentialIssues, type ProjectLevels } from '../../rules/access.js'
import { fuzzySearch } from '../../rules/fuzzy-search.js'
import type { Db } from '../../db/db.js'
import { denseView, type DenseView } from '../../db/dense.js'
import type { GroupRecord, ProjectRecord, Tables, UserRecord } from '../../db/schema.js'
import { awardsByUser } from '../award-emoji/award-emoji.public.js'
import { allMilestones, milestoneById, milestonesOfGroup, milestonesOfProject, milestonesVersion } from '../group-milestones/group-milestones.public.js'
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

/** A compiled filter: a predicate over one issue, or `undefined` when the filter is not given. */
type Predicate = (issue: IssueRecord) => boolean

/**
 * Issues whose `column` holds `value` (or, for `label_ids`, contains it). The store keeps no index
 * on these columns (100,000 more index entries each at load); a big store's dense view reads the
 * column once per version instead (`DenseView.bitsWhere`).
 */
interface ColumnValue {
  column: 'state' | 'label_ids' | 'author_id' | 'assignee_ids'
  value: unknown
}

/**
 * Where one filter's matches lie: every match is in the intersection of `all`'s groups, each group
 * being a union of index sets (`Collection.idsWhere`) or column values. When `exact` is given, the
 * issues in that intersection are exactly those for which `exact` holds. A small store walks the
 * smallest group of index sets; a big one intersects bit sets and, for exact filters, skips their
 * predicates (and, negated, removes their bits). Index sets are the index's own: read them during
 * the call only.
 */
interface Narrowing {
  all: readonly (readonly (ReadonlySet<number> | ColumnValue)[])[]
  exact?: Predicate
  /**
   * Given, the narrowing's bit set depends on nothing but the issues table and these ids (the
   * index sets' values): a big store keeps it with the issues' dense view, so it is dropped at the
   * next write to issues. `key` is short (the ids' count and hash); the ids are compared on a hit.
   */
  key?: { text: string; ids: Int32Array }
}

/**
 * `by_label`: every named label must be on the issue, matched by title (exactly, as PostgreSQL
 * compares) among labels of any project or group; `None`/`Any` (any case) and the deprecated
 * `No Label` test for no label or some label. The title → ids lookup is built once per request.
 */
function labelTitleMatcher(db: Db, names: readonly string[], narrow?: Narrowing[]): Predicate {
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
  narrow?.push({ all: groups.map((ids) => [...ids].map((id): ColumnValue => ({ column: 'label_ids', value: id }))), exact: test })
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
function milestoneMatcher(ctx: FinderCtx, projects: readonly ProjectRecord[], title: string, narrow?: Narrowing[]): Predicate {
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

/**
 * The predicates of the negatable filters, in `IssuableFinder` order. Given `narrow` (the positive
 * filters), the label and milestone filters also add the index sets their matches lie in. Unknown users by username
 * match nothing (positively) or exclude nothing (negated).
 */
function negatableMatchers(
  ctx: FinderCtx,
  projects: readonly ProjectRecord[],
  f: NegatableFilters,
  negated: boolean,
  narrow?: Narrowing[],
): Predicate[] {
  const { db, currentUser } = ctx
  const out: Predicate[] = []
  if (f.labels !== undefined && f.labels.length > 0) out.push(labelTitleMatcher(db, f.labels, narrow))
  if (f.milestone !== undefined) out.push(milestoneMatcher(ctx, projects, f.milestone, narrow))
  if (f.iids !== undefined && f.iids.length > 0) {
    const iids = new Set(f.iids)
    out.push((issue) => iids.has(issue.iid))
  }
  // Author and assignee filters also narrow a big store's list by their column (exact).
  const byColumn = (column: ColumnValue['column'], value: number, test: Predicate): Predicate => {
    narrow?.push({ all: [[{ column, value }]], exact: test })
    return test
  }
  const authored = (id: number) => byColumn('author_id', id, (issue) => issue.author_id === id)
  const assigned = (id: number) => byColumn('assignee_ids', id, (issue) => issue.assignee_ids.includes(id))
  if (f.author_id !== undefined) out.push(authored(f.author_id))
  if (f.author_username !== undefined) {
    const author = db.findUserByUsername(f.author_username)
    out.push(author ? authored(author.id) : () => negated)
  }
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

/** Every non-negatable filter, the scope, and the state (which also narrows a big store's list). */
function plainMatchers(ctx: FinderCtx, f: IssueListFilters, narrow: Narrowing[]): Predicate[] | null {
  const user = ctx.currentUser
  const out: Predicate[] = []
  // `return items.none if current_user_related? && !current_user` (IssuableFinder#by_scope).
  if (f.scope !== 'all' && !user) return null
  // The scope narrows a big store's list to the caller's issues (the author and assignee columns
  // read once per version) instead of testing every issue of every project.
  if (f.scope === 'created_by_me') {
    const test: Predicate = (issue) => issue.author_id === user!.id
    narrow.push({ all: [[{ column: 'author_id', value: user!.id }]], exact: test })
    out.push(test)
  }
  if (f.scope === 'assigned_to_me') {
    const test: Predicate = (issue) => issue.assignee_ids.includes(user!.id)
    narrow.push({ all: [[{ column: 'assignee_ids', value: user!.id }]], exact: test })
    out.push(test)
  }
  if (f.state !== 'all') {
    const test: Predicate = (issue) => issue.state === f.state
    narrow.push({ all: [[{ column: 'state', value: f.state }]], exact: test })
    out.push(test)
  }
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
 * A found list of issues, filtered and sorted: how many there are, and the rows of one stretch of
 * it, so that a page costs the page (a big store counts its matches by their bits and reads only
 * the page's ranks).
 */
export interface IssueList {
  /** The number of issues in the list. */
  readonly total: number
  /** The issues at indexes `start` to `end - 1` of the list, in its order (fewer past the end). */
  slice(start: number, end: number): IssueRecord[]
}

/** An {@link IssueList} over rows already found and sorted. */
function listOf(rows: IssueRecord[]): IssueList {
  return { total: rows.length, slice: (start, end) => rows.slice(start, end) }
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
 * materialising the rest. Same rows, same order as {@link findIssues}.
 */
export function findIssueList(ctx: FinderCtx, source: IssueListSource, filters: IssueListFilters, options: FindOptions = {}): IssueList {
  const { db } = ctx
  const levels = projectLevels(db, ctx.currentUser, ctx.today)
  let projects = sourceProjects(ctx, source, levels)
  if (filters.non_archived) projects = projects.filter((project) => !project.archived)
  const issues = db.tables.issues
  // Every match is an issue of the list's projects, of the state, and of each named label and
  // milestone. The bit set of several projects' issues depends on their ids only: a big store keeps
  // it (a global list's thousands of projects are OR-ed once per issues version and set of projects).
  const narrow: Narrowing[] = [projectsNarrowing(db, projects)]
  const notNarrow: Narrowing[] = []
  const plain = plainMatchers(ctx, filters, narrow)
  if (plain === null) return listOf([])
  const positive = [...plain, ...negatableMatchers(ctx, projects, filters, false, narrow)]
  const negative = negatableMatchers(ctx, projects, filters.not, true, notNarrow)
  const matcher =
    (tests: readonly Predicate[], negativeTests: readonly Predicate[]) =>
    (issue: IssueRecord): boolean => {
      for (const t of tests) if (!t(issue)) return false
      for (const t of negativeTests) if (t(issue)) return false
      return true
    }
  // A big store intersects bit sets, unless one narrowing holds only a few issues (one project's):
  // then testing those few costs less than a pass over every word of the store's bit sets.
  const { group: smallest, size: smallestSize } = smallestGroup(narrow)
  if (options.dense ?? (issues.size >= DENSE_STORE_ISSUES && smallestSize > DIRECT_WALK_IDS)) {
    // The bit sets hold exactly the issues of each exact narrowing: its predicate is skipped.
    const implied = new Set([...narrow, ...notNarrow].map((n) => n.exact))
    const rest = positive.filter((t) => !implied.has(t))
    const restNegative = negative.filter((t) => !implied.has(t))
    const check = rest.length === 0 && restNegative.length === 0 ? undefined : matcher(rest, restNegative)
    // Visibility: every issue of a readable project is visible but a confidential one, which only
    // the author, the assignees and Reporter+ of its project see: the confidential issues of the
    // projects where the caller is not Reporter+ are hidden, less the caller's own, bit set by bit set.
    const unseen = projects.filter((project) => !seesAllConfidentialIssues(db, ctx.currentUser, project, ctx.today, levels))
    const hidden: HiddenConfidential | undefined =
      unseen.length === 0 ? undefined : { projects: projectsNarrowing(db, unseen), userId: ctx.currentUser?.id ?? null }
    return findDense(db, narrow, notNarrow.filter((n) => n.exact), check, hidden, filters)
  }
  const visibleIn = new Map(projects.map((project) => [project.id, issueVisibleTo(db, ctx.currentUser, project, ctx.today, levels)]))
  const tests = matcher(positive, negative)
  const matches = (issue: IssueRecord) => {
    const visible = visibleIn.get(issue.project_id)
    return visible !== undefined && tests(issue) && visible(issue)
  }
  // Walk the smallest group of a narrowing; the others are tested by their predicates.
  const rows: IssueRecord[] = []
  const seen = smallest.length > 1 ? new Set<number>() : undefined
  for (const set of smallest as readonly ReadonlySet<number>[]) {
    for (const id of set) {
      if (seen) {
        if (seen.has(id)) continue
        seen.add(id)
      }
      const issue = issues.get(id)!
      if (matches(issue)) rows.push(issue)
    }
  }
  return listOf(sortIssues(db, rows, filters.order_by, filters.sort))
}

/**
 * The issues of `projects`: a narrowing keyed by their ids when there are several, so that a big
 * store ORs thousands of projects' bit sets once per issues version and set of projects.
 */
function projectsNarrowing(db: Db, projects: readonly ProjectRecord[]): Narrowing {
  const issues = db.tables.issues
  return {
    // Read to size the narrowing (smallestGroup) and when the kept bit set is not there: no copy.
    get all() {
      return [projects.map((project) => issues.idsWhere('project_id', project.id))]
    },
    key: projects.length > 1 ? idsKey('projects', projects) : undefined,
  }
}

/** A {@link Narrowing.key} for the ids of `records`: their count and FNV-1a hash, and the ids. */
function idsKey(kind: string, records: readonly { id: number }[]): { text: string; ids: Int32Array } {
  const ids = new Int32Array(records.length)
  let hash = 0x811c9dc5
  for (let i = 0; i < records.length; i++) {
    ids[i] = records[i]!.id
    hash = Math.imul(hash ^ ids[i]!, 0x01000193)
  }
  return { text: `${kind}:${ids.length}:${hash >>> 0}`, ids }
}

/** Whether two id lists are the same. */
function sameIds(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/**
 * The confidential issues a caller may not see (`with_confidentiality_access_check`): those of
 * `projects` (where the caller is not Reporter+), except the ones `userId` wrote or is assigned to.
 */
interface HiddenConfidential {
  projects: Narrowing
  userId: number | null
}

/** How {@link findIssues} works; the answer is the same either way. */
export interface FindOptions {
  /**
   * Through the store's {@link DenseView} (bit sets, kept orders) or by walking an index set;
   * default: dense from {@link DENSE_STORE_ISSUES} issues on. Tests set it to compare the two.
   */
  dense?: boolean
}

/**
 * A list whose smallest narrowing (a union of index sets, such as one project's issues) holds at
 * most this many issues walks those issues even in a big store: a few hundred predicate tests and a
 * direct sort cost less than the {@link DenseView}'s passes over a word per 32 issues of the store.
 */
const DIRECT_WALK_IDS = 1024

/**
 * The group of index sets, among every narrowing's groups, holding the fewest issues (a column
 * value counts as every issue: it has no index set to walk), and its size.
 */
function smallestGroup(narrow: readonly Narrowing[]): { group: Narrowing['all'][number]; size: number } {
  let group = narrow[0]!.all[0]!
  let size = Infinity
  for (const n of narrow) {
    for (const candidate of n.all) {
      let total = 0
      for (const set of candidate) total += 'column' in set ? Infinity : set.size
      if (total < size) [group, size] = [candidate, total]
    }
  }
  return { group, size }
}

/** From this many issues in the store on, lists are found through its {@link DenseView}. */
const DENSE_STORE_ISSUES = 4096

/**
 * {@link findIssueList} over a big store: the narrowings become bit sets over the issues' positions
 * (built once per issues version; a keyed narrowing's kept with the view) and are intersected word
 * by word, less the bits of the negated exact narrowings and of the `hidden` confidential issues;
 * the issues left are tested by `check` (the predicates no exact narrowing stands for; none when
 * nothing is left to test), then ordered by {@link sortMatches}.
 */
function findDense(
  db: Db,
  narrow: readonly Narrowing[],
  without: readonly Narrowing[],
  check: ((issue: IssueRecord) => boolean) | undefined,
  hidden: HiddenConfidential | undefined,
  filters: IssueListFilters,
): IssueList {
  const view = denseView(db.tables.issues)
  const bits = new Uint32Array(view.words).fill(0xffffffff)
  const bitsOf = (source: ReadonlySet<number> | ColumnValue) => ('column' in source ? view.bitsWhere(source.column, source.value) : view.bitsOf(source))
  const groupBits = (group: readonly (ReadonlySet<number> | ColumnValue)[]) => {
    if (group.length === 1) return bitsOf(group[0]!)
    const out = new Uint32Array(view.words)
    for (const source of group) {
      const bits = bitsOf(source)
      for (let w = 0; w < out.length; w++) out[w]! |= bits[w]!
    }
    return out
  }
  const narrowingBits = (n: Narrowing) => {
    const all = n.all
    if (all.length === 1) return groupBits(all[0]!)
    const out = new Uint32Array(view.words).fill(0xffffffff)
    for (const group of all) andInto(out, groupBits(group))
    return out
  }
  const keptBits = (n: Narrowing) => {
    const key = n.key
    if (key === undefined) return narrowingBits(n)
    const kept = view.memo(key.text, () => ({ ids: key.ids, bits: narrowingBits(n) }))
    // Another list of ids with the same count and hash: found anew, not kept.
    return sameIds(kept.ids, key.ids) ? kept.bits : narrowingBits(n)
  }
  const rare = rareColumn(view, narrow)
  if (rare) return sortMatches(db, view, rareMatches(view, rare, narrow, without, check, hidden, keptBits, narrowingBits), filters.order_by, filters.sort)
  for (const n of narrow) andInto(bits, keptBits(n))
  for (const n of without) {
    // The negated filter holds where every group has a bit: remove that intersection.
    const hit = narrowingBits(n)
    for (let w = 0; w < bits.length; w++) bits[w]! &= ~hit[w]!
  }
  if (check) view.forEachSet(bits, (at) => {
    if (!check(view.rows[at]!)) bits[at >>> 5]! &= ~(1 << (at & 31))
  })
  if (hidden) {
    const confidential = view.bitsWhere('confidential', true)
    const inProjects = keptBits(hidden.projects)
    const authored = hidden.userId === null ? undefined : view.bitsWhere('author_id', hidden.userId)
    const assigned = hidden.userId === null ? undefined : view.bitsWhere('assignee_ids', hidden.userId)
    for (let w = 0; w < bits.length; w++) {
      const own = authored && assigned ? authored[w]! | assigned[w]! : 0
      bits[w]! &= ~(confidential[w]! & inProjects[w]! & ~own)
    }
  }
  return sortMatches(db, view, bits, filters.order_by, filters.sort)
}

/**
 * The narrowing by one rare column value (the caller's own issues, one author's), if any: at most
 * one position per 256 issues, so testing its positions one by one costs less than a pass over
 * every word.
 */
function rareColumn(view: DenseView<IssueRecord>, narrow: readonly Narrowing[]): { narrowing: Narrowing; positions: readonly number[] } | undefined {
  let best: { narrowing: Narrowing; positions: readonly number[] } | undefined
  for (const n of narrow) {
    // A kept narrowing (several projects) is never one column value: its sets are not read.
    if (n.key !== undefined) continue
    const all = n.all
    const source = all.length === 1 && all[0]!.length === 1 ? all[0]![0]! : undefined
    if (!source || !('column' in source)) continue
    const positions = view.positionsWhere(source.column, source.value)
    if (positions.length <= view.words >>> 3 && (!best || positions.length < best.positions.length)) best = { narrowing: n, positions }
  }
  return best
}

/**
 * {@link findDense}'s matches from a rare narrowing's positions, as a bit set: each position is
 * tested against the other narrowings' bits, the negated ones', the hidden confidential issues
 * and `check`.
 */
function rareMatches(
  view: DenseView<IssueRecord>,
  rare: { narrowing: Narrowing; positions: readonly number[] },
  narrow: readonly Narrowing[],
  without: readonly Narrowing[],
  check: ((issue: IssueRecord) => boolean) | undefined,
  hidden: HiddenConfidential | undefined,
  keptBits: (n: Narrowing) => Uint32Array,
  narrowingBits: (n: Narrowing) => Uint32Array,
): Uint32Array {
  const has = (bits: Uint32Array, at: number) => (bits[at >>> 5]! & (1 << (at & 31))) !== 0
  const others = narrow.filter((n) => n !== rare.narrowing).map(keptBits)
  const withouts = without.map(narrowingBits)
  const confidential = hidden ? view.bitsWhere('confidential', true) : undefined
  const inProjects = hidden ? keptBits(hidden.projects) : undefined
  const userId = hidden?.userId ?? null
  const bits = new Uint32Array(view.words)
  positions: for (const at of rare.positions) {
    for (const b of others) if (!has(b, at)) continue positions
    for (const b of withouts) if (has(b, at)) continue positions
    const issue = view.rows[at]!
    if (confidential && inProjects && has(confidential, at) && has(inProjects, at)) {
      if (userId === null || (issue.author_id !== userId && !issue.assignee_ids.includes(userId))) continue
    }
    if (check && !check(issue)) continue
    bits[at >>> 5]! |= 1 << (at & 31)
  }
  return bits
}

/** `into &= bits`, word by word. */
function andInto(into: Uint32Array, bits: Uint32Array): void {
  for (let w = 0; w < into.length; w++) into[w]! &= bits[w]!
}

/**
 * All issues of a store in one `order_by`/`sort` order, as positions of a {@link DenseView}, with
 * each position's rank: kept while the tables the order reads are unchanged.
 */
interface SortedIssues {
  /** `issues`, `milestones` and `label_priorities` versions (`Collection.version`) it was built at. */
  version: string
  /** Rank by position. */
  rank: Int32Array
  /** Position by rank. */
  order: Int32Array
}

/**
 * Per store: the sorted orders by `order_by` and `sort`, and the version each order was last asked
 * for at without being kept (see {@link sortMatches}).
 */
const sortedOrders = new WeakMap<Db, { kept: Map<string, SortedIssues>; asked: Map<string, string> }>()

/** Lists shorter than this are sorted directly: sorting a few hundred rows costs less than a lookup table. */
const DIRECT_SORT_ROWS = 1024
/** A list needs at least 1/64 of the store's issues before a whole-store order is built for it. */
const STORE_ORDER_SHARE = 64

/**
 * {@link sortIssues} of a big store's matches, given as positions of `view`. A long list asked for
 * a second time at the same store version takes the order of every issue, sorted once and kept
 * while the store's issues, milestones and label priorities are unchanged (any write to them
 * changes their `version`), and reads a stretch of the list by rank instead of by thousands of key
 * comparisons per request: walking the kept order and testing each position's bit when the
 * matches are dense enough for the stretch to be found soon, else setting the matches' ranks as
 * bits and reading the stretch's back. Every order ends with an id tie-breaker (a total order), so
 * ordering a subset by its rank in the whole gives exactly what sorting the subset gives.
 */
function sortMatches(db: Db, view: DenseView<IssueRecord>, bits: Uint32Array, orderBy: IssueOrderBy, sort: 'asc' | 'desc'): IssueList {
  const n = view.rows.length
  const count = view.count(bits)
  if (count < DIRECT_SORT_ROWS || count * STORE_ORDER_SHARE < n) {
    return listOf(sortIssues(db, rowsAt(view, bits), orderBy, sort))
  }
  let orders = sortedOrders.get(db)
  if (!orders) sortedOrders.set(db, (orders = { kept: new Map(), asked: new Map() }))
  const version = `${view.version}:${milestonesVersion(db)}:${labelPrioritiesVersion(db)}`
  const key = `${orderBy}:${sort}`
  let sorted = orders.kept.get(key)
  if (sorted?.version !== version) {
    // Sorting the whole store costs more than sorting one list: it pays only when the same order is
    // asked for again before the next write. The first ask at a version sorts the list itself, so
    // a test that writes before every list never sorts the whole store.
    if (orders.asked.get(key) !== version) {
      orders.asked.set(key, version)
      return listOf(sortIssues(db, rowsAt(view, bits), orderBy, sort))
    }
    const byOrder = sortIssues(db, view.rows.slice(), orderBy, sort)
    const order = new Int32Array(n)
    const rank = new Int32Array(n)
    for (let r = 0; r < n; r++) {
      const at = view.positionOf(byOrder[r]!.id)!
      order[r] = at
      rank[at] = r
    }
    orders.kept.set(key, (sorted = { version, rank, order }))
  }
  const { rank, order } = sorted
  let ranked: Uint32Array | undefined
  return {
    total: count,
    slice(start, end) {
      const out: IssueRecord[] = []
      end = Math.min(end, count)
      if (start >= end) return out
      // Walking the order meets about `end × n / count` positions before the stretch is read;
      // setting every match's rank costs `count`.
      if (!ranked && end * n < count * count) {
        let seen = 0
        for (let r = 0; r < n && seen < end; r++) {
          const at = order[r]!
          if ((bits[at >>> 5]! & (1 << (at & 31))) === 0) continue
          if (seen >= start) out.push(view.rows[at]!)
          seen++
        }
        return out
      }
      if (!ranked) {
        // The matches' ranks as bits, read back in rank order: no comparison sort at all.
        ranked = new Uint32Array(view.words)
        const bitsOfRanks = ranked
        view.forEachSet(bits, (at) => {
          const r = rank[at]!
          bitsOfRanks[r >>> 5]! |= 1 << (r & 31)
        })
      }
      view.forEachSetBetween(ranked, start, end, (r) => out.push(view.rows[order[r]!]!))
      return out
    },
  }
}

/** The rows at the set bits' positions, in position order. */
function rowsAt(view: DenseView<IssueRecord>, bits: Uint32Array): IssueRecord[] {
  const rows: IssueRecord[] = []
  view.forEachSet(bits, (at) => rows.push(view.rows[at]!))
  return rows
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
