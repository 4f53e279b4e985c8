/**
 * What the label entities show beyond the label itself (`subscribed`, a project's `priority`, the
 * `with_counts` numbers), worked out once for all the labels of one response, so presenting a page
 * of labels reads subscriptions, priorities, issues and merge requests once rather than per label.
 * Source: gitlab-behaviour.md §12.1; gitlab: app/models/label.rb (`open_issues_count`,
 * `closed_issues_count`, `open_merge_requests_count`), app/models/concerns/subscribable.rb.
 * @module
 */
import { canReadProject } from '../../rules/access.js'
import type { Ctx } from '../../core/route.js'
import type { Source } from '../../rules/source.js'
import { labelledKind } from './labels.labelled.js'
import type { LabelRecord } from './labels.tables.js'

/** The three `with_counts` numbers of a label. */
export interface LabelCounts {
  openIssues: number
  closedIssues: number
  openMergeRequests: number
}

/** Relational facts about the labels of one response. */
export interface LabelFacts {
  /** Labels the current user is subscribed to, as seen through the parent. */
  readonly subscribed: ReadonlySet<number>
  /** The parent project's priority per label id (project parents only). */
  readonly priorities: ReadonlyMap<number, number>
  /** The counts per label id, when asked for. */
  readonly counts?: ReadonlyMap<number, LabelCounts>
}

/**
 * Works out the facts for `labels` seen through `parent`.
 * - `subscribed`: the user holds a global subscription (`project_id` null) that is on, or, through
 *   a project, one scoped to that project. // gitlab: lib/api/entities/label.rb (the later form;
 *   13.x looked the subscription up with the group's id as a project id when presented through a group)
 * - `priorities`: `label_priorities` rows of the parent project.
 * - `counts` (with `withCounts`): see {@link labelCounts}.
 */
export function labelFacts(ctx: Ctx<unknown>, parent: Source, labels: readonly LabelRecord[], withCounts = false): LabelFacts {
  const user = ctx.currentUser
  const projectId = parent.type === 'project' ? parent.project.id : null
  const subscribed = new Set<number>()
  if (user) {
    for (const label of labels) {
      const on = ctx.db.tables.subscriptions
        .where('subscribable_id', label.id)
        .some((s) => s.subscribable_type === 'Label' && s.user_id === user.id && s.subscribed && (s.project_id === null || s.project_id === projectId))
      if (on) subscribed.add(label.id)
    }
  }
  const priorities = new Map<number, number>()
  if (projectId !== null) {
    for (const row of ctx.db.tables.label_priorities.where('project_id', projectId)) priorities.set(row.label_id, row.priority)
  }
  return withCounts ? { subscribed, priorities, counts: labelCounts(ctx, labels) } : { subscribed, priorities }
}

/**
 * Counts, per label, the issues and merge requests the current user can see that carry a label
 * with that label's title (as their areas register them: labels.labelled.ts), in the label's own subject: its project for a project label, the
 * projects directly in its group for a group label (also when listed through a project). One pass
 * over the labels table and one over each subject project's issues and merge requests.
 * // gitlab: app/models/label.rb `issues_count`, `open_merge_requests_count` (IssuesFinder and
 * MergeRequestsFinder with `project_id`/`group_id`, `label_name: title`, `scope: 'all'`; a group
 * finder without `include_subgroups` looks at the group's own projects only)
 */
function labelCounts(ctx: Ctx<unknown>, labels: readonly LabelRecord[]): Map<number, LabelCounts> {
  const { db, currentUser: user, today } = ctx
  const counts = new Map<number, LabelCounts>()
  const titles = new Set<string>()
  /** Which of the labels count issuables of a project. */
  const countedIn = new Map<number, LabelRecord[]>()
  const countIn = (projectId: number, label: LabelRecord): void => {
    const list = countedIn.get(projectId)
    if (list) list.push(label)
    else countedIn.set(projectId, [label])
  }
  for (const label of labels) {
    counts.set(label.id, { openIssues: 0, closedIssues: 0, openMergeRequests: 0 })
    titles.add(label.title)
    if (label.project_id !== null) countIn(label.project_id, label)
    else if (label.group_id !== null) {
      for (const project of db.tables.projects.where('namespace_id', label.group_id)) {
        if (project.namespace_type === 'group') countIn(project.id, label)
      }
    }
  }
  // Every label anywhere with one of these titles counts for them (GitLab matches `label_name`).
  const titleOf = new Map<number, string>()
  for (const label of db.tables.labels.all()) if (titles.has(label.title)) titleOf.set(label.id, label.title)
  const carried = (labelIds: readonly number[]): Set<string> => {
    const out = new Set<string>()
    for (const id of labelIds) {
      const title = titleOf.get(id)
      if (title !== undefined) out.add(title)
    }
    return out
  }
  for (const [projectId, counting] of countedIn) {
    const project = db.tables.projects.get(projectId)
    if (!project || !canReadProject(db, user, project, today)) continue
    const issues = labelledKind('Issue')
    const visible = issues.visibleIn(db, user, project, today)
    for (const issue of issues.ofProject(db, projectId)) {
      if (!visible(issue)) continue
      const on = carried(issue.label_ids)
      for (const label of counting) {
        if (!on.has(label.title)) continue
        const count = counts.get(label.id)!
        if (issue.state === 'opened') count.openIssues++
        else count.closedIssues++
      }
    }
    const mergeRequests = labelledKind('MergeRequest')
    const visibleMergeRequest = mergeRequests.visibleIn(db, user, project, today)
    for (const mergeRequest of mergeRequests.ofProject(db, projectId)) {
      if (mergeRequest.state !== 'opened' || !visibleMergeRequest(mergeRequest)) continue
      const on = carried(mergeRequest.label_ids)
      for (const label of counting) if (on.has(label.title)) counts.get(label.id)!.openMergeRequests++
    }
  }
  return counts
}
