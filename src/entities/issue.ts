/**
 * Issue entities and the helpers every issuable shares (time stats, references, task completion,
 * label titles). `IssueBasic` is what milestone issue lists return; the full `Issue` entity
 * (`_links`, `references`, `subscribed`, ...) is meant to spread `IssueBasic` and add its fields,
 * as GitLab's `Entities::Issue < IssueBasic` does.
 * Field order follows GitLab 13.x `lib/api/entities/issue_basic.rb`, `issuable_entity.rb`,
 * `issuable_references.rb`, `issuable_time_stats.rb` (gitlab-behaviour.md §4.1, §5).
 * @module
 */
import { canReadProject } from '../rules/access.js'
import type { GroupRecord, ProjectRecord, Tables, UserRecord } from '../db/schema.js'
import { taskCompletion } from '../rules/task-list.js'
import { Milestone } from './milestone.js'
import { LabelBasic } from './label.js'
import { projectApiUrl, projectWebUrl, type PresentCtx } from './urls.js'
import { UserBasic } from './user.js'

/** The issues area's record (merged into `Tables`; this folder imports no area). */
type IssueRecord = Tables['issues']
/** The labels area's record. */
type LabelRecord = Tables['labels']

// ---- time tracking ----------------------------------------------------------------------------

const MINUTE = 60
const HOUR = 60 * MINUTE
/** GitLab's time tracking day: 8 hours. */
const HOURS_PER_DAY = 8
/** GitLab's time tracking month: 20 days (so a week is 5 days). */
const DAYS_PER_MONTH = 20
const DAYS_PER_WEEK = DAYS_PER_MONTH / 4
const DAY = HOURS_PER_DAY * HOUR
const MONTH = DAYS_PER_MONTH * DAY
/** ChronicDuration's year: 365.25 days of 24 hours, not scaled to working days. */
const YEAR = 31_557_600

/** `text` with `"<n><unit>"` appended (space-separated), unless `n` is 0. */
function withPart(text: string, n: number, unit: string): string {
  if (n === 0) return text
  return text === '' ? `${n}${unit}` : `${text} ${n}${unit}`
}

/**
 * A duration in seconds as GitLab prints it (`human_time_estimate`, `human_total_time_spent`):
 * `"1mo 2w 3d 4h 5m 6s"`, zero parts dropped, 8-hour days, 5-day weeks, 4-week months.
 * `0` gives `null`. A negative value is not cascaded and prints as seconds (`"-3600s"`), which is
 * what the 13.x ChronicDuration fork does.
 * Source: gitlab-behaviour.md §5; gitlab: lib/gitlab/time_tracking_formatter.rb (`output`).
 */
export function humanTimeDuration(seconds: number): string | null {
  let rest = Math.trunc(seconds)
  if (rest === 0) return null
  let years = 0
  let months = 0
  let weeks = 0
  let days = 0
  let hours = 0
  let minutes = 0
  if (rest >= YEAR && rest % YEAR < rest % MONTH) {
    years = Math.floor(rest / YEAR)
    months = Math.floor((rest % YEAR) / MONTH)
    days = Math.floor(((rest % YEAR) % MONTH) / DAY)
    hours = Math.floor((((rest % YEAR) % MONTH) % DAY) / HOUR)
    minutes = Math.floor(((((rest % YEAR) % MONTH) % DAY) % HOUR) / MINUTE)
    rest = ((((rest % YEAR) % MONTH) % DAY) % HOUR) % MINUTE
  } else if (rest >= MINUTE) {
    minutes = Math.floor(rest / MINUTE)
    rest %= MINUTE
    if (minutes >= 60) {
      hours = Math.floor(minutes / 60)
      minutes %= 60
      if (hours >= HOURS_PER_DAY) {
        days = Math.floor(hours / HOURS_PER_DAY)
        hours %= HOURS_PER_DAY
        if (days >= DAYS_PER_WEEK) {
          weeks = Math.floor(days / DAYS_PER_WEEK)
          days %= DAYS_PER_WEEK
          if (weeks >= 4) {
            months = Math.floor(weeks / 4)
            weeks %= 4
          }
        }
      }
    }
  }
  // No arrays: two of these per issue on every list page.
  let text = withPart('', years, 'y')
  text = withPart(text, months, 'mo')
  text = withPart(text, weeks, 'w')
  text = withPart(text, days, 'd')
  text = withPart(text, hours, 'h')
  text = withPart(text, minutes, 'm')
  text = withPart(text, rest, 's')
  return text === '' ? null : text
}

