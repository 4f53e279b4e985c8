/**
 * Group milestone logic: the list finder, create/update/delete with GitLab's model validations,
 * and the issue and merge request lists of a milestone.
 * Sources: gitlab-behaviour.md §9, §4.1; gitlab: lib/api/milestone_responses.rb,
 * app/finders/milestones_finder.rb, app/models/milestone.rb, app/models/concerns/timebox.rb,
 * app/services/milestones/{create,update,destroy}_service.rb, app/finders/issues_finder.rb.
 * @module
 */
import { sanitizeHtml } from '../../core/sanitize.js'
import { AccessLevel, canReadProject, directMember, projectAccessLevel } from '../../core/access.js'
import { apiMessage } from '../../core/errors.js'
import type { Db } from '../../db/db.js'
import type {
  GroupRecord,
  IssueRecord,
  MergeRequestRecord,
  MilestoneRecord,
  ProjectRecord,
  UserRecord,
} from '../../db/schema.js'

// ---- Ruby and Rails value semantics ------------------------------------------------------------

/** Ruby `String#blank?`: empty or only whitespace. */
function blank(value: string): boolean {
  return /^\s*$/.test(value)
}

/**
 * `String#inspect` as Ruby 2.7 prints it: double quotes, with `\`, `"`, control characters and
 * `#{` / `#$` / `#@` escaped.
 */
function rubyInspectString(value: string): string {
  let out = ''
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!
    const next = value[i + 1]
    if (ch === '\\' || ch === '"') out += `\\${ch}`
    else if (ch === '#' && (next === '{' || next === '$' || next === '@')) out += '\\#'
    else if (ch === '\n') out += '\\n'
    else if (ch === '\t') out += '\\t'
    else if (ch === '\r') out += '\\r'
    else if (ch === '\u001b') out += '\\e'
    else if (ch < ' ' || ch === '\u007f') out += `\\x${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`
    else out += ch
  }
  return `"${out}"`
}

/** Model errors, attribute → messages, in the order they were added (ActiveModel `errors.messages`). */
export type ModelErrors = Map<string, string[]>

/** `errors.messages.inspect` on Ruby 2.7: `{:title=>["can't be blank"], :due_date=>["..."]}`. */
export function rubyInspectErrors(errors: ModelErrors): string {
  const pairs = [...errors].map(([attribute, messages]) => `:${attribute}=>[${messages.map(rubyInspectString).join(', ')}]`)
  return `{${pairs.join(', ')}}`
}

function addError(errors: ModelErrors, attribute: string, message: string): void {
  const list = errors.get(attribute)
  if (list) list.push(message)
  else errors.set(attribute, [message])
}

/**
 * A date column assignment (Rails `ActiveModel::Type::Date`): `YYYY-MM-DD` or, leniently like
 * `Date._parse`, `YYYY-M-D`, `YYYY/MM/DD`, `YYYYMMDD` (anything after the date, such as a time, is
 * ignored). Blank or unparsable input, and impossible dates such as `2021-02-30`, become null.
 * spec-gap: `Date._parse` also reads prose dates ("March 1 2021"); those become null here.
 * @returns `YYYY-MM-DD` (a year over 9999 keeps all its digits), or null.
 */
export function castDate(value: string | null): string | null {
  if (value === null) return null
  const text = value.trim()
  const match =
    /^(\d{4,})-(\d{1,2})-(\d{1,2})(?:$|[T\s])/.exec(text) ??
    /^(\d{4,})\/(\d{1,2})\/(\d{1,2})(?:$|[T\s])/.exec(text) ??
    /^(\d{4})(\d{2})(\d{2})(?:$|T)/.exec(text)
  if (!match) return null
  const year = Number(match[1])
  const month = Number(match[2])
  const day = Number(match[3])
  if (year === 0 || month < 1 || month > 12 || day < 1) return null
  const daysInMonth = new Date(Date.UTC(2000, month, 0)).getUTCDate() // leap-year February: 29
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
  if (day > (month === 2 && !leap ? 28 : daysInMonth)) return null
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
}

