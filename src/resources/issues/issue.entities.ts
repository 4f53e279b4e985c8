/**
 * Issue entities: `IssueBasic` (what milestone issue lists return) and the full `Issue` entity
 * (`_links`, `references`, `subscribed`, ...), which spreads `IssueBasic` and adds its fields, as
 * GitLab's `Entities::Issue < IssueBasic` does; the lookups one page of issuables shares.
 * Field order follows GitLab 13.x `lib/api/entities/issue_basic.rb`, `issuable_entity.rb`
 * (gitlab-behaviour.md §4.1, §5). Other areas present issues through `issues.public.ts`.
 * @module
 */
import { canReadProject } from '../../rules/access.js'
import type { ProjectRecord, Tables } from '../../db/schema.js'
import { issuableReference, IssuableReferences, IssuableTimeStats, taskCompletionStatus } from '../../entities/issuable.js'
import type { ReferenceFrom } from '../../entities/issuable.js'
import { projectApiUrl, projectWebUrl, type PresentCtx } from '../../entities/urls.js'
import { UserBasic, userBasicOrNull } from '../../entities/user.js'
import { mergeRequestProjectId } from './issues.merge-request-projects.js'
import { issuableMilestone, type Milestone } from '../milestones/milestones.public.js'
import { issuableLabels, LabelBasic } from '../labels/labels.public.js'
import type { IssueRecord } from './issues.tables.js'

/** The labels area's record. */
type LabelRecord = Tables['labels']

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
      const projectId = mergeRequestProjectId(db, link.merge_request_id)
      if (projectId !== undefined && canRead(projectId)) count++
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
 * `_links {self, notes, award_emoji, project}`, `reference` (the spec's deprecated field), `references`, `subscribed` (single issues only),
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
  // The spec lists the deprecated `reference` (gitlab-behaviour.md §14 item 7: the spec wins; 13.x
  // issues lack it). Its value is the merge requests' `to_reference(options[:project])`: relative to
  // the request's project only, so `#<iid>` on group and global lists.
  entity.reference = issuableReference(ctx, paths?.project, '#', issue.iid, options.from && 'project' in options.from ? options.from : null, false, paths?.fullPath)
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
  reference: string
  references: ReturnType<typeof IssuableReferences>
  subscribed?: boolean
  moved_to_id: number | null
  service_desk_reply_to: null
}
