/**
 * Label entities (GitLab 13.x `LabelBasic`, `Label`, `GroupLabel`, `ProjectLabel`). Field order
 * follows lib/api/entities/label_basic.rb, label.rb and project_label.rb:
 * `id, name, color, description, description_html, text_color`, then the three counts (only when
 * asked for), `subscribed`, and for project labels `priority, is_project_label`.
 * Source: api-spec.md "Label (project and group)"; gitlab-behaviour.md §12.1, §14 item 5.
 * @module
 */
import { AccessLevel, canReadProject, projectAccessLevel } from '../core/access.js'
import { textColor } from '../core/color.js'
import { renderSingleLine } from '../core/single-line.js'
import type { Db } from '../db/db.js'
import type { IssueRecord, LabelRecord, ProjectRecord, UserRecord } from '../db/schema.js'
import type { PresentCtx } from './urls.js'

/** Options of the {@link Label} family. */
export interface LabelOptions {
  /** Add `open_issues_count`, `closed_issues_count`, `open_merge_requests_count` (list `with_counts=true`). */
  withCounts?: boolean
  /**
   * The project the label is seen through (project routes). It makes project-level subscriptions
   * count for `subscribed`; group routes pass none.
   */
  project?: ProjectRecord | null
}

/**
 * `{id, name, color, description, description_html, text_color}`: how labels appear inside other
 * entities. `description_html` is the single-line pipeline's rendering, `""` without a description
 * (gitlab-behaviour.md §12.1).
 */
export function LabelBasic(label: LabelRecord, ctx: PresentCtx) {
  return {
    id: label.id,
    name: label.title,
    color: label.color,
    description: label.description,
    description_html: renderSingleLine(label.description, ctx.baseUrl),
    text_color: textColor(label.color),
  }
}

/**
 * `Label` (= `GroupLabel`): LabelBasic, the counts when `withCounts`, and `subscribed`.
 * `subscribed` is true when the current user holds a global subscription, or (through a project)
 * one scoped to that project. // gitlab: lib/api/entities/label.rb (the later form; 13.x looked the
 * subscription up with the group's id as a project id when presented through a group)
 */
export function Label(label: LabelRecord, ctx: PresentCtx, options: LabelOptions = {}) {
  const basic = LabelBasic(label, ctx)
  const subscribed = labelSubscribed(ctx.db, label, ctx.currentUser, options.project ?? null)
  if (!options.withCounts) return { ...basic, subscribed }
  const counts = labelCounts(ctx, label)
  return {
    ...basic,
    open_issues_count: counts.openIssues,
    closed_issues_count: counts.closedIssues,
    open_merge_requests_count: counts.openMergeRequests,
    subscribed,
  }
}

/** `GroupLabel`: the same shape as {@link Label}; group routes and `promote` answer with it. */
export function GroupLabel(label: LabelRecord, ctx: PresentCtx, options: LabelOptions = {}) {
  return Label(label, ctx, options)
}

/**
 * `ProjectLabel`: Label seen through a project, plus that project's `priority` (integer or null)
 * and `is_project_label` (false for a group label). // gitlab: lib/api/entities/project_label.rb
 */
export function ProjectLabel(label: LabelRecord, ctx: PresentCtx, project: ProjectRecord, options: { withCounts?: boolean } = {}) {
  return {
    ...Label(label, ctx, { withCounts: options.withCounts, project }),
    priority: labelPriority(ctx.db, label, project),
    is_project_label: label.project_id !== null,
  }
}

// ---- derived values -------------------------------------------------------------------------

/** The project's priority for the label (`label_priorities`), or null. */
export function labelPriority(db: Db, label: LabelRecord, project: ProjectRecord): number | null {
  return db.tables.label_priorities.where('project_id', project.id).find((p) => p.label_id === label.id)?.priority ?? null
}

/**
 * Whether the user is subscribed to the label: a global subscription (`project_id` null) that is
 * `subscribed`, or, when `project` is given, one scoped to that project.
 * // gitlab: app/models/concerns/subscribable.rb `subscribed?`
 */
export function labelSubscribed(db: Db, label: LabelRecord, user: UserRecord | null, project: ProjectRecord | null): boolean {
  if (!user) return false
  const rows = db.tables.subscriptions
    .where('subscribable_id', label.id)
    .filter((s) => s.subscribable_type === 'Label' && s.user_id === user.id)
  if (rows.some((s) => s.project_id === null && s.subscribed)) return true
  return project !== null && rows.some((s) => s.project_id === project.id && s.subscribed)
}

/** The three `with_counts` numbers of a label. */
interface LabelCounts {
  openIssues: number
  closedIssues: number
  openMergeRequests: number
}

/**
 * Counts issues and merge requests the current user can see that carry a label with this label's
 * title, in the label's own subject: its project for a project label, the projects directly in its
 * group for a group label (also when the group label is listed through a project).
 * // gitlab: app/models/label.rb `issues_count`, `open_merge_requests_count` (IssuesFinder and
 * MergeRequestsFinder with `project_id`/`group_id`, `label_name: title`, `scope: 'all'`; a group
 * finder without `include_subgroups` looks at the group's own projects only)
 */
function labelCounts(ctx: PresentCtx, label: LabelRecord): LabelCounts {
  const { db, currentUser: user, today } = ctx
  const subjects: ProjectRecord[] = []
  if (label.project_id !== null) {
    const project = db.tables.projects.get(label.project_id)
    if (project) subjects.push(project)
  } else if (label.group_id !== null) {
    for (const project of db.tables.projects.where('namespace_id', label.group_id)) {
      if (project.namespace_type === 'group') subjects.push(project)
    }
  }
  const sameTitle = new Set(db.tables.labels.filter((l) => l.title === label.title).map((l) => l.id))
  const carries = (ids: number[]): boolean => ids.some((id) => sameTitle.has(id))
  const counts: LabelCounts = { openIssues: 0, closedIssues: 0, openMergeRequests: 0 }
  for (const project of subjects) {
    if (!canReadProject(db, user, project, today)) continue
    const seesConfidential = user !== null && (user.admin || projectAccessLevel(db, user, project, today) >= AccessLevel.REPORTER)
    for (const issue of db.tables.issues.where('project_id', project.id)) {
      if (!carries(issue.label_ids) || !issueVisible(issue, user, seesConfidential)) continue
      if (issue.state === 'opened') counts.openIssues++
      else counts.closedIssues++
    }
    for (const mr of db.tables.merge_requests.where('project_id', project.id)) {
      if (mr.state === 'opened' && carries(mr.label_ids)) counts.openMergeRequests++
    }
  }
  return counts
}

/** Confidential issues count only for reporters and up, admins, the author and the assignees. */
function issueVisible(issue: IssueRecord, user: UserRecord | null, seesConfidential: boolean): boolean {
  if (!issue.confidential || seesConfidential) return true
  return user !== null && (issue.author_id === user.id || issue.assignee_ids.includes(user.id))
}