/**
 * A timebox title as stored: HTML removed and entities decoded, then surrounding whitespace
 * stripped (`strip_attributes`). gitlab: app/models/concerns/timebox.rb (`title=`, `sanitize_title`).
 */
export function sanitizeTitle(value: string): string {
  return sanitizeHtml(value).trim()
}

// ---- finders -----------------------------------------------------------------------------------

/**
 * Whether the group passes `Group.public_or_visible_to_user` (13.x): public; internal for any
 * signed-in user; every group for an administrator; else a group the user is a direct member of,
 * or the namespace of a project the user is authorised for.
 */
function groupPublicOrVisible(db: Db, user: UserRecord | null, group: GroupRecord, today: string): boolean {
  if (group.visibility === 'public') return true
  if (!user) return false
  if (user.admin || group.visibility === 'internal') return true
  if (directMember(db, 'group', group.id, user.id, today)) return true
  return db.tables.projects
    .where('namespace_id', group.id)
    .some((project) => project.namespace_type === 'group' && projectAccessLevel(db, user, project, today) >= AccessLevel.GUEST)
}

/** The filters of `GET /groups/:id/milestones`, as declared (plus the undeclared `sort`). */
export interface MilestoneListFilters {
  state: 'active' | 'closed' | 'all'
  iids?: number[]
  title?: string
  search?: string
  include_parent_milestones: boolean
  /** Not declared by the API but passed on to `MilestonesFinder` as Grape keeps undeclared params. */
  sort?: string
}

/**
 * One column of Gitlab::SQL::Pattern's fuzzy match: every word of 3+ characters (double-quoted
 * phrases count as one word) must occur in the value, case-insensitively; with no such word, the
 * whole query must equal the value case-insensitively.
 */
function fuzzyMatches(value: string | null, query: string): boolean {
  if (value === null) return false
  const haystack = value.toLowerCase()
  const words = fuzzyWords(query)
  if (words.length === 0) return haystack === query.toLowerCase()
  return words.every((word) => haystack.includes(word))
}

/**
 * `select_fuzzy_words`, lower-cased, computed once per query string rather than once per milestone
 * and column. Its quoted-phrase removal (`q.sub(quoted_word, '')`, first occurrence each) is
 * GitLab's and stays quadratic in the number of phrases, so it must not run per record.
 */
function fuzzyWords(query: string): string[] {
  if (query === lastFuzzy.query) return lastFuzzy.words
  const quoted = query.match(/(?<=^| )"[^"]+"(?= |$)/g) ?? []
  let rest = query
  for (const phrase of quoted) rest = rest.replace(phrase, '')
  const words = [...rest.split(/\s+/).filter(Boolean), ...quoted.map((q) => q.slice(1, -1))].filter((w) => w.length >= 3)
  lastFuzzy = { query, words: words.map((word) => word.toLowerCase()) }
  return lastFuzzy.words
}

let lastFuzzy: { query: string | undefined; words: string[] } = { query: undefined, words: [] }

/** `Timebox.search`: the squished query fuzzy-matches the title or the description. */
function searchMatches(milestone: MilestoneRecord, search: string): boolean {
  const query = search.replace(/\s+/g, ' ').trim()
  return fuzzyMatches(milestone.title, query) || fuzzyMatches(milestone.description as string | null, query)
}

function compareNullsLast(a: string | null, b: string | null, direction: 1 | -1): number {
  if (a === b) return 0
  if (a === null) return 1
  if (b === null) return -1
  return (a < b ? -1 : 1) * direction
}

function compareText(a: string, b: string, direction: 1 | -1): number {
  return (a < b ? -1 : a > b ? 1 : 0) * direction
}