/** What time stats are computed from: seconds estimated and seconds spent (sum of time logs). */
export interface TimeTracked {
  time_estimate: number
  total_time_spent: number
}

/**
 * `IssuableTimeStats`: `{time_estimate, total_time_spent, human_time_estimate,
 * human_total_time_spent}`, seconds plus their {@link humanTimeDuration} forms.
 * gitlab: lib/api/entities/issuable_time_stats.rb.
 */
export function IssuableTimeStats(record: TimeTracked) {
  return {
    time_estimate: record.time_estimate,
    total_time_spent: record.total_time_spent,
    human_time_estimate: humanTimeDuration(record.time_estimate),
    human_total_time_spent: humanTimeDuration(record.total_time_spent),
  }
}

// ---- task lists -------------------------------------------------------------------------------

/**
 * `task_completion_status`: `{count, completed_count}` over the description's task list items,
 * found as GitLab's `Taskable::ITEM_PATTERN` finds them, in linear time (rules/task-list.ts).
 * gitlab: app/models/concerns/taskable.rb.
 */
export function taskCompletionStatus(description: string | null) {
  return taskCompletion(description)
}

// ---- references -------------------------------------------------------------------------------

/**
 * What a reference is relative to: the project or group the request is about (GitLab's
 * `options[:project]` / `options[:group]`), or null for none (global lists, milestone lists).
 */
export type ReferenceFrom = { project: ProjectRecord } | { group: GroupRecord } | null

/**
 * The project part of a reference (`Project#to_reference_base`): empty when `from` is null or
 * the project itself, the project `path` from a sibling project or from the project's own group,
 * the full path otherwise (or always, with `full`).
 */
function referenceBase(ctx: PresentCtx, project: ProjectRecord, from: ReferenceFrom, full: boolean, fullPath: string | undefined): string {
  if (full) return fullPath ?? ctx.db.projectFullPath(project)
  if (from === null) return ''
  if ('project' in from) {
    if (from.project.id === project.id) return ''
    const sameNamespace = from.project.namespace_type === project.namespace_type && from.project.namespace_id === project.namespace_id
    return sameNamespace ? project.path : fullPath ?? ctx.db.projectFullPath(project)
  }
  const inGroup = project.namespace_type === 'group' && project.namespace_id === from.group.id
  return inGroup ? project.path : fullPath ?? ctx.db.projectFullPath(project)
}

/**
 * An issuable reference such as `#2`, `website#2` or `acme/website!1`.
 * @param prefix `#` for issues, `!` for merge requests.
 * @param fullPath the project's full path when the caller has it already (else looked up if needed).
 * gitlab: app/models/issue.rb, merge_request.rb (`to_reference`); app/models/project.rb (`to_reference_base`).
 */
export function issuableReference(
  ctx: PresentCtx,
  project: ProjectRecord | undefined,
  prefix: '#' | '!',
  iid: number,
  from: ReferenceFrom,
  full = false,
  fullPath?: string,
): string {
  const base = project ? referenceBase(ctx, project, from, full, fullPath) : ''
  return `${base}${prefix}${iid}`
}

/**
 * `IssuableReferences`: `{short, relative, full}`, with `relative` computed against `from`.
 * gitlab: lib/api/entities/issuable_references.rb.
 * @param fullPath the project's full path when the caller has it already (else looked up).
 */
export function IssuableReferences(
  ctx: PresentCtx,
  project: ProjectRecord | undefined,
  prefix: '#' | '!',
  iid: number,
  from: ReferenceFrom,
  fullPath?: string,
) {
  return {
    short: `${prefix}${iid}`,
    relative: issuableReference(ctx, project, prefix, iid, from, false, fullPath),
    full: issuableReference(ctx, project, prefix, iid, null, true, fullPath),
  }
}

// ---- shared readers ---------------------------------------------------------------------------

