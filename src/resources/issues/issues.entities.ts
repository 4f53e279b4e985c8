/**
 * The full `Issue` entity the issue lists present, the per-page facts it needs, and the small
 * entities of the sub-resources (note, user agent detail, metric image).
 * Field order: gitlab-behaviour.md §4.1 and §4.3; gitlab: lib/api/entities/issue.rb,
 * issue_basic.rb, note.rb, user_agent_detail.rb, ee/lib/ee/api/entities/issuable_metric_image.rb.
 * @module
 */
import { canReadProject } from '../../core/access.js'
import { IssuableReferences, IssueBasic, taskCompletionStatus, userBasicOrNull, type ReferenceFrom } from '../../entities/issue.js'
import { LabelBasic } from '../../entities/label.js'
import { projectApiUrl, type PresentCtx } from '../../entities/urls.js'
import type { IssueRecord, MetricImageRecord, NoteRecord, UserAgentDetailRecord } from './issues.tables.js'

/** Facts about one page of issues, computed once for the page (never per row). */
export interface IssuePageFacts {
  /** Issue id → merge requests closing it that the caller can see. */
  mergeRequestsCount: Map<number, number>
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
  return { mergeRequestsCount }
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
export function Issue(issue: IssueRecord, ctx: PresentCtx, facts: IssuePageFacts, options: IssueOptions) {
  const project = ctx.db.tables.projects.get(issue.project_id)
  const basic = IssueBasic(issue, ctx, {
    labelDetails: options.withLabelsDetails ? (labels) => labels.map((label) => LabelBasic(label, ctx)) : undefined,
    mergeRequestsCount: facts.mergeRequestsCount.get(issue.id) ?? 0,
  })
  const tasks = taskCompletionStatus(issue.description)
  const projectUrl = project ? projectApiUrl(ctx, project) : `${ctx.baseUrl}/api/v4/projects/${issue.project_id}`
  const self = `${projectUrl}/issues/${issue.iid}`
  return {
    ...basic,
    has_tasks: tasks.count > 0,
    ...(tasks.count > 0 ? { task_status: taskStatus(tasks) } : {}),
    _links: { self, notes: `${self}/notes`, award_emoji: `${self}/award_emoji`, project: projectUrl },
    references: IssuableReferences(ctx, project, '#', issue.iid, options.from),
    ...(options.subscribed !== undefined ? { subscribed: options.subscribed } : {}),
    moved_to_id: issue.moved_to_id,
    // spec-gap: the simulator has no service desk, so no issue has a reply-to address.
    service_desk_reply_to: null,
  }
}

/**
 * `Entities::Note`: `{id, type, body, attachment, author, created_at, updated_at, system,
 * noteable_id, noteable_type, resolvable, confidential, noteable_iid, commands_changes}`. Issue
 * notes are never resolvable, so the `resolved*` keys are absent.
 * Source: gitlab-behaviour.md §4.3; gitlab: lib/api/entities/note.rb.
 * @param commandsChanges what quick actions changed (`{}` when none).
 */
export function Note(note: NoteRecord, ctx: PresentCtx, issue: IssueRecord, commandsChanges: Record<string, unknown> = {}) {
  return {
    id: note.id,
    type: null,
    body: note.body,
    attachment: null,
    author: userBasicOrNull(ctx, note.author_id),
    created_at: note.created_at,
    updated_at: note.updated_at,
    system: note.system,
    noteable_id: note.noteable_id,
    noteable_type: note.noteable_type,
    resolvable: false,
    confidential: note.confidential,
    noteable_iid: issue.iid,
    commands_changes: commandsChanges,
  }
}

/** `{user_agent, ip_address, akismet_submitted}` (gitlab: lib/api/entities/user_agent_detail.rb). */
export function UserAgentDetail(detail: UserAgentDetailRecord) {
  return { user_agent: detail.user_agent, ip_address: detail.ip_address, akismet_submitted: detail.akismet_submitted }
}

/** Where an uploaded metric image is served: `/uploads/-/system/issuable_metric_image/file/<id>/<filename>`. */
export function metricImagePath(image: MetricImageRecord): string {
  return `/uploads/-/system/issuable_metric_image/file/${image.id}/${encodeURIComponent(image.filename)}`
}

/**
 * `{id, created_at, filename, file_path, url}`: `file_path` is where the bytes are served (relative
 * to the host), `url` the link given with the upload (null without one).
 * Source: api-spec.md "Metric image"; gitlab: ee/lib/api/entities/issuable_metric_image.rb.
 */
export function MetricImage(image: MetricImageRecord) {
  return { id: image.id, created_at: image.created_at, filename: image.filename, file_path: metricImagePath(image), url: image.url }
}