/**
 * `Milestone.sort_by_attribute(sort)` followed by `with_order_id_desc`: `due_date_asc` (the
 * default), `due_date_desc`, `start_date_asc|desc` (nulls last), `name_asc|desc` (lower-cased
 * title), `created_asc|desc`, `created_date`, `updated_asc|desc`, `id_asc|desc`; anything else
 * orders by id descending only.
 */
function milestoneOrder(sort: string): (a: MilestoneRecord, b: MilestoneRecord) => number {
  const primary = (a: MilestoneRecord, b: MilestoneRecord): number => {
    switch (sort) {
      case 'due_date_asc': return compareNullsLast(a.due_date, b.due_date, 1)
      case 'due_date_desc': return compareNullsLast(a.due_date, b.due_date, -1)
      case 'start_date_asc': return compareNullsLast(a.start_date, b.start_date, 1)
      case 'start_date_desc': return compareNullsLast(a.start_date, b.start_date, -1)
      case 'name_asc': return compareText(a.title.toLowerCase(), b.title.toLowerCase(), 1)
      case 'name_desc': return compareText(a.title.toLowerCase(), b.title.toLowerCase(), -1)
      case 'created_asc': return compareText(a.created_at, b.created_at, 1)
      case 'created_desc': case 'created_date': return compareText(a.created_at, b.created_at, -1)
      case 'updated_asc': return compareText(a.updated_at, b.updated_at, 1)
      case 'updated_desc': return compareText(a.updated_at, b.updated_at, -1)
      case 'id_asc': return a.id - b.id
      default: return 0
    }
  }
  return (a, b) => primary(a, b) || b.id - a.id
}

/**
 * `MilestonesFinder` for a group: its own milestones, or with `include_parent_milestones` those
 * of itself and its ancestors that the user may see (then `iids` is ignored); filtered by `title`
 * (exact, case-sensitive; an empty title matches nothing), `search` (title or description),
 * `state` and `iids`; ordered by due date ascending, nulls last, then id descending.
 * gitlab: lib/api/milestone_responses.rb (`list_milestones_for`), app/finders/milestones_finder.rb.
 * @param today `YYYY-MM-DD`, for membership expiry.
 */
export function listGroupMilestones(
  db: Db,
  group: GroupRecord,
  user: UserRecord | null,
  filters: MilestoneListFilters,
  today: string,
): MilestoneRecord[] {
  const groups = filters.include_parent_milestones
    ? db.groupSelfAndAncestors(group).filter((g) => groupPublicOrVisible(db, user, g, today))
    : [group]
  const iids = !filters.include_parent_milestones && filters.iids && filters.iids.length > 0 ? new Set(filters.iids) : null
  const search = filters.search !== undefined && !blank(filters.search) ? filters.search : null
  const rows = groups.flatMap((g) => db.tables.milestones.where('group_id', g.id)).filter((milestone) => {
    if (filters.title !== undefined && milestone.title !== filters.title) return false
    if (search !== null && !searchMatches(milestone, search)) return false
    if (filters.state !== 'all' && milestone.state !== filters.state) return false
    if (iids && !iids.has(milestone.iid)) return false
    return true
  })
  const sort = filters.sort === undefined || blank(filters.sort) ? 'due_date_asc' : filters.sort
  return rows.sort(milestoneOrder(sort))
}

/**
 * A milestone of this group by its global id (`group.milestones.find(id)`): milestones of other
 * groups, of ancestors and of projects are not found.
 */
export function findGroupMilestone(db: Db, group: GroupRecord, id: number): MilestoneRecord | undefined {
  const milestone = db.tables.milestones.get(id)
  return milestone && milestone.group_id === group.id ? milestone : undefined
}

// ---- create / update / delete ------------------------------------------------------------------

/** A param as Grape hands it over: absent (undefined), JSON null, or a string. */
export type StringInput = string | null | undefined

/** Input of {@link createGroupMilestone}: the declared params as received. */
export interface MilestoneCreateInput {
  title: string
  description: StringInput
  due_date: StringInput
  start_date: StringInput
}