/** The labels of an issuable, sorted by title (Ruby string order), unknown ids skipped. */
export function issuableLabels(ctx: PresentCtx, labelIds: readonly number[]): LabelRecord[] {
  const labels: LabelRecord[] = []
  // Insertion sort, stable as Array#sort is: an issuable has a handful of labels, and Array#sort's
  // set-up allocates more than the sort itself costs (20 sorts on every issue list page).
  for (const id of labelIds) {
    const label = ctx.db.tables.labels.get(id)
    if (!label) continue
    let at = labels.length
    while (at > 0 && labels[at - 1]!.title > label.title) {
      labels[at] = labels[at - 1]!
      at--
    }
    labels[at] = label
  }
  return labels
}

/** Users by id, in the given order, unknown ids skipped. */
export function usersByIds(ctx: PresentCtx, ids: readonly number[]): UserRecord[] {
  const users: UserRecord[] = []
  for (const id of ids) {
    const user = ctx.db.tables.users.get(id)
    if (user) users.push(user)
  }
  return users
}

/** `UserBasic` of a user id, or null when the id is null or the user is gone. */
export function userBasicOrNull(ctx: PresentCtx, id: number | null) {
  const user = id === null ? undefined : ctx.db.tables.users.get(id)
  return user ? UserBasic(user, ctx) : null
}

/** The nested `milestone` of an issuable: `Milestone` or null. */
export function issuableMilestone(ctx: PresentCtx, milestoneId: number | null) {
  const milestone = milestoneId === null ? undefined : ctx.db.tables.milestones.get(milestoneId)
  return milestone ? Milestone(milestone, ctx) : null
}

/** A project's paths as issuables link to it, looked up once per page ({@link IssuablePageLookups}). */
export interface ProjectPaths {
  readonly project: ProjectRecord
  /** `namespace/path` (`Project#full_path`). */
  readonly fullPath: string
  /** `https://host/<namespace>/<project>` ({@link projectWebUrl}). */
  readonly webUrl: string
  /** `https://host/api/v4/projects/<id>` ({@link projectApiUrl}). */
  readonly apiUrl: string
}

/**
 * What the issuables of one page share, looked up and presented once for the page rather than once
 * per row: `UserBasic` by user id (authors and assignees repeat), `Milestone` by id, a project's
 * paths by id. It lives as long as one request's presenting, so it cannot outlive a write; the
 * nested entities it hands out are shared by the rows, which JSON serialises as copies.
 */
export class IssuablePageLookups {
  readonly #ctx: PresentCtx
  readonly #users = new Map<number, ReturnType<typeof UserBasic> | null>()
  readonly #milestones = new Map<number, ReturnType<typeof Milestone> | null>()
  readonly #projects = new Map<number, ProjectPaths | null>()

  constructor(ctx: PresentCtx) {
    this.#ctx = ctx
  }