/** Input of {@link updateGroupMilestone}: only the params the client sent (`include_missing: false`). */
export interface MilestoneUpdateInput {
  title?: string
  state_event?: 'close' | 'activate'
  description: StringInput
  due_date: StringInput
  start_date: StringInput
}

interface MilestoneAttributes {
  title: string | null
  due_date: string | null
  start_date: string | null
}

const MAX_DATE = '9999-12-31'

function afterMaxDate(date: string): boolean {
  return date.length > MAX_DATE.length || date > MAX_DATE
}

/**
 * Milestone validations in GitLab's order: title presence, due date after start date, dates within
 * four-digit years, then title uniqueness among the group's milestones and the milestones of the
 * projects directly in the group (only when the title changed).
 * gitlab: app/models/concerns/timebox.rb, app/models/milestone.rb (`uniqueness_of_title`).
 */
function validateMilestone(db: Db, group: GroupRecord, attrs: MilestoneAttributes, titleChanged: boolean): ModelErrors {
  const errors: ModelErrors = new Map()
  if (attrs.title === null || blank(attrs.title)) addError(errors, 'title', "can't be blank")
  if (attrs.start_date !== null && attrs.due_date !== null) {
    const due = attrs.due_date.padStart(10, '0')
    const start = attrs.start_date.padStart(10, '0')
    if (due.length < start.length || (due.length === start.length && due <= start)) {
      addError(errors, 'due_date', 'must be greater than start date')
    }
  }
  if (attrs.start_date !== null && afterMaxDate(attrs.start_date)) addError(errors, 'start_date', 'date must not be after 9999-12-31')
  if (attrs.due_date !== null && afterMaxDate(attrs.due_date)) addError(errors, 'due_date', 'date must not be after 9999-12-31')
  if (titleChanged && attrs.title !== null) {
    const projectIds = new Set(
      db.tables.projects.where('namespace_id', group.id).filter((p) => p.namespace_type === 'group').map((p) => p.id),
    )
    const taken = db.tables.milestones.find(
      (m) => m.title === attrs.title && (m.group_id === group.id || (m.project_id !== null && projectIds.has(m.project_id))),
    )
    if (taken) addError(errors, 'title', 'already being used for another group or project milestone.')
  }
  return errors
}

/** `title=`: a blank value is ignored; anything else is sanitised and stripped. */
function assignTitle(current: string | null, value: string | null | undefined): string | null {
  if (value === undefined || value === null || blank(value)) return current
  return sanitizeTitle(value)
}

/** The value GitLab keeps for a description that was not sent. */
const NO_DESCRIPTION = null

/**
 * `Milestones::CreateService` for a group: a new active milestone with the next group iid.
 * @param now the creation timestamp.
 * @throws ApiError 400 `{"message":"Failed to create milestone {:title=>[\"...\"]}"}` on a
 *   validation failure (blank or taken title, due date not after start date, year after 9999).
 */
export function createGroupMilestone(db: Db, group: GroupRecord, input: MilestoneCreateInput, now: string): MilestoneRecord {
  const attrs: MilestoneAttributes = {
    title: assignTitle(null, input.title),
    due_date: castDate(input.due_date ?? null),
    start_date: castDate(input.start_date ?? null),
  }
  const errors = validateMilestone(db, group, attrs, attrs.title !== null)
  if (errors.size > 0) throw apiMessage(400, `Failed to create milestone ${rubyInspectErrors(errors)}`)
  return db.tables.milestones.insert({
    iid: db.nextIid('milestones', 'group', group.id),
    title: attrs.title!,
    description: input.description === undefined ? NO_DESCRIPTION : (input.description as string),
    state: 'active',
    due_date: attrs.due_date,
    start_date: attrs.start_date,
    group_id: group.id,
    project_id: null,
    created_at: now,
    updated_at: now,
  })
}

/**
 * `Milestones::UpdateService`: applies `state_event` (`close` only from active, `activate` only
 * from closed; otherwise no change), then the attributes that were sent (a blank `title` is
 * ignored; null clears `description` and dates; an unparsable date clears it too). `updated_at`
 * moves only when something changed.
 * spec-gap: GitLab saves the state change before validating the other attributes, so a failed
 * update can still close or reopen the milestone; here a failed update changes nothing.
 * @throws ApiError 400 `{"message":"Failed to update milestone {...}"}` on a validation failure.
 */
export function updateGroupMilestone(
  db: Db,
  group: GroupRecord,
  milestone: MilestoneRecord,
  input: MilestoneUpdateInput,
  now: string,
): MilestoneRecord {
  let state = milestone.state
  if (input.state_event === 'close' && state === 'active') state = 'closed'
  if (input.state_event === 'activate' && state === 'closed') state = 'active'
  const title = assignTitle(milestone.title, input.title)
  const description = input.description === undefined ? milestone.description : (input.description as string)
  const attrs: MilestoneAttributes = {
    title,
    due_date: input.due_date === undefined ? milestone.due_date : castDate(input.due_date),
    start_date: input.start_date === undefined ? milestone.start_date : castDate(input.start_date),
  }
  const errors = validateMilestone(db, group, attrs, title !== milestone.title)
  if (errors.size > 0) throw apiMessage(400, `Failed to update milestone ${rubyInspectErrors(errors)}`)
  const changed =
    state !== milestone.state ||
    title !== milestone.title ||
    description !== milestone.description ||
    attrs.due_date !== milestone.due_date ||
    attrs.start_date !== milestone.start_date
  if (!changed) return milestone
  return db.tables.milestones.update(milestone.id, {
    state,
    title: title ?? milestone.title,
    description,
    due_date: attrs.due_date,
    start_date: attrs.start_date,
    updated_at: now,
  })
}

/**
 * `Milestones::DestroyService`: unassigns the milestone from every issue and merge request that
 * has it (their `updated_at` moves), then deletes it. Its iid is not reused.
 */
export function destroyGroupMilestone(db: Db, milestone: MilestoneRecord, now: string): void {
  for (const issue of db.tables.issues.filter((i) => i.milestone_id === milestone.id)) {
    db.tables.issues.update(issue.id, { milestone_id: null, updated_at: now })
  }
  for (const mergeRequest of db.tables.merge_requests.filter((mr) => mr.milestone_id === milestone.id)) {
    db.tables.merge_requests.update(mergeRequest.id, { milestone_id: null, updated_at: now })
  }
  db.tables.milestones.delete(milestone.id)
}

// ---- issues and merge requests of a milestone ----------------------------------------------------

/**
 * `IssuableFinder#by_milestone` with `milestone_title`: `None`/`No Milestone` mean "no milestone",
 * `Any`/`Any Milestone` mean "some milestone", anything else matches issuables whose milestone (of
 * any group or project) has exactly that title.
 * spec-gap: the `#upcoming` and `#started` pseudo-titles are matched as plain titles.
 */
function milestoneTitleMatches(db: Db, milestoneId: number | null, title: string): boolean {
  const lower = title.toLowerCase()
  if (lower === 'none' || title === 'No Milestone') return milestoneId === null
  if (lower === 'any' || title === 'Any Milestone') return milestoneId !== null
  if (milestoneId === null) return false
  return db.tables.milestones.get(milestoneId)?.title === title
}

/** The projects directly in the group (subgroups' projects excluded) that the user can read. */
function groupProjects(db: Db, group: GroupRecord, user: UserRecord | null, today: string): ProjectRecord[] {
  return db.tables.projects
    .where('namespace_id', group.id)
    .filter((project) => project.namespace_type === 'group' && canReadProject(db, user, project, today))
}

/**
 * The highest priority (lowest number) the issuable's labels have in its project, or null.
 * gitlab: app/models/concerns/issuable.rb (`highest_label_priority`).
 */