  /** {@link userBasicOrNull}, once per user id. */
  userBasic(id: number | null): ReturnType<typeof UserBasic> | null {
    return id === null ? null : once(this.#users, this.#ctx, id, userBasicOrNull)
  }

  /** {@link issuableMilestone}, once per milestone id. */
  milestone(id: number | null): ReturnType<typeof Milestone> | null {
    return id === null ? null : once(this.#milestones, this.#ctx, id, issuableMilestone)
  }

  /** The project's {@link ProjectPaths}, or null when the project is gone. */
  project(id: number): ProjectPaths | null {
    return once(this.#projects, this.#ctx, id, projectPaths)
  }
}

/** `made` by id, made by `make(ctx, id)` the first time. */
function once<T>(made: Map<number, T>, ctx: PresentCtx, id: number, make: (ctx: PresentCtx, id: number) => T): T {
  let value = made.get(id)
  if (value === undefined) {
    value = make(ctx, id)
    made.set(id, value)
  }
  return value
}

/** The {@link ProjectPaths} of project `id`, or null when it is gone. */
function projectPaths(ctx: PresentCtx, id: number): ProjectPaths | null {
  const project = ctx.db.tables.projects.get(id)
  return project ? { project, fullPath: ctx.db.projectFullPath(project), webUrl: projectWebUrl(ctx, project), apiUrl: projectApiUrl(ctx, project) } : null
}

// ---- issues -----------------------------------------------------------------------------------

/** `https://host/<namespace>/<project>/-/issues/<iid>` (gitlab: lib/gitlab/url_builder.rb). */
export function issueWebUrl(ctx: PresentCtx, issue: IssueRecord): string {
  const project = ctx.db.tables.projects.get(issue.project_id)
  return `${project ? projectWebUrl(ctx, project) : ctx.baseUrl}/-/issues/${issue.iid}`
}

/** Options of {@link IssueBasic}. */
export interface IssueBasicOptions {
  /**
   * `with_labels_details=true`: presents the issue's labels (already sorted by title) as objects,
   * typically with `LabelBasic`. Absent: labels are their titles.
   */
  labelDetails?: (labels: LabelRecord[]) => unknown[]
  /**
   * `merge_requests_count`: merge requests that close the issue and that the caller can see
   * (`issuable_meta_data`), computed once per page by the caller. Absent: 0 (milestone lists).
   */
  mergeRequestsCount?: number
  /** The page's shared lookups (a list presents many issues); absent: looked up for this issue alone. */
  lookups?: IssuablePageLookups
  /** The issue's `task_completion_status`, when the caller computed it already. */
  tasks?: { count: number; completed_count: number }
}

/**
 * `IssueBasic`: `{id, iid, project_id, title, description, state, created_at, updated_at,
 * closed_at, closed_by, labels, milestone, assignees, author, type, assignee, user_notes_count,
 * merge_requests_count, upvotes, downvotes, due_date, confidential, discussion_locked, issue_type,
 * web_url, time_stats, task_completion_status}`.
 * `labels` are titles sorted alphabetically; `type` is `issue_type` upper-cased; `assignee` is the
 * first assignee or null; `closed_by` is always present (UserBasic or null).
 * Source: gitlab-behaviour.md §4.1; gitlab: lib/api/entities/issue_basic.rb (the 13.12 revision,
 * which exposes both `type` and `issue_type`).
 */
export function IssueBasic(issue: IssueRecord, ctx: PresentCtx, options: IssueBasicOptions = {}) {
  const lookups = options.lookups ?? new IssuablePageLookups(ctx)
  const labels = issuableLabels(ctx, issue.label_ids)
  const assignees: NonNullable<ReturnType<typeof UserBasic>>[] = []
  for (const id of issue.assignee_ids) {
    const user = lookups.userBasic(id)
    if (user) assignees.push(user)
  }
  const paths = lookups.project(issue.project_id)
  return {
    id: issue.id,
    iid: issue.iid,
    project_id: issue.project_id,
    title: issue.title,
    description: issue.description as string | null,
    state: issue.state,
    created_at: issue.created_at,
    updated_at: issue.updated_at,
    closed_at: issue.closed_at,
    closed_by: lookups.userBasic(issue.closed_by_id),
    labels: options.labelDetails ? options.labelDetails(labels) : labels.map((label) => label.title),
    milestone: lookups.milestone(issue.milestone_id),
    assignees,
    author: lookups.userBasic(issue.author_id),
    type: issue.issue_type.toUpperCase(),
    assignee: assignees[0] ?? null,
    user_notes_count: issue.user_notes_count,
    // spec-gap: milestone issue lists pass no count (0), as they did before closing links existed.
    merge_requests_count: options.mergeRequestsCount ?? 0,
    upvotes: issue.upvotes,
    downvotes: issue.downvotes,
    due_date: issue.due_date,
    confidential: issue.confidential,
    discussion_locked: issue.discussion_locked,
    issue_type: issue.issue_type,
    // issueWebUrl, with the page's project paths.
    web_url: `${paths ? paths.webUrl : ctx.baseUrl}/-/issues/${issue.iid}`,
    time_stats: IssuableTimeStats(issue),
    task_completion_status: options.tasks ?? taskCompletionStatus(issue.description),
  }
}

/** Facts about one page of issues, computed once for the page (never per row). */
export interface IssuePageFacts {
  /** Issue id → merge requests closing it that the caller can see. */
  mergeRequestsCount: Map<number, number>
  /** Users, milestones and project paths the page's issues share. */
  lookups: IssuablePageLookups
}

/**
 * `issuable_meta_data` for one page: for each issue, how many merge requests close it among those
 * in projects the caller can read (gitlab: lib/gitlab/issuable_metadata.rb,
 * app/models/merge_requests_closing_issues.rb `count_for_collection`).
 */
export function issuePageFacts(ctx: PresentCtx, issues: readonly IssueRecord[]): IssuePageFacts {
  const { db } = ctx
  const readable = new Map<number, boolean>()
  const canRead = (projectId: number) => {
    let yes = readable.get(projectId)
    if (yes === undefined) {
      const project = db.tables.projects.get(projectId)
      yes = project !== undefined && canReadProject(db, ctx.currentUser, project, ctx.today)
      readable.set(projectId, yes)
    }
    return yes
  }
  const mergeRequestsCount = new Map<number, number>()
  for (const issue of issues) {
    let count = 0
    for (const link of db.tables.merge_requests_closing_issues.where('issue_id', issue.id)) {
      const mr = db.tables.merge_requests.get(link.merge_request_id)
      if (mr && canRead(mr.project_id)) count++
    }
    mergeRequestsCount.set(issue.id, count)
  }
  return { mergeRequestsCount, lookups: new IssuablePageLookups(ctx) }
}

/** Options of {@link Issue}. */
export interface IssueOptions {
  /** What `references.relative` is relative to: the project or group of the request, or none. */
  from: ReferenceFrom
  /** `with_labels_details=true`: labels as `LabelBasic` objects. */
  withLabelsDetails?: boolean
  /** Single-issue responses show `subscribed`; lists leave it out (`include_subscribed: false`). */
  subscribed?: boolean
}

/** `"1 of 2 tasks completed"` (gitlab: app/models/concerns/taskable.rb `task_status`). */
function taskStatus(status: { count: number; completed_count: number }): string {
  return `${status.completed_count} of ${status.count} ${status.count === 1 ? 'task' : 'tasks'} completed`
}

/**
 * `Entities::Issue`: `IssueBasic`, then `has_tasks`, `task_status` (only with task items),
 * `_links {self, notes, award_emoji, project}`, `references`, `subscribed` (single issues only),
 * `moved_to_id`, `service_desk_reply_to`.
 * Source: gitlab-behaviour.md §4.1, §14 item 7; gitlab: lib/api/entities/issue.rb (13.12).
 */
export function Issue(issue: IssueRecord, ctx: PresentCtx, facts: IssuePageFacts, options: IssueOptions): IssueEntity {
  const { lookups } = facts
  const paths = lookups.project(issue.project_id)
  const tasks = taskCompletionStatus(issue.description)
  // IssueBasic's object, extended in place (no copy): the keys follow in GitLab's order.
  const entity = IssueBasic(issue, ctx, {
    labelDetails: options.withLabelsDetails ? (labels) => labels.map((label) => LabelBasic(label, ctx)) : undefined,
    mergeRequestsCount: facts.mergeRequestsCount.get(issue.id) ?? 0,
    lookups,
    tasks,
  }) as IssueEntity
  const projectUrl = paths ? paths.apiUrl : `${ctx.baseUrl}/api/v4/projects/${issue.project_id}`
  const self = `${projectUrl}/issues/${issue.iid}`
  entity.has_tasks = tasks.count > 0
  if (tasks.count > 0) entity.task_status = taskStatus(tasks)
  entity._links = { self, notes: `${self}/notes`, award_emoji: `${self}/award_emoji`, project: projectUrl }
  entity.references = IssuableReferences(ctx, paths?.project, '#', issue.iid, options.from, paths?.fullPath)
  if (options.subscribed !== undefined) entity.subscribed = options.subscribed
  entity.moved_to_id = issue.moved_to_id
  // spec-gap: the simulator has no service desk, so no issue has a reply-to address.
  entity.service_desk_reply_to = null
  return entity
}

/** The `Issue` entity: {@link IssueBasic}'s keys, then these, in this order. */
export type IssueEntity = ReturnType<typeof IssueBasic> & {
  has_tasks: boolean
  task_status?: string
  _links: { self: string; notes: string; award_emoji: string; project: string }
  references: ReturnType<typeof IssuableReferences>
  subscribed?: boolean
  moved_to_id: number | null
  service_desk_reply_to: null
}