function highestLabelPriority(db: Db, projectId: number, labelIds: readonly number[]): number | null {
  let best: number | null = null
  for (const priority of db.tables.label_priorities.where('project_id', projectId)) {
    if (labelIds.includes(priority.label_id) && (best === null || priority.priority < best)) best = priority.priority
  }
  return best
}

/** `sort: 'label_priority'`: highest label priority ascending, nulls last, then id descending. */
function byLabelPriority<T extends IssueRecord | MergeRequestRecord>(db: Db, rows: T[]): T[] {
  const keyed = rows.map((row) => ({ row, priority: highestLabelPriority(db, row.project_id, row.label_ids) }))
  keyed.sort((a, b) => {
    if (a.priority !== b.priority) {
      if (a.priority === null) return 1
      if (b.priority === null) return -1
      return a.priority - b.priority
    }
    return b.row.id - a.row.id
  })
  return keyed.map((k) => k.row)
}

/**
 * Whether the user may see a confidential issue: administrators, the author, an assignee, or a
 * Reporter+ of its project (group access included).
 * gitlab: app/finders/issues_finder.rb (`with_confidentiality_access_check`).
 */
function canSeeConfidentialIssue(db: Db, user: UserRecord | null, issue: IssueRecord, project: ProjectRecord, today: string): boolean {
  if (!user) return false
  if (user.admin || issue.author_id === user.id || issue.assignee_ids.includes(user.id)) return true
  return projectAccessLevel(db, user, project, today) >= AccessLevel.REPORTER
}

/**
 * `GET /groups/:id/milestones/:milestone_id/issues`: `IssuesFinder` with the group (its own
 * projects only, no subgroups), the milestone's title and `sort: label_priority`; all states;
 * confidential issues only for users allowed to see them.
 * gitlab: lib/api/milestone_responses.rb (`milestone_issuables_for`, `build_finder_params`).
 */
export function milestoneIssues(db: Db, group: GroupRecord, milestone: MilestoneRecord, user: UserRecord | null, today: string): IssueRecord[] {
  const rows: IssueRecord[] = []
  for (const project of groupProjects(db, group, user, today)) {
    for (const issue of db.tables.issues.where('project_id', project.id)) {
      if (!milestoneTitleMatches(db, issue.milestone_id, milestone.title)) continue
      if (issue.confidential && !canSeeConfidentialIssue(db, user, issue, project, today)) continue
      rows.push(issue)
    }
  }
  return byLabelPriority(db, rows)
}

/**
 * Whether the user may see a project's merge requests: the feature is open to everyone who can
 * read a public or internal project, and to Reporter+ members of a private one.
 * gitlab: app/models/project_feature.rb (`PRIVATE_FEATURES_MIN_ACCESS_LEVEL`).
 */
function canReadMergeRequests(db: Db, user: UserRecord | null, project: ProjectRecord, today: string): boolean {
  if (project.visibility !== 'private') return true
  if (!user) return false
  return user.admin || projectAccessLevel(db, user, project, today) >= AccessLevel.REPORTER
}

/**
 * `GET /groups/:id/milestones/:milestone_id/merge_requests`: `MergeRequestsFinder` with the group
 * (its own projects only), the milestone's title and `sort: label_priority`; all states.
 * gitlab: lib/api/milestone_responses.rb (`milestone_issuables_for`).
 */
export function milestoneMergeRequests(
  db: Db,
  group: GroupRecord,
  milestone: MilestoneRecord,
  user: UserRecord | null,
  today: string,
): MergeRequestRecord[] {
  const rows: MergeRequestRecord[] = []
  for (const project of groupProjects(db, group, user, today)) {
    if (!canReadMergeRequests(db, user, project, today)) continue
    for (const mergeRequest of db.tables.merge_requests.where('project_id', project.id)) {
      if (milestoneTitleMatches(db, mergeRequest.milestone_id, milestone.title)) rows.push(mergeRequest)
    }
  }
  return byLabelPriority(db, rows)
}
